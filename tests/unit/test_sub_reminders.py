"""Sub request reminders: the day before the game to both sides, the morning after to the requestor; each once."""

from __future__ import annotations

import datetime as dt
import threading
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy.exc

from tests.factories import actor_of, count, make_user, rows
from volley_app import db as dbmod
from volley_app import routes
from volley_app.cli import main as cli_main
from volley_app.models import OutboxMessage, SubRequestReminder
from volley_app.services.subs import matching, request_changes, request_replies, sub_reminders
from volley_app.services.subs.sub_reminders import AFTER_GAME, DAY_BEFORE, Due, send_reminders
from volley_app.settings import get_settings

GAME_DAY = dt.date(2026, 12, 10)


def venue(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    """A venue wall-clock time, in UTC."""
    zone = ZoneInfo(get_settings().time_zone)
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=zone).astimezone(dt.UTC)


GAME = venue(GAME_DAY, 19)
DAY_BEFORE_STARTS = venue(GAME_DAY - dt.timedelta(days=1), 0)
MORNING_AFTER = venue(GAME_DAY + dt.timedelta(days=1), 8)
MADE = venue(dt.date(2026, 12, 1), 12)


@pytest.fixture
def people(db):
    alice = make_user(db, "alice", first_name="Alice", last_name="Smith")
    ben = make_user(db, "ben", sub=True, first_name="Ben", last_name="Jones")
    carmen = make_user(db, "carmen", sub=True)
    db.commit()
    return db, alice, ben, carmen


def _request(db, requestor, *, game=GAME, sub=None, team="Net Ninjas") -> int:
    fields = {"team": team, "date": game, "svl": "Lexington Sportsplex", "skill_level": "C", "format": "6s"}
    rid = request_changes.create(db, actor_of(requestor), now=MADE, **fields)
    if sub is not None:
        request_replies.accept(db, actor_of(sub), rid, now=MADE)
    db.commit()
    return rid


def _mail(db) -> list[tuple[str, str, str]]:
    db.expire_all()
    found = rows(db, OutboxMessage, OutboxMessage.kind.like("sub_reminder_%"))
    return sorted((m.kind, m.to_addr, m.subject) for m in found)


def test_the_day_before_both_sides_are_reminded_once_and_not_earlier(people):
    db, alice, ben, _carmen = people
    rid = _request(db, alice, sub=ben)
    assert send_reminders(now=DAY_BEFORE_STARTS - dt.timedelta(minutes=1)) == 0
    assert _mail(db) == []
    assert send_reminders(now=DAY_BEFORE_STARTS) == 2
    sent = _mail(db)
    assert sent == [
        ("sub_reminder_day_before", alice.email, "Reminder: Ben Jones subs for Net Ninjas on Thu, Dec 10, 2026"),
        ("sub_reminder_day_before", ben.email, "Reminder: you sub for Net Ninjas on Thu, Dec 10, 2026"),
    ]
    # later sweeps, up to the game, send nothing again
    for later in (DAY_BEFORE_STARTS + dt.timedelta(minutes=1), GAME - dt.timedelta(minutes=5)):
        assert send_reminders(now=later) == 0
    assert len(_mail(db)) == 2
    body = rows(db, OutboxMessage, OutboxMessage.to_addr == ben.email)[0].body_text
    assert "Lexington Sportsplex" in body and routes.absolute(routes.sub_request_path(rid)) in body
    assert {(r.user_id, r.kind) for r in rows(db, SubRequestReminder)} == {(alice.id, DAY_BEFORE), (ben.id, DAY_BEFORE)}


def test_the_morning_after_the_requestor_is_asked_to_mark_the_sub_once(people):
    db, alice, ben, _carmen = people
    rid = _request(db, alice, sub=ben)
    assert send_reminders(now=GAME + dt.timedelta(hours=3)) == 0  # the night of the game: too early
    assert send_reminders(now=MORNING_AFTER - dt.timedelta(minutes=1)) == 0
    assert send_reminders(now=MORNING_AFTER) == 1
    assert send_reminders(now=MORNING_AFTER + dt.timedelta(hours=2)) == 0
    [message] = rows(db, OutboxMessage, OutboxMessage.kind == "sub_reminder_after_game")
    assert message.to_addr == alice.email and message.subject == "Did Ben Jones play for Net Ninjas?"
    assert "played or did not show" in message.body_text
    assert routes.absolute(routes.sub_request_path(rid)) in message.body_text
    assert {(r.user_id, r.kind) for r in rows(db, SubRequestReminder)} == {(alice.id, AFTER_GAME)}
    # the day-before reminder was missed (no sweep ran then): it is not sent after the game
    assert count(db, OutboxMessage, OutboxMessage.kind == "sub_reminder_day_before") == 0


def test_a_week_after_the_game_nothing_is_asked_any_more(people):
    db, alice, ben, _carmen = people
    _request(db, alice, sub=ben)
    assert send_reminders(now=MORNING_AFTER + sub_reminders.ASK_FOR) == 0
    assert _mail(db) == []


def test_no_reminder_for_a_cancelled_open_or_declined_request(people):
    db, alice, ben, carmen = people
    cancelled = _request(db, alice, sub=ben, team="Cancelled")
    request_changes.delete(db, actor_of(alice), cancelled)  # accepted, then cancelled: archived
    db.commit()
    _request(db, alice, team="Nobody took it")  # open to anyone, never accepted
    declined = request_changes.create(db, actor_of(alice), recipient_id=carmen.id, now=MADE, team="Declined", date=GAME,
                                   svl="Lexington Sportsplex", skill_level="C", format="6s")  # fmt: skip
    request_replies.decline(db, actor_of(carmen), declined, now=MADE)
    db.commit()
    for now in (DAY_BEFORE_STARTS, MORNING_AFTER):
        assert send_reminders(now=now) == 0
    assert _mail(db) == [] and count(db, SubRequestReminder) == 0


def test_a_request_cancelled_after_it_was_found_due_is_not_reminded(people):
    db, alice, ben, _carmen = people
    rid = _request(db, alice, sub=ben)
    found = dbmod.call(sub_reminders.due, DAY_BEFORE_STARTS)
    assert len(found) == 2
    request_changes.delete(db, actor_of(alice), rid)
    db.commit()
    assert [dbmod.call(sub_reminders.send_one, d, DAY_BEFORE_STARTS) for d in found] == [False, False]
    assert _mail(db) == []


def test_a_reminder_another_sweep_recorded_first_is_not_queued_again(people):
    db, alice, ben, _carmen = people
    rid = _request(db, alice, sub=ben)
    assert send_reminders(now=DAY_BEFORE_STARTS) == 2
    # a sweep that found it due before the other committed: its insert fails, its email rolls back with it
    with pytest.raises(sqlalchemy.exc.IntegrityError):
        dbmod.call(sub_reminders.send_one, Due(rid, ben.id, DAY_BEFORE), DAY_BEFORE_STARTS)
    assert len(_mail(db)) == 2


def test_sweeps_running_at_the_same_time_send_each_reminder_once(people):
    db, alice, ben, carmen = people
    subs = [ben, carmen, *(make_user(db, f"sub{i}", sub=True) for i in range(4))]  # one game each: same hour
    db.commit()
    games = [_request(db, alice, sub=sub, team=f"Team {i}") for i, sub in enumerate(subs)]
    start = threading.Barrier(4)
    totals: list[int] = []
    failures: list[BaseException] = []

    def sweep():
        try:
            start.wait()
            totals.append(send_reminders(now=DAY_BEFORE_STARTS + dt.timedelta(hours=1)))
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=sweep) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failures == []
    assert sum(totals) == 2 * len(games)  # the requestor and the sub of each game, once between all sweeps
    assert len(_mail(db)) == 2 * len(games) and count(db, SubRequestReminder) == 2 * len(games)


def test_the_command_line_sends_what_is_due(people, capsys, monkeypatch):
    db, alice, ben, _carmen = people
    _request(db, alice, sub=ben)
    monkeypatch.setattr(sub_reminders, "utcnow", lambda: DAY_BEFORE_STARTS + dt.timedelta(hours=2))
    assert cli_main(["send-reminders"]) == 0
    assert "sent 2 reminder(s)" in capsys.readouterr().out
    assert cli_main(["send-reminders"]) == 0
    assert "sent 0 reminder(s)" in capsys.readouterr().out


async def test_the_periodic_task_sends_them_and_stops(people, monkeypatch):
    import asyncio

    db, alice, ben, _carmen = people
    _request(db, alice, sub=ben)
    monkeypatch.setattr(sub_reminders, "utcnow", lambda: DAY_BEFORE_STARTS + dt.timedelta(hours=2))
    stop = asyncio.Event()
    task = asyncio.create_task(sub_reminders.run_forever(stop, interval=0.05))
    for _ in range(200):
        if len(_mail(db)) == 2:
            break
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.wait_for(task, 10)
    assert len(_mail(db)) == 2


def test_every_sub_who_took_a_place_is_reminded_and_a_marked_sub_is_not_asked_about(people):
    db, alice, ben, carmen = people
    fields = {"team": "Net Ninjas", "date": GAME, "svl": "Lexington Sportsplex", "skill_level": "C", "format": "6s"}
    rid = request_changes.create(db, actor_of(alice), now=MADE, players_needed="2", **fields)
    request_replies.accept(db, actor_of(ben), rid, now=MADE)
    db.commit()
    # one of two places taken: the one who took it is reminded, with the requestor
    assert send_reminders(now=DAY_BEFORE_STARTS) == 2
    request_replies.accept(db, actor_of(carmen), rid, now=DAY_BEFORE_STARTS + dt.timedelta(minutes=1))
    db.commit()
    assert send_reminders(now=DAY_BEFORE_STARTS + dt.timedelta(minutes=2)) == 1
    assert [to for _k, to, _s in _mail(db)] == sorted([alice.email, ben.email, carmen.email])
    matching.mark_outcome(db, actor_of(alice), rid, sub_id=ben.id, outcome="Played", now=GAME + dt.timedelta(hours=3))
    db.commit()
    assert sub_reminders.due(db, MORNING_AFTER) == [Due(rid, alice.id, AFTER_GAME)]  # carmen is not marked yet
    matching.mark_outcome(db, actor_of(alice), rid, sub_id=carmen.id, outcome="No-show", now=GAME + dt.timedelta(hours=4))
    db.commit()
    assert send_reminders(now=MORNING_AFTER) == 0  # every sub marked: nothing to ask


def test_several_subs_sub_for_the_team_in_the_requestors_reminder(people):
    db, alice, ben, carmen = people
    rid = request_changes.create(db, actor_of(alice), now=MADE, team="Net Ninjas", date=GAME, svl="Lexington Sportsplex",
                              skill_level="C", format="6s", players_needed=2)  # fmt: skip
    request_replies.accept(db, actor_of(ben), rid, now=MADE)
    request_replies.accept(db, actor_of(carmen), rid, now=MADE + dt.timedelta(minutes=1))
    db.commit()
    send_reminders(now=DAY_BEFORE_STARTS)
    [told] = rows(db, OutboxMessage, OutboxMessage.to_addr == alice.email, OutboxMessage.kind == "sub_reminder_day_before")
    assert told.subject == "Reminder: Ben Jones, Carmen Tester sub for Net Ninjas on Thu, Dec 10, 2026"
    assert "A reminder: Ben Jones, Carmen Tester sub for Net Ninjas." in told.body_text
