"""The page registry: each page module declares its pages beside them; the app adds them all in one loop.

    @page(routes.SESSIONS, "Sessions", on_load=SessionsState.load)
    def sessions_page() -> rx.Component: ...

Pages under /dash get the login and role guard (``AuthState.dash_guard``) first,
from here: no page adds it by hand.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable, Sequence
from typing import Any

import reflex as rx

from volley_app import routes
from volley_app.components.layout import SITE_NAME
from volley_app.state.auth import AuthState

PAGES_PACKAGE = "volley_app.pages"


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
        """What runs when the page opens: the /dash guard, then the page's own loads."""
        return [AuthState.dash_guard, *self.on_load] if self.guarded else list(self.on_load)


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
        _PAGES[route] = Page(route=route, title=full_title, component=component, on_load=loads)
        return component

    return declare


def discover() -> list[Page]:
    """Import every module under ``volley_app.pages`` and return the pages they declare, by route."""
    package = importlib.import_module(PAGES_PACKAGE)
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{PAGES_PACKAGE}."):
        importlib.import_module(info.name)
    return sorted(_PAGES.values(), key=lambda p: p.route)


def add_pages(app: rx.App) -> None:
    """Add every declared page to ``app``."""
    for p in discover():
        app.add_page(p.component, route=p.route, title=p.title, on_load=p.load_events or None)
