"""One page of a list: the rows, how many there are in all, and where the pages either side start.

Lists are paged by keyset (``sqlakeyset``): a page is "the next 25 rows after this one" in the
list's order, so reading page 400 costs what reading page 1 costs and a row added or removed
between two pages neither repeats nor skips one. The order must end with a unique column (the id).
A bookmark is the text ``sqlakeyset`` makes of a page's edge; one a client sent that does not fit
the list's order starts the list again from its first page.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlakeyset
import sqlalchemy as sa
from sqlalchemy.orm import Mapped
from sqlmodel import Session

from volley_app.services.core.errors import Invalid

PAGE_SIZE = 25
MAX_PAGE_SIZE = 50
SEARCH_MAX = 100
BOOKMARK_MAX = 400
# A list's total is counted up to this many rows: past it the list says "1,000+" (``Page.capped``), so
# a page of a list of 100,000 rows costs what a page of a list of 1,001 costs.
COUNT_CAP = 1000


@dataclass(frozen=True)
class Page:
    """One page of a list: its rows (already projected), the total, the bookmarks either side.

    ``next``/``previous`` are "" when there is no such page; ``here`` reopens this page (a refresh).
    ``total`` is exact up to the count's cap; when ``capped`` the list has more rows than ``total``
    (at least ``total + 1``: the count stopped there).
    """

    rows: list[Any]
    total: int = 0
    next: str = ""
    previous: str = ""
    here: str = ""
    size: int = PAGE_SIZE
    extra: dict[str, Any] = field(default_factory=dict)
    capped: bool = False


def summary(first: int, count: int, total: int, capped: bool = False) -> str:
    """'Showing 26–50 of 1,234' ('' for an empty list); 'of 1,000+' when the total was counted only so far."""
    if count <= 0:
        return ""
    last = first + count - 1
    if capped:
        return f"Showing {first:,}–{last:,} of {max(total, last):,}+"
    return f"Showing {first:,}–{last:,} of {total:,}"


def page_size(value: object) -> int:
    """A page size a caller asked for, kept between 1 and MAX_PAGE_SIZE (PAGE_SIZE for anything else)."""
    try:
        size = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return PAGE_SIZE
    return min(max(size, 1), MAX_PAGE_SIZE)


def search_text(value: object) -> str:
    """What someone typed into a list's search box: one line, trimmed, at most SEARCH_MAX characters."""
    if not isinstance(value, str):
        return ""
    text = re.sub(r"[\x00-\x1f\x7f\u2028\u2029]+", " ", value).strip()
    return text[:SEARCH_MAX]


def contains(text: str, *columns: sa.ColumnElement | Mapped) -> sa.ColumnElement[bool]:
    """Any of ``columns`` contains ``text``, ignoring case (LIKE wildcards in the text match themselves)."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    pattern = f"%{escaped}%"
    return sa.or_(*[sa.func.lower(c).like(pattern, escape="\\") for c in columns])


def starts(text: str, *columns: sa.ColumnElement | Mapped) -> sa.ColumnElement[bool]:
    """Any of ``columns`` starts with ``text``, ignoring case: a prefix an index on lower(column) can serve."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return sa.or_(*[sa.func.lower(c).like(f"{escaped}%", escape="\\") for c in columns])


def choice(value: object, allowed: Sequence[str]) -> str:
    """A filter's value when it is one of ``allowed``, else "" (no filter): a list never fails on a filter."""
    return value if isinstance(value, str) and value in allowed else ""


@dataclass(frozen=True)
class Order:
    """One order a list may be sorted by: its columns (ending in the id) and their Python types for bookmarks."""

    columns: tuple[Any, ...]
    kinds: tuple[type, ...]


def sort_order(value: object, orders: dict[str, Order]) -> Order:
    """The order a caller chose by name from ``orders`` (blank: the first, the list's own order).

    Raises:
        Invalid: by the field ``sort`` when the name is not one of ``orders``.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return next(iter(orders.values()))
    if isinstance(value, str) and value.strip() in orders:
        return orders[value.strip()]
    raise Invalid({"sort": f"Sort by one of: {', '.join(orders)}"})


def _marker(bookmark: object, kinds: Sequence[type]) -> sqlakeyset.Marker | None:
    """The bookmark as sqlakeyset's marker, or None (first page) when it is absent or does not fit the order."""
    if not isinstance(bookmark, str) or not bookmark or len(bookmark) > BOOKMARK_MAX:
        return None
    try:
        marker = sqlakeyset.unserialize_bookmark(bookmark)
    except Exception:  # noqa: BLE001 - sqlakeyset raises several kinds for text it cannot read
        return None
    place = marker.place
    if place is None or len(place) != len(kinds):
        return None
    for value, kind in zip(place, kinds, strict=True):
        if kind is int and (type(value) is not int or abs(value) > 2**62):
            return None
        if kind is not int and not isinstance(value, kind):
            return None
        if kind is dt.datetime and (value.tzinfo is None or not dt.datetime(1900, 1, 1, tzinfo=dt.UTC) < value):
            return None
    return marker


def edge(bookmark: object, kinds: Sequence[type]) -> tuple[tuple[Any, ...] | None, bool]:
    """Where the page ``bookmark`` starts, as the order's values of its edge row (None: the first page),
    and whether it is read backwards (a Previous page); for lists that narrow their query to the page.
    """
    marker = _marker(bookmark, kinds)
    return (None, False) if marker is None or marker.place is None else (tuple(marker.place), bool(marker.backwards))


# The total a screen counted when its search was sent, for the pages it turns to next (Previous, Next):
# the list's total is counted once per search, not once per page.
_known_total: contextvars.ContextVar[tuple[int, bool] | None] = contextvars.ContextVar("known_total", default=None)


@contextlib.contextmanager
def known_total(total: int, capped: bool) -> Iterator[None]:
    """Within this block a list's page takes ``total`` (and ``capped``) as its total instead of counting."""
    token = _known_total.set((total, capped))
    try:
        yield
    finally:
        _known_total.reset(token)


def count_rows(db: Session, query: sa.Select | sa.CompoundSelect, cap: int | None = None) -> tuple[int, bool]:
    """How many rows ``query`` has, counted up to ``cap`` (COUNT_CAP): ``(cap, True)`` when it has more.

    The count reads at most ``cap + 1`` rows (a LIMIT inside the count), so it costs the same
    at 1,001 rows as at 100,000.
    """
    cap = COUNT_CAP if cap is None else cap
    limited = query.order_by(None).limit(cap + 1).subquery()
    found = int(db.execute(sa.select(sa.func.count()).select_from(limited)).scalar_one())
    return (cap, True) if found > cap else (found, False)


def keyset(
    db: Session,
    query: sa.Select,
    *,
    kinds: Sequence[type],
    project: Callable[[list[Any]], list[Any]],
    bookmark: object = "",
    size: int = PAGE_SIZE,
    count: sa.Select | sa.CompoundSelect | None = None,
    cap: int | None = None,
) -> Page:
    """One page of ``query`` (ordered, its order ending in a unique column) after ``bookmark``.

    ``kinds`` are the Python types of the order's columns (a bookmark of other types is refused
    and the first page shown); ``project`` turns the page's result rows into what the caller
    shows. The total counts the query's rows up to ``cap`` (``count_rows``); ``count``, a query
    with the same rows as ``query`` but cheaper to count (fewer joins), is counted instead.
    """
    marker = _marker(bookmark, kinds)
    found: sqlakeyset.Page = sqlakeyset.select_page(db, query, per_page=size, page=marker)
    paging = found.paging
    known = _known_total.get()
    total, capped = known if known is not None else count_rows(db, query if count is None else count, cap)
    return Page(
        rows=project(list(found)),
        total=total,
        capped=capped,
        next=paging.bookmark_next if paging.has_next else "",
        previous=paging.bookmark_previous if paging.has_previous else "",
        here=bookmark if marker is not None else "",  # type: ignore[arg-type]
        size=size,
    )


def offset(
    db: Session,
    query: sa.Select,
    *,
    project: Callable[[list[Any]], list[Any]],
    bookmark: object = "",
    size: int = PAGE_SIZE,
    cap: int | None = None,
) -> Page:
    """One page of ``query`` by position, for the few orders no keyset fits; the bookmark is the row number.

    The total is counted up to ``cap`` rows (``count_rows``); past it a page's start is taken as asked.
    """
    start = int(bookmark) if isinstance(bookmark, str) and bookmark.isdigit() and len(bookmark) < 10 else 0
    known = _known_total.get()
    total, capped = known if known is not None else count_rows(db, query, cap)
    start = (start if capped else min(start, max(total - 1, 0))) // size * size
    rows = list(db.execute(query.limit(size).offset(start)).all())
    return Page(
        rows=project(rows),
        total=total,
        capped=capped,
        next=str(start + size) if len(rows) == size and (capped or start + size < total) else "",
        previous=str(max(start - size, 0)) if start > 0 else "",
        here=str(start) if start else "",
        size=size,
    )
