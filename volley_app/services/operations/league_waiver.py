"""The operator's waiver page of a league, read in one call: the current waiver, the first page of its signatures
and the signatures' download link."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlmodel import Session

from volley_app.models import utcnow
from volley_app.services.core import paging
from volley_app.services.core.actors import Actor
from volley_app.services.core.screens import Part, part
from volley_app.services.operations import exports
from volley_app.services.seasons import leagues
from volley_app.services.teams import waivers


@dataclass(frozen=True)
class LeagueWaiverScreen:
    league_id: int
    league_name: str
    zone: str  # the venue's time zone, to show the dates
    waiver: waivers.WaiverVersion | None
    signatures: Part[paging.Page]
    export_link: str


def league_waiver_screen(
    db: Session, actor: Actor | None, *, league_id: object, filters: dict | None = None, bookmark: object = "",
    now: dt.datetime | None = None,
) -> LeagueWaiverScreen:  # fmt: skip
    """The waiver page of the league for its operator (its SVL or an admin)."""
    league = leagues.managed(db, actor, league_id)
    assert actor is not None and league.id is not None
    return LeagueWaiverScreen(
        league_id=league.id,
        league_name=leagues.display_name(league),
        zone=leagues.zone(db, league),
        waiver=waivers.current_waiver(db, actor, league_id=league.id),
        signatures=part(waivers.signatures_page, db, actor, league_id=league.id, filters=filters, bookmark=bookmark),
        export_link=exports.signed_link(actor, league.id, "signatures", now or utcnow()),
    )
