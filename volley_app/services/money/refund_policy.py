"""A league's refund policy: in full until a date, then less a fee until a later date, then none.

What it proposes is only a proposal: the league's operator decides each refund (``refunds.give_back``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from volley_app.models import League, utcnow
from volley_app.services.core import timefmt
from volley_app.services.seasons.fees import money

NO_POLICY = "No refund policy is set: refunds are the league operator's call."


@dataclasses.dataclass(frozen=True)
class Proposal:
    """What the policy gives back of ``paid`` cents now, and why in words."""

    cents: int
    why: str


def words(league: League, zone: str | None = None) -> str:
    """The policy as checkout and the league's pages say it."""
    full, until, fee = league.refund_full_until, league.refund_until, league.refund_fee_cents
    if full is None and until is None:
        return NO_POLICY
    parts = []
    if full is not None:
        parts.append(f"in full until {timefmt.date_time(full, zone, labelled=True)}")
    if until is not None:
        less = f"less a {money(fee)} fee " if fee else ""
        parts.append(f"{less}until {timefmt.date_time(until, zone, labelled=True)}")
    return "Refunds: " + "; then ".join(parts) + "; none after that."


def propose(league: League, paid: int, now: dt.datetime | None = None, zone: str | None = None) -> Proposal:
    """What the policy gives back of ``paid`` cents at ``now``."""
    now = now or utcnow()
    full, until, fee = league.refund_full_until, league.refund_until, league.refund_fee_cents
    if full is None and until is None:
        return Proposal(paid, "All that is left is proposed.")
    if full is not None and now <= full:
        return Proposal(paid, f"In full until {timefmt.date_time(full, zone, labelled=True)}.")
    if until is not None and now <= until:
        cents = max(paid - fee, 0)
        return Proposal(cents, f"Less the {money(fee)} fee until {timefmt.date_time(until, zone, labelled=True)}.")
    last = until or full
    assert last is not None  # one of the two is set
    return Proposal(0, f"No refund after {timefmt.date_time(last, zone, labelled=True)}.")
