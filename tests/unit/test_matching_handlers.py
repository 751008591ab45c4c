"""The Suggested subs panel, the Played / No-show marks and the availability card, called as any browser could.

Each handler x {anonymous, the requestor or owner (alice), another player (ben), SVL, admin}: a refused call
shows a message or nothing, and changes nothing in the database.
"""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import make_user, player_world, rows, snapshot
from tests.harness import call, page_state
from volley_app.models import SubOutcome, SubRequest, SubRequestPlace, SubStatus, SubUnavailableDate, User, utcnow
from volley_app.pages.dash.users.edit.page import EditUserState
from volley_app.services.core import timefmt
from volley_app.services.subs import availability, sub_records
from volley_app.state.sub_matching import AvailabilityState, OutcomeState, SuggestionsState

WHO = ["anonymous", "alice", "ben", "svl", "root"]


@pytest.fixture
def world(db):
    w = player_world(db)
    return db, w["tokens"], w["ids"], w["requests"]


def _state(cls, path: str, tokens: dict, who: str):
    return page_state(cls, path, tokens.get(who))[1]


async def _availability(tokens: dict, who: str, user_id) -> AvailabilityState:
    """The days and dates of ``user_id`` as ``who`` opens Edit Info (the page's load shows them)."""
    _root, form = page_state(EditUserState, f"/dash/users/{user_id}", tokens.get(who))
    await form.load()
    return await form.get_state(AvailabilityState)


def _marks(db) -> list:
    db.expire_all()
    users = [(u.id, u.sub_days, u.sub_weekly_cap, u.sub_played, u.sub_no_shows, u.sub_last_date) for u in rows(db, User)]
    return [*snapshot(db), users, [(d.user_id, d.day) for d in rows(db, SubUnavailableDate)],
            [(p.request_id, p.user_id, p.outcome, p.outcome_at) for p in rows(db, SubRequestPlace)],
            [(r.id, r.updated_at) for r in rows(db, SubRequest)]]  # fmt: skip


def _past_request(db, ids, *subs: str) -> SubRequest:
    """Alice's request of five hours ago, a place taken by each of ``subs`` (the last one named)."""
    req = SubRequest(requestor_id=ids["alice"], recipient_id=ids[subs[-1]], status=SubStatus.ACCEPTED, svl="Gym",
                     team="Past", date=utcnow() - dt.timedelta(hours=5), skill_level="C", format="6s", completed=True,
                     players_needed=len(subs), places_filled=len(subs))  # fmt: skip
    db.add(req)
    db.flush()
    db.add_all([SubRequestPlace(request_id=req.id, user_id=ids[who], accepted_at=req.date - dt.timedelta(days=1))
                for who in subs])  # fmt: skip
    sub_records.refresh(db, [ids[who] for who in subs])
    db.commit()
    return req


def _place_mark(db, req, who_id) -> SubOutcome | None:
    db.expire_all()
    return rows(db, SubRequestPlace, SubRequestPlace.request_id == req.id, SubRequestPlace.user_id == who_id)[0].outcome


@pytest.mark.parametrize("who", WHO)
async def test_only_the_requestor_and_admins_see_suggestions(world, who):
    db, tokens, ids, reqs = world
    state = _state(SuggestionsState, f"/dash/notes/{reqs['open']}", tokens, who)
    await state.load()
    assert state.suggestions_shown is (who in ("alice", "root"))
    if state.suggestions_shown:
        assert [r["name"] for r in state.suggested] == ["Ben Tester"]
        assert "Hitter A" in state.suggested[0]["reason"] and not any("@" in v for v in state.suggested[0].values())
        assert state.can_invite is (who == "alice")
        await state.toggle_ineligible()
        assert state.show_ineligible and state.suggested == []
    else:
        assert state.suggested == []


@pytest.mark.parametrize("who", WHO)
async def test_invite_from_the_suggestions(world, who):
    db, tokens, ids, reqs = world
    before = _marks(db)
    state = _state(SuggestionsState, f"/dash/notes/{reqs['open']}", tokens, who)
    await call(state.invite, str(ids["ben"]))
    if who == "alice":
        assert state.suggest_error == "" and state.suggest_notice != ""
        req = rows(db, SubRequest, SubRequest.id == reqs["open"])[0]
        assert req.recipient_id == ids["ben"] and req.status == SubStatus.OPEN
    else:
        assert _marks(db) == before
        assert state.suggest_error != ""


@pytest.mark.parametrize("junk", [None, "", "x", [1], {"a": 1}, "-1", "99999999999999999999", True])
async def test_junk_sub_ids_are_refused_without_a_crash(world, junk):
    db, tokens, ids, reqs = world
    before = _marks(db)
    state = _state(SuggestionsState, f"/dash/notes/{reqs['open']}", tokens, "alice")
    await call(state.invite, junk)
    assert state.suggest_error != "" and _marks(db) == before


@pytest.mark.parametrize("who", WHO)
async def test_only_the_requestor_marks_played(world, who):
    db, tokens, ids, reqs = world
    req = _past_request(db, ids, "ben")
    before = _marks(db)
    state = _state(OutcomeState, f"/dash/notes/{req.id}", tokens, who)
    await state.load()
    assert state.can_mark is (who == "alice")
    await call(state.mark, str(ids["ben"]), "No-show")
    if who == "alice":
        assert _place_mark(db, req, ids["ben"]) == SubOutcome.NO_SHOW
        assert state.marks == [{"id": str(ids["ben"]), "name": "Ben Tester", "outcome": "No-show"}]
        assert state.outcome_notice == "Saved: Ben Tester No-show."
        assert (rows(db, User, User.id == ids["ben"])[0].sub_no_shows, state.outcome_error) == (1, "")
        await call(state.mark, str(ids["ben"]), "Bogus")
        assert state.outcome_error != "" and _place_mark(db, req, ids["ben"]) == SubOutcome.NO_SHOW
    else:
        assert _marks(db) == before and state.outcome_error != "" and state.marks == []


@pytest.mark.parametrize("who", WHO)
async def test_each_sub_who_took_a_place_is_marked_by_the_requestor_only(world, who):
    """A request for two: each sub has their own mark; nobody but the requestor sets one."""
    db, tokens, ids, _reqs = world
    cara = make_user(db, "cara", sub=True)
    ids["cara"] = cara.id
    req = _past_request(db, ids, "cara", "ben")
    before = _marks(db)
    state = _state(OutcomeState, f"/dash/notes/{req.id}", tokens, who)
    await state.load()
    await call(state.mark, str(cara.id), "Played")
    await call(state.mark, str(ids["ben"]), "No-show")
    if who == "alice":
        assert [(r["name"], r["outcome"]) for r in state.marks] == [("Cara Tester", "Played"), ("Ben Tester", "No-show")]
        assert (_place_mark(db, req, cara.id), _place_mark(db, req, ids["ben"])) == (SubOutcome.PLAYED, SubOutcome.NO_SHOW)
        assert (rows(db, User, User.id == cara.id)[0].sub_played, rows(db, User, User.id == ids["ben"])[0].sub_no_shows) == (1, 1)
    else:
        assert _marks(db) == before and state.outcome_error != ""


@pytest.mark.parametrize("sub_id", ["svl", "root", "alice", None, "", "x", [1], {"a": 1}, "-1", "99999999999", True])
async def test_a_sub_without_a_place_or_junk_is_not_marked(world, sub_id):
    db, tokens, ids, _reqs = world
    req = _past_request(db, ids, "ben")
    before = _marks(db)
    state = _state(OutcomeState, f"/dash/notes/{req.id}", tokens, "alice")
    await state.load()
    await call(state.mark, str(ids[sub_id]) if isinstance(sub_id, str) and sub_id in ids else sub_id, "Played")
    assert state.outcome_error != "" and _marks(db) == before


@pytest.mark.parametrize("who", WHO)
async def test_only_the_owner_or_an_admin_edits_availability(world, who):
    db, tokens, ids, _reqs = world
    before = _marks(db)
    state = await _availability(tokens, who, ids["ben"])
    allowed = who in ("ben", "root")
    assert state.avail_loaded is allowed
    tomorrow = (timefmt.local(utcnow()).date() + dt.timedelta(days=1)).isoformat()
    await call(state.save_week, {"day-Tuesday": "on", "day-Thursday": "on", "cap": "2"})
    await call(state.add_date, {"day": tomorrow})
    if allowed:
        ben = rows(db, User, User.id == ids["ben"])[0]
        assert (ben.sub_days, ben.sub_weekly_cap) == (availability.day_bit(1) | availability.day_bit(3), 2)
        assert state.avail_dates == [tomorrow] and state.avail_summary == "Tuesdays and Thursdays"
        await call(state.remove_date, tomorrow)
        assert state.avail_dates == [] and rows(db, SubUnavailableDate) == []
    else:
        assert _marks(db) == before and state.avail_error != ""


async def test_the_owners_own_availability_with_bad_input(world):
    db, tokens, ids, _reqs = world
    state = await _availability(tokens, "ben", ids["ben"])
    assert state.avail_days == list(availability.DAYS) and state.avail_cap == ""
    before = _marks(db)
    for form in ({"cap": "0"}, {"cap": "lots"}, {"cap": "99"}):
        await call(state.save_week, form)
        assert state.avail_error != ""
    for day in ("2001-01-01", "nope", "", "9999-12-31"):
        await call(state.add_date, {"day": day})
        assert state.avail_error != ""
    await call(state.remove_date, ["x"])
    assert state.avail_error != ""
    assert _marks(db) == before
    await call(state.save_week, {})  # no day ticked: never suggested
    assert rows(db, User, User.id == ids["ben"])[0].sub_days == 0


async def test_a_sub_with_no_days_is_not_suggested_and_says_why(world):
    db, tokens, ids, reqs = world
    ben = rows(db, User, User.id == ids["ben"])[0]
    ben.sub_days = 0
    db.add(ben)
    db.commit()
    make_user(db, "cara", sub=True)
    state = _state(SuggestionsState, f"/dash/notes/{reqs['open']}", tokens, "alice")
    await state.load()
    assert [r["name"] for r in state.suggested] == ["Cara Tester"]
    await state.toggle_ineligible()
    assert [r["name"] for r in state.suggested] == ["Ben Tester"] and "not free" in state.suggested[0]["reason"]
