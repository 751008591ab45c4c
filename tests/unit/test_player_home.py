"""The Player home's league lists and the venue-zone date formats."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, add_league_session, make_user
from volley_app.models import Day, League, LeagueFormat, Role, SkillLevel, utcnow
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Forbidden, Unauthorized
from volley_app.services.operations import home

DAY = dt.timedelta(days=1)


def _league(db, svl, session_id, start, *, active=True, fmt=LeagueFormat.SIXES) -> int:
    row = League(session_id=session_id, svl_id=svl.id, court="Court 1", start_at=start, number_of_weeks=8,
                 time_increment=50, skill_level=SkillLevel.C, format=fmt, day=Day.MONDAY, max_teams=8,
                 cost_cents=30000, active=active)  # fmt: skip
    db.add(row)
    db.commit()
    return row.id


def test_leagues_split_into_registration_and_current(db):
    svl = make_user(db, "gym", Role.SVL, first_name="Lexington", last_name="Sportsplex")
    player = actor_of(make_user(db, "pat"))
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now - 30 * DAY, now + 60 * DAY)
    started = _league(db, svl, sid, now - 7 * DAY)
    upcoming = _league(db, svl, sid, now + 7 * DAY, fmt=LeagueFormat.REVERSE_QUADS)
    _league(db, svl, sid, now - 7 * DAY, active=False)
    lists = home.home_leagues(db, player, now=now)
    assert [r["id"] for r in lists["all"]] == [started, upcoming]
    assert [r["id"] for r in lists["current"]] == [started]
    assert [r["id"] for r in lists["registration"]] == [upcoming]
    assert lists["registration"][0]["label"] == "Lexington Sportsplex: Monday C Reverse Quads"
    # the boundary: a league starting right now is current
    assert [r["id"] for r in home.home_leagues(db, player, now=now + 7 * DAY)["current"]] == [started, upcoming]


def test_home_leagues_refuse_svls_and_anonymous(db):
    svl = actor_of(make_user(db, "gym", Role.SVL))
    with pytest.raises(Forbidden):
        home.home_leagues(db, svl)
    with pytest.raises(Unauthorized):
        home.home_leagues(db, None)


@pytest.mark.parametrize(
    ("utc", "day", "clock"),
    [
        (dt.datetime(2026, 7, 1, 23, 30, tzinfo=dt.UTC), "Wed, Jul 1, 2026", "7:30 PM"),  # EDT
        (dt.datetime(2026, 12, 2, 0, 15, tzinfo=dt.UTC), "Tue, Dec 1, 2026", "7:15 PM"),  # EST, previous day
        (dt.datetime(2026, 12, 1, 17, 5, tzinfo=dt.UTC), "Tue, Dec 1, 2026", "12:05 PM"),
    ],
)
def test_dates_show_in_the_venue_zone(utc, day, clock):
    assert timefmt.day(utc) == day
    assert timefmt.clock(utc) == clock
    assert timefmt.long(utc).endswith(f"at {clock} ET")  # the zone's name all year, not EST in winter and EDT in summer
    assert timefmt.clock(utc, "America/Chicago", labelled=True).endswith(" CT")


def test_the_home_sends_admins_and_svls_elsewhere(db):
    assert home.elsewhere(actor_of(make_user(db, "root", Role.ADMIN))) == "/dash/profile"
    assert home.elsewhere(actor_of(make_user(db, "gym", Role.SVL))) == "/dash/sessions"
    assert home.elsewhere(actor_of(make_user(db, "both", Role.SVL, Role.ADMIN))) == "/dash/profile"
    assert home.elsewhere(actor_of(make_user(db, "pat"))) is None
    assert home.elsewhere(None) is None


# --- the landing banner --------------------------------------------------------------------------------------


def test_banner_names_the_next_league_in_registration(db, monkeypatch):
    from volley_app.models import Region
    from volley_app.settings import get_settings

    monkeypatch.setattr(get_settings(), "banner_text", "")
    svl = make_user(db, "gym", Role.SVL)
    now = dt.datetime(2026, 11, 21, 15, 0, tzinfo=dt.UTC)
    assert home.announcement(db, now=now) == home.NO_LEAGUE_OPEN
    sid = add_league_session(db, svl, "Winter", now - 30 * DAY, now + 90 * DAY)
    _league(db, svl, sid, now - 7 * DAY)  # running: not in registration
    _league(db, svl, sid, now + 2 * DAY, active=False)  # switched off
    later = _league(db, svl, sid, dt.datetime(2027, 1, 22, 23, 30, tzinfo=dt.UTC))
    assert home.announcement(db, now=now) == "The next league starts January 22nd. Signups are open!"
    row = db.get(League, later)
    row.city, row.region = "Lexington", Region("KY")
    db.add(row)
    _league(db, svl, sid, dt.datetime(2027, 1, 3, 23, 30, tzinfo=dt.UTC))  # the sooner one wins
    assert home.announcement(db, now=now) == "The next league starts January 3rd. Signups are open!"
    assert home.announcement(db, now=dt.datetime(2027, 1, 5, tzinfo=dt.UTC)) == (
        "The next league starts January 22nd in Lexington, KY. Signups are open!"
    )


def test_banner_text_from_settings_overrides(db, monkeypatch):
    from volley_app.settings import get_settings

    monkeypatch.setattr(get_settings(), "banner_text", "Beach season opens May 1st!")
    assert home.announcement(db) == "Beach season opens May 1st!"
