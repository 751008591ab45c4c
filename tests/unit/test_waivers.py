"""A league's waiver: versions its operator saves, signatures of its teams' members, the age rule, who may do what."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa

from tests.factories import (
    WAIVER_TEXT,
    actor_of,
    add_league,
    add_member,
    add_teams,
    add_waiver,
    count,
    league_world,
    make_user,
    rows,
)
from volley_app.models import AuditEntry
from volley_app.models.rosters import LeagueWaiver, TeamMember, WaiverSignature
from volley_app.services.core.errors import Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.operations import league_waiver
from volley_app.services.teams import waivers

# Noon in New York (the league's venue): "today" there is 15 June 2026.
NOW = dt.datetime(2026, 6, 15, 16, 0, tzinfo=dt.UTC)


@pytest.fixture
def world(db):
    x = league_world(db)
    t1, t2 = add_teams(db, x["lg"], 2)
    x["t1"], x["t2"] = t1, t2
    add_member(db, t1, x["p"].user_id)
    x["q"] = actor_of(make_user(db, "quinn"))  # on no team
    return x


def _sign(db, actor, league_id, **fields):
    values = {"typed_name": f"{actor.username.title()} Tester", "adult": True, "ip": "198.51.100.7",
              "user_agent": "Firefox"} | fields  # fmt: skip
    found = waivers.sign_waiver(db, actor, league_id=league_id, now=NOW, **values)
    db.commit()
    return found


def _state(db) -> tuple:
    return (count(db, LeagueWaiver), count(db, WaiverSignature), count(db, AuditEntry))


# --- versions ---------------------------------------------------------------------------------------


def test_each_changed_save_is_a_new_version_and_the_same_text_adds_nothing(world):
    db, lid = world["db"], world["lg"].id
    first = add_waiver(db, world["a"], lid)
    assert first["version"] == 1 and first["text"] == WAIVER_TEXT and first["created_by"] == "svla"
    again = add_waiver(db, world["a"], lid, text=f"  {WAIVER_TEXT}  ")
    assert again["version"] == 1 and count(db, LeagueWaiver) == 1
    second = add_waiver(db, world["admin"], lid, text="New text.\nSecond line.")
    assert second["version"] == 2 and second["created_by"] == "root"
    assert waivers.current_waiver(db, world["p"], league_id=lid)["text"] == "New text.\nSecond line."
    # the first version is kept as it was
    assert [w.text for w in rows(db, LeagueWaiver, LeagueWaiver.version == 1)] == [WAIVER_TEXT]
    entries = rows(db, AuditEntry, AuditEntry.entity == "league_waiver")
    assert [e.after["version"] for e in entries] == [1, 2] and all(e.league_id == lid for e in entries)


def test_a_league_without_a_waiver_has_none_and_cannot_be_signed(world):
    db, lid = world["db"], world["lg"].id
    assert waivers.current_waiver(db, world["p"], league_id=lid) is None
    with pytest.raises(NotFound, match="no waiver"):
        _sign(db, world["p"], lid)
    assert count(db, WaiverSignature) == 0


@pytest.mark.parametrize("text", ["", "   ", "x" * (waivers.TEXT_MAX + 1), "Bad \x00 text", None, 12])
def test_the_text_is_required_and_limited(world, text):
    db = world["db"]
    with pytest.raises(Invalid) as refused:
        waivers.save_waiver(db, world["a"], league_id=world["lg"].id, text=text)
    assert "text" in refused.value.errors
    db.rollback()
    assert _state(db) == (0, 0, 0)


@pytest.mark.parametrize(("who", "error"), [("b", Forbidden), ("p", Forbidden), ("q", Forbidden), (None, Unauthorized)])
def test_only_the_leagues_operator_or_an_admin_saves_it(world, who, error):
    db, lid = world["db"], world["lg"].id
    add_waiver(db, world["a"], lid)
    before = _state(db)
    with pytest.raises(error):
        waivers.save_waiver(db, world.get(who), league_id=lid, text="Changed by someone else")
    db.rollback()
    assert _state(db) == before and waivers.current_waiver(db, world["p"], league_id=lid)["text"] == WAIVER_TEXT


# --- signing ---------------------------------------------------------------------------------------


def test_a_member_signs_the_current_version_once_with_where_from(world):
    db, lid = world["db"], world["lg"].id
    add_waiver(db, world["a"], lid)
    found = _sign(db, world["p"], lid, typed_name="  pat   TESTER ", user_agent="U" * 500)
    assert found["version"] == 1 and found["already"] is False
    [row] = rows(db, WaiverSignature)
    assert (row.user_id, row.team_id, row.typed_name, row.adult, row.birth_date) == (world["p"].user_id, world["t1"],
                                                                                     "pat   TESTER", True, None)
    assert row.ip == "198.51.100.7" and row.user_agent == "U" * waivers.USER_AGENT_MAX and row.signed_at == NOW
    again = _sign(db, world["p"], lid, typed_name="Wrong Name", adult=False)  # a second click: nothing checked again
    assert again["already"] is True and again["signed_at"] == NOW and count(db, WaiverSignature) == 1


def test_a_double_submit_that_races_makes_one_signature(world, monkeypatch):
    db, lid = world["db"], world["lg"].id
    add_waiver(db, world["a"], lid)
    _sign(db, world["p"], lid)
    real = waivers._signature
    looks: list[tuple] = []

    def first_misses(*args):  # the first look finds nothing: the other click's row is written meanwhile
        looks.append(args)
        return None if len(looks) == 1 else real(*args)

    monkeypatch.setattr(waivers, "_signature", first_misses)
    found = _sign(db, world["p"], lid)
    assert found["already"] is True and len(looks) == 2 and count(db, WaiverSignature) == 1


@pytest.mark.parametrize(("birth", "ok"), [
    ("2008-06-15", True),  # 18 today
    ("2008-06-16", False),  # 18 tomorrow
    ("1970-01-01", True),
    ("2010-01-01", False),
])  # fmt: skip
def test_a_date_of_birth_must_make_the_signer_old_enough_on_the_day(world, birth, ok):
    db, lid = world["db"], world["lg"].id
    add_waiver(db, world["a"], lid)
    if ok:
        _sign(db, world["p"], lid, birth_date=birth, adult=False)
        [row] = rows(db, WaiverSignature)
        assert row.birth_date == dt.date.fromisoformat(birth) and row.adult is True
        return
    with pytest.raises(Invalid) as refused:
        _sign(db, world["p"], lid, birth_date=birth, adult=True)  # a ticked box does not outweigh the date
    assert refused.value.errors["birth_date"] == waivers.TOO_YOUNG
    db.rollback()
    assert count(db, WaiverSignature) == 0


def test_the_age_counts_whole_years_and_a_leap_day_birthday_comes_on_the_first_of_march():
    assert waivers.age_on(dt.date(2008, 2, 29), dt.date(2026, 2, 28)) == 17
    assert waivers.age_on(dt.date(2008, 2, 29), dt.date(2026, 3, 1)) == 18
    assert waivers.age_on(dt.date(2000, 12, 31), dt.date(2018, 12, 31)) == 18


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"adult": False}, "birth_date", waivers.AGE_NEEDED),
    ({"adult": "", "birth_date": ""}, "birth_date", waivers.AGE_NEEDED),
    ({"birth_date": "15/06/1990"}, "birth_date", waivers.BAD_DATE),
    ({"birth_date": "1990-02-30"}, "birth_date", waivers.BAD_DATE),
    ({"birth_date": "1850-01-01"}, "birth_date", waivers.BAD_DATE),
    ({"birth_date": "2027-01-01"}, "birth_date", waivers.FUTURE_DATE),
    ({"birth_date": 19900421}, "birth_date", waivers.BAD_DATE),
    ({"typed_name": "Pat Smith"}, "typed_name", 'Type your full name as your account has it: "Pat Tester"'),
    ({"typed_name": "Pat"}, "typed_name", 'Type your full name as your account has it: "Pat Tester"'),
    ({"typed_name": ""}, "typed_name", "Your full name is required"),
])  # fmt: skip
def test_bad_signing_details_are_named_and_nothing_is_written(world, fields, field, message):
    db, lid = world["db"], world["lg"].id
    add_waiver(db, world["a"], lid)
    with pytest.raises(Invalid) as refused:
        _sign(db, world["p"], lid, **fields)
    assert refused.value.errors[field] == message
    db.rollback()
    assert count(db, WaiverSignature) == 0


def test_a_name_mismatch_and_a_missing_age_are_named_together(world):
    db, lid = world["db"], world["lg"].id
    add_waiver(db, world["a"], lid)
    with pytest.raises(Invalid) as refused:
        _sign(db, world["p"], lid, typed_name="Someone Else", adult=False)
    assert set(refused.value.errors) == {"typed_name", "birth_date"}


@pytest.mark.parametrize("who", ["q", "a", "b", "admin"])
def test_only_a_current_member_of_one_of_the_leagues_teams_signs(world, who):
    db, lid = world["db"], world["lg"].id
    add_waiver(db, world["a"], lid)
    before = _state(db)
    with pytest.raises(Forbidden, match="current member"):
        _sign(db, world[who], lid, typed_name=f"{world[who].username.title()} Tester")
    db.rollback()
    assert _state(db) == before


def test_a_member_who_left_or_of_another_team_is_refused(world):
    db, lid = world["db"], world["lg"].id
    add_waiver(db, world["a"], lid)
    with pytest.raises(Forbidden, match="not on this team"):
        waivers.sign_waiver(db, world["p"], team_id=world["t2"], typed_name="Pat Tester", adult=True, now=NOW)
    db.rollback()
    db.execute(sa.update(TeamMember).values(left_at=NOW))
    db.commit()
    with pytest.raises(Forbidden, match="current member"):
        _sign(db, world["p"], lid)
    db.rollback()
    assert count(db, WaiverSignature) == 0


def test_a_member_of_a_team_of_another_league_is_refused(world):
    db = world["db"]
    other = add_league(db, world["svla"], world["sid"], court="Court 9")
    [ot] = add_teams(db, other, 1, prefix="O")
    add_member(db, ot, world["q"].user_id)
    add_waiver(db, world["a"], world["lg"].id)
    with pytest.raises(Forbidden):
        _sign(db, world["q"], world["lg"].id)
    db.rollback()
    assert count(db, WaiverSignature) == 0


def test_signing_by_team_finds_the_teams_league(world):
    db = world["db"]
    add_waiver(db, world["a"], world["lg"].id)
    found = waivers.sign_waiver(db, world["p"], team_id=world["t1"], typed_name="Pat Tester", adult="on", now=NOW)
    assert found["version"] == 1 and count(db, WaiverSignature) == 1


def test_a_new_version_asks_every_member_to_sign_again(world):
    db, lid, pid = world["db"], world["lg"].id, world["p"].user_id
    add_member(db, world["t1"], world["q"].user_id)
    add_waiver(db, world["a"], lid)
    _sign(db, world["p"], lid)
    assert waivers.signed_current(db, lid, [pid, world["q"].user_id]) == {pid}
    summary = waivers.team_summary(db, world["t1"])
    assert summary["version"] == 1 and (summary["signed"], summary["members"]) == (1, 2)
    assert summary["unsigned"] == [{"user_id": world["q"].user_id, "name": "Quinn Tester"}]
    add_waiver(db, world["a"], lid, text="Version two")
    assert waivers.signed_current(db, lid, [pid]) == set()
    assert waivers.team_summary(db, world["t1"])["signed"] == 0
    found = _sign(db, world["p"], lid)
    assert found == {"version": 2, "signed_at": NOW, "already": False}
    assert waivers.signed_current(db, lid, [pid]) == {pid} and count(db, WaiverSignature) == 2
    assert waivers.signed_current(db, lid, []) == set()


def test_a_team_of_a_league_without_a_waiver_has_every_member_unsigned(world):
    summary = waivers.team_summary(world["db"], world["t1"])
    assert summary == {"version": None, "signed": 0, "members": 1,
                       "unsigned": [{"user_id": world["p"].user_id, "name": "Pat Tester"}]}  # fmt: skip


# --- the operator's list and the member's page -------------------------------------------------------


def test_the_operator_lists_and_searches_the_signatures(world):
    db, lid = world["db"], world["lg"].id
    add_member(db, world["t2"], world["q"].user_id)
    add_waiver(db, world["a"], lid)
    _sign(db, world["p"], lid)
    _sign(db, world["q"], lid, birth_date="1990-04-21", adult=False)
    page = waivers.signatures_page(db, world["a"], league_id=lid)
    assert page.total == 2 and {r["name"] for r in page.rows} == {"Pat Tester", "Quinn Tester"}
    quinn = waivers.signatures_page(db, world["admin"], league_id=lid, filters={"q": "quin"}).rows
    assert [(r["team"], r["birth_date"], r["version"]) for r in quinn] == [("T2", "1990-04-21", 1)]
    assert waivers.signatures_page(db, world["a"], league_id=lid, filters={"q": "nobody"}).total == 0
    for who in ("b", "p", "q"):
        with pytest.raises(Forbidden):
            waivers.signatures_page(db, world[who], league_id=lid)


def test_the_operators_screen_has_the_waiver_the_signatures_and_their_download(world):
    db, lid = world["db"], world["lg"].id
    add_waiver(db, world["a"], lid)
    _sign(db, world["p"], lid)
    screen = league_waiver.league_waiver_screen(db, world["a"], league_id=lid)
    assert screen.waiver is not None and screen.waiver["version"] == 1
    assert screen.signatures.value is not None and screen.signatures.value.total == 1
    assert screen.export_link.startswith(f"/api/exports/leagues/{lid}/signatures.csv?")
    for who in ("b", "p"):
        with pytest.raises(Forbidden):
            league_waiver.league_waiver_screen(db, world[who], league_id=lid)


def test_the_members_screen_shows_the_waiver_and_their_signature(world):
    db, lid = world["db"], world["lg"].id
    screen = waivers.team_waiver_screen(db, world["p"], team_id=world["t1"])
    assert screen.waiver is None and screen.signed is None and screen.full_name == "Pat Tester"
    add_waiver(db, world["a"], lid)
    assert waivers.team_waiver_screen(db, world["p"], team_id=world["t1"]).signed is None
    _sign(db, world["p"], lid)
    signed = waivers.team_waiver_screen(db, world["p"], team_id=world["t1"]).signed
    assert signed is not None and signed["version"] == 1
    for who, team in (("q", "t1"), ("p", "t2"), ("a", "t1")):
        with pytest.raises(Forbidden, match="not on this team"):
            waivers.team_waiver_screen(db, world[who], team_id=world[team])
    with pytest.raises(NotFound):
        waivers.team_waiver_screen(db, world["p"], team_id="nope")


def test_the_rules_page_states_the_minimum_age_from_the_waiver_rule():
    from volley_app.pages.dash.leagues import rules

    assert rules.GENERAL_RULES[0] == "All players must be 18 years of age or older." == waivers.AGE_RULE
    assert waivers.MINIMUM_AGE == 18
