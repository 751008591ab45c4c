"""A league's home as the acting user sees it, read in one go: the league and what they may do there, the
registration offer, the tournament bracket, the games of the teams they captain, the disputed scores, the export
links and the first page of its payments (the last three for its SVL and admins).

Only the league is the screen's own: a reader who may not read it is refused whole. Each other part is read with
:func:`~volley_app.services.core.screens.part`, so a part refused leaves its card empty and the rest still shows.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import TypedDict

from sqlmodel import Session

from volley_app.services.core import paging
from volley_app.services.core.actors import Actor
from volley_app.services.core.screens import Part, part
from volley_app.services.money import refunds
from volley_app.services.operations import exports
from volley_app.services.seasons import leagues, playoffs, score_reports
from volley_app.services.teams import registration

CLOSED = "Registration for this league closed"


class RegistrationOffer(TypedDict):
    """What the Registration card offers: register (or join the waitlist), or why registration is closed."""

    may_register: bool
    full: bool
    held: int  # places held by a checkout under way or an offer: taken
    closed_note: str  # why registration is closed ("" while it is open, or when it is not offered for another reason)


def registration_offer(db: Session, actor: Actor | None, *, league_id: object) -> RegistrationOffer:
    """The Registration card's offer to ``actor`` (``registration.options``, as the league home shows it)."""
    offer = registration.options(db, actor, league_id=league_id)
    refusal = offer["refusal"]
    return {
        "may_register": bool(offer["may_register"]),
        "full": bool(offer["full"]),
        "held": offer["held"],
        "closed_note": refusal if refusal.startswith(CLOSED) else "",
    }


@dataclasses.dataclass(frozen=True)
class LeagueHome:
    """Everything the league home shows its reader, read in one call."""

    league: leagues.LeagueDetail
    registration: Part[RegistrationOffer]
    bracket_link: Part[str]  # the tournament bracket's file, signed for the reader ("" when there is none)
    bracket_generated: Part[bool]  # a playoff bracket was generated
    my_games: Part[list[score_reports.CaptainGame]]
    disputed: Part[list[score_reports.DisputedScore]]  # [] for those who do not manage the league
    export_links: Part[dict[str, str]]  # {} for those who may see neither the actions nor the payments
    payments: Part[paging.Page] | None  # the payments' page asked for; None: not asked for, or not theirs to see
    money: Part[refunds.MoneyTotals] | None  # what the payments brought in and gave back, with the payments
    refund_plan: Part[str]  # what archiving would refund by the league's policy, in words ("" when nothing)


def league_home(
    db: Session, actor: Actor | None, *, league_id: object, payment_filters: dict | None = None,
    now: dt.datetime | None = None,
) -> LeagueHome:  # fmt: skip
    """The league home for ``actor``: anyone who may read the league (else its loader's refusal).

    ``payment_filters``: the payments card's search; its first page is read for those who may see the payments
    (None: the card is left as it is, and not read).
    """
    league = leagues.get_league(db, actor, league_id, now)
    lid = league["id"]
    manages = league["can_manage"]
    return LeagueHome(
        league=league,
        registration=part(registration_offer, db, actor, league_id=lid),
        bracket_link=(
            part(leagues.bracket_link, db, actor, league_id=lid, now=now) if league["has_bracket"] else Part("")
        ),
        bracket_generated=part(playoffs.generated, db, actor, league_id=lid),
        my_games=part(score_reports.my_games, db, actor, league_id=lid, now=now),
        disputed=part(score_reports.disputed, db, actor, league_id=lid) if manages else Part([]),
        export_links=(
            part(exports.export_links, db, actor, league_id=lid, now=now)
            if manages or league["show_payments"]
            else Part({})
        ),
        payments=(
            part(registration.payments_page, db, actor, league_id=lid, filters=payment_filters)
            if payment_filters is not None and league["show_payments"]
            else None
        ),
        money=part(refunds.league_money, db, actor, league_id=lid) if league["show_payments"] else None,
        refund_plan=part(refunds.archive_plan, db, actor, league_id=lid) if manages else Part(""),
    )
