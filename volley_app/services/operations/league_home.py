"""A league's home as the acting user sees it, read in one go: the league and what they may do there, the
registration offer, the tournament bracket, the games of the teams they captain, the disputed scores and the
export links (the last two for its SVL and admins)."""

from __future__ import annotations

import datetime as dt
from typing import TypedDict

from sqlmodel import Session

from volley_app.services.core.actors import Actor
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


class LeagueHome(TypedDict):
    """Everything the league home shows its reader."""

    league: leagues.LeagueDetail
    registration: RegistrationOffer
    bracket_link: str  # the tournament bracket's file, signed for the reader ("" when there is none)
    bracket_generated: bool  # a playoff bracket was generated
    my_games: list[score_reports.CaptainGame]
    disputed: list[score_reports.DisputedScore]
    export_links: dict[str, str]


def league_home(db: Session, actor: Actor | None, *, league_id: object, now: dt.datetime | None = None) -> LeagueHome:
    """The league home for ``actor``: anyone who may read the league (else its loader's refusal)."""
    league = leagues.get_league(db, actor, league_id, now)
    lid = league["id"]
    offer = registration.options(db, actor, league_id=lid)
    refusal = offer["refusal"]
    return {
        "league": league,
        "registration": {
            "may_register": bool(offer["may_register"]),
            "full": bool(offer["full"]),
            "held": offer["held"],
            "closed_note": refusal if refusal.startswith(CLOSED) else "",
        },
        "bracket_link": leagues.bracket_link(db, actor, lid, now=now) if league["has_bracket"] else "",
        "bracket_generated": playoffs.generated(db, actor, lid),
        "my_games": score_reports.my_games(db, actor, lid, now=now),
        "disputed": score_reports.disputed(db, actor, lid) if league["can_manage"] else [],
        "export_links": (
            exports.export_links(db, actor, lid, now=now) if league["can_manage"] or league["show_payments"] else {}
        ),
    }
