"""Edge input: control characters in text fields, dates and numbers out of range, answered with a message at the field."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, count, league_world, make_user
from volley_app.models import League, LeagueSession, Role, SubRequest, Team
from volley_app.services.accounts import accounts
from volley_app.services.core import validation
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import leagues, sessions
from volley_app.services.subs import request_changes
from volley_app.services.teams import registration

ONE_LINE_REFUSED = [
    "Spikers\r\nBcc: x@example.com",
    "Spi\nkers",
    "Spi\rkers",
    "Spi\x00kers",
    "Spi\x1bkers",
    "Spi\tkers",
    "Spi\u2028kers",
    "Spi\u202ekers",  # right-to-left override
    "Spi\u2066kers",
    "Spi\x85kers",  # C1 next line
    "Spi\ud800kers",  # a lone surrogate
]


def _errors(fn, *args, **kwargs) -> dict[str, str]:
    with pytest.raises(Invalid) as caught:
        fn(*args, **kwargs)
    return caught.value.errors


# --- the one rule of one-line fields ----------------------------------------------------------------


@pytest.mark.parametrize("value", ONE_LINE_REFUSED)
def test_one_line_fields_refuse_control_characters_with_a_message_at_the_field(value):
    message = validation.one_line_message("Team name")
    assert _errors(validation.team_name, value) == {"team_name": message}
    assert _errors(validation.name, value, "court", "Court") == {"court": validation.one_line_message("Court")}
    assert _errors(validation.optional, value, "city", "City") == {"city": validation.one_line_message("City")}
    assert "email" in _errors(validation.email, f"a{value}@example.com")


@pytest.mark.parametrize("value", ["Spikers", "Les Bleus é ß 😀", "Team\u200dJoin", "O'Neil & Sons (B)"])
def test_one_line_fields_take_ordinary_text(value):
    assert validation.team_name(value) == value
    assert validation.name(value, "court", "Court") == value


def test_multi_line_fields_keep_line_breaks_and_tabs():
    assert validation.text("line one\r\nline two\rthree\n\tfour", "body", "Message") == "line one\nline two\nthree\n\tfour"
    assert validation.optional("a\nb", "text", "Message", 200, True) == "a\nb"


@pytest.mark.parametrize("value", ["a\x00b", "a\x1bb", "a\u202eb", "a\x07b", "a\ud800b"])
def test_multi_line_fields_refuse_other_control_characters(value):
    assert _errors(validation.text, value, "body", "Message") == {"body": validation.multi_line_message("Message")}


# --- where they were stored before -------------------------------------------------------------------


def test_a_team_name_with_a_line_break_is_refused_at_registration(db):
    w = league_world(db)
    errors = _errors(registration.register, db, w["p"], league_id=w["lg"].id, team_name="Spikers\r\nX")
    assert errors == {"team_name": validation.one_line_message("Team name")}
    db.rollback()
    assert count(db, Team) == 0


def test_sub_request_fields_refuse_control_characters_and_the_message_keeps_lines(db):
    alice = make_user(db, "alice")
    common = {"team": "Net Ninjas", "date": dt.datetime(2030, 5, 1, 18, 0), "svl": "Sportsplex", "skill_level": "C",
              "format": "6s"}  # fmt: skip
    errors = _errors(request_changes.create, db, actor_of(alice), **(common | {"team": "Net\u202eNinjas", "svl": "A\x00"}))
    assert set(errors) == {"team", "svl"}
    db.rollback()
    rid = request_changes.create(db, actor_of(alice), **(common | {"text": "Bring knee pads.\r\nThanks!"}))
    db.commit()
    assert db.get(SubRequest, rid).text == "Bring knee pads.\nThanks!"


def test_profile_address_refuses_control_characters(db):
    svl = make_user(db, "svl", Role.SVL)
    errors = _errors(
        accounts.update_user, db, actor_of(svl), svl.id, username="svl", email="svl@example.com", first_name="Sam",
        region="KY", last_name="Tester", address="1 Main St\nApt 2", city="Lex",
    )  # fmt: skip
    assert errors == {"address": validation.one_line_message("Address")}


# --- dates and numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize("when", ["9999-12-31T23:59", "0001-01-01T00:00", "1999-12-31T23:59", "2101-01-01T00:00"])
def test_a_sub_request_far_from_now_gets_a_message_not_a_crash(db, when):
    alice = make_user(db, "alice")
    errors = _errors(
        request_changes.create, db, actor_of(alice), team="T", date=when, svl="Sportsplex", skill_level="C", format="6s"
    )
    assert errors == {"date": "Date must be between 2000 and 2100"}
    db.rollback()
    assert count(db, SubRequest) == 0


def test_a_session_dated_9999_gets_a_message(db):
    w = league_world(db)
    before = count(db, LeagueSession)
    errors = _errors(sessions.create_session, db, w["a"], name="Late", start="9999-12-31T23:59", end="9999-12-31T23:59")
    assert errors == {"start": "Start must be between 2000 and 2100", "end": "End must be between 2000 and 2100"}
    db.rollback()
    assert count(db, LeagueSession) == before


def _league_fields(**kw) -> dict:
    return {"court": "Court 2", "start": "2030-09-08T18:30", "number_of_weeks": "8", "time_increment": "50",
            "skill_level": "C", "format": "6s", "day": "Monday", "max_teams": "8", "cost": "300"} | kw  # fmt: skip


@pytest.mark.parametrize(
    ("cost", "message"),
    [
        ("1e309", "Cost must be an amount in dollars"),
        ("inf", "Cost must be an amount in dollars"),
        ("nan", "Cost must be an amount in dollars"),
        ("-1", "Cost must be between $0 and $10,000"),
        ("10000.01", "Cost must be between $0 and $10,000"),
        ("9" * 400, "Cost must be an amount in dollars"),
        (float("inf"), "Cost must be an amount in dollars"),
        (1e309, "Cost must be an amount in dollars"),
    ],
)
def test_a_league_cost_out_of_range_gets_a_message_not_an_overflow(db, cost, message):
    w = league_world(db)
    before = count(db, League)
    errors = _errors(leagues.create_league, db, w["a"], session_id=w["sid"], **_league_fields(cost=cost))
    assert errors == {"cost": message}
    db.rollback()
    assert count(db, League) == before


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("number_of_weeks", "0", "Number of weeks must be between 1 and 52"),
        ("number_of_weeks", "53", "Number of weeks must be between 1 and 52"),
        ("number_of_weeks", "9" * 5000, "Number of weeks must be a whole number"),
        ("number_of_weeks", "1e3", "Number of weeks must be a whole number"),
        ("time_increment", "601", "Time increment must be between 1 and 600"),
        ("max_teams", "1", "Max teams must be between 2 and 64"),
        ("max_teams", "65", "Max teams must be between 2 and 64"),
        ("start", "9999-12-31T23:59", "Start date and time must be between 2000 and 2100"),
    ],
)
def test_league_numbers_and_dates_are_range_checked(db, field, value, message):
    w = league_world(db)
    errors = _errors(leagues.create_league, db, w["a"], session_id=w["sid"], **_league_fields(**{field: value}))
    assert errors == {field: message}


def test_money_and_whole_numbers_at_their_edges():
    assert validation.money_cents("0", "c", "Cost") == 0
    assert validation.money_cents("$100,000", "c", "Cost") == 10_000_000
    assert validation.money_cents("299.50", "c", "Cost", 10_000) == 29950
    assert _errors(validation.money_cents, "100000.01", "c", "Cost") == {"c": "Cost must be between $0 and $100,000"}
    assert validation.whole_number("52", "w", "Weeks", 1, 52) == 52
    assert validation.whole_number(8.0, "w", "Weeks", 1, 52) == 8
    assert _errors(validation.whole_number, 8.5, "w", "Weeks", 1, 52) == {"w": "Weeks must be a whole number"}
    assert _errors(validation.whole_number, True, "w", "Weeks", 1, 52) == {"w": "Weeks must be a whole number"}


def test_dates_at_the_window_edges():
    assert validation.in_years(dt.datetime(2000, 1, 1), "d", "Date").year == 2000
    assert validation.in_years(dt.datetime(2100, 12, 31, 23, 59), "d", "Date").year == 2100
    assert _errors(validation.in_years, dt.datetime(2101, 1, 1), "d", "Date") == {"d": "Date must be between 2000 and 2100"}

