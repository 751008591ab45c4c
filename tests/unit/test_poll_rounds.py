"""A page's poll, run as Reflex runs a background event (a real StateProxy over the tab's state): each round reads
the database with the state unlocked and takes the lock only to assign what it read."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from tests.factories import actor_of, add_league, league_world, login_token, player_world, rows
from tests.harness import as_background, call, page_state, substate
from volley_app import db as dbmod
from volley_app.models import User
from volley_app.pages.dash.leagues.list import LeaguesState
from volley_app.pages.dash.sub_requests.detail import SubRequestState
from volley_app.services.subs import request_replies
from volley_app.settings import get_settings
from volley_app.state import polling
from volley_app.state.auth import AuthState
from volley_app.state.sub_invites import InviteQueueState


@pytest.fixture
def quick_rounds(monkeypatch):
    """Five rounds 10 ms apart, in this process alone (no REDIS_URL: live notices stay here), for a tab that stays
    connected (an app another test started in this process would not know its socket)."""
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 0.05)
    monkeypatch.setattr(polling, "tab_connected", lambda _state: True)
    monkeypatch.delenv("REDIS_URL", raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@contextlib.asynccontextmanager
async def _background(root, state, monkeypatch):
    """``state`` as a background event gets it (:func:`as_background`), and the database reads made through it:
    (what was read, whether the tab's lock was held)."""
    reads: list[tuple[str, bool]] = []
    run = dbmod.run
    async with as_background(root, state) as (proxy, manager):

        async def watched(fn, *args, **kwargs):
            locked = any(lock.locked() for lock in manager._states_locks.values())
            reads.append((getattr(fn, "__name__", str(fn)), locked))
            return await run(fn, *args, **kwargs)

        monkeypatch.setattr(dbmod, "run", watched)
        yield proxy, reads


def _logged_in(root, db, username: str) -> None:
    substate(root, AuthState).user_id = rows(db, User, User.username == username)[0].id


async def test_the_league_lists_poll_reads_with_the_state_unlocked(db, monkeypatch, quick_rounds):
    w = league_world(db)
    root, leagues = page_state(LeaguesState, "/dash/leagues", login_token(db, "svla"))
    _logged_in(root, db, "svla")
    await call(leagues.load)
    assert len(leagues.league_rows) == 1
    add_league(db, w["svla"], w["sid"], court="Court 9")  # added while the tab shows the list
    leagues._poll_seconds = 0.01
    async with _background(root, leagues, monkeypatch) as (proxy, reads):
        await asyncio.wait_for(LeaguesState.poll.fn(proxy), 30)
    assert [court for court in (r["court"] for r in leagues.league_rows)].count("Court 9") == 1  # the poll showed it
    assert {name for name, _locked in reads} >= {"leagues_page"}
    assert [name for name, locked in reads if locked] == [], f"read with the state locked: {reads}"


async def test_the_request_pages_poll_reads_the_request_and_its_panels_with_the_state_unlocked(
    db, monkeypatch, quick_rounds
):
    w = player_world(db)
    rid = w["requests"]["open"]
    root, detail = page_state(SubRequestState, f"/dash/notes/{rid}", w["tokens"]["alice"])
    _logged_in(root, db, "alice")
    await call(detail.load)
    queue = substate(root, InviteQueueState)  # the page's load showed its invite list
    assert detail.note["status"] == "Open" and queue.places == []
    key = detail.form_key
    request_replies.accept(db, actor_of(rows(db, User, User.username == "ben")[0]), rid)  # while the tab shows it
    db.commit()
    detail._poll_seconds = 0.01
    async with _background(root, detail, monkeypatch) as (proxy, reads):
        await asyncio.wait_for(SubRequestState.poll.fn(proxy), 30)
    assert detail.note["status"] == "Accepted" and detail.note["sub"] == "Ben Tester"
    assert detail.form_key == key  # what the requestor may be typing in the edit form stays
    assert queue.places != []  # the panels followed the request
    names = [name for name, _locked in reads]
    assert {"detail", "outcome_info", "suggestions"} <= set(names)
    changed = names[: names.index("outcome_info") + 1]  # the round that found the change and showed it
    assert changed.count("detail") == 1  # one read of the request for the page and its invite list
    assert [name for name, locked in reads if locked] == [], f"read with the state locked: {reads}"


async def test_the_request_pages_poll_drops_panels_read_before_the_page_was_read_again(db, monkeypatch, quick_rounds):
    """The viewer acts (an invite, say) while a round reads the panels: the page read again then is newer than those
    panels, which are not shown over it."""
    w = player_world(db)
    rid = w["requests"]["open"]
    root, detail = page_state(SubRequestState, f"/dash/notes/{rid}", w["tokens"]["alice"])
    _logged_in(root, db, "alice")
    await call(detail.load)
    queue = substate(root, InviteQueueState)
    request_replies.accept(db, actor_of(rows(db, User, User.username == "ben")[0]), rid)
    db.commit()
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 0.01)  # one round
    detail._poll_seconds = 0.01
    async with _background(root, detail, monkeypatch) as (proxy, _reads):
        run = dbmod.run

        async def viewer_acts_meanwhile(fn, *args, **kwargs):
            if getattr(fn, "__name__", "") == "outcome_info":  # the round reads the panels
                detail._seen, queue.places = "read again by the viewer's event", ["as that event showed"]
            return await run(fn, *args, **kwargs)

        monkeypatch.setattr(dbmod, "run", viewer_acts_meanwhile)
        await asyncio.wait_for(SubRequestState.poll.fn(proxy), 30)
    assert detail.note["status"] == "Accepted"  # the round showed the request
    assert queue.places == ["as that event showed"]  # and not its older panels over the newer page
