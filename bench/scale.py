"""Benchmark: the main list screens at 1k, 10k and 100k rows of each kind, in Chromium, on the production build.

One command:

    .venv/bin/python bench/scale.py                      # SQLite in a temp dir; sizes 1000,10000,100000
    .venv/bin/python bench/scale.py --sizes 1000,10000   # fewer sizes
    .venv/bin/python bench/scale.py --database-url postgresql://postgres@127.0.0.1:5432/volley_bench

For each size it empties a fresh database, seeds that many users, subs, open sub requests (and as many
archived ones), leagues, teams (one in ten waitlisted), games, payments, sent emails and newsletter
subscribers, and measures, per list screen (player home, open requests, subs, admin users, leagues,
sessions, a session's leagues, teams, waitlist, archive, sent emails): the time until the first row
shows (navigation to a visible row), the bytes the websocket received to show it, the rows in the DOM;
the server's state per connected, logged-in tab and the process's memory growth over ``--tabs`` tabs
(200 by default: one real Chromium tab on the open requests screen is recorded and its websocket
replayed under as many client tokens; with REDIS_URL set the state is read from Redis, each tab's keys);
and the round trip of the open requests' Next page event against a plain REST request for the same
rows, both timed in the page, with the moment the event's reply arrived (the rest is drawing it).
The table goes to bench/RESULTS.md with the date, commit and machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PASSWORD = "bench-pass-1"
SCREENS = [  # (name, path, who, selector of one row)
    ("player home `/dash`", "/dash", "player", "[data-testid=request-item]"),
    ("open requests `/dash/notes`", "/dash/notes", "player", "[data-testid=request-item]"),
    ("subs `/dash/subs`", "/dash/subs", "player", "[data-testid=sub-item]"),
    ("admin users `/dash/users`", "/dash/users", "admin", "table tbody tr"),
    ("leagues `/dash/leagues`", "/dash/leagues", "player", "table tbody tr"),
    ("sessions `/dash/sessions`", "/dash/sessions", "admin", "table tbody tr"),
    ("a session's leagues", "/dash/sessions/leagues?session=1", "admin", "table tbody tr"),
    ("teams `/dash/teams`", "/dash/teams", "admin", "table tbody tr"),
    ("waitlist", "/dash/leagues/teams/waitlist", "admin", "table tbody tr"),
    ("archive `/dash/archive`", "/dash/archive", "admin", "table tbody tr"),
    ("sent emails `/dash/emailAll`", "/dash/emailAll", "admin", "table tbody tr"),
]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the data --------------------------------------------------------------------------------------------------


def reset_database() -> None:
    import sqlalchemy as sa

    from volley_app import db
    from volley_app.migrations import upgrade_to_head

    engine = db.get_engine()
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(sa.text("DROP SCHEMA public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
        else:
            conn.execute(sa.text("PRAGMA foreign_keys=OFF"))
            for (name,) in conn.execute(sa.text("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")).all():
                conn.execute(sa.text(f'DROP TABLE IF EXISTS "{name}"'))
    upgrade_to_head()


def _insert(conn, table, rows, batch: int = 5000) -> None:
    for i in range(0, len(rows), batch):
        conn.execute(table.insert(), rows[i : i + batch])


def seed(n: int) -> None:
    """``n`` rows of each kind, and the two people who look: ``player`` and ``admin``."""
    from volley_app import db
    from volley_app.models import (
        EmailAllJob,
        Game,
        League,
        LeagueSession,
        NewsletterSubscriber,
        Payment,
        SubRequest,
        Team,
        User,
        utcnow,
    )  # fmt: skip
    from volley_app.services.accounts import passwords

    now = utcnow().replace(microsecond=0)
    pw = passwords.hash_password(PASSWORD)
    genders, ratings = ["Male", "Female"], ["A", "B", "C", "D"]
    users = [
        {"username": "player", "email": "player@example.com", "first_name": "Pat", "last_name": "Player", "roles": ["Player"]},
        {"username": "admin", "email": "admin@example.com", "first_name": "Ada", "last_name": "Admin", "roles": ["Admin"]},
        {"username": "venue", "email": "venue@example.com", "first_name": "Venue", "last_name": "One", "roles": ["SVL"]},
    ]  # fmt: skip
    users += [{"username": f"user{i:06}", "email": f"user{i:06}@example.com", "first_name": f"First{i:06}",
               "last_name": f"Last{i:06}", "roles": ["Player"]} for i in range(n)]  # fmt: skip
    users += [{"username": f"sub{i:06}", "email": f"sub{i:06}@example.com", "first_name": f"Sub{i:06}",
               "last_name": f"Player{i:06}", "roles": ["Player"], "sub": True, "gender": genders[i % 2],
               "hitter_skill_level": ratings[i % 4], "passer_skill_level": ratings[(i + 1) % 4],
               "setter_skill_level": ratings[(i + 2) % 4]} for i in range(n)]  # fmt: skip
    base = {"password_hash": pw, "sub": False, "active": True, "created_at": now, "updated_at": now, "region": "KY",
            "gender": None, "hitter_skill_level": None, "passer_skill_level": None, "setter_skill_level": None}  # fmt: skip
    users = [base | u for u in users]
    with db.get_engine().begin() as conn:
        _insert(conn, User.__table__, users)
        svl_id = conn.execute(User.__table__.select().where(User.__table__.c.username == "venue")).first().id
        first_user = svl_id + 1
        requests = [{"requestor_id": first_user + (i % n), "recipient_id": None, "status": "Open", "svl": f"Venue {i % 50}",
                     "team": f"Team {i:06}", "date": now + dt.timedelta(days=1, minutes=i), "court": None,
                     "skill_level": "C", "format": "6s", "text": None, "completed": False, "created_at": now,
                     "updated_at": now} for i in range(n)]  # fmt: skip
        _insert(conn, SubRequest.__table__, requests)
        archived = [r | {"team": f"Gone {i:06}", "archived_at": now - dt.timedelta(minutes=i), "status": "Declined"}
                    for i, r in enumerate(requests)]  # fmt: skip
        _insert(conn, SubRequest.__table__, archived)
        _insert(conn, EmailAllJob.__table__, [
            {"subject": f"Notice {i:06}", "body_text": "Hello", "created_by_id": None, "created_at": now, "queued": 0}
            for i in range(n)])  # fmt: skip
        sessions = max(1, n // 100)
        _insert(conn, LeagueSession.__table__, [
            {"svl_id": svl_id, "name": f"Season {i}", "status": "Registration", "start_at": now, "end_at": now + dt.timedelta(days=90),
             "created_at": now} for i in range(sessions)])  # fmt: skip
        first_session = conn.execute(LeagueSession.__table__.select().order_by(LeagueSession.__table__.c.id)).first().id
        days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        _insert(conn, League.__table__, [
            {"session_id": first_session + i % sessions, "svl_id": svl_id, "court": f"Court {i % 6}",
             "start_at": now + dt.timedelta(days=(i % 200) - 100), "number_of_weeks": 8, "time_increment": 50,
             "skill_level": "C", "format": "6s", "day": days[i % 7], "stage": "Registration", "max_teams": 8, "cost_cents": 30000, "cash": False,
             "active": True, "schedule_generated": False, "offer_hold_hours": 48, "created_at": now} for i in range(n)])  # fmt: skip
        first_league = conn.execute(League.__table__.select().order_by(League.__table__.c.id)).first().id
        _insert(conn, Team.__table__, [
            {"league_id": first_league + i % n, "captain_id": first_user + i % n, "team_name": f"Team {i:06}",
             "paid": True, "waitlist": i % 10 == 0, "created_at": now} for i in range(n)])  # fmt: skip
        first_team = conn.execute(Team.__table__.select().order_by(Team.__table__.c.id)).first().id
        _insert(conn, Game.__table__, [
            {"league_id": first_league + i % n, "team1_id": first_team + i % n, "team2_id": first_team + (i + 1) % n,
             "start_at": now + dt.timedelta(hours=i), "type": "League", "round": 1, "match": 1} for i in range(n)])  # fmt: skip
        _insert(conn, Payment.__table__, [
            {"league_id": first_league + i % n, "team_id": first_team + i % n, "user_id": first_user + i % n,
             "team_name": f"Team {i:06}", "league_name": "Monday C 6s", "payer_name": "Pat", "amount_cents": 30000,
             "currency": "usd", "provider": "offline", "status": "paid", "idempotency_key": f"bench-{i}",
             "created_at": now, "updated_at": now} for i in range(n)])  # fmt: skip
        columns = {c.name for c in NewsletterSubscriber.__table__.columns}
        subscribers = []
        for i in range(n):
            row = {"email": f"fan{i:06}@example.com", "created_at": now}
            for name, value in (("confirmed", True), ("active", True), ("token_hash", f"{i:064x}")):
                if name in columns:
                    row[name] = value
            subscribers.append({k: v for k, v in row.items() if k in columns})
        _insert(conn, NewsletterSubscriber.__table__, subscribers)
    if db.get_engine().dialect.name == "postgresql":  # statistics, as autovacuum keeps them on a live database
        with db.get_engine().connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("ANALYZE")


# --- the browser -------------------------------------------------------------------------------------------------


def log_in(context, base: str, username: str):
    page = context.new_page()
    page.goto(base + "/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Login").click()
    page.wait_for_url(lambda url: "/login" not in url, timeout=60_000)
    return page


def measure_screen(browser, base: str, path: str, who: str, selector: str, repeat: int = 7) -> dict:
    """The screen measured ``repeat`` times in fresh tabs; the median of each measure."""
    samples = [_measure_screen_once(browser, base, path, who, selector) for _ in range(repeat)]
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def _measure_screen_once(browser, base: str, path: str, who: str, selector: str) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = log_in(context, base, who)
        page.goto(base + "/dash/profile")
        page.wait_for_load_state("networkidle")
        received = {"bytes": 0}

        def watch(ws):
            ws.on("framereceived", lambda payload: received.__setitem__("bytes", received["bytes"] + len(payload)))

        page.on("websocket", watch)
        started = time.perf_counter()
        page.goto(base + path, wait_until="commit")
        page.locator(selector).filter(visible=True).first.wait_for(timeout=120_000)
        first_row = time.perf_counter() - started
        page.wait_for_timeout(1500)  # what else the screen receives right after
        dom_rows = page.locator(selector).count()
        return {"first_row_s": first_row, "ws_bytes": received["bytes"], "dom_rows": dom_rows}
    finally:
        context.close()


NEXT_EVENT_JS = """async () => {
  const status = document.querySelector('[data-testid=pager] [role=status]');
  const before = status.textContent;
  const next = document.querySelector('button[aria-label="Next page of open sub requests"]');
  window.__wsAt = 0;
  const t0 = performance.now();
  const done = new Promise(resolve => {
    const o = new MutationObserver(() => { if (status.textContent !== before) { o.disconnect(); resolve(); } });
    o.observe(status, {childList: true, characterData: true, subtree: true});
  });
  next.click();
  await done;
  const t1 = performance.now();
  return [t1 - t0, window.__wsAt ? window.__wsAt - t0 : null];
}"""

# Notes when the last websocket message arrived: the event's time splits into the reply and drawing it.
WS_CLOCK_JS = """(() => {
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    ws.addEventListener('message', () => { window.__wsAt = performance.now(); });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""

PREVIOUS_JS = """async () => {
  const status = document.querySelector('[data-testid=pager] [role=status]');
  const before = status.textContent;
  document.querySelector('button[aria-label="Previous page of open sub requests"]').click();
  await new Promise(resolve => {
    const o = new MutationObserver(() => { if (status.textContent !== before) { o.disconnect(); resolve(); } });
    o.observe(status, {childList: true, characterData: true, subtree: true});
  });
}"""

REST_JS = """async (backend) => {
  const token = localStorage.getItem('vb_session') || sessionStorage.getItem('vb_session_tab');
  const headers = {Authorization: 'Bearer ' + token.replace(/^"|"$/g, '')};
  const first = await (await fetch(backend + '/api/sub-requests/open', {headers})).json();
  const times = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const page = await (await fetch(backend + '/api/sub-requests/open?page=' + encodeURIComponent(first.next), {headers})).json();
    if (!page.rows.length) throw new Error('empty page');
    times.push(performance.now() - t0);
  }
  return times;
}"""


def measure_next_page(browser, base: str, backend: str) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(WS_CLOCK_JS)
    try:
        page = log_in(context, base, "player")
        page.goto(base + "/dash/notes")
        page.locator("[data-testid=request-item]").filter(visible=True).first.wait_for(timeout=120_000)
        events, replies = [], []
        for _ in range(7):
            total, reply = page.evaluate(NEXT_EVENT_JS)
            events.append(total)
            if reply is not None:
                replies.append(reply)
            page.evaluate(PREVIOUS_JS)
        rest = page.evaluate(REST_JS, backend)
        return {"event_ms": statistics.median(events), "rest_ms": statistics.median(rest),
                "reply_ms": statistics.median(replies) if replies else None}  # fmt: skip
    finally:
        context.close()


def _tree_bytes(state) -> int:
    """What the server keeps for one tab: each state of its tree, serialised as the state manager stores it."""
    return len(state._serialize()) + sum(_tree_bytes(sub) for sub in state.substates.values())


def record_tab(browser, base: str) -> tuple[str, list[str]]:
    """What one logged-in tab opening the open requests screen sends over its websocket: the address and the frames."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    seen: dict = {"url": "", "frames": []}
    try:
        page = log_in(context, base, "player")
        page.goto(base + "/dash/profile")
        page.wait_for_load_state("networkidle")

        def watch(ws):  # the notes screen's own connection: a navigation opens a new one
            seen["url"], seen["frames"] = ws.url, []
            ws.on("framesent", lambda payload: seen["frames"].append(payload if isinstance(payload, str) else payload.decode()))

        page.on("websocket", watch)
        page.goto(base + "/dash/notes")
        page.locator("[data-testid=request-item]").filter(visible=True).first.wait_for(timeout=120_000)
        page.wait_for_timeout(1000)
        return seen["url"], [f for f in seen["frames"] if f.startswith(("40", "42"))]
    finally:
        context.close()


class SocketTab:
    """One more tab, as its websocket (asyncio, wsproto): it replays a real tab's frames under its own client token,
    answers the server's pings as a browser does, and stays connected until closed."""

    def __init__(self, url: str, frames: list[str], token: str):
        import uuid

        self.token = str(uuid.uuid4())
        self.url, self.frames = url.replace(token, self.token), [f.replace(token, self.token) for f in frames]
        self.answered = self.closed = False
        self.shown = asyncio.Event()

    async def open(self) -> None:
        import urllib.parse

        import wsproto
        from wsproto.events import Request

        parts = urllib.parse.urlsplit(self.url)
        self.ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        self.reader, self.writer = await asyncio.open_connection(parts.hostname, parts.port)
        self.writer.write(self.ws.send(Request(host=parts.netloc, target=f"{parts.path}?{parts.query}")))
        self.task = asyncio.create_task(self._read())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.shown.wait(), 60)

    def _text(self, text: str) -> None:
        from wsproto.events import TextMessage

        self.writer.write(self.ws.send(TextMessage(data=text)))

    async def _read(self) -> None:
        from bench.wsframes import read_messages

        await read_messages(self.reader, self.writer, self.ws, self._on_packet)
        self.closed = True

    def _on_packet(self, packet: str) -> None:
        if packet.startswith("0{"):  # Engine.IO open: the recorded tab's frames follow
            for frame in self.frames:
                self._text(frame)
        elif packet == "2":
            self._text("3")
        elif packet.startswith("42") and '"rows' in packet:
            self.answered = True
            self.shown.set()

    async def close(self) -> None:
        self.closed = True
        self.task.cancel()
        self.writer.close()


def _tab_token(url: str) -> str:
    """The client token a tab's websocket address carries (``?token=...``)."""
    import re

    if found := re.search(r"token=([0-9a-f-]{36})", url):
        return found.group(1)
    msg = f"no client token in the websocket address {url}"
    raise RuntimeError(msg)


def _redis_bytes(token: str) -> int:
    """The bytes Redis keeps for one tab: every state key of its client token."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    return sum(client.strlen(key) for key in client.scan_iter(match=f"{token}_*", count=1000))


def measure_tabs(browser, base: str, app, tabs: int) -> dict:
    """Per connected, logged-in tab on the open requests screen: the state kept for it and the process's memory growth.

    One real Chromium tab is recorded; ``tabs`` more tabs are its websocket replayed under their own client
    tokens (as many Chromium tabs would not fit in this machine's memory next to the server), by another
    process (``--replay``), so that this process, which runs the server, grows by the server's share only.
    """
    import json

    import psutil

    url, frames = record_tab(browser, base)
    process = psutil.Process()
    before = process.memory_info().rss
    replay = subprocess.Popen([sys.executable, __file__, "--replay", str(tabs)], stdin=subprocess.PIPE,  # noqa: S603
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        replay.stdin.write(json.dumps({"url": url, "frames": frames}) + "\n")
        replay.stdin.flush()
        opened = json.loads(replay.stdout.readline())  # every tab connected and its screen shown
        grown = process.memory_info().rss - before
        sizes = []
        if os.environ.get("REDIS_URL"):
            sizes = [_redis_bytes(t) for t in opened["tokens"][:20]]
        else:
            states = getattr(app.state_manager, "states", {})
            sizes = [_tree_bytes(states[t]) for t in opened["tokens"][:20] if t in states]
        return {"state_bytes": statistics.median(sizes) if sizes else None, "rss_per_tab": grown / max(tabs, 1),
                "answered": opened["answered"], "where": "Redis" if os.environ.get("REDIS_URL") else "memory",
                "open_s": opened["seconds"]}  # fmt: skip
    finally:
        replay.stdin.close()  # the tabs close
        replay.wait(60)


def replay_tabs(tabs: int) -> None:
    """The other process of ``measure_tabs``: opens the tabs, says so on stdout, keeps them until stdin closes."""
    import json

    recorded = json.loads(sys.stdin.readline())
    token = _tab_token(recorded["url"])

    async def run() -> None:
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        clients = [SocketTab(recorded["url"], recorded["frames"], token) for _ in range(tabs)]
        for i in range(0, tabs, 10):  # a few at a time, as people open the page
            await asyncio.gather(*(c.open() for c in clients[i : i + 10]))
        answered = sum(c.answered and not c.closed for c in clients)  # still connected, their screen shown
        print(json.dumps({"answered": answered, "tokens": [c.token for c in clients],
                          "seconds": time.monotonic() - started}), flush=True)  # fmt: skip
        await loop.run_in_executor(None, sys.stdin.read)  # until measure_tabs closes stdin
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)

    asyncio.run(run())


# --- the run -----------------------------------------------------------------------------------------------------


def start_app():
    from reflex.testing import AppHarnessProd, _get_uvicorn
    from reflex.utils import exec as rx_exec

    from volley_app.api.security import protect
    from volley_app.settings import get_settings

    port = _free_port()
    origin = f"http://127.0.0.1:{port}"
    os.environ["CORS_ORIGINS"] = origin
    os.environ["PUBLIC_URL"] = origin
    os.environ["PATH"] = f"{ROOT / '.tools' / 'node_modules' / '.bin'}{os.pathsep}{os.environ['PATH']}"
    os.environ["REFLEX_USE_SYSTEM_BUN"] = "1"
    os.environ["REFLEX_TELEMETRY_ENABLED"] = "false"
    get_settings.cache_clear()
    urls = {}

    class Harness(AppHarnessProd):
        def _run_frontend(self):
            uvicorn = _get_uvicorn()
            host, backend_port = self.backend.servers[0].sockets[0].getsockname()[:2]
            urls["backend"] = f"http://{host}:{backend_port}"
            pages = protect(rx_exec._frontend_prod_app(), backend_urls=[urls["backend"]])
            self.frontend_server = uvicorn.Server(uvicorn.Config(app=pages, host="127.0.0.1", port=port, log_level="warning"))
            self.frontend_server.run()

    harness = Harness.create(root=ROOT, app_name="volley_app")
    harness.__enter__()
    return harness, origin, urls


def machine() -> str:
    import psutil

    mem = psutil.virtual_memory().total / 2**30
    return f"{platform.system()} {platform.release()}, {os.cpu_count()} cores, {mem:.0f} GiB, Python {platform.python_version()}"


class LoadWatch:
    """The machine's 1-minute load average, sampled every few seconds while the bench runs."""

    def __init__(self) -> None:
        import threading

        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(5):
            self.samples.append(os.getloadavg()[0])

    def summary(self) -> str:
        self._stop.set()
        if not self.samples:
            return "n/a"
        return f"{min(self.samples):.1f}–{max(self.samples):.1f} (median {statistics.median(self.samples):.1f})"


def targets(results: list[dict]) -> list[str]:
    """Each screen's time at the largest N against its time at the smallest, the largest bytes seen, and the
    Next page event against REST: the round trip (its reply arrived) and with the rows drawn."""
    if len(results) < 2:
        return []
    small, large = results[0], results[-1]
    lines = ["", f"| screen | first row at {small['n']:,} | at {large['n']:,} | ratio (target ≤ 1.3) | under 1 s |",
             "|---|---|---|---|---|"]  # fmt: skip
    for name, m in large["screens"].items():
        a, b = small["screens"][name]["first_row_s"], m["first_row_s"]
        lines.append(f"| {name} | {a:.2f} s | {b:.2f} s | {b / a:.2f} | {'yes' if b < 1 else 'no'} |")
    most = max(m["ws_bytes"] for r in results for m in r["screens"].values())
    lines += ["", f"Most websocket bytes for any screen at any N: {most / 1024:.1f} KB (target 100 KB).", "",
              "| N | Next page round trip ÷ REST (target ≤ 1.5) | with the rows drawn ÷ REST |", "|---|---|---|"]  # fmt: skip
    for r in results:
        p = r["next"]
        reply = "n/a" if p.get("reply_ms") is None else f"{p['reply_ms'] / p['rest_ms']:.2f}"
        lines.append(f"| {r['n']:,} | {reply} | {p['event_ms'] / p['rest_ms']:.2f} |")
    return lines


def write_results(results: list[dict], database: str, tabs: int, repeat: int, load: str) -> Path:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()  # noqa: S607
    lines = [
        "",
        f"## scale.py — {dt.date.today().isoformat()}, commit {commit}, {database}",
        "",
        f"Machine: {machine()}. One backend worker, production build, Chromium. N rows of each kind.",
        f"Each screen measured {repeat} times in a fresh tab after one warm-up visit; the median. "
        f"Load average (1 min) during the run: {load}.",
        "",
        "| screen | N | first row | websocket bytes | DOM rows |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        for name, m in r["screens"].items():
            lines.append(f"| {name} | {r['n']:,} | {m['first_row_s']:.2f} s | {m['ws_bytes'] / 1024:.1f} KB | {m['dom_rows']} |")
    lines += ["", f"| N | state per tab (serialised) | memory growth per tab ({tabs} tabs) | Next page event "
              "(its reply arrived) | REST, same rows |", "|---|---|---|---|---|"]  # fmt: skip
    for r in results:
        t, p = r["tabs"], r["next"]
        state = "n/a" if t["state_bytes"] is None else f"{t['state_bytes'] / 1024:.1f} KB ({t['where']})"
        reply = f" ({p['reply_ms']:.1f} ms)" if p.get("reply_ms") is not None else ""
        lines.append(f"| {r['n']:,} | {state} | {t['rss_per_tab'] / 1024:.0f} KB ({t['answered']} answered) | "
                     f"{p['event_ms']:.1f} ms{reply} | {p['rest_ms']:.1f} ms |")  # fmt: skip
    lines += targets(results)
    out = ROOT / "bench" / "RESULTS.md"
    with out.open("a") as f:
        f.write("\n".join(lines) + "\n")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--tabs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7, help="samples per screen (the median is written)")
    parser.add_argument("--replay", type=int, default=0, help=argparse.SUPPRESS)  # measure_tabs's other process
    args = parser.parse_args()
    if args.replay:
        replay_tabs(args.replay)
        return
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{tempfile.mkdtemp(prefix='volley-scale-')}/bench.db"
    os.environ.setdefault("APP_ENV", "test")
    os.environ.setdefault("BCRYPT_ROUNDS", "4")
    database = "PostgreSQL" if args.database_url.startswith("postgres") else "SQLite"

    from playwright.sync_api import sync_playwright

    reset_database()
    harness, base, urls = start_app()
    load = LoadWatch()
    results = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
                                         args=CHROMIUM_ARGS)  # fmt: skip
            for n in sizes:
                reset_database()
                started = time.perf_counter()
                seed(n)
                print(f"N={n:,}: seeded in {time.perf_counter() - started:.1f} s", flush=True)
                screens = {}
                for _name, path, who, selector in SCREENS:  # a first visit warms the worker and the database's cache
                    _measure_screen_once(browser, base, path, who, selector)
                for name, path, who, selector in SCREENS:
                    screens[name] = measure_screen(browser, base, path, who, selector, args.repeat)
                    print(f"  {name}: {screens[name]}", flush=True)
                nxt = measure_next_page(browser, base, urls["backend"])
                print(f"  next page: {nxt}", flush=True)
                tabs = measure_tabs(browser, base, harness.app_instance, args.tabs)
                print(f"  tabs: {tabs}", flush=True)
                results.append({"n": n, "screens": screens, "next": nxt, "tabs": tabs})
            browser.close()
    finally:
        harness.__exit__(None, None, None)
    print(f"written to {write_results(results, database, args.tabs, args.repeat, load.summary())}")


if __name__ == "__main__":
    main()
