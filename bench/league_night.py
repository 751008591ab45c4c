# ruff: noqa: S603, S607 - the benchmark starts the topology's own programs
"""Benchmark: league night at franchise scale, every player's tab open at once.

Seeds a franchise once (10 venues, 20 running leagues of 10 teams, 200 teams of 8 players, 5,000 players of whom
1,000 subs, a season of games with tonight's round, an open sub request per team for tonight), starts a topology,
and replays a league-night mix from N logged-in tabs (websockets speaking Socket.IO as the pages do, through
nginx), ramping up a few tabs at a time:

- each tab opens its home page (``/dash``: the player's teams, next games and answers);
- then, every ``--think`` seconds on average (exponential; 30 s), it clicks: a league's standings (30%) or schedule
  (20%), a sub request's page (15%), home again (15%), In / Out on tonight's game from home (10%, rostered
  players), or Accept on a sub request's page (10%, subs); the pages' own polls run on the server meanwhile.

A click is timed from the frame sent to the update that ends it: for a page, the update with what its own load read
(its state's change) once the tab is marked hydrated too (Reflex marks it before the page's loads run, which the app
queues after its session check); for an answer, its page's change. Reported per topology and N: clicks/s, p50/p95/p99 of a click, errors (refused or over 30 s,
sockets lost), the instances' CPU (cores) and memory per tab (theirs and Redis's), the cores the rest of the
machine took meanwhile (this load generator, PostgreSQL, Redis, nginx), and a real Chromium user's click (league home →
standings, the teams shown; the median of ``--taps`` taps) idle and under the load, in the same run. ``--scenario
parked`` instead opens N tabs on the leagues list and measures what they cost while nobody clicks.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/league_night.py --tabs 200,1000,2000 --topologies embedded,1,2 --seconds 60

Topologies: ``embedded`` (one instance, state in process memory, SQLite: the embedded default's way, behind the
same nginx), ``memory`` (the same on PostgreSQL: what the Redis path is compared with), ``1`` and ``2``
(scripts/prod.sh: backend-only instances behind nginx, PostgreSQL + Redis). Run it
alone on the machine: it prints a Markdown table with the load average, the commit and the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import throughput  # noqa: E402
from bench.throughput import PROD, Tab, healthy, prod_env  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
ROOT_STATE = throughput.ROOT_STATE
ON_LOAD = f"{ROOT_STATE}.reflex___state____on_load_internal_state.on_load_internal"
AUTH = throughput.AUTH
HOME_STATE = f"{AUTH}.volley_app___pages___dash___home____player_home_state"
REQUEST_STATE = f"{AUTH}.volley_app___pages___dash___sub_requests___detail____sub_request_state"
STANDINGS_STATE = f"{AUTH}.volley_app___pages___dash___leagues___standings____standings_state"
SCHEDULE_STATE = f"{AUTH}.volley_app___pages___dash___leagues___schedule____schedule_state"
PASSWORD = "pass1234"
VENUES, LEAGUES_PER_VENUE, TEAMS_PER_LEAGUE, ROSTER, PLAYERS, SUBS = 10, 2, 10, 8, 5000, 1000
CLICK_TIMEOUT = 30.0


# --- the franchise -----------------------------------------------------------------------------------------------


def seed_franchise() -> None:
    """The franchise, once (a database that has its venues already is left as it is)."""
    from sqlmodel import select

    from volley_app import db
    from volley_app import models as m
    from volley_app.services.accounts import passwords
    from volley_app.services.seasons import scheduling

    def seed(s) -> None:
        if s.exec(select(m.User).where(m.User.username == "venue00")).first() is not None:
            return
        now = m.utcnow().replace(microsecond=0)
        pw = passwords.hash_password(PASSWORD)
        ratings = [m.Rating.A, m.Rating.B, m.Rating.C, m.Rating.D]
        base = {"password_hash": pw, "active": True, "created_at": now, "updated_at": now, "region": "KY"}
        venues = [base | {"username": f"venue{v:02}", "email": f"venue{v:02}@example.com", "first_name": f"Venue {v:02}",
                          "last_name": "Sportsplex", "roles": [m.Role.SVL.value], "sub": False} for v in range(VENUES)]  # fmt: skip
        players = [base | {"username": f"player{i:04}", "email": f"player{i:04}@example.com", "first_name": f"First{i:04}",
                           "last_name": f"Last{i:04}", "roles": [m.Role.PLAYER.value], "sub": i >= PLAYERS - SUBS,
                           "gender": "Female" if i % 2 else "Male", "sub_days": 0b1111111,
                           "hitter_skill_level": ratings[i % 4].value, "passer_skill_level": ratings[(i + 1) % 4].value,
                           "setter_skill_level": ratings[(i + 2) % 4].value} for i in range(PLAYERS)]  # fmt: skip
        columns = {c.name for c in m.User.__table__.columns}
        s.execute(m.User.__table__.insert(), [{k: v for k, v in u.items() if k in columns} for u in venues + players])
        ids = {u.username: u.id for u in s.exec(select(m.User)).all()}
        tonight = now.date()
        start = dt.datetime.combine(tonight - dt.timedelta(weeks=3), dt.time(23, 0), tzinfo=dt.UTC)  # 6 pm Eastern
        day = m.Day(tonight.strftime("%A"))
        team_no = 0
        for v in range(VENUES):
            venue = ids[f"venue{v:02}"]
            session = m.LeagueSession(svl_id=venue, name=f"Fall {v:02}", status=m.SessionStatus.ACTIVE, created_by_id=venue,
                                    start_at=start - dt.timedelta(days=1), end_at=start + dt.timedelta(weeks=10))  # fmt: skip
            s.add(session)
            s.flush()
            for lg in range(LEAGUES_PER_VENUE):
                league = m.League(session_id=session.id, svl_id=venue, day=day, start_at=start + dt.timedelta(hours=lg),
                                number_of_weeks=8, time_increment=50, court=f"Court {lg * 3 + 1}",
                                courts="\n".join(f"Court {lg * 3 + c}" for c in (1, 2, 3)), region=m.Region("KY"),
                                skill_level=m.SkillLevel.C, format=m.LeagueFormat.SIXES, max_teams=TEAMS_PER_LEAGUE,
                                cost_cents=30000, stage=m.LeagueStage.ACTIVE, schedule_generated=True)  # fmt: skip
                s.add(league)
                s.flush()
                teams = []
                for _t in range(TEAMS_PER_LEAGUE):
                    roster = [ids[f"player{team_no * ROSTER + k:04}"] for k in range(ROSTER)]
                    team = m.Team(league_id=league.id, captain_id=roster[0], team_name=f"Team {team_no:03}", paid=True)
                    s.add(team)
                    s.flush()
                    s.add_all([m.TeamMember(team_id=team.id, user_id=uid, joined_at=now - dt.timedelta(days=30),
                                          role=m.MemberRole.CAPTAIN if k == 0 else m.MemberRole.PLAYER)
                               for k, uid in enumerate(roster)])  # fmt: skip
                    teams.append(team)
                    team_no += 1
                team_ids = [t.id for t in teams]
                for week_index, week in enumerate(scheduling.pairings(team_ids, league.number_of_weeks)):
                    slots = scheduling.placements(week, ["Court 1", "Court 2", "Court 3"])
                    for match_index, ((a, b), (slot_index, court)) in enumerate(zip(week, slots, strict=True)):
                        at = scheduling.slot(league.start_at, week_index, slot_index, league.time_increment, None)
                        game = m.Game(league_id=league.id, team1_id=a, team2_id=b, start_at=at, type=m.GameType.LEAGUE,
                                    round=week_index + 1, match=match_index + 1, court=court)  # fmt: skip
                        if at < now and b is not None:
                            game.team1_game1_score, game.team2_game1_score = 25, 15 + (a + b) % 10
                            game.team1_game2_score, game.team2_game2_score = 20 + (a * b) % 9, 25
                        s.add(game)
                        if week_index == 3 and b is not None:  # tonight: each team of the game is a sub short
                            for tid in (a, b):
                                team = s.get(m.Team, tid)
                                s.add(m.SubRequest(requestor_id=team.captain_id, svl=f"Venue {v:02} Sportsplex",
                                                 team=team.team_name, date=at, court=court, skill_level=m.SkillLevel.C,
                                                 format=m.SubFormat.SIXES))  # fmt: skip
        s.flush()

    db.call(seed)
    if db.get_engine().dialect.name == "postgresql":
        with db.get_engine().connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("ANALYZE")


@dataclass
class Player:
    username: str
    session: str
    leagues: list[int]
    game: tuple[int, int] | None  # tonight's (game, team), for a rostered player
    sub: bool


def players_for(n: int) -> tuple[list[Player], list[int]]:
    """``n`` players logged in (rostered players and subs, about 3 to 2), and tonight's open requests."""
    from sqlmodel import col, select

    from volley_app import db
    from volley_app.models import Game, League, SubRequest, Team, TeamMember, User
    from volley_app.services.accounts import auth

    def read(s):
        leagues = [lg.id for lg in s.exec(select(League).order_by(col(League.id))).all()]
        # tonight's requests, whatever earlier runs made of them (an Accept on a filled one is refused, and timed too)
        requests = [r.id for r in s.exec(select(SubRequest).order_by(col(SubRequest.id))).all()]
        rostered = s.exec(select(User.username, TeamMember.team_id, Team.league_id).join(TeamMember, col(TeamMember.user_id) == User.id)
                          .join(Team, col(Team.id) == TeamMember.team_id).order_by(col(User.id))).all()  # fmt: skip
        tonight = {}
        for g in s.exec(select(Game).where(Game.round == 4)).all():
            for tid in (g.team1_id, g.team2_id):
                if tid is not None:
                    tonight[tid] = g.id
        subs = s.exec(select(User.username).where(col(User.sub).is_(True)).order_by(col(User.id))).all()
        return leagues, requests, rostered, tonight, subs

    leagues, requests, rostered, tonight, subs = db.call(read)
    chosen: list[tuple[str, list[int], tuple[int, int] | None, bool]] = []
    r_iter, s_iter = iter(rostered), iter(subs)
    for i in range(n):
        if i % 5 < 3:
            name, team_id, league_id = next(r_iter)
            game = (tonight[team_id], team_id) if team_id in tonight else None
            chosen.append((name, [league_id, random.choice(leagues)], game, False))
        else:
            chosen.append((next(s_iter), random.sample(leagues, 2), None, True))
    out = []
    for i, (name, lgs, game, sub) in enumerate(chosen):
        token = db.call(auth.login, username=name, password=PASSWORD, trusted=True, client=f"night-{i}").token
        out.append(Player(name, token, lgs, game, sub))
    return out, requests


# --- a tab ---------------------------------------------------------------------------------------------------------


def _router(path: str) -> dict[str, str]:
    return {"pathname": path.split("?")[0], "asPath": path}


@dataclass
class Stats:
    clicks: list[tuple[str, float]] = field(default_factory=list)  # (what, ms), measured ones
    errors: dict[str, int] = field(default_factory=dict)
    sent: int = 0
    updates: int = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class NightTab(Tab):
    """A player's tab: opens home, then clicks now and then; each click waits for the update that ends it."""

    def __init__(self, player: Player, stats: Stats, requests: list[int]):
        super().__init__(player.username, _router("/dash"))
        self.player, self.stats, self.requests = player, stats, requests
        self.waiting: tuple[set[str], asyncio.Future] | None = None

    def _on_packet(self, packet: str) -> None:
        if packet.startswith("42/_event,"):
            name, *args = json.loads(packet[len("42/_event,") :])
            if name == "event" and args:
                self.stats.updates += 1
                update = args[0]
                for ev in update.get("events") or []:  # chained events the backend leaves to the browser
                    self._text("42/_event," + json.dumps(["event", {**ev, "router_data": self.router}]))
                if self.waiting is not None:
                    keys, done = self.waiting
                    keys.difference_update([key for key in keys if _ends(update, key)])
                    if not keys and not done.done():
                        done.set_result(update)
            return
        super()._on_packet(packet)

    async def click(self, what: str, event: dict, ends: str | tuple[str, ...], measured: bool) -> None:
        """Send ``event``; done once updates have brought each of ``ends`` (:func:`_ends`)."""
        done: asyncio.Future = asyncio.get_running_loop().create_future()
        self.waiting = ({ends} if isinstance(ends, str) else set(ends), done)
        t0 = time.monotonic()
        self.stats.sent += 1
        self._text("42/_event," + json.dumps(["event", {**event, "router_data": self.router}]))
        try:
            await asyncio.wait_for(done, CLICK_TIMEOUT)
        except TimeoutError:
            self.stats.error(f"{what}: no answer in {CLICK_TIMEOUT:.0f} s")
            return
        finally:
            self.waiting = None
        if measured:
            self.stats.clicks.append((what, (time.monotonic() - t0) * 1000))

    async def open_page(self, what: str, path: str, state: str, measured: bool) -> None:
        """Open the page at ``path``, done once its state ``state`` shows what its load read."""
        self.router = _router(path)
        await self.click(what, {"name": ON_LOAD, "payload": {}}, ("hydrated", state), measured)

    async def act(self, measured: bool) -> None:
        p, roll = self.player, random.random()
        if roll < 0.30:
            await self.open_page("standings", f"/dash/leagues/{random.choice(p.leagues)}/teams", STANDINGS_STATE, measured)
        elif roll < 0.50:
            await self.open_page("schedule", f"/dash/leagues/teams/schedule?league={random.choice(p.leagues)}",
                                 SCHEDULE_STATE, measured)  # fmt: skip
        elif roll < 0.65:
            await self.open_page("sub request", f"/dash/notes/{random.choice(self.requests)}", REQUEST_STATE, measured)
        elif roll < 0.80 or (p.game is None and not p.sub):
            await self.open_page("home", "/dash", HOME_STATE, measured)
        elif p.sub:
            await self.open_page("sub request", f"/dash/notes/{random.choice(self.requests)}", REQUEST_STATE, False)
            await self.click("accept", {"name": f"{REQUEST_STATE}.accept", "payload": {}}, REQUEST_STATE, measured)
        else:
            if self.router["pathname"] != "/dash":
                await self.open_page("home", "/dash", HOME_STATE, False)
            assert p.game is not None
            answer = random.choice(["In", "Out", "Maybe"])
            payload = {"game_id": p.game[0], "team_id": p.game[1], "answer": answer}
            await self.click("answer", {"name": f"{HOME_STATE}.answer", "payload": payload}, HOME_STATE, measured)


def _ends(update: dict, key: str) -> bool:
    delta = update.get("delta") or {}
    if key == "hydrated":
        return (delta.get(ROOT_STATE) or {}).get("is_hydrated_rx_state_") is True
    return key in delta


# --- measuring -----------------------------------------------------------------------------------------------------


def _group_pids(leaders: list[int]) -> list[int]:
    """Every process in the sessions of ``leaders`` (an instance and its workers)."""
    sessions = {os.getsid(p) for p in leaders if Path(f"/proc/{p}").exists()}
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                if os.getsid(int(entry.name)) in sessions:
                    found.append(int(entry.name))
    return found


def _cpu_and_rss(pids: list[int]) -> tuple[float, int]:
    """User + system seconds so far, and resident bytes now, summed over ``pids``."""
    cpu, rss = 0.0, 0
    for pid in pids:
        with contextlib.suppress(FileNotFoundError, ProcessLookupError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES
    return cpu, rss


def _the_rest() -> dict[str, list[int]]:
    """The machine's other busy processes, by what they are: this load generator (with the Chromium it drives),
    PostgreSQL, Redis and nginx."""
    groups: dict[str, list[int]] = {"load generator": [], "PostgreSQL": [], "Redis": [], "nginx": []}
    mine = os.getsid(0)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(FileNotFoundError, ProcessLookupError, PermissionError):
            comm, pid = (entry / "comm").read_text().strip(), int(entry.name)
            name = ("PostgreSQL" if comm.startswith("postgres") else "Redis" if comm.startswith("redis-server")
                    else "nginx" if comm == "nginx" else "load generator" if os.getsid(pid) == mine else "")  # fmt: skip
            if name:
                groups[name].append(pid)
    return groups


def _cpu_of(groups: dict[str, list[int]]) -> dict[str, dict[int, float]]:
    """CPU seconds so far of each process of each group."""
    return {name: {pid: _cpu_and_rss([pid])[0] for pid in pids} for name, pids in groups.items()}


def _cores(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]], wall: float) -> dict[str, float]:
    """Cores each group took between two readings, over the processes alive at both (a connection of PostgreSQL's
    that ended meanwhile took its time with it)."""
    return {name: sum(after[name][pid] - cpu for pid, cpu in pids.items() if after[name].get(pid, 0.0) >= cpu) / wall
            for name, pids in before.items()}  # fmt: skip


def _redis_bytes() -> int:
    """The memory the Redis of REDIS_URL uses now, where the instances keep the tabs' states there; else 0."""
    url = os.environ.get("REDIS_URL")
    if not url or os.environ.get("NIGHT_STATE") == "memory":
        return 0
    import redis

    return int(redis.Redis.from_url(url).info("memory")["used_memory"])


def _memory(pids: list[int]) -> int:
    """What the tabs may take room in: the instances' resident memory and Redis's."""
    return _cpu_and_rss(pids)[1] + _redis_bytes()


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


async def _open_all(tabs: list[Tab], sessions: list[str], per_second: float, stats: Stats | None) -> float:
    """Open the tabs a few at a time (``per_second``), as people arrive; the seconds it took."""
    started = time.monotonic()
    batch = 10
    for i in range(0, len(tabs), batch):
        chunk = list(zip(tabs[i : i + batch], sessions[i : i + batch], strict=False))
        results = await asyncio.gather(*(t.open(s) for t, s in chunk), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException) and stats is not None:
                stats.error(f"open: {type(r).__name__}")
        await asyncio.sleep(max(0.0, (i + batch) / per_second - (time.monotonic() - started)))
    return time.monotonic() - started


async def mix(players: list[Player], requests: list[int], leaders: list[int], seconds: float, think: float,
              ramp: float, chromium: Chromium | None) -> dict:  # fmt: skip
    stats = Stats()
    pids = _group_pids(leaders)
    rss_before = _memory(pids)
    tabs = [NightTab(p, stats, requests) for p in players]
    open_s = await _open_all(tabs, [p.session for p in players], ramp, stats)
    await asyncio.sleep(3)  # the last homes drawn
    rest = _the_rest()
    cpu0, rest0, wall0 = _cpu_and_rss(pids)[0], _cpu_of(rest), time.monotonic()
    ends = wall0 + seconds
    sent0, updates0 = stats.sent, stats.updates

    async def pause() -> None:  # a player's think time, never past the end of the measurement
        await asyncio.sleep(max(0.0, min(random.expovariate(1 / think), ends - time.monotonic())))

    async def run(tab: NightTab) -> None:
        await pause()
        while time.monotonic() < ends and not tab.closed:
            await tab.act(measured=True)
            await pause()

    user = asyncio.create_task(chromium.clicks(chromium.taps)) if chromium else None
    await asyncio.gather(*(run(t) for t in tabs))
    wall = time.monotonic() - wall0
    cpu1, rss, rest1 = _cpu_and_rss(pids)[0], _memory(pids), _cpu_of(rest)
    real = await user if user else []
    lost = sum(1 for t in tabs if t.closed)
    if lost:
        stats.error("socket lost")
    await asyncio.gather(*(t.close() for t in tabs), return_exceptions=True)
    times = [ms for _w, ms in stats.clicks]
    return {"clicks_s": (stats.sent - sent0) / wall, "updates_s": (stats.updates - updates0) / wall,
            "p50": _pct(times, 0.5), "p95": _pct(times, 0.95), "p99": _pct(times, 0.99),
            "errors": sum(stats.errors.values()), "error_kinds": stats.errors, "cores": (cpu1 - cpu0) / wall,
            "kb_per_tab": (rss - rss_before) / 1024 / len(tabs), "open_s": open_s,
            "real": statistics.median(real) if real else 0.0,
            "rest": _cores(rest0, rest1, wall),
            "cpu_ms_per_click": (cpu1 - cpu0) * 1000 / max(stats.sent - sent0, 1),
            "by_kind": {k: round(_pct([ms for w, ms in stats.clicks if w == k], 0.95)) for k in
                        sorted({w for w, _ms in stats.clicks})}}  # fmt: skip


async def parked(players: list[Player], leaders: list[int], seconds: float, ramp: float) -> dict:
    pids = _group_pids(leaders)
    await asyncio.sleep(15)  # the instances' start (the first runs of their loops, the first requests) is over
    rss_before = _memory(pids)
    cpu0, wall0 = _cpu_and_rss(pids)[0], time.monotonic()
    await asyncio.sleep(min(seconds, 30))  # the instances with no tab: their own loops, beats and timers
    idle = (_cpu_and_rss(pids)[0] - cpu0) / (time.monotonic() - wall0)
    tabs = [Tab(str(i), _router("/dash/leagues")) for i in range(len(players))]
    open_s = await _open_all(tabs, [p.session for p in players], ramp, None)
    await asyncio.sleep(70)  # the pages' loads answered, the first round of each poll run (the bell's after 60 s)
    for t in tabs:
        while not t.updates.empty():
            t.updates.get_nowait()
    cpu0, wall0 = _cpu_and_rss(pids)[0], time.monotonic()
    await asyncio.sleep(seconds)
    cpu1, rss = _cpu_and_rss(pids)[0], _memory(pids)
    wall = time.monotonic() - wall0
    updates = sum(t.updates.qsize() for t in tabs)
    lost = sum(1 for t in tabs if t.closed)
    await asyncio.gather(*(t.close() for t in tabs), return_exceptions=True)
    return {"cores": (cpu1 - cpu0) / wall, "idle_cores": idle, "kb_per_tab": (rss - rss_before) / 1024 / len(tabs),
            "updates_s": updates / wall, "errors": lost, "open_s": open_s}  # fmt: skip


class Chromium:
    """A real player in Chromium at phone width: on a league's home, taps Standings and waits for the teams."""

    def __init__(self, base: str, session: str, league: int, taps: int):
        self.base, self.session, self.league, self.taps = base, session, league, taps

    async def clicks(self, n: int) -> list[float]:
        return await asyncio.to_thread(self._clicks, n)

    def _clicks(self, n: int) -> list[float]:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        from playwright.sync_api import sync_playwright

        from tests.e2e.conftest import CHROMIUM_ARGS
        from volley_app.components import last_seen

        out = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell"),
                                        args=CHROMIUM_ARGS)  # fmt: skip
            page = browser.new_page(base_url=self.base, viewport={"width": 390, "height": 844})
            page.goto("/favicon.svg")
            page.evaluate("token => localStorage.setItem('vb_session', token)", self.session)
            for _ in range(n):
                try:
                    page.goto(f"/dash/leagues/{self.league}")
                    page.get_by_role("link", name="Standings").first.wait_for(timeout=60_000)
                    page.locator(last_seen.TAG).wait_for(state="detached", timeout=60_000)  # the app's own page, live
                except PlaywrightTimeout:
                    out.append(60_000.0)
                    continue
                page.wait_for_timeout(500)
                t0 = time.monotonic()
                page.get_by_role("link", name="Standings").first.click()
                try:
                    page.get_by_role("cell", name="Team", exact=False).first.wait_for(timeout=60_000)
                except PlaywrightTimeout:
                    out.append(60_000.0)  # no answer in a minute: counted as a minute
                    continue
                out.append((time.monotonic() - t0) * 1000)
            browser.close()
        return out


# --- topologies --------------------------------------------------------------------------------------------------


def _nginx(run_dir: Path, env: dict[str, str]) -> list[str]:
    conf = run_dir / "nginx.conf"
    subprocess.run(["python", "deploy/render_nginx.py", "--backends", f"127.0.0.1:{throughput.BASE}", "--root",
                    ".web/build/client", "--prefix", str(run_dir / "nginx")], env=env, cwd=ROOT, check=True,
                   stdout=conf.open("w"))  # fmt: skip
    return ["nginx", "-p", str(run_dir / "nginx"), "-c", str(conf)]


@contextlib.contextmanager
def topology(name: str, run_dir: Path):
    """Start ``name`` (embedded, memory, 1, 2); yield the instances' leader pids."""
    if name in ("embedded", "memory"):
        env = prod_env(1, run_dir) | {"APP_ENV": "production", "REDIS_URL": "", "REFLEX_REDIS_URL": "",
                                      "DATABASE_URL": os.environ["DATABASE_URL"],
                                      "REFLEX_API_URL": f"http://127.0.0.1:{throughput.PORT}",
                                      "BACKEND_URL": f"http://127.0.0.1:{throughput.PORT}",
                                      "REFLEX_USE_GRANIAN": "true", "GRANIAN_WORKERS": "1"}  # fmt: skip
        proc = subprocess.Popen(["reflex", "run", "--env", "prod", "--backend-only", "--backend-host", "127.0.0.1",
                                 "--backend-port", str(throughput.BASE)], env=env, cwd=ROOT,
                                stdout=(run_dir / "embedded.log").open("ab"), stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip
        for _ in range(120):
            if healthy(throughput.BASE):
                break
            time.sleep(1)
        nginx = _nginx(run_dir, env)
        subprocess.run(nginx, check=True)
        try:
            yield [proc.pid]
        finally:
            subprocess.run([*nginx, "-s", "quit"], check=False)
            os.killpg(proc.pid, 15)
            proc.wait(60)
            time.sleep(2)
        return
    n = int(name)
    env = prod_env(n, run_dir) | {"SKIP_BUILD": "1"}
    subprocess.run([str(PROD), "start"], env=env, cwd=ROOT, check=True)
    try:
        yield [int((run_dir / f"instance-{i}.pid").read_text()) for i in range(1, n + 1)]
    finally:
        subprocess.run([str(PROD), "stop"], env=env, cwd=ROOT, check=False)
        time.sleep(2)


def _prepare(database_url: str, run_dir: Path) -> None:
    """Migrate and seed the database ``database_url`` names (in a process of its own: the settings are cached)."""
    env = prod_env(1, run_dir) | {"APP_ENV": "production", "DATABASE_URL": database_url}
    subprocess.run(["python", "-m", "volley_app.cli", "migrate"], env=env, cwd=ROOT, check=True)
    subprocess.run([sys.executable, __file__, "--seed-only"], env=env, cwd=ROOT, check=True)


def _commit() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False)
    return out.stdout.strip() or "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", default="200,1000,2000")
    parser.add_argument("--topologies", default="embedded,1,2")
    parser.add_argument("--scenario", choices=("mix", "parked"), default="mix")
    parser.add_argument("--seconds", type=float, default=60, help="measured, after the tabs are open")
    parser.add_argument("--think", type=float, default=30, help="a tab's mean pause between clicks, seconds")
    parser.add_argument("--ramp", type=float, default=40, help="tabs opened per second")
    parser.add_argument("--skip-build", action="store_true", help="reuse the frontend build already there")
    parser.add_argument("--no-chromium", action="store_true")
    parser.add_argument("--taps", type=int, default=11, help="the real player's taps, idle and under each load")
    parser.add_argument("--seed-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed_only:
        seed_franchise()
        return
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get("REDIS_URL"):
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per tab, here and in the instances
    tab_counts = [int(n) for n in args.tabs.split(",")]
    topologies = args.topologies.split(",")
    run_dir = Path(tempfile.mkdtemp(prefix="volley-night-"))
    os.environ["BCRYPT_ROUNDS"] = "4"
    os.environ["SECRET_KEY"] = prod_env(1, run_dir)["SECRET_KEY"]
    os.environ.setdefault("EMBEDDED_DATABASE_URL", f"sqlite:///{run_dir / 'embedded.db'}")
    if not args.skip_build:
        subprocess.run([str(PROD), "build"], env=prod_env(1, run_dir), cwd=ROOT, check=True)
    started = time.monotonic()
    _prepare(os.environ["DATABASE_URL"], run_dir)
    if "embedded" in topologies:
        _prepare(os.environ["EMBEDDED_DATABASE_URL"], run_dir)
    print(f"franchise seeded in {time.monotonic() - started:.0f} s", flush=True)
    rows = []
    server_url = os.environ["DATABASE_URL"]
    for name in topologies:
        os.environ["DATABASE_URL"] = os.environ["EMBEDDED_DATABASE_URL"] if name == "embedded" else server_url
        os.environ["NIGHT_STATE"] = "memory" if name in ("embedded", "memory") else "redis"
        from volley_app import db
        from volley_app.settings import get_settings

        get_settings.cache_clear()
        db.reset_engine()
        players, requests = players_for(max(tab_counts) + 1)
        with topology(name, run_dir) as leaders:
            base = f"http://127.0.0.1:{throughput.PORT}"
            chromium = None if args.no_chromium else Chromium(base, players[0].session, players[0].leagues[0], args.taps)
            idle = statistics.median(asyncio.run(chromium.clicks(args.taps))) if chromium else 0.0
            for count in tab_counts:
                if args.scenario == "parked":
                    r = asyncio.run(parked(players[:count], leaders, args.seconds, args.ramp))
                else:
                    r = asyncio.run(mix(players[1:count + 1], requests, leaders, args.seconds, args.think, args.ramp,
                                        chromium))  # fmt: skip
                r |= {"load": os.getloadavg()[0], "idle": idle}
                rows.append((name, count, r))
                print(name, count, json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()}),
                      flush=True)  # fmt: skip
    os.environ["DATABASE_URL"] = server_url

    print(f"\nCommit {_commit()}, {platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"each tab thinks {args.think:.0f} s on average; {args.seconds:.0f} s measured after the ramp-up.\n")
    if args.scenario == "parked":
        print("| topology | parked tabs | server cores | the same with no tab | the tabs' own | memory per tab "
              "| updates sent/s | sockets lost | load average |\n|---|---|---|---|---|---|---|---|---|")  # fmt: skip
        for name, count, r in rows:
            print(f"| {name} | {count} | {r['cores']:.3f} | {r['idle_cores']:.3f} | {r['cores'] - r['idle_cores']:.3f} "
                  f"| {r['kb_per_tab']:.0f} KB | {r['updates_s']:.1f} | {r['errors']} | {r['load']:.1f} |")  # fmt: skip
        return
    print("| topology | tabs | clicks/s | p50 ms | p95 ms | p99 ms | errors | server cores | CPU ms per click "
          "| memory per tab | Chromium click idle / under load | cores of the rest: load generator, PostgreSQL, "
          "Redis, nginx | load average |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")  # fmt: skip
    for name, count, r in rows:
        print(f"| {name} | {count} | {r['clicks_s']:.1f} | {r['p50']:.0f} | {r['p95']:.0f} | {r['p99']:.0f} "
              f"| {r['errors']} | {r['cores']:.2f} | {r['cpu_ms_per_click']:.0f} | {r['kb_per_tab']:.0f} KB "
              f"| {r['idle']:.0f} / {r['real']:.0f} ms | {' / '.join(f'{v:.2f}' for v in r['rest'].values())} "
              f"| {r['load']:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()
