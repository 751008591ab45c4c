"""Live updates: a small "this sub request changed" or "this team's answers changed" notice, sent once the
change is committed.

A service that changes a request calls :func:`request_changed` in its transaction (one that changes a team's
game answers, :func:`team_changed`); nothing is sent unless and until that transaction commits (a rollback
drops it). The notice names the request, the users it concerns (the requestor, the sub named or who answered)
and whether the list of open requests changed, or the team. It carries no details: a page that cares reads
again through its service, as the acting user.

Delivery: at once to the watchers of this process (:func:`watch`, the open pages'
polls), and, when ``REDIS_URL`` is set, to every other process through one Redis
pub/sub channel. Each process keeps one Redis subscriber (a thread), never one per
page, and fans what it hears out to its watchers. When Redis is out of reach a
notice reaches this process only and the subscriber retries with a growing pause;
the pages' polls stay the fallback, and when the subscriber is back every watcher
is told to read again once (what it may have missed).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from sqlalchemy import event
from sqlalchemy.orm import Session

from volley_app.settings import get_settings

if TYPE_CHECKING:
    import redis

log = logging.getLogger(__name__)

CHANNEL = "volley:live"  # and the Redis database's number: apps sharing a server hear only their own
# This process: a notice it published is not delivered to it a second time through Redis.
ORIGIN = uuid.uuid4().hex
# Publishing waits at most this long on Redis; after a failure it is not tried for a growing pause.
PUBLISH_TIMEOUT_SECONDS = 0.5
RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 30.0
_PENDING = "live_pending"


def channel(url: str) -> str:
    """The pub/sub channel of the Redis database ``url`` names (channels are shared by a server's databases)."""
    from redis.connection import parse_url

    return f"{CHANNEL}:{parse_url(url).get('db', 0)}"


@dataclasses.dataclass(frozen=True)
class Change:
    """What changed: a request, the users it concerns, whether the open list changed; or a team's answers.

    ``everything`` (sent after the subscriber missed notices) concerns every watcher.
    """

    request_id: int = 0
    users: frozenset[int] = frozenset()
    open_list: bool = False
    everything: bool = False
    team_id: int = 0
    notices: frozenset[int] = frozenset()  # users whose notifications changed (a new one, one read)
    tables: frozenset[str] = frozenset()  # tracked tables written (:func:`track`)

    def concerns(self, interest: Interest) -> bool:
        if self.everything:
            return True
        return (
            (interest.user_id is not None and interest.user_id in self.users)
            or (interest.request_id is not None and interest.request_id == self.request_id)
            or (interest.open_list and self.open_list)
            or (interest.team_id is not None and interest.team_id == self.team_id)
            or (interest.notices_of is not None and interest.notices_of in self.notices)
            or bool(interest.tables & self.tables)
        )

    def to_json(self) -> str:
        return json.dumps({"origin": ORIGIN, "r": self.request_id, "u": sorted(self.users), "o": self.open_list,
                           "t": self.team_id, "n": sorted(self.notices), "b": sorted(self.tables)})  # fmt: skip

    @classmethod
    def from_json(cls, text: str | bytes) -> tuple[str, Change] | None:
        """The sender and the notice of a message, or None for anything malformed."""
        try:
            data = json.loads(text)
            users = frozenset(int(u) for u in data.get("u", []))
            notices = frozenset(int(u) for u in data.get("n", []))
            tables = frozenset(str(t) for t in data.get("b", []))
            return str(data.get("origin", "")), cls(int(data.get("r", 0)), users, bool(data.get("o", False)),
                                                    team_id=int(data.get("t", 0)), notices=notices, tables=tables)  # fmt: skip
        except (ValueError, TypeError, AttributeError):
            return None


@dataclasses.dataclass(frozen=True)
class Interest:
    """What one page shows: a user's own requests, one request, the open list, a team's games, a user's
    notifications, or rows of tracked tables (a list of leagues)."""

    user_id: int | None = None
    request_id: int | None = None
    open_list: bool = False
    team_id: int | None = None
    notices_of: int | None = None
    tables: frozenset[str] = frozenset()

    @property
    def empty(self) -> bool:
        return (self.user_id is None and self.request_id is None and not self.open_list and self.team_id is None
                and self.notices_of is None and not self.tables)  # fmt: skip


# -- sending ------------------------------------------------------------------------------------------------------


def request_changed(db: Session, request_id: int | None, users: Iterable[int | None], *, open_list: bool = False) -> None:
    """Tell the pages concerned that a request changed, once ``db``'s transaction commits."""
    change = Change(int(request_id or 0), frozenset(int(u) for u in users if u), bool(open_list))
    db.info.setdefault(_PENDING, []).append(change)


def team_changed(db: Session, team_id: int | None) -> None:
    """Tell the pages of a team's games that an answer changed, once ``db``'s transaction commits."""
    if team_id:
        db.info.setdefault(_PENDING, []).append(Change(team_id=int(team_id)))


def notices_changed(db: Session, user_id: int | None) -> None:
    """Tell the pages showing a user's notifications (their count, their list) that these changed, once ``db``'s
    transaction commits."""
    if user_id:
        db.info.setdefault(_PENDING, []).append(Change(notices=frozenset({int(user_id)})))


# Tables a page shows rows of (a list of leagues): a commit that wrote one tells the pages showing it. Others (login
# sessions, the outbox) are written all the time and no page lists them.
_TRACKED: set[str] = set()
_WRITTEN = "live_tables"


def track(*tables: str) -> frozenset[str]:
    """Tell the pages that show rows of ``tables`` whenever a commit writes one (by the ORM or an UPDATE, INSERT or
    DELETE run through a session); answers them, for the page's :class:`Interest`."""
    _TRACKED.update(tables)
    return frozenset(tables)


def _written(session: Session, names: Iterable[str | None]) -> None:
    found = {n for n in names if n in _TRACKED}
    if found:
        session.info.setdefault(_WRITTEN, set()).update(found)


@event.listens_for(Session, "before_flush")
def _before_flush(session: Session, _context, _instances) -> None:
    if _TRACKED:
        rows = (*session.new, *session.dirty, *session.deleted)
        _written(session, (getattr(getattr(type(r), "__table__", None), "name", None) for r in rows))


@event.listens_for(Session, "do_orm_execute")
def _on_execute(state) -> None:
    if _TRACKED and (state.is_update or state.is_delete or state.is_insert):
        _written(state.session, [getattr(getattr(state.statement, "table", None), "name", None)])


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    if session.in_nested_transaction():  # a savepoint released: the transaction goes on
        return
    changes = list(session.info.pop(_PENDING, None) or ())
    if tables := session.info.pop(_WRITTEN, None):
        changes.append(Change(tables=frozenset(tables)))
    for change in changes:
        publish(change)


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    if session.in_nested_transaction():  # a savepoint rolled back: what came before it stands (a notice too many
        return  # only makes a page read again)
    session.info.pop(_PENDING, None)
    session.info.pop(_WRITTEN, None)


def publish(change: Change) -> None:
    """Deliver ``change`` here, then to the other processes through Redis when it is configured. Never raises."""
    _deliver(change)
    _publisher.send(change)


class _Publisher:
    """One Redis client per process for publishing; after a failure, a pause before trying again."""

    def __init__(self) -> None:
        self._client: redis.Redis | None = None
        self._url: str | None = None
        self._resting_until = 0.0
        self._pause = 0.0
        self._lock = threading.Lock()

    def _get(self, url: str):
        import redis

        if self._client is None or self._url != url:
            self._client = redis.Redis.from_url(
                url, socket_timeout=PUBLISH_TIMEOUT_SECONDS, socket_connect_timeout=PUBLISH_TIMEOUT_SECONDS
            )
            self._url = url
        return self._client

    def send(self, change: Change) -> None:
        url = get_settings().redis_url
        if not url or time.monotonic() < self._resting_until:
            return
        try:
            with self._lock:
                client = self._get(url)
            client.publish(channel(url), change.to_json())
            self._pause = 0.0
        except Exception as exc:  # noqa: BLE001 - Redis out of reach: the other processes' polls still read it
            self._pause = min(max(2 * self._pause, RETRY_FIRST_SECONDS), RETRY_MAX_SECONDS)
            self._resting_until = time.monotonic() + self._pause
            log.warning("Live update not published (%s: %s); next try in %.0f s", type(exc).__name__, exc, self._pause)


_publisher = _Publisher()


# -- receiving ----------------------------------------------------------------------------------------------------


class Watch:
    """One page's wait for a change it cares about (made in its event loop, fired from any thread)."""

    def __init__(self, interest: Interest) -> None:
        self.interest = interest
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()

    def _fire(self) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed
            self._loop.call_soon_threadsafe(self._event.set)

    def poke(self) -> None:
        """Wake the wait now (in the watch's event loop): what it shows may have gone (the tab closed, say)."""
        self._fire()

    async def changed(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for a change; True (and ready for the next) when one came."""
        if not self._event.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(seconds):  # no task of its own, as wait_for would make
                    await self._event.wait()
        fired = self._event.is_set()
        self._event.clear()
        return fired


_watches: set[Watch] = set()
_watch_lock = threading.Lock()
_listeners: list[Callable[[Change], None]] = []


def _deliver(change: Change) -> None:
    with _watch_lock:
        found = [w for w in _watches if change.concerns(w.interest)]
        listeners = list(_listeners)
    for w in found:
        w._fire()
    for listener in listeners:
        try:
            listener(change)
        except Exception:  # noqa: BLE001 - one listener's bug never stops the others
            log.exception("a live update listener failed")


def listen(listener: Callable[[Change], None]) -> Callable[[], None]:
    """Call ``listener(change)`` (from any thread) for every change this process hears; returns the way to stop."""
    with _watch_lock:
        _listeners.append(listener)

    def stop() -> None:
        with _watch_lock, contextlib.suppress(ValueError):
            _listeners.remove(listener)

    return stop


@contextlib.contextmanager
def watch(interest: Interest):
    """A :class:`Watch` for ``interest`` while the block runs (in an event loop); this process's subscriber runs."""
    w = Watch(interest)
    _subscriber.ensure_running()
    with _watch_lock:
        _watches.add(w)
    try:
        yield w
    finally:
        with _watch_lock:
            _watches.discard(w)


def watching(*, notices: bool = False) -> int:
    """How many pages of this process wait for changes now: of sub requests and teams, or (``notices``) of a
    person's notifications (the header's bell on every /dash page, the notifications' list)."""
    with _watch_lock:
        return sum(1 for w in _watches if (w.interest.notices_of is not None) == notices)


class _Subscriber:
    """This process's one Redis subscriber (a daemon thread), started when the first page watches."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.connected = threading.Event()

    def ensure_running(self) -> None:
        url = get_settings().redis_url
        if not url:
            return
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, args=(url,), name="live-subscriber", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """End the thread (tests switch Redis databases)."""
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=5)
        self._thread = None
        self.connected.clear()

    def _run(self, url: str) -> None:
        import redis

        pause, missed = 0.0, False
        while not self._stop.is_set():
            pubsub = None
            try:
                client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(channel(url))
                self.connected.set()
                if missed:
                    log.info("Live updates: subscribed again; every watching page reads once")
                    _deliver(Change(everything=True))
                pause, missed = 0.0, False
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message and message.get("type") == "message":
                        self._received(message.get("data"))
            except Exception as exc:  # noqa: BLE001 - Redis out of reach: back off, the polls carry on
                self.connected.clear()
                missed = True
                pause = min(max(2 * pause, RETRY_FIRST_SECONDS), RETRY_MAX_SECONDS)
                log.warning("Live updates: Redis subscriber lost (%s); trying again in %.0f s", type(exc).__name__, pause)
                self._stop.wait(pause)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()
        self.connected.clear()

    @staticmethod
    def _received(data: object) -> None:
        found = Change.from_json(data) if isinstance(data, str | bytes) else None
        if found is None:
            return
        origin, change = found
        if origin != ORIGIN:  # this process delivered its own at once
            _deliver(change)


_subscriber = _Subscriber()


def subscriber_connected(timeout: float = 0.0) -> bool:
    """Whether this process's Redis subscriber is subscribed (waiting up to ``timeout`` seconds)."""
    return _subscriber.connected.wait(timeout)
