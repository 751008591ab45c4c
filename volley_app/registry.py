"""The page registry: each page module declares its pages beside them; the app adds them all in one loop.

    @page(routes.SESSIONS, "Sessions", on_load=SessionsState.load)
    def sessions_page() -> rx.Component: ...

Pages under /dash get the login and role guard (``SessionGuard.dash_guard``) first,
from here: no page adds it by hand.

A page's own loads run when the page opens, not when the tab's websocket comes back
(``state.page_load`` says why and decides; ``ReconnectMarker`` tells it which it was).
A /dash page's guard runs them in the event that checks the session, and Reflex's own page-open event runs the guard
(``OpenInOneEvent``): a page opened is one event, one lock and one read of the tab's state.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import reflex as rx
from reflex.middleware import Middleware
from reflex.state import OnLoadInternalState, StateUpdate
from reflex.vars import ObjectVar
from reflex_base import constants
from reflex_base.event import Event
from reflex_base.event.processor.base_state_processor import chain_updates, process_event
from reflex_base.utils.format import format_event_handler

from volley_app import routes
from volley_app.components.forms import record_screen
from volley_app.components.layout import SITE_NAME, dash_screen
from volley_app.state import page_load
from volley_app.state.auth import SessionGuard
from volley_app.state.page_load import PageLoad, address

PAGES_PACKAGE = "volley_app.pages"
_ON_LOAD_INTERNAL = format_event_handler(OnLoadInternalState.event_handlers["on_load_internal"])
_GUARD = format_event_handler(SessionGuard.event_handlers["dash_guard"])


@dataclasses.dataclass(frozen=True)
class Page:
    route: str
    title: str
    component: Callable[[], rx.Component]
    on_load: tuple[Any, ...] = ()

    @property
    def guarded(self) -> bool:
        return routes.is_protected(self.route)

    @property
    def load_events(self) -> list[Any]:
        """What runs when the page opens: the page's own loads, queued by the /dash guard (which checks the session
        first) or else by ``PageLoad.open`` (``state.page_load``)."""
        if self.guarded:
            # mypy reads the handler as the plain method, which takes the state first
            return [SessionGuard.dash_guard(self.route) if self.on_load else SessionGuard.dash_guard]  # type: ignore[arg-type]
        # mypy reads Reflex's rx.event as its namespace class, so it sees no call in a handler
        return [PageLoad.open(self.route)] if self.on_load else []  # type: ignore[operator]

    @property
    def resume_events(self) -> list[Any]:
        """What runs instead of the loads on a reconnect of the same tab: each loaded state's ``resume``, if any."""
        found: list[Any] = []
        for handler in self.on_load:
            state = getattr(handler, "state", None)
            resume = getattr(state, "resume", None) if state is not None else None
            if resume is not None and resume not in found:
                found.append(resume)
        return found


class OpenInOneEvent(Middleware):
    """A /dash page opened (a navigation within the app, a document's load after its hydrate) runs its guard, and
    through it its loads, in Reflex's page-open event (``on_load_internal``) itself, instead of queuing the guard and
    then the "hydrated" mark as two events more, each taking the tab's lock and reading and writing its state again.

    Reflex's way is kept where this way could differ: a page whose loads are not the guard alone, a tab not marked
    hydrated other than by the hydrate just before (its state is new, or an opening is still under way), and under
    another Reflex release.
    """

    async def preprocess(self, app, state, event):
        if not page_load.IN_EVENT or event.name != _ON_LOAD_INTERNAL:
            return None
        gate = await state.get_state(PageLoad)
        hydrated_now, gate._hydrated_now = gate._hydrated_now, False
        if not (state.is_hydrated or hydrated_now):
            return None
        loads = Event.from_event_type(app.get_load_events(state.router.url.path))
        if len(loads) != 1 or loads[0].name != _GUARD:
            return None
        state.is_hydrated = False  # as Reflex marks it while a page's loads run; the mark is sent when they are done
        try:
            guard = await state.get_state(SessionGuard)
            await process_event(handler=SessionGuard.event_handlers["dash_guard"], payload=loads[0].payload,
                                state=guard, root_state=state)  # fmt: skip
        finally:  # marked even when the guard fails, as Reflex's own mark (an event of its own) would still come
            state.is_hydrated = True
        await chain_updates(None, root_state=state, handler_name=type(self).__qualname__)
        return StateUpdate()


class ReconnectMarker(Middleware):
    """Notes, at each hydrate, whether it is a document's first (it carries state hashes) or a reconnect."""

    async def preprocess(self, app, state, event):
        if event.name.rpartition(".")[2] == constants.CompileVars.HYDRATE_AND_LOAD:
            payload = event.payload if isinstance(event.payload, dict) else {}
            gate = await state.get_state(PageLoad)
            gate._reconnected_at = "" if payload.get(constants.CompileVars.PAYLOAD_HASHES) else address(state)
            gate._hydrated_now = True
        return None


_PAGES: dict[str, Page] = {}


def page(
    route: str, title: str | None = None, *, on_load: Any | Sequence[Any] = (), site_name: bool = True
) -> Callable:
    """Declare the decorated component function as the page at ``route``.

    Args:
        route: a path constant from ``routes``.
        title: the page's name; the tab shows "{title} | {site}" (the site name alone when None).
        on_load: an event handler or a list of them, run after the /dash guard.
        site_name: False to show ``title`` alone (the login page is titled "Login").
    """
    loads = tuple(on_load) if isinstance(on_load, list | tuple) else ((on_load,) if on_load else ())
    full_title = (f"{title} | {SITE_NAME}" if site_name else title) if title else SITE_NAME

    def declare(component: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
        if route in _PAGES and _PAGES[route].component is not component:
            msg = f"two pages declare the route {route}"
            raise ValueError(msg)
        declared = _PAGES[route] = Page(route=route, title=full_title, component=component, on_load=loads)
        page_load.declare(route, declared.on_load, declared.resume_events)
        return component

    return declare


S = TypeVar("S", bound=type[rx.State])
Body = Sequence[rx.Component]


def screen(
    route: str, title: str, state: S, heading: Callable[[S], str | rx.Var[str]] | None = None
) -> Callable[[Callable[[S], Body]], Callable[[], rx.Component]]:
    """Declare a /dash page titled ``title`` (in the tab and, unless ``heading`` gives it from ``state``, as its
    heading) that ``state.load`` opens.

    The decorated function is given ``state`` and returns what stands under the heading, one under the other::

        @screen(routes.AUDIT_LOG, "Audit Log", AuditLogState)
        def audit_log_page(s: type[AuditLogState]) -> Body: ...
    """

    def declare(body: Callable[[S], Body]) -> Callable[[], rx.Component]:
        def component() -> rx.Component:
            return dash_screen(title if heading is None else heading(state), *body(state))

        component.__name__ = component.__qualname__ = body.__name__
        component.__module__ = body.__module__
        # every screen's state has a ``load`` event; rx.State itself declares none
        return page(route, title, on_load=state.load)(component)  # type: ignore[attr-defined]

    return declare


def record(
    route: str, title: str, state: S, error_id: str, *, name: str, shown: str, notices: bool = True
) -> Callable[[Callable[[S, ObjectVar[dict[str, str]]], Body]], Callable[[], rx.Component]]:
    """Declare the /dash page of one record that ``state.load`` reads into ``state.found`` (a dict of texts): its
    heading "``title``: " and the record's ``name`` field, what went wrong (and with ``notices``, what the last
    change did), then, once its ``shown`` field is set, what the decorated function draws of it::

        @record(routes.PAYMENT, "Payment", PaymentState, ERROR_ID, name="team_name", shown="id")
        def payment_page(s: type[PaymentState], f: ObjectVar[dict[str, str]]) -> Body: ...
    """

    def declare(body: Callable[[S, ObjectVar[dict[str, str]]], Body]) -> Callable[[], rx.Component]:
        def component() -> rx.Component:
            found = state.found.to(dict[str, str])  # type: ignore[attr-defined]  # every record's state has ``found``
            return record_screen(title, found[name], state, error_id, found[shown], *body(state, found), notices=notices)

        component.__name__ = component.__qualname__ = body.__name__
        component.__module__ = body.__module__
        return page(route, title, on_load=state.load)(component)  # type: ignore[attr-defined]

    return declare


def discover() -> list[Page]:
    """Import every module under ``volley_app.pages`` and return the pages they declare, by route."""
    package = importlib.import_module(PAGES_PACKAGE)
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{PAGES_PACKAGE}."):
        importlib.import_module(info.name)
    return sorted(_PAGES.values(), key=lambda p: p.route)


def add_pages(app: rx.App) -> None:
    """Add every declared page to ``app``, the middleware that tells a reconnect from an opening, and the one that
    opens a /dash page in one event."""
    app.add_middleware(ReconnectMarker())
    app.add_middleware(OpenInOneEvent())
    for p in discover():
        app.add_page(p.component, route=p.route, title=p.title, on_load=p.load_events or None)
