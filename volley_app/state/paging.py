"""A list screen's one page: the state holds the rows shown and where the pages either side start.

The rest of the list stays in the database. The bookmarks of the pages either side stay on the
server (private vars): the browser sends "next", "previous", or its search form, never a position.
"""

from __future__ import annotations

import reflex as rx

from volley_app.services.errors import Invalid
from volley_app.state.forms import form_values


def summary(first: int, count: int, total: int) -> str:
    """'Showing 26–50 of 1,234' ('' for an empty list)."""
    if count <= 0:
        return ""
    return f"Showing {first:,}–{first + count - 1:,} of {total:,}"


class PagedList(rx.State, mixin=True):
    """One page of a list, its search and filters, Previous and Next.

    A subclass names its filters in ``_filter_names`` (``q`` is the search box), writes
    ``async def _fetch(self, bookmark) -> (Page | None, DomainError | None)`` (one service call with
    ``self.filters``) and ``def _show(self, rows, failure)`` (assign the rows or the message).
    """

    page_summary: str = ""
    has_next: bool = False
    has_previous: bool = False
    filters: dict[str, str] = {}
    filter_key: int = 0
    filter_error: str = ""

    _filter_names: tuple[str, ...] = ("q",)
    _first: int = 1
    _count: int = 0
    _size: int = 25
    _mark: str = ""
    _mark_next: str = ""
    _mark_previous: str = ""

    async def _open(self, bookmark: str, first: int) -> None:
        """Show the page ``bookmark`` names, whose first row is number ``first`` of the list."""
        page, failure = await self._fetch(bookmark)
        if isinstance(failure, Invalid):
            self.filter_error = " ".join(failure.errors.values()) or failure.message
        else:
            self.filter_error = ""
        if page is None:
            self._show([], failure)
            self.page_summary, self.has_next, self.has_previous = "", False, False
            self._mark = self._mark_next = self._mark_previous = ""
            self._first, self._count = 1, 0
            return
        self._show(page.rows, None)
        if not page.previous:
            first = 1
        first = max(1, min(first, page.total - len(page.rows) + 1))
        self._first, self._count, self._size = first, len(page.rows), page.size
        self._mark, self._mark_next, self._mark_previous = page.here, page.next, page.previous
        self.has_next, self.has_previous = bool(page.next), bool(page.previous)
        self.page_summary = summary(first, len(page.rows), page.total)

    async def _first_page(self) -> None:
        await self._open("", 1)

    async def _refresh(self) -> None:
        """The page shown, read again (a poll): new rows appear, gone ones leave."""
        await self._open(self._mark, self._first)

    def _reset_filters(self) -> None:
        self.filters = dict.fromkeys(self._filter_names, "")
        self.filter_key += 1

    @rx.event
    async def next_page(self):
        """The page after the one shown."""
        if self._mark_next:
            await self._open(self._mark_next, self._first + self._count)

    @rx.event
    async def previous_page(self):
        """The page before the one shown."""
        if self._mark_previous:
            await self._open(self._mark_previous, self._first - self._size)

    @rx.event
    async def search(self, form_data: dict):
        """The search box and filters as submitted: the list from its first page."""
        self.filters = form_values(form_data, self._filter_names)
        await self._first_page()

    @rx.event
    async def clear_search(self):
        """Every filter off: the whole list from its first page."""
        self._reset_filters()
        await self._first_page()
