"""Sub requests: every transition and visibility rule, auto-completion, the concurrent accept."""

from __future__ import annotations

import datetime as dt
import threading

import pytest

from tests.factories import actor_of, count, make_user, rows
from volley_app import db as dbmod
from volley_app import routes
from volley_app.models import OutboxMessage, Rating, Role, SubRequest, SubStatus, User, utcnow
from volley_app.services.core.errors import BadRequest, DomainError, Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.operations import clock_sweep
from volley_app.services.subs import request_changes, request_lists, request_replies, subs_list
from volley_app.services.subs.access import SUB_REQUEST_NOT_FOUND, access_sub_request

DAY = dt.timedelta(days=1)


def _fields(**over) -> dict:
    when = (utcnow() + 3 * DAY).replace(microsecond=0)
    base = {"team": "Net Ninjas", "date": when, "svl": "Lexington Sportsplex", "skill_level": "C", "format": "6s"}
    return base | over


@pytest.fixture
def world(db):
    people = {
        "alice": make_user(db, "alice"),
        "ben": make_user(db, "ben", sub=True, hitter_skill_level=Rating.B),
        "carmen": make_user(db, "carmen", sub=True),
        "dave": make_user(db, "dave"),
        "svl": make_user(db, "svl", Role.SVL),
        "root": make_user(db, "root", Role.ADMIN),
    }
    return db, {k: actor_of(v) for k, v in people.items()}


def _status(db, rid):
    return rows(db, SubRequest, SubRequest.id == rid)[0]


def test_create_open_and_list(world):
    db, a = world
    later = request_changes.create(db, a["alice"], **_fields(date=utcnow() + 5 * DAY))
    sooner = request_changes.create(db, a["alice"], **_fields(date=utcnow() + 2 * DAY, court="Court 1", text="hi"))
    db.commit()
    listed = request_lists.list_open(db, a["ben"]).rows
    assert [r["id"] for r in listed] == [sooner, later]
    row = listed[0]
    # people by name, as players know each other (never by username)
    assert row["requestor"] == "Alice Tester" and row["recipient"] == "Anyone" and row["sub"] == "Open"
    assert row["status"] == "Open" and row["completed"] is False
    assert not any("@" in str(v) for v in row.values())
    assert count(db, OutboxMessage) == 0


def test_create_validates_every_required_field(world):
    db, a = world
    with pytest.raises(Invalid) as exc:
        request_changes.create(db, a["alice"], team=" ", date="", svl="", skill_level="Z", format="7s")
    assert set(exc.value.errors) == {"team", "date", "svl", "skill_level", "format"}
    with pytest.raises(Invalid) as exc:
        request_changes.create(db, a["alice"], **_fields(date=utcnow() - DAY))
    assert "date" in exc.value.errors


def test_create_says_what_is_wrong_with_each_field(world):
    db, a = world
    with pytest.raises(Invalid) as exc:
        request_changes.create(db, a["alice"], team="", date="", svl="x" * 201, skill_level="", format="7s", court="c" * 51)
    assert exc.value.errors == {
        "team": "Team is required",
        "date": "Date is required",
        "svl": "Location must be at most 200 characters",
        "court": "Court must be at most 50 characters",
        "skill_level": "Skill level is required",
        "format": "Choose a format",
    }
    with pytest.raises(Invalid) as exc:
        request_changes.create(db, a["alice"], **_fields(date="next tuesday", skill_level="Z"))
    assert exc.value.errors == {"date": "Date must be a date and time", "skill_level": "Choose a skill level"}
    with pytest.raises(Invalid) as exc:
        request_changes.create(db, a["alice"], **_fields(date=utcnow() - DAY))
    assert exc.value.errors == {"date": "Choose a date and time in the future"}


def test_empty_optional_fields_are_stored_empty(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields(court="  ", text=""))
    db.commit()
    req = _status(db, rid)
    assert (req.court, req.text) == (None, None)
    assert request_lists.detail(db, a["alice"], rid)["court"] == ""


def test_invite_choices_are_the_other_active_subs(world):
    db, a = world
    assert [o["label"] for o in subs_list.invite_choices(db, a["alice"]).rows] == ["Ben Tester", "Carmen Tester"]
    assert [o["label"] for o in subs_list.invite_choices(db, a["ben"]).rows] == ["Carmen Tester"]
    assert subs_list.invite_choices(db, a["ben"]).rows[0]["value"] == str(a["carmen"].user_id)
    assert [o["label"] for o in subs_list.invite_choices(db, a["alice"], filters={"q": "carm"}).rows] == ["Carmen Tester"]
    assert subs_list.invite_choice(db, a["alice"], str(a["carmen"].user_id)) == {
        "value": str(a["carmen"].user_id), "label": "Carmen Tester"}  # fmt: skip
    assert subs_list.invite_choice(db, a["ben"], a["ben"].user_id) is None  # not oneself
    assert subs_list.invite_choice(db, a["ben"], a["svl"].user_id) is None  # not a sub
    assert subs_list.invite_choice(db, a["ben"], "x") is None
    with pytest.raises(Forbidden):
        subs_list.invite_choices(db, a["svl"])


def test_a_requests_invite_list_choices_are_its_requestors_only(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields())
    page = subs_list.invite_list_choices(db, a["alice"], rid, filters={"q": "ben"})
    assert page.rows == [{"value": str(a["ben"].user_id), "label": "Ben Tester"}]
    assert subs_list.invite_list_choice(db, a["alice"], rid, a["carmen"].user_id)["label"] == "Carmen Tester"
    assert subs_list.invite_list_choice(db, a["alice"], rid, a["dave"].user_id) is None  # not a sub
    for who, refused in (("ben", Forbidden), ("root", Forbidden), ("svl", Forbidden)):
        with pytest.raises(refused):
            subs_list.invite_list_choices(db, a[who], rid)
        with pytest.raises(refused):
            subs_list.invite_list_choice(db, a[who], rid, a["carmen"].user_id)
    with pytest.raises(Unauthorized):
        subs_list.invite_list_choices(db, None, rid)
    with pytest.raises(NotFound):
        subs_list.invite_list_choices(db, a["alice"], "nope")


def test_only_svls_are_sent_away_from_the_subs_list(world):
    _db, a = world
    assert subs_list.subs_elsewhere(a["svl"]) == "/dash/sessions"
    assert [subs_list.subs_elsewhere(a[w]) for w in ("alice", "ben", "root")] == [None, None, None]
    assert subs_list.subs_elsewhere(None) is None


def test_access_sub_request_loads_what_the_actor_may_see(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields(recipient_id=a["ben"].user_id))
    db.commit()
    assert access_sub_request(db, a["ben"], str(rid)).id == rid
    assert access_sub_request(db, a["root"], rid).id == rid
    assert access_sub_request(db, a["alice"], rid, own=True).id == rid
    for actor, own in ((a["carmen"], False), (a["ben"], True), (a["root"], True), (a["svl"], False)):
        with pytest.raises(Forbidden):
            access_sub_request(db, actor, rid, own=own)
    with pytest.raises(Unauthorized):
        access_sub_request(db, None, rid)
    for bad in (0, -3, "abc", True, 2**40, 99999):
        with pytest.raises(NotFound, match=SUB_REQUEST_NOT_FOUND):
            access_sub_request(db, a["alice"], bad)


def test_local_date_input_is_read_in_the_venue_zone(world):
    db, a = world
    year = utcnow().year + 1
    rid = request_changes.create(db, a["alice"], **_fields(date=f"{year}-07-01T19:30"))
    db.commit()
    stored = _status(db, rid).date
    assert stored == dt.datetime(year, 7, 1, 23, 30, tzinfo=dt.UTC)  # EDT is UTC-4
    assert request_lists.detail(db, a["alice"], rid)["time_text"] == "7:30 PM ET"  # a location no venue has


def test_targeted_request_emails_the_sub_and_needs_an_active_sub(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields(recipient_id=a["ben"].user_id, text="Can you play?"))
    db.commit()
    sent = rows(db, OutboxMessage)
    assert len(sent) == 1 and sent[0].to_addr == "ben@example.com" and sent[0].kind == "received_request"
    assert "Net Ninjas" in sent[0].body_text and "Can you play?" in sent[0].body_text
    assert f"/dash/notes/{rid}" in sent[0].body_text
    assert f"Or answer on the request's page: {routes.absolute(routes.sub_request_path(rid))}\n" in sent[0].body_text
    assert request_lists.list_open(db, a["carmen"]).rows == []  # not open to anyone
    for bad in (a["dave"].user_id, 99999, "x", None.__class__, a["alice"].user_id):
        with pytest.raises(Invalid) as exc:
            request_changes.create(db, a["alice"], **_fields(recipient_id=bad))
        assert "recipient" in exc.value.errors
    assert count(db, SubRequest) == 1


@pytest.mark.parametrize("who", ["svl", None])
def test_svl_and_anonymous_are_refused_everything(world, who):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields())
    db.commit()
    actor = a[who] if who else None
    err = Forbidden if who else Unauthorized
    calls = [
        lambda: request_lists.list_open(db, actor).rows,
        lambda: request_lists.notifications(db, actor).rows,
        lambda: request_lists.detail(db, actor, rid),
        lambda: subs_list.list_subs(db, actor).rows,
        lambda: request_changes.create(db, actor, **_fields()),
        lambda: request_replies.accept(db, actor, rid),
        lambda: request_replies.decline(db, actor, rid),
        lambda: request_changes.update(db, actor, rid, **_fields(team="X")),
        lambda: request_changes.delete(db, actor, rid),
    ]
    for call in calls:
        with pytest.raises(err):
            call()
    db.rollback()
    req = _status(db, rid)
    assert (req.status, req.team, req.recipient_id) == (SubStatus.OPEN, "Net Ninjas", None)
    assert count(db, SubRequest) == 1


def test_detail_buttons_for_an_open_to_anyone_request(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields())
    db.commit()
    mine = request_lists.detail(db, a["alice"], rid)
    assert (mine["can_accept"], mine["can_decline"], mine["can_edit"]) == (False, False, True)
    other = request_lists.detail(db, a["ben"], rid)
    assert (other["can_accept"], other["can_decline"], other["can_edit"]) == (True, False, False)
    admin = request_lists.detail(db, a["root"], rid)
    assert admin["can_edit"] is False and admin["can_accept"] is True


def test_detail_of_a_targeted_request(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields(recipient_id=a["ben"].user_id))
    db.commit()
    named = request_lists.detail(db, a["ben"], rid)
    assert (named["can_accept"], named["can_decline"], named["can_edit"]) == (True, True, False)
    assert named["sub"] == "Ben Tester"
    with pytest.raises(Forbidden):
        request_lists.detail(db, a["carmen"], rid)
    assert request_lists.detail(db, a["root"], rid)["can_accept"] is False  # admins view all, but it is not theirs
    with pytest.raises(NotFound):
        request_lists.detail(db, a["ben"], 424242)
    with pytest.raises(NotFound):
        request_lists.detail(db, a["ben"], "1; drop table users")


def test_accept_sets_recipient_and_emails_requestor(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields())
    db.commit()
    with pytest.raises(Forbidden, match="own"):
        request_replies.accept(db, a["alice"], rid)
    db.rollback()
    request_replies.accept(db, a["ben"], rid)
    db.commit()
    req = _status(db, rid)
    assert (req.status, req.recipient_id) == (SubStatus.ACCEPTED, a["ben"].user_id)
    mails = rows(db, OutboxMessage)
    assert [(m.to_addr, m.kind) for m in mails] == [("alice@example.com", "accepted_request")]
    with pytest.raises(BadRequest, match="already been taken"):
        request_replies.accept(db, a["carmen"], rid)
    db.rollback()
    assert request_lists.list_open(db, a["carmen"]).rows == []
    # the requestor sees it Accepted under My Sub Requests, and so does the sub
    assert [r["status"] for r in request_lists.notifications(db, a["alice"]).rows] == ["Accepted"]
    assert [r["id"] for r in request_lists.notifications(db, a["ben"]).rows] == [rid]
    assert request_lists.notifications(db, a["carmen"]).rows == []
    with pytest.raises(Forbidden):
        request_lists.detail(db, a["carmen"], rid)  # taken by someone else: no longer public


def test_decline_only_by_the_named_recipient(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields(recipient_id=a["ben"].user_id))
    open_id = request_changes.create(db, a["alice"], **_fields())
    db.commit()
    for actor in (a["carmen"], a["alice"], a["root"]):
        with pytest.raises(Forbidden):
            request_replies.decline(db, actor, rid)
        db.rollback()
    with pytest.raises(Forbidden):
        request_replies.decline(db, a["ben"], open_id)
    db.rollback()
    with pytest.raises(Forbidden):
        request_replies.accept(db, a["carmen"], rid)  # targeted at ben
    db.rollback()
    assert _status(db, rid).status == SubStatus.OPEN
    request_replies.decline(db, a["ben"], rid)
    db.commit()
    req = _status(db, rid)
    assert req.status == SubStatus.DECLINED and req.recipient_id == a["ben"].user_id
    declined = [m for m in rows(db, OutboxMessage) if m.kind == "declined_request"]
    assert [m.to_addr for m in declined] == ["alice@example.com"]
    with pytest.raises(BadRequest):
        request_replies.accept(db, a["ben"], rid)
    db.rollback()
    assert request_lists.detail(db, a["ben"], rid)["can_accept"] is False


def test_update_and_delete_by_the_requestor_only(world):
    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields())
    db.commit()
    for actor in (a["ben"], a["root"]):
        with pytest.raises(Forbidden):
            request_changes.update(db, actor, rid, **_fields(team="Hijacked"))
        with pytest.raises(Forbidden):
            request_changes.delete(db, actor, rid)
        db.rollback()
    assert _status(db, rid).team == "Net Ninjas"
    request_changes.update(db, a["alice"], rid, **_fields(team="Block Party", court="Court 9"))
    db.commit()
    assert (_status(db, rid).team, _status(db, rid).court) == ("Block Party", "Court 9")
    with pytest.raises(Invalid):
        request_changes.update(db, a["alice"], rid, **_fields(team=""))
    db.rollback()
    request_changes.delete(db, a["alice"], rid)
    db.commit()
    assert count(db, SubRequest) == 0


def test_past_requests_leave_the_lists_at_the_boundary_and_the_sweep_saves_them_completed(world):
    db, a = world
    when = utcnow() + 2 * DAY
    rid = request_changes.create(db, a["alice"], **_fields(date=when))
    db.commit()
    just_before = when - dt.timedelta(seconds=1)
    assert [r["id"] for r in request_lists.list_open(db, a["ben"], now=just_before).rows] == [rid]
    db.commit()
    assert _status(db, rid).completed is False
    with pytest.raises(BadRequest, match="passed"):
        request_replies.accept(db, a["ben"], rid, now=when)
    db.rollback()
    assert request_lists.list_open(db, a["ben"], now=when).rows == []
    assert request_lists.notifications(db, a["alice"], now=when).rows == []
    row = request_lists.detail(db, a["alice"], rid, now=when)
    assert row["completed"] is True and row["can_accept"] is False
    db.commit()
    assert _status(db, rid).completed is False  # the reads saved nothing
    clock_sweep.save_reached(db, when)
    db.commit()
    assert _status(db, rid).completed is True


def test_notifications_leave_past_requests_out_and_sort(world):
    db, a = world
    first = request_changes.create(db, a["alice"], **_fields(date=utcnow() + DAY))
    second = request_changes.create(db, a["ben"], **_fields(recipient_id=a["carmen"].user_id, date=utcnow() + 3 * DAY))
    third = request_changes.create(db, a["carmen"], **_fields(recipient_id=a["ben"].user_id, date=utcnow() + 2 * DAY))
    db.commit()
    assert [r["id"] for r in request_lists.notifications(db, a["alice"]).rows] == [first]
    assert [r["id"] for r in request_lists.notifications(db, a["carmen"]).rows] == [third, second]
    assert [r["id"] for r in request_lists.notifications(db, a["ben"]).rows] == [third, second]
    assert request_lists.notifications(db, a["dave"]).rows == []
    db.commit()
    assert request_lists.notifications(db, a["alice"], now=utcnow() + 1.5 * DAY).rows == []
    db.commit()
    assert _status(db, first).completed is False  # completed is saved by the sweep, not by a read


def test_subs_list_has_active_subs_without_emails(world):
    db, a = world
    listed = subs_list.list_subs(db, a["alice"]).rows
    assert [r["first_name"] for r in listed] == ["Ben", "Carmen"]
    assert listed[0]["hitter"] == "B"
    assert all("email" not in r and not any("@" in str(v) for v in r.values()) for r in listed)


def test_twenty_concurrent_accepts_have_one_winner(world):
    db, a = world
    takers = [actor_of(make_user(db, f"taker{i:02d}")) for i in range(20)]
    rid = request_changes.create(db, a["alice"], **_fields())
    db.commit()
    barrier = threading.Barrier(len(takers))
    results: list[object] = [None] * len(takers)

    def go(i):
        barrier.wait()
        try:
            dbmod.call(request_replies.accept, takers[i], rid)
            results[i] = "won"
        except DomainError as exc:
            results[i] = exc.message

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(takers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert results.count("won") == 1
    assert results.count(request_replies.TAKEN) == 19
    winner = takers[results.index("won")]
    req = _status(db, rid)
    assert (req.status, req.recipient_id) == (SubStatus.ACCEPTED, winner.user_id)
    assert [m.kind for m in rows(db, OutboxMessage)] == ["accepted_request"]


def test_deleting_a_sub_closes_their_open_invites(world):
    from volley_app.services.operations import account_lifecycle

    db, a = world
    rid = request_changes.create(db, a["alice"], **_fields(recipient_id=a["ben"].user_id))
    db.commit()
    assert account_lifecycle.delete_user(db, a["ben"], a["ben"].user_id) is True
    db.commit()
    req = _status(db, rid)
    assert (req.status, req.recipient_id) == (SubStatus.DECLINED, None)
    assert request_lists.list_open(db, a["carmen"]).rows == []
    assert request_lists.detail(db, a["alice"], rid)["sub"] == "Deleted account"


def test_admin_edits_roles_and_active_but_not_their_own_admin_role(world):
    from volley_app.services.accounts import accounts

    db, a = world
    base = {"email": "dave@example.com", "first_name": "Dave", "region": "KY", "last_name": "Changed"}
    accounts.update_user(db, a["root"], a["dave"].user_id, username="dave", roles=["SVL"], active=False, **base)
    db.commit()
    dave = rows(db, User, User.id == a["dave"].user_id)[0]
    assert (dave.roles, dave.active, dave.last_name) == (["SVL"], False, "Tester")
    with pytest.raises(Invalid) as exc:
        accounts.update_user(db, a["root"], a["root"].user_id, username="root", email="root@example.com",
                             first_name="Root", region="KY", last_name="X", roles=["Player"])  # fmt: skip
    assert "roles" in exc.value.errors
    db.rollback()
    assert rows(db, User, User.id == a["root"].user_id)[0].roles == ["Admin"]


# --- reopening a declined request -----------------------------------------------------------------------------


def _declined(db, a) -> int:
    rid = request_changes.create(db, a["alice"], **_fields(recipient_id=a["ben"].user_id))
    request_replies.decline(db, a["ben"], rid)
    db.commit()
    return rid


def test_the_requestor_reopens_a_declined_request_to_anyone(world):
    db, a = world
    rid = _declined(db, a)
    assert request_lists.detail(db, a["alice"], rid)["can_reopen"] is True
    assert request_lists.detail(db, a["ben"], rid)["can_reopen"] is False
    request_changes.reopen(db, a["alice"], rid)
    db.commit()
    req = _status(db, rid)
    assert (req.status, req.recipient_id, req.completed) == (SubStatus.OPEN, None, False)
    assert rid in [r["id"] for r in request_lists.list_open(db, a["carmen"]).rows]
    assert request_lists.detail(db, a["alice"], rid)["can_reopen"] is False


def test_the_requestor_invites_another_sub_who_is_emailed(world):
    db, a = world
    rid = _declined(db, a)
    before = count(db, OutboxMessage)
    request_changes.reopen(db, a["alice"], rid, recipient_id=str(a["carmen"].user_id))
    db.commit()
    req = _status(db, rid)
    assert (req.status, req.recipient_id) == (SubStatus.OPEN, a["carmen"].user_id)
    [mail] = rows(db, OutboxMessage)[before:]
    assert (mail.to_addr, mail.kind) == ("carmen@example.com", "received_request")
    assert request_lists.detail(db, a["carmen"], rid)["can_accept"] is True


@pytest.mark.parametrize("who", ["ben", "carmen", "root", "svl"])
def test_only_the_requestor_reopens(world, who):
    db, a = world
    rid = _declined(db, a)
    with pytest.raises((Forbidden, NotFound)):
        request_changes.reopen(db, a[who], rid)
    assert _status(db, rid).status == SubStatus.DECLINED


def test_reopen_refuses_an_open_request_a_past_one_and_bad_invitees(world):
    db, a = world
    open_id = request_changes.create(db, a["alice"], **_fields())
    db.commit()
    with pytest.raises(BadRequest):
        request_changes.reopen(db, a["alice"], open_id)
    rid = _declined(db, a)
    for bad in ("not-a-number", str(a["dave"].user_id), str(a["alice"].user_id)):  # no id, not a sub, oneself
        with pytest.raises(Invalid) as exc:
            request_changes.reopen(db, a["alice"], rid, recipient_id=bad)
        assert "recipient" in exc.value.errors
    assert _status(db, rid).status == SubStatus.DECLINED
    with pytest.raises(BadRequest):
        request_changes.reopen(db, a["alice"], rid, now=utcnow() + 30 * DAY)  # its date has passed
