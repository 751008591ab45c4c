"""CSV files the app hands out: UTF-8 with a byte order mark, cells safe to open, amounts as numbers.

A cell that starts with ``=``, ``+``, ``-``, ``@`` (or a tab or carriage return) is prefixed with an apostrophe
so no spreadsheet runs it as a formula; an amount is written by :func:`dollars` ('260.00', '-12.50') and kept as
the number it is.
"""

from __future__ import annotations

import csv
import io

RISKY = ("=", "+", "-", "@", "\t", "\r")


class Amount(str):
    """A cell that holds an amount written by :func:`dollars`: a number, never neutralised."""

    __slots__ = ()


def dollars(cents: int) -> Amount:
    """Cents as decimal dollars for a CSV cell: 26000 -> '260.00', -1250 -> '-12.50'."""
    sign = "-" if cents < 0 else ""
    return Amount(f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}")


def safe_cell(value: object) -> str:
    """The cell as text, with a formula's first character neutralised (an amount stays a number)."""
    if isinstance(value, Amount):
        return str(value)
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(RISKY) else text


def to_csv(header: list[str], rows: list[list[object]]) -> bytes:
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    out.writerow([safe_cell(h) for h in header])
    out.writerows([safe_cell(c) for c in r] for r in rows)
    return ("\ufeff" + buf.getvalue()).encode("utf-8")
