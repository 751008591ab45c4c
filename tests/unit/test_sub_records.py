"""A sub's record kept on their account: after every kind of change it equals a recomputation from the places
(accept, a place on a request for several, a mark and a changed mark, a moved date, a cancel, an account archived
with its requests), the lists and the ranking read it, and the rebuild command fixes one that drifted."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
import sqlalchemy as sa

from tests.factories import actor_of, make_user, rows
from volley_app import db as dbmod
from volley_app.cli import main as cli_main
from volley_app.models import Gender, Rating, SubOutcome, SubRequestPlace, User, utcnow
from volley_app.services.core import timefmt
from volley_app.services.core.errors import BadRequest, Forbidden
from volley_app.services.operations import account_lifecycle
from volley_app.services.subs import matching, request_changes, request_replies, sub_records, subs_list

HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


@pytest.fixture
def people(db):
    alice = make_user(db, "alice")
    subs = [make_user(db, name, sub=True, gender=Gender.FEMALE, setter_skill_level=Rating.B)
            for name in ("ben", "cara", "dana")]  # fmt: skip
    db.commit()
    return db, alice, subs


def _request(db, requestor, game: dt.datetime, *, players: int = 1, team: str = "Net Ninjas") -> int:
    fields = {"team": team, "date": game, "svl": "Lexington Sportsplex", "skill_level": "C", "format": "6s"}
    rid = request_changes.create(db, actor_of(requestor), now=game - 5 * DAY, players_needed=str(players), **fields)
    db.commit()
    return rid


def _accept(db, sub, rid: int, game: dt.datetime) -> None:
    request_replies.accept(db, actor_of(sub), rid, now=game - 4 * DAY)
    db.commit()


def _kept(db, user: User) -> tuple:
    db.expire_all()
    found = rows(db, User, User.id == user.id)[0]
    return found.sub_played, found.sub_no_shows, found.sub_last_date


def _same(db, *users: User) -> list[tuple]:
    """Each user's kept record equals the recomputation from the places; returns the records."""
    out = []
    for user in users:
        kept = _kept(db, user)
        assert kept == sub_records.record(db, user.id)
        out.append(kept)
    return out


def test_an_accept_and_each_place_of_a_request_for_several_count(people):
    db, alice, (ben, cara, dana) = people
    game = utcnow() - 2 * DAY
    assert _same(db, ben, cara, dana) == [(0, 0, None)] * 3
    one = _request(db, alice, game - 10 * DAY, team="One")
    _accept(db, ben, one, game - 10 * DAY)
    assert _same(db, ben) == [(0, 0, game - 10 * DAY)]
    three = _request(db, alice, game, players=3)
    _accept(db, cara, three, game)  # a place: the request stays open for two more
    assert _same(db, cara) == [(0, 0, game)]
    _accept(db, ben, three, game)
    _accept(db, dana, three, game)
    assert _same(db, ben, cara, dana) == [(0, 0, game)] * 3


def test_marks_and_changed_marks_count_for_each_sub(people):
    db, alice, (ben, cara, dana) = people
    game = utcnow() - 2 * DAY
    rid = _request(db, alice, game, players=2)
    _accept(db, ben, rid, game)
    _accept(db, cara, rid, game)
    mark = lambda sub, outcome, at: matching.mark_outcome(db, actor_of(alice), rid, sub_id=sub.id, outcome=outcome,  # noqa: E731
                                                          now=game + at)  # fmt: skip
    mark(ben, "Played", HOUR)
    mark(cara, "No-show", HOUR)
    db.commit()
    assert _same(db, ben, cara) == [(1, 0, game), (0, 1, game)]
    mark(cara, "Played", DAY)  # the requestor changed their mind
    db.commit()
    assert _same(db, ben, cara) == [(1, 0, game), (1, 0, game)]
    info = matching.outcome_info(db, actor_of(alice), rid, now=game + DAY)
    assert info["can_mark"] and [(s["name"], s["outcome"]) for s in info["subs"]] == [("Ben Tester", "Played"),
                                                                                      ("Cara Tester", "Played")]  # fmt: skip
    with pytest.raises(BadRequest):  # dana took no place on it
        matching.mark_outcome(db, actor_of(alice), rid, sub_id=dana.id, outcome="Played", now=game + DAY)
    for who in (ben, dana):  # the sub themself, another player: refused, nothing changes
        with pytest.raises(Forbidden):
            matching.mark_outcome(db, actor_of(who), rid, sub_id=ben.id, outcome="No-show", now=game + DAY)
    db.rollback()
    assert _same(db, ben, cara, dana) == [(1, 0, game), (1, 0, game), (0, 0, None)]


def test_a_moved_date_moves_the_last_time_subbed(people):
    db, alice, (ben, cara, _dana) = people
    game = utcnow() + 10 * DAY
    rid = _request(db, alice, game, players=2)
    _accept(db, ben, rid, game)
    _accept(db, cara, rid, game)
    later = game + 3 * DAY
    fields = {"team": "Net Ninjas", "date": later, "svl": "Lexington Sportsplex", "skill_level": "C", "format": "6s",
              "players_needed": "2"}  # fmt: skip
    request_changes.update(db, actor_of(alice), rid, now=game - 4 * DAY, **fields)
    db.commit()
    assert _same(db, ben, cara) == [(0, 0, later)] * 2


def test_a_cancelled_request_leaves_the_records(people):
    db, alice, (ben, cara, _dana) = people
    game = utcnow() - 2 * DAY
    earlier = _request(db, alice, game - 20 * DAY, team="Earlier")
    _accept(db, ben, earlier, game - 20 * DAY)
    rid = _request(db, alice, game, players=2)
    _accept(db, ben, rid, game)
    _accept(db, cara, rid, game)
    matching.mark_outcome(db, actor_of(alice), rid, sub_id=ben.id, outcome="Played", now=game + HOUR)
    db.commit()
    assert _same(db, ben, cara) == [(1, 0, game), (0, 0, game)]
    request_changes.delete(db, actor_of(alice), rid)
    db.commit()
    assert _same(db, ben, cara) == [(0, 0, game - 20 * DAY), (0, 0, None)]


def test_an_archived_requestor_withdraws_a_request_with_places_and_the_records_follow(people):
    db, alice, (ben, _cara, _dana) = people
    game = utcnow() + 10 * DAY
    rid = _request(db, alice, game, players=2)
    _accept(db, ben, rid, game)  # one place of two: the request names nobody
    assert _same(db, ben) == [(0, 0, game)]
    account_lifecycle.delete_user(db, actor_of(alice), alice.id)  # her request has a sub on it: archived, not deleted
    db.commit()
    assert rows(db, User, User.id == alice.id)[0].archived_at is not None
    assert _same(db, ben) == [(0, 0, None)]


def test_the_subs_list_and_the_ranking_count_every_place(people):
    db, alice, (ben, cara, dana) = people
    game = utcnow() - 2 * DAY
    rid = _request(db, alice, game, players=2)
    _accept(db, ben, rid, game)
    _accept(db, cara, rid, game)
    for sub in (ben, cara):
        matching.mark_outcome(db, actor_of(alice), rid, sub_id=sub.id, outcome="Played", now=game + HOUR)
    db.commit()
    listed = {r["first_name"]: (r["played"], r["no_shows"]) for r in subs_list.list_subs(db, actor_of(alice)).rows}
    assert listed == {"Ben": (1, 0), "Cara": (1, 0), "Dana": (0, 0)}
    ahead = timefmt.local(utcnow()).date() + dt.timedelta(days=8)
    when = timefmt.parse_local(f"{ahead.isoformat()}T19:00", "date", "Date")
    fields = {"team": "Next", "date": when, "svl": "Lexington Sportsplex", "skill_level": "B", "format": "6s",
              "position_needed": "Setter", "gender_needed": "Female", "min_rating": "B"}  # fmt: skip
    nxt = request_changes.create(db, actor_of(alice), **fields)
    db.commit()
    ranked = matching.suggestions(db, actor_of(alice), nxt).rows
    # reliability 1 first, then least recently subbed (ben and cara the same day: by name), then never subbed
    assert [r["name"] for r in ranked] == ["Ben Tester", "Cara Tester", "Dana Tester"]
    assert "1 played, 0 no-shows, last subbed" in ranked[0]["reason"] and "never subbed" in ranked[2]["reason"]


def test_the_rebuild_command_fixes_a_record_that_drifted(people, capsys):
    db, alice, (ben, cara, _dana) = people
    game = utcnow() - 2 * DAY
    rid = _request(db, alice, game)
    _accept(db, ben, rid, game)
    matching.mark_outcome(db, actor_of(alice), rid, sub_id=ben.id, outcome="No-show", now=game + HOUR)
    db.commit()
    db.exec(sa.update(User).where(User.id.in_([ben.id, cara.id])).values(sub_played=7, sub_no_shows=0, sub_last_date=None))
    db.commit()
    assert cli_main(["rebuild-sub-records"]) == 0
    assert "2 changed" in capsys.readouterr().out
    assert _same(db, ben, cara) == [(0, 1, game), (0, 0, None)]
    assert cli_main(["rebuild-sub-records"]) == 0
    assert "0 changed" in capsys.readouterr().out


def test_the_demo_records_come_from_its_places(db):
    from volley_app import demo

    demo.seed(db)
    db.commit()
    for user in rows(db, User):
        assert (user.sub_played, user.sub_no_shows, user.sub_last_date) == sub_records.record(db, user.id)
    carmen = rows(db, User, User.username == "carmen")[0]
    assert carmen.sub_played == 1 and len(rows(db, SubRequestPlace, SubRequestPlace.outcome == SubOutcome.PLAYED)) == 2


def test_two_marks_of_one_sub_at_once_both_count(people):
    """Two requestors mark the same sub at the same moment, each in a transaction of its own: the record
    recomputed last sees both marks (the sub's row is locked before it is recomputed)."""
    db, alice, (ben, _cara, _dana) = people
    other = make_user(db, "otto")
    db.commit()
    game = utcnow() - 2 * DAY
    first, second = _request(db, alice, game, team="A"), _request(db, other, game - HOUR, team="B")
    _accept(db, ben, first, game)
    _accept(db, ben, second, game - HOUR)
    start, errors = threading.Barrier(2), []

    def mark(who: User, rid: int) -> None:
        try:
            start.wait(5)
            dbmod.call(matching.mark_outcome, actor_of(who), rid, sub_id=ben.id, outcome="Played", now=game + HOUR)
        except Exception as exc:  # a lock timeout on SQLite is retried below, as a user would click again
            errors.append(exc)

    threads = [threading.Thread(target=mark, args=(who, rid)) for who, rid in ((alice, first), (other, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    for exc in errors:
        assert "locked" in str(exc).lower(), exc
    for who, rid in ((alice, first), (other, second)):  # a mark refused for a busy database is given again
        dbmod.call(matching.mark_outcome, actor_of(who), rid, sub_id=ben.id, outcome="Played", now=game + HOUR)
    assert _same(db, ben) == [(2, 0, game)]
