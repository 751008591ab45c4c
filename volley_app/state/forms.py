"""What every form shares: running a service call, the form-state base, reading submitted values.

Forms are uncontrolled: the browser keeps what is typed and sends the whole form
on submit (``on_submit(form_data)``), so typing never waits on the server.
``FormState`` gives each form's state the busy flag, the form's message, the
messages per field, submit-once, and ``form_key`` (bump it after loading a
record so the inputs show its values as their defaults).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from typing import Any, Generic, NamedTuple, TypeVar

import reflex as rx
from reflex.event import EventSpec
from reflex.vars import BooleanVar

from volley_app import db, routes
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import UNEXPECTED, DomainError, Invalid
from volley_app.state.auth import AuthState

log = logging.getLogger(__name__)

T = TypeVar("T")

# The bot trap of the public forms: a field people never see or fill; bots fill every field they find.
TRAP_FIELD = "website"


class Done(NamedTuple, Generic[T]):
    """A service call that went through: its result, and no failure."""

    value: T
    failure: None = None


class Failed(NamedTuple):
    """A service call that was refused or broke: no result, and why."""

    value: None
    failure: DomainError


async def run_action(fn: Callable[..., T], /, **kwargs: Any) -> Done[T] | Failed:
    """Run ``fn(db, **kwargs)`` in a transaction in a worker thread.

    Returns ``(result, None)``, or ``(None, error)`` where ``error`` is the
    service's own DomainError, or a generic one when something unexpected
    broke (logged): either way the form gets its controls back and a message.
    Kept whole, the outcome narrows on its failure: after ``outcome.failure is None``
    its ``value`` is the result's own type.
    """
    try:
        return Done(await db.run(fn, **kwargs))
    except DomainError as exc:
        return Failed(None, exc)
    except Exception:
        log.exception("unexpected failure in %s", getattr(fn, "__qualname__", fn))
        return Failed(None, DomainError(UNEXPECTED))


def failure_text(failure: DomainError) -> str:
    """A failure in one line: the messages of each field it names (``Invalid``), else its message."""
    return " ".join(failure.errors.values()) if isinstance(failure, Invalid) else failure.message


def form_values(form_data: object, names: Iterable[str]) -> dict[str, str]:
    """The named fields of a submitted form as text ('' when absent); anything else a browser sent is dropped."""
    data = form_data if isinstance(form_data, dict) else {}
    out = {}
    for name in names:
        value = data.get(name)
        out[name] = value if isinstance(value, str) else ("" if value is None or isinstance(value, dict | list) else str(value))
    return out


def flags(found: object, *names: str) -> dict[str, bool]:
    """The named yes/no answers of what a service returned (a dict's keys or a dataclass's fields: what the reader
    may do, what the page shows), kept as one dict field of a state: ``s.may["can_edit"]``. Nothing read (None):
    every one false."""

    def answer(name: str) -> object:
        return found[name] if isinstance(found, Mapping) else getattr(found, name)

    return {name: found is not None and bool(answer(name)) for name in names}


def flag(field: rx.Var, name: str) -> BooleanVar:
    """One of a state's :func:`flags` in a page (``rx.cond(flag(s.may, "can_edit"), ...)``): false until it is read."""
    return field.to(dict[str, bool])[name].to(bool)


def focus(element_id: str, *fallbacks: str) -> EventSpec:
    """An event that moves keyboard focus to an element (the first of these ids the page has)."""
    found = " || ".join(f"document.getElementById({i!r})" for i in (element_id, *fallbacks) if i)
    return rx.call_script(f"({found})?.focus()")


class FormState(rx.State, mixin=True):
    """Busy, the form's message, messages per field, submit once.

    A subclass lists the names its form may send in ``_fields``; ``_error_id`` is
    the id of its error line. When a submit fails, focus moves to the first field
    with a message (each field's id is its name), or to the error line.
    """

    busy: rx.Field[bool] = rx.field(False)
    error: rx.Field[str] = rx.field("")
    errors: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    form_key: rx.Field[int] = rx.field(0)

    _fields: tuple[str, ...] = ()
    _error_id: str = ""

    def _clear_messages(self) -> None:
        self.busy, self.error, self.errors = False, "", {}

    _shown_defaults: str = ""

    def _show_record(self, defaults: object = None) -> None:
        """New defaults for the uncontrolled inputs: the form is drawn again with them. Given the ``defaults`` the
        form is drawn with, only when they differ from those it shows: the same record read again (the page opened
        again, a tap on its Delete before the read came back) leaves the form, and a dialog open on it, as they are."""
        if defaults is not None:
            shown = repr(defaults)
            if shown == self._shown_defaults:
                return
            self._shown_defaults = shown
        self.form_key += 1

    async def _read_record(self, fn: Callable[..., T], **kwargs: Any) -> T | None:
        """The record the form edits, as ``fn`` gives it to the person (the form drawn again, no message left from
        before); None when it is refused, and why in ``error``."""
        self._clear_messages()
        found, failure = await run_action(fn, actor=await self._actor(), **kwargs)
        self.error = failure.message if failure else ""
        self._show_record()
        return found

    def _show_failure(self, failure: DomainError) -> None:
        """Each message shown once: under its field when the form has that field, else in the form's error line."""
        if isinstance(failure, Invalid):
            fields = set(self._fields)
            self.errors = {k: v for k, v in failure.errors.items() if k in fields}
        else:
            self.errors = {}
        self.error = "" if self.errors else failure.message

    def _focus_target(self) -> str:
        """Where focus goes after a failed submit: the first field with a message (its message is read with it),
        else the form's error line."""
        for name in self._fields:
            if name in self.errors:
                return name
        return self._error_id

    @rx.event
    def fixed(self, name: str) -> None:
        """A field with a message was changed: its message (and the form's) goes.

        Sent only while a message is showing (see ``components.forms``), never per keystroke otherwise.
        """
        if isinstance(name, str) and name in self.errors:
            self.errors = {k: v for k, v in self.errors.items() if k != name}
        if not self.busy:
            self.error = ""

    async def _actor(self) -> Actor | None:
        auth = await self.get_state(AuthState)
        return await auth._actor()

    async def _submit(
        self,
        fn: Callable[..., Any],
        *,
        done: Callable[[Any], Any] | None = None,
        as_actor: bool = True,
        submitted: Mapping[str, object] | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        """Run one submit of this form: once at a time, busy while the service runs, its messages after.

        An event handler returns it (``return self._submit(...)``); Reflex runs the events it yields.

        Args:
            fn: the service function, called as ``fn(db, actor=..., **kwargs)``.
            done: called with the service's result; what it returns (a redirect, a toast) is sent on.
            as_actor: pass the logged-in user as ``actor`` (off for public forms).
            submitted: the form's fields as ``form_values`` reads them, passed on to ``fn`` with ``kwargs``.
        """
        if self.busy:  # a second click while the first submit runs
            return
        self.busy, self.error, self.errors = True, "", {}
        yield
        if submitted:
            kwargs = {**submitted, **kwargs}
        if as_actor:
            kwargs["actor"] = await self._actor()
        result, failure = await run_action(fn, **kwargs)
        self.busy = False
        if failure is not None:
            self._show_failure(failure)
            yield
            if target := self._focus_target():
                yield focus(target, self._error_id)
            return
        if done is not None:
            follow = done(result)
            if follow is not None:
                yield follow


class RecordForms(FormState, mixin=True):
    """The forms of a page about one record, read by ``_fetch`` (a subclass writes it) as the page opens and after
    each change; ``notice`` says what the last change did."""

    notice: rx.Field[str] = rx.field("")

    async def _fetch(self) -> None:
        raise NotImplementedError

    async def load(self) -> None:
        self._clear_messages()
        self.notice = ""
        await self._fetch()


def path_arg(state: rx.State, name: str) -> str:
    """A value the page's address carries: a dynamic segment ('/dash/leagues/[league_id]') or a query parameter.

    The one way pages read ids from their URL. Never trusted further than that: services check.
    """
    url = state.router.url
    value = routes.path_args(url.path).get(name) or url.query_parameters.get(name, "")
    return value if isinstance(value, str) else ""
