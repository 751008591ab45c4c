"""A list screen's one page: the state holds the rows shown and where the pages either side start.

The rest of the list stays in the database. The bookmarks of the pages either side stay on the
server (private vars): the browser sends "next", "previous", or its search form, never a position.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import reflex as rx

from volley_app.services.core import paging
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import DomainError, Invalid
from volley_app.services.core.paging import Page
from volley_app.services.core.screens import Part
from volley_app.state.forms import form_values, path_arg, run_action
from volley_app.state.polling import Again, PolledPage

R = TypeVar("R")

# How far a page number in the address is followed (each page is one keyset step).
MAX_ADDRESS_PAGE = 40


class PagedList(rx.State, mixin=True):
    """One page of a list, its search and filters, Previous and Next.

    A subclass names its filters in ``_filter_names`` (``q`` is the search box), writes
    its service's list in ``_listing`` or ``async def _fetch(self, bookmark) -> (Page | None, DomainError | None)``
    (one service call with ``self.filters``, most often through :meth:`_read_list`) and ``def _show(self, rows, failure)`` (assign the
    rows or the message).
    """

    page_summary: rx.Field[str] = rx.field("")
    has_next: rx.Field[bool] = rx.field(False)
    has_previous: rx.Field[bool] = rx.field(False)
    filters: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    filter_key: rx.Field[int] = rx.field(0)
    filter_error: rx.Field[str] = rx.field("")

    _filter_names: tuple[str, ...] = ("q",)
    _first: int = 1
    _count: int = 0
    _size: int = 25
    _mark: str = ""
    _mark_next: str = ""
    _mark_previous: str = ""
    _list_total: int = -1
    _list_capped: bool = False
    _page_in_address: bool = False  # a subclass sets it: the page shown is kept in the address (?page=2)

    # The service's list, for a list whose page is read with nothing but the person, the filters and the
    # bookmark (``_listing = staticmethod(svc.leagues_page)``); a list that takes more writes its own ``_fetch``.
    _listing: ClassVar[Callable[..., Page] | None] = None

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        if self._listing is None:  # a list state names its service's list or reads its page itself
            raise TypeError(f"{type(self).__name__} names no _listing and writes no _fetch")
        return await self._read_list(self._listing, bookmark)

    if TYPE_CHECKING:  # what a list's state brings (see the class's description)

        def _show(self, rows: list, failure: DomainError | None) -> None: ...

        async def _actor(self) -> Actor | None: ...
    _searched_early: bool = False  # a search reached the list before the page's own load did

    async def _open(self, bookmark: str, first: int, *, turn: bool = False) -> None:
        """Show the page ``bookmark`` names, whose first row is number ``first`` of the list.

        ``turn`` (Previous, Next): the total counted when the list opened is kept, not counted again.
        """
        self._show_page(await self._read_page(bookmark, turn=turn), first)

    async def _read_page(self, bookmark: str, *, turn: bool = False) -> tuple[Page | None, DomainError | None]:
        """The page ``bookmark`` names, read and not shown (see :meth:`_open`)."""
        known = self._list_total >= 0 and turn
        with paging.known_total(self._list_total, self._list_capped) if known else contextlib.nullcontext():
            return await self._fetch(bookmark)

    def _show_page(self, found: tuple[Page | None, DomainError | None], first: int) -> None:
        """Show a page :meth:`_read_page` read, its first row number ``first`` of the list."""
        page, failure = found
        if isinstance(failure, Invalid):
            self.filter_error = " ".join(failure.errors.values()) or failure.message
        else:
            self.filter_error = ""
        if page is None:
            self._show([], failure)
            self.page_summary, self.has_next, self.has_previous = "", False, False
            self._mark = self._mark_next = self._mark_previous = ""
            self._first, self._count = 1, 0
            self._list_total, self._list_capped = -1, False
            return
        self._show(page.rows, None)
        if not page.previous:
            first = 1
        if not page.capped:
            first = max(1, min(first, page.total - len(page.rows) + 1))
        self._first, self._count, self._size = first, len(page.rows), page.size
        self._list_total, self._list_capped = page.total, page.capped
        self._mark, self._mark_next, self._mark_previous = page.here, page.next, page.previous
        self.has_next, self.has_previous = bool(page.next), bool(page.previous)
        if page.capped and not page.next:  # the last page of a long list: its total is where it ends
            self.page_summary = paging.summary(first, len(page.rows), first + len(page.rows) - 1)
        else:
            self.page_summary = paging.summary(first, len(page.rows), page.total, page.capped)

    async def _open_screen(self, screen: Callable[..., R], first_page: Callable[[R], Part[Any]], *,
                           actor: Actor | None = None, **args: object) -> R | None:  # fmt: skip
        """Open a screen read in one service call that brings its list's first page (``first_page`` picks that
        part): the filters the address names, the screen read with them (as ``actor``, else the person), and that
        page shown, or the failure. Returns the screen, None when it could not be read."""
        self._open_filters()
        found, failure = await run_action(screen, actor=actor or await self._actor(), filters=self.filters, **args)
        page = first_page(found) if found is not None else Part(None, failure)
        self._show_page((page.value, page.failure), 1)
        return found

    async def _read_list(self, listing: Callable[..., Page], bookmark: str,
                         **args: object) -> tuple[Page | None, DomainError | None]:  # fmt: skip
        """The page of the service's list ``listing`` that starts at ``bookmark``, as the person sees it and
        ``self.filters`` find it; ``args``: the listing's other arguments."""
        return await run_action(listing, actor=await self._actor(), filters=self.filters, bookmark=bookmark, **args)

    async def _first_page(self) -> None:
        await self._open("", 1)

    async def _open_list(self) -> None:
        """The list as its page's load opens it: no filters (unless a search came first), its first page, or the
        page the address names where the list keeps it there."""
        self._open_filters()
        await (self._open_addressed_page() if self._page_in_address else self._first_page())

    def _page_number(self) -> int:
        return (self._first - 1) // max(self._size, 1) + 1

    async def _open_addressed_page(self) -> None:
        """The page the address names (``?page=N``, a reload keeps it), reached from the first page by Next;
        the last page when the list is shorter."""
        wanted = path_arg(self, "page")
        number = min(int(wanted), MAX_ADDRESS_PAGE) if wanted.isdigit() else 1
        await self._first_page()
        while self._page_number() < number and self._mark_next:
            await self._open(self._mark_next, self._first + self._count, turn=True)

    def _address_page(self):
        """Keep the page shown in the address without reloading it (nothing when the list does not)."""
        if not self._page_in_address:
            return None
        number = self._page_number()
        path = self.router.url.path or "/"
        target = path if number <= 1 else f"{path}?page={number}"
        return rx.call_script(f"window.history.replaceState(window.history.state, '', {json.dumps(target)})")

    async def _refresh(self) -> None:
        """The page shown, read again (a poll): new rows appear, gone ones leave."""
        await self._open(self._mark, self._first)

    async def _read_again(self) -> Again:
        """The page shown, read again and not shown yet: what a poll reads with the state unlocked (it assigns
        nothing and needs no other state). :meth:`_show_again` shows it."""
        where = (self._mark, self._first, dict(self.filters))
        return where, await self._read_page(self._mark)

    def _show_again(self, again: Again) -> None:
        """Show a page :meth:`_read_again` read, unless the list moved meanwhile (another page, another search):
        then the list stays as it is and the next read catches up."""
        (mark, first, filters), found = again
        if (self._mark, self._first, dict(self.filters)) == (mark, first, filters):
            self._show_page(found, first)

    def _reset_filters(self, *, clear_box: bool = False) -> None:
        """No filter on. The search form is drawn afresh, dropping what is typed in it and not sent, when a filter
        was on or ``clear_box`` (Clear); a page's load that finds none on leaves the box as it is, so what the person
        types while the page opens stays."""
        if clear_box or any(self.filters.values()):
            self.filter_key += 1
        self.filters = dict.fromkeys(self._filter_names, "")

    def _open_filters(self) -> None:
        """The filters of a list its page's load opens: none, unless the person searched while the page was still
        opening (the search reached the server before this load): that search stays, as they typed it."""
        if self._searched_early:
            self._searched_early = False
            return
        self._reset_filters()

    @rx.event
    async def next_page(self):
        """The page after the one shown."""
        if self._mark_next:
            await self._open(self._mark_next, self._first + self._count, turn=True)
        return self._address_page()

    @rx.event
    async def previous_page(self):
        """The page before the one shown."""
        if self._mark_previous:
            await self._open(self._mark_previous, self._first - self._size, turn=True)
        return self._address_page()

    @rx.event
    async def search(self, form_data: dict):
        """The search box and filters as submitted: the list from its first page."""
        self.filters = form_values(form_data, self._filter_names)
        self._searched_early = not self.is_hydrated  # the page's load is still to come
        await self._first_page()
        return self._address_page()

    @rx.event
    async def clear_search(self):
        """Every filter off: the whole list from its first page."""
        self._reset_filters(clear_box=True)
        await self._first_page()
        return self._address_page()


class TableList(PagedList, mixin=True):
    """A list shown as a table: a subclass writes ``_show_rows(rows)`` (assign the rows shown); a failure to read
    the list shows its message in ``error``, and ``loaded`` tells a list not read yet from an empty one."""

    error: rx.Field[str] = rx.field("")
    loaded: rx.Field[bool] = rx.field(False)

    def _show_rows(self, rows: list) -> None:
        raise NotImplementedError

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self._show_rows(rows)
        self.error = failure.message if failure else ""
        self.loaded = True


class PolledList(PagedList, PolledPage, mixin=True):
    """A list whose page shown is read again on a timer while the tab stays on its page (``state.polling``)."""

    async def _reload(self) -> None:
        await self._refresh()

    async def load(self):
        await self._open_list()
        return type(self).poll
