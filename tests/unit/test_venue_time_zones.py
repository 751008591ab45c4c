"""Venue time zones: a venue's (SVL's) dates are entered and shown on its own clock, labelled with its zone."""

from __future__ import annotations

import datetime as dt

import pytest
from icalendar import Calendar
from sqlmodel import select

from tests.factories import actor_of, add_league, add_league_session, add_teams, count, login_token, make_user, rows
from tests.harness import call, page_state
from volley_app.models import AuditEntry, Game, League, OutboxMessage, Role, SubRequest, Team, User, utcnow
from volley_app.pages.dash.leagues import schedule as schedule_page
from volley_app.pages.dash.users.edit import page as edit_page
from volley_app.services.accounts import accounts, venues
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Forbidden, Invalid
from volley_app.services.operations import exports
from volley_app.services.seasons import calendar, games, leagues, schedule, scheduling, sessions
from volley_app.services.subs import request_changes, request_lists, request_replies

CHICAGO = "America/Chicago"


def _league_fields(**over) -> dict:
    fields = {"court": "Court 1", "start": "2026-09-08T18:30", "number_of_weeks": "8", "time_increment": "50",
              "skill_level": "C", "format": "6s", "day": "Tuesday", "max_teams": "8", "cost": "300"}  # fmt: skip
    return fields | over


@pytest.fixture
def world(db):
    chi = make_user(db, "chivenue", Role.SVL, time_zone=CHICAGO, first_name="Windy", last_name="Courts")
    east = make_user(db, "eastvenue", Role.SVL, first_name="East", last_name="Gym")
    pat, root = make_user(db, "pat"), make_user(db, "root", Role.ADMIN)
    sid = add_league_session(db, chi, "Chicago fall", dt.datetime(2026, 8, 1, tzinfo=dt.UTC),
                             dt.datetime(2026, 12, 20, tzinfo=dt.UTC))  # fmt: skip
    db.expire_all()  # read the accounts back as stored
    return {"db": db, "chi": actor_of(chi), "east": actor_of(east), "p": actor_of(pat), "admin": actor_of(root),
            "sid": sid, "chi_user": chi, "east_user": east}  # fmt: skip


# --- the zone and its labels -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "label"),
    [("America/New_York", "ET"), ("America/Chicago", "CT"), ("America/Denver", "MT"), ("America/Phoenix", "MT"),
     ("America/Los_Angeles", "PT"), ("Europe/Paris", "CET")],
)  # fmt: skip
def test_a_time_is_labelled_with_its_zone(zone, label):
    winter = dt.datetime(2026, 12, 1, 1, 0, tzinfo=dt.UTC)
    assert timefmt.clock(winter, zone, labelled=True).endswith(f" {label}")
    assert timefmt.label(winter, zone) == label


def test_a_new_account_is_in_the_default_zone(world):
    assert world["east_user"].time_zone == "America/New_York"


# --- entered and shown in the venue's zone ---------------------------------------------------------------


def test_a_league_entered_at_a_chicago_venue_is_stored_as_utc_and_shown_in_central_time(world):
    db = world["db"]
    row = leagues.create_league(db, world["chi"], session_id=world["sid"], **_league_fields())
    db.commit()
    assert row.start_at == dt.datetime(2026, 9, 8, 23, 30, tzinfo=dt.UTC)  # 6:30 PM CDT is UTC-5
    found = leagues.get_league(db, world["p"], row.id)
    assert found["zone"] == CHICAGO
    assert timefmt.date_time(found["start_at"], found["zone"], labelled=True) == "Tue Sep 8, 2026 6:30 PM CT"
    assert timefmt.input_value(found["start_at"], found["zone"]) == "2026-09-08T18:30"
    listed = next(lg for lg in leagues.list_leagues(db, world["p"]) if lg["id"] == row.id)
    assert listed["zone"] == CHICAGO


def test_the_weekday_is_checked_on_the_venues_calendar(world):
    db = world["db"]
    # 11:30 PM on a Tuesday in Chicago is already Wednesday in New York: Tuesday is right for this venue.
    row = leagues.create_league(db, world["chi"], session_id=world["sid"], **_league_fields(start="2026-09-08T23:30"))
    assert row.start_at == dt.datetime(2026, 9, 9, 4, 30, tzinfo=dt.UTC)


def test_a_registration_deadline_is_read_on_the_venues_clock(world):
    db = world["db"]
    row = leagues.create_league(db, world["chi"], session_id=world["sid"],
                                **_league_fields(registration_deadline="2026-09-01T12:00"))  # fmt: skip
    assert row.registration_deadline == dt.datetime(2026, 9, 1, 17, 0, tzinfo=dt.UTC)


def test_session_dates_are_read_on_the_owners_clock(world):
    db = world["db"]
    row = sessions.create_session(db, world["chi"], name="Winter", start="2027-01-05T00:00", end="2027-03-01T23:59")
    assert row.start_at == dt.datetime(2027, 1, 5, 6, 0, tzinfo=dt.UTC)  # CST is UTC-6
    made = sessions.create_session(db, world["admin"], name="East winter", start="2027-01-05T00:00",
                                   end="2027-03-01T23:59", svl_id=world["east"].user_id)  # fmt: skip
    assert made.start_at == dt.datetime(2027, 1, 5, 5, 0, tzinfo=dt.UTC)  # the venue an admin chose: EST
    assert sessions.get_session(db, world["chi"], row.id)["zone"] == CHICAGO


def test_a_passed_registration_deadline_is_told_on_the_venues_clock(world):
    from volley_app.services.teams import registration

    db = world["db"]
    lg = add_league(db, world["chi_user"], world["sid"], start=dt.datetime(2099, 9, 8, 23, 30, tzinfo=dt.UTC),
                    registration_deadline=dt.datetime(2026, 9, 1, 17, 0, tzinfo=dt.UTC))  # fmt: skip
    found = registration.options(db, world["p"], league_id=lg.id)
    assert found["refusal"] == registration.REGISTRATION_CLOSED.format(when="Tue Sep 1, 2026 12:00 PM CT")


def _chicago_league(db, world, *, start: dt.datetime, teams: int = 4) -> League:
    lg = add_league(db, world["chi_user"], world["sid"], start=start)
    add_teams(db, lg, teams)
    scheduling.generate(db, world["chi"], lg.id)
    db.commit()
    return lg


def test_the_schedule_is_drawn_and_shown_on_the_venues_clock(world):
    db = world["db"]
    lg = _chicago_league(db, world, start=dt.datetime(2026, 10, 19, 23, 30, tzinfo=dt.UTC))  # Mon 6:30 PM CDT
    view = schedule.schedule_view(db, world["p"], lg.id, week=3)  # Nov 2: after DST ends (Nov 1)
    assert view["zone"] == CHICAGO
    times = [timefmt.clock(g["start_at"], view["zone"], labelled=True) for g in view["games"]]
    assert times == ["6:30 PM CT", "7:20 PM CT"]
    assert view["games"][0]["start_at"] == dt.datetime(2026, 11, 3, 0, 30, tzinfo=dt.UTC)  # CST is UTC-6


def test_a_week_pushed_over_dst_keeps_the_venues_wall_clock(world):
    db = world["db"]
    lg = _chicago_league(db, world, start=dt.datetime(2026, 10, 19, 23, 30, tzinfo=dt.UTC))  # Mon 6:30 PM CDT
    moved = scheduling.push_week(db, world["chi"], lg.id, week=2)
    db.commit()
    assert moved == 7 * 2
    week2 = sorted((g for g in rows(db, Game) if g.round == 2), key=lambda g: g.start_at)
    # Oct 26 became Nov 2: still 6:30 PM in Chicago (now CST), though an hour later in UTC.
    assert [timefmt.local(g.start_at, CHICAGO).strftime("%Y-%m-%d %H:%M") for g in week2] == [
        "2026-11-02 18:30", "2026-11-02 19:20"]  # fmt: skip
    assert week2[0].start_at == dt.datetime(2026, 11, 3, 0, 30, tzinfo=dt.UTC)
    assert schedule.week_of(lg.start_at, week2[0].start_at, CHICAGO) == 3


def test_a_moved_game_is_read_and_emailed_in_the_venues_zone(world):
    db = world["db"]
    _chicago_league(db, world, start=dt.datetime(2026, 10, 19, 23, 30, tzinfo=dt.UTC))
    captain = make_user(db, "cap1", email="cap1@example.com")
    game = next(g for g in rows(db, Game) if g.round == 1 and g.team2_id is not None)
    team = db.get(Team, game.team1_id)
    team.captain_id = captain.id
    db.add(team)
    db.commit()
    games.move_game(db, world["chi"], game.id, start="2026-10-20T19:00")
    db.commit()
    db.refresh(game)
    assert game.start_at == dt.datetime(2026, 10, 21, 0, 0, tzinfo=dt.UTC)
    mail = db.exec(select(OutboxMessage).where(OutboxMessage.kind == "game_moved")).one()
    assert "7:00 PM CT" in mail.subject and "at 7:00 PM CT" in mail.body_text


def test_a_feed_carries_the_venues_tzid(world):
    db = world["db"]
    lg = _chicago_league(db, world, start=dt.datetime(2026, 10, 19, 23, 30, tzinfo=dt.UTC))
    token = calendar.feed_token(db, world["p"])
    db.commit()
    cal = Calendar.from_ical(calendar.league_feed(db, token, lg.id))
    events = [c for c in cal.walk("VEVENT")]
    assert events
    assert {e["dtstart"].params.get("TZID") for e in events} == {CHICAGO}
    first = min(e.decoded("dtstart") for e in events)
    assert (first.hour, first.minute, str(first.tzinfo)) == (18, 30, CHICAGO)
    assert {tz["tzid"] for tz in cal.walk("VTIMEZONE")} == {CHICAGO}
    assert str(cal["x-wr-timezone"]) == CHICAGO


def test_an_accepted_request_in_a_personal_feed_carries_its_venues_tzid(world):
    db = world["db"]
    asker = make_user(db, "asker")
    rid = request_changes.create(db, actor_of(asker), team="Lake", date="2099-07-01T19:30", svl="Windy Courts",
                              skill_level="C", format="6s")  # fmt: skip
    db.commit()
    request_replies.accept(db, world["p"], rid)
    token = calendar.feed_token(db, world["p"])
    db.commit()
    events = list(Calendar.from_ical(calendar.personal_feed(db, token)).walk("VEVENT"))
    assert len(events) == 1 and events[0]["dtstart"].params.get("TZID") == CHICAGO
    assert events[0].decoded("dtstart").hour == 19
    emailed = db.exec(select(OutboxMessage).where(OutboxMessage.to_addr == "asker@example.com")).all()
    assert emailed and all("7:30 PM CT" in m.body_text for m in emailed)


def test_the_schedule_export_is_on_the_venues_clock(world):
    db = world["db"]
    lg = _chicago_league(db, world, start=dt.datetime(2026, 10, 19, 23, 30, tzinfo=dt.UTC))
    data = exports.export(db, world["chi"], lg.id, "schedule")["data"].decode("utf-8-sig").splitlines()
    assert data[0].endswith(",Time zone")
    assert data[1].split(",")[1:3] == ["2026-10-19", "6:30 PM"] and data[1].endswith(CHICAGO)


def test_a_sub_request_at_a_venue_is_entered_and_shown_on_its_clock(world):
    db = world["db"]
    who = make_user(db, "sally")
    rid = request_changes.create(db, actor_of(who), team="Lake", date="2099-07-01T19:30", svl="windy courts",
                              skill_level="C", format="6s")  # fmt: skip
    db.commit()
    req = db.get(SubRequest, rid)
    assert req.date == dt.datetime(2099, 7, 2, 0, 30, tzinfo=dt.UTC)  # 7:30 PM CDT, the venue named (any case)
    shown = request_lists.detail(db, actor_of(who), rid)
    assert shown["time_text"] == "7:30 PM CT" and shown["local_input"] == "2099-07-01T19:30"
    elsewhere = request_changes.create(db, actor_of(who), team="Lake", date="2099-07-01T19:30", svl="Some Park",
                                    skill_level="C", format="6s")  # fmt: skip
    assert db.get(SubRequest, elsewhere).date == dt.datetime(2099, 7, 1, 23, 30, tzinfo=dt.UTC)  # the default zone


def test_venue_zones_are_read_in_one_query_per_list(world, db):
    import sqlalchemy as sa

    for i in range(3):
        add_league(db, world["chi_user"], world["sid"], court=f"C{i}")
    queries: list[str] = []

    def seen(_conn, _cursor, statement, *_args):
        queries.append(statement)

    engine = db.get_bind()
    sa.event.listen(engine, "before_cursor_execute", seen)
    try:
        found = leagues.list_leagues(db, world["p"])
    finally:
        sa.event.remove(engine, "before_cursor_execute", seen)
    assert {lg["zone"] for lg in found} == {CHICAGO}
    assert sum(q.startswith("SELECT users.id, users.time_zone") for q in queries) == 1
    assert venues.zones_by_name(db, ["WINDY COURTS", "windy", "nowhere"]) == {"windy courts": CHICAGO, "windy": CHICAGO}


# --- choosing the zone --------------------------------------------------------------------------------------


def _edit(db, actor, user: User, **over):
    fields = {"username": user.username, "email": user.email, "first_name": user.first_name, "region": "KY"}
    return accounts.update_user(db, actor, user.id, **(fields | over))


def test_a_venue_chooses_its_zone_and_the_change_is_audited(world):
    db = world["db"]
    _edit(db, world["east"], world["east_user"], time_zone="America/Denver")
    db.commit()
    db.expire_all()
    assert db.get(User, world["east"].user_id).time_zone == "America/Denver"
    entry = db.exec(select(AuditEntry).where(AuditEntry.entity == "user")).one()
    assert entry.before["time_zone"] == "America/New_York" and entry.after["time_zone"] == "America/Denver"
    form = accounts.edit_form(db, world["east"], world["east"].user_id)
    assert form["show_time_zone"] and form["time_zone"] == "America/Denver"
    assert {"value": "America/Chicago", "label": "America/Chicago (CT)"} in form["time_zones"]


def test_an_admin_changes_a_venues_zone(world):
    db = world["db"]
    _edit(db, world["admin"], world["chi_user"], time_zone="America/Los_Angeles", zone_confirmed=True)
    db.commit()
    assert db.get(User, world["chi"].user_id).time_zone == "America/Los_Angeles"


def test_a_venue_with_games_to_come_is_asked_what_a_new_zone_moves_before_it_is_saved(world):
    db = world["db"]
    lg = _chicago_league(db, world, start=utcnow() + dt.timedelta(days=3))
    games = len(rows(db, Game))
    audits = count(db, AuditEntry)
    for actor in (world["chi"], world["admin"]):
        with pytest.raises(Invalid) as asked:
            _edit(db, actor, world["chi_user"], time_zone="America/Denver")
        question = asked.value.errors[venues.ZONE_CONFIRM]
        assert question.startswith("Changing the time zone from America/Chicago to America/Denver changes the clock "
                                   f"time shown for {games} upcoming games, the start of 1 league and the dates of "
                                   "1 session.")  # fmt: skip
        shown = timefmt.date_time(lg.start_at, CHICAGO, labelled=True)
        assert f"The next game, {shown}, would show as {timefmt.date_time(lg.start_at, 'America/Denver', labelled=True)}" in question
        db.rollback()
        assert db.get(User, world["chi"].user_id).time_zone == CHICAGO and count(db, AuditEntry) == audits
    _edit(db, world["chi"], world["chi_user"], time_zone="America/Denver", zone_confirmed=True)
    db.commit()
    assert db.get(User, world["chi"].user_id).time_zone == "America/Denver"
    _edit(db, world["chi"], world["chi_user"], time_zone="America/Denver")  # the same zone: nothing to ask


@pytest.mark.parametrize("bad", ["Mars/Olympus_Mons", "", "../../etc/passwd", "America/Nowhere", 7, ["America/Chicago"]])
def test_a_zone_not_known_is_refused_with_a_message(world, bad):
    db = world["db"]
    with pytest.raises(Invalid) as exc:
        _edit(db, world["chi"], world["chi_user"], time_zone=bad)
    assert exc.value.errors["time_zone"] == venues.TIME_ZONE_INVALID
    db.rollback()
    assert db.get(User, world["chi"].user_id).time_zone == CHICAGO


def test_an_svl_cannot_change_another_venues_zone_nor_a_player(world):
    db = world["db"]
    for actor in (world["east"], world["p"]):
        with pytest.raises(Forbidden):
            _edit(db, actor, world["chi_user"], time_zone="America/Denver")
        db.rollback()
    assert db.get(User, world["chi"].user_id).time_zone == CHICAGO
    pat = db.get(User, world["p"].user_id)
    _edit(db, world["p"], pat, last_name="Tester", time_zone="America/Denver")  # a player's own record has no zone
    db.commit()
    db.expire_all()
    assert db.get(User, pat.id).time_zone == "America/New_York"
    assert not accounts.edit_form(db, world["p"], pat.id)["show_time_zone"]
    assert count(db, AuditEntry) == 0


async def test_the_edit_page_saves_a_venues_zone(world):
    db = world["db"]
    token = login_token(db, "chivenue")
    _root, state = page_state(edit_page.EditUserState, f"/dash/users/{world['chi'].user_id}", token)
    await call(state.load)
    assert state.shows["show_time_zone"] and state.time_zone == CHICAGO
    form = {"username": "chivenue", "email": "chivenue@example.com", "first_name": "Windy", "region": "IL",
            "address": "", "city": "", "time_zone": "Mars/Base"}  # fmt: skip
    await call(state.save, form)
    assert state.errors.get("time_zone") == venues.TIME_ZONE_INVALID
    db.expire_all()
    assert db.get(User, world["chi"].user_id).time_zone == CHICAGO
    _root, state = page_state(edit_page.EditUserState, f"/dash/users/{world['chi'].user_id}", token)
    await call(state.load)
    await call(state.save, form | {"time_zone": "America/Denver"})  # its session is still to come: asked first
    assert state.errors.get(venues.ZONE_CONFIRM, "").startswith("Changing the time zone from America/Chicago")
    db.expire_all()
    assert db.get(User, world["chi"].user_id).time_zone == CHICAGO
    await call(state.save, form | {"time_zone": "America/Denver", "zone_confirmed": "on"})
    db.expire_all()
    assert db.get(User, world["chi"].user_id).time_zone == "America/Denver"


# --- the schedule page: Previous and Next week ------------------------------------------------------------


async def test_each_next_week_click_moves_one_week_however_quick(world):
    db = world["db"]
    lg = _chicago_league(db, world, start=dt.datetime(2026, 10, 19, 23, 30, tzinfo=dt.UTC))
    token = login_token(db, "pat")
    _root, state = page_state(schedule_page.ScheduleState, f"/dash/leagues/teams/schedule?league={lg.id}", token)
    await call(state.load)
    await call(state.show_week, "1")
    assert state.week == "1" and state.games[0]["when"] == "6:30 PM CT"
    assert state.zone_note == "Times are the venue's: CT (America/Chicago)"
    # Two clicks sent before the page showed week 2: each moves one week from the week the server shows.
    await call(state.step_week, 1)
    await call(state.step_week, 1)
    assert state.week == "3"
    await call(state.step_week, -1)
    assert state.week == "2"
    for junk in ("x", None, [1], 0):
        await call(state.step_week, junk)
    assert state.week == "2"  # junk moves nothing
    await call(state.step_week, 10**30)
    assert state.week == "3"  # a big step is one week
    for _ in range(12):
        await call(state.step_week, 1)
    assert state.week == "8" and state.next_week == ""  # the last week: Next goes no further
    assert count(db, Game, Game.league_id == lg.id) == 16


@pytest.mark.parametrize("typed", ["A\x00", "Sportsplex\ud800", "x" * 500, "", "   "])
def test_a_location_that_cannot_be_a_venue_name_gets_the_default_zone_without_asking_the_database(db, typed):
    assert venues.zone_by_name(db, typed) == timefmt.default_name()
    assert venues.zones_by_name(db, [typed]) == {}
