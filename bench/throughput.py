# ruff: noqa: S603, S607 - the benchmark starts the topology's own programs
"""Benchmark: events per second through nginx with 1, 2 and 4 backend instances on PostgreSQL + Redis.

Each simulated client is one browser tab: a websocket to nginx (Engine.IO 4 / Socket.IO, as the
pages speak it), hydrated with a logged-in session, then a closed loop of the session-checking
event every /dash page runs (``SessionGuard.dash_guard``: the token resolved against the database,
the user shown): send it, wait for its update, send the next. Loopback only, bounded (a fixed
number of clients for a fixed time).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/throughput.py --backends 1,2,4 --clients 50,200 --seconds 20 [--in-process]

The topology is started with scripts/prod.sh (one frontend build, INSTANCES backend-only
instances, nginx). ``--in-process`` also measures one instance with its state in process memory
(no Redis) behind the same nginx config, the embedded default's way. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

import wsproto
from wsproto.events import Request, TextMessage

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.wsframes import read_messages  # noqa: E402

PROD = ROOT / "scripts" / "prod.sh"
PORT = int(os.environ.get("BENCH_PORT", "18580"))
BASE = int(os.environ.get("BENCH_BACKEND_PORT_BASE", "18601"))
ROOT_STATE = "reflex___state____state"
AUTH = f"{ROOT_STATE}.volley_app___state___auth____auth_state"
GUARD = f"{AUTH}.volley_app___state___auth____session_guard.dash_guard"
ROUTER = {"pathname": "/dash", "asPath": "/dash"}


class Tab:
    """One browser tab's websocket, speaking Engine.IO 4 and Socket.IO on namespace /_event."""

    def __init__(self, token: str, router: dict[str, str] | None = None):
        self.token = token
        self.router = router or ROUTER  # the page the tab shows
        self.ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        self.updates: asyncio.Queue[dict] = asyncio.Queue()
        self.ready = asyncio.Event()
        self.closed = False

    async def open(self, session: str) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", PORT)
        target = f"/_event/?EIO=4&transport=websocket&token={uuid.uuid4()}"
        origin = f"http://127.0.0.1:{PORT}"
        self._send(Request(host=f"127.0.0.1:{PORT}", target=target, extra_headers=[(b"origin", origin.encode())]))
        self.session = session
        self.task = asyncio.create_task(self._read())
        await asyncio.wait_for(self.ready.wait(), 30)

    def _send(self, event) -> None:
        self.writer.write(self.ws.send(event))

    def _text(self, text: str) -> None:
        self._send(TextMessage(data=text))

    async def _read(self) -> None:
        await read_messages(self.reader, self.writer, self.ws, self._on_packet)
        self.closed = True

    def _on_packet(self, packet: str) -> None:
        if packet.startswith("0{"):  # Engine.IO open: connect the namespace, the hydrate riding along
            hydrate = {
                "name": f"{ROOT_STATE}.hydrate_and_load",
                "payload": {"vars": {f"{AUTH}.token_trusted_rx_state_": self.session, f"{AUTH}.persist_rx_state_": "true"}},
                "router_data": self.router,
            }
            self._text("40/_event," + json.dumps({"event": hydrate}))
        elif packet == "2":
            self._text("3")
        elif packet.startswith("40/_event,"):
            self.ready.set()
        elif packet.startswith("42/_event,"):
            name, *args = json.loads(packet[len("42/_event,") :])
            if name == "event" and args:
                self.updates.put_nowait(args[0])

    async def guard(self) -> None:
        """Send the session check and wait for the update it brings (the user's state).

        Raises when the update shows nobody logged in: the bench measures a logged-in user's check.
        """
        self._text("42/_event," + json.dumps(["event", {"name": GUARD, "payload": {}, "router_data": self.router}]))
        while True:
            update = await asyncio.wait_for(self.updates.get(), 30)
            delta = (update.get("delta") or {}).get(AUTH)
            if delta is not None:
                if delta.get("user_id_rx_state_", 1) == 0 or delta.get("restore_error_rx_state_"):
                    raise RuntimeError("the session check found nobody logged in")
                return

    async def close(self) -> None:
        self.closed = True
        self.task.cancel()
        self.writer.close()


async def load(sessions: list[str], seconds: float, warmup: float = 3.0) -> dict:
    tabs = [Tab(str(i)) for i in range(len(sessions))]
    # Open gradually, as a rush of people would, not all in one instant.
    for i in range(0, len(tabs), 25):
        await asyncio.gather(*(t.open(s) for t, s in zip(tabs[i : i + 25], sessions[i : i + 25], strict=False)))
    await asyncio.sleep(2.0)  # the hydrates' own page loads are answered
    for t in tabs:
        while not t.updates.empty():
            t.updates.get_nowait()
    latencies: list[float] = []
    errors = 0
    logged_out: list[str] = []
    start = time.monotonic()
    measure_from, ends = start + warmup, start + warmup + seconds

    async def run(tab: Tab) -> None:
        nonlocal errors
        while time.monotonic() < ends:
            t0 = time.monotonic()
            try:
                await tab.guard()
            except RuntimeError as exc:
                logged_out.append(str(exc))
                errors += 1
                return
            except Exception:
                errors += 1
                return
            if t0 >= measure_from:
                latencies.append((time.monotonic() - t0) * 1000)

    await asyncio.gather(*(run(t) for t in tabs))
    await asyncio.gather(*(t.close() for t in tabs), return_exceptions=True)
    if logged_out:
        raise SystemExit(f"{len(logged_out)} of {len(tabs)} tabs: {logged_out[0]} (is SECRET_KEY the instances' one?)")
    latencies.sort()
    return {
        "events": len(latencies),
        "rate": len(latencies) / seconds,
        "p50": statistics.median(latencies) if latencies else 0.0,
        "p95": latencies[int(len(latencies) * 0.95) - 1] if latencies else 0.0,
        "errors": errors,
    }


def sessions_for(n: int) -> list[str]:
    """Log ``n`` players in (through the services) and return their session tokens."""
    from volley_app import db
    from volley_app.models import Role
    from volley_app.services.accounts import accounts, auth

    tokens = []
    for i in range(n):
        name = f"bench{i}"
        with contextlib.suppress(Exception):  # already there from an earlier run
            db.call(accounts.create_user, username=name, password="pass1234", email=f"{name}@example.com",
                    first_name="Bench", last_name="User", region="KY", roles=[Role.PLAYER])  # fmt: skip
        tokens.append(db.call(auth.login, username=name, password="pass1234", trusted=True, client=f"bench-{i}").token)
    return tokens


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_health", timeout=3) as r:
            return r.status == 200
    except Exception:  # noqa: BLE001
        return False


def prod_env(instances: int, run_dir: Path) -> dict[str, str]:
    return os.environ | {
        "PUBLIC_URL": f"http://127.0.0.1:{PORT}",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-secret-key-0123456789abcdefghijklmnop"),
        "INSTANCES": str(instances),
        "WORKERS": "1",
        "BACKEND_PORT_BASE": str(BASE),
        "PROD_DIR": str(run_dir),
        "SMTP_HOST": "",
        "BCRYPT_ROUNDS": "4",
    }


def in_process_instance(run_dir: Path) -> subprocess.Popen:
    """One backend-only instance with its state in process memory (no Redis), on the first backend port."""
    env = prod_env(1, run_dir) | {"APP_ENV": "production", "REDIS_URL": "", "REFLEX_REDIS_URL": "",
                                  "REFLEX_API_URL": f"http://127.0.0.1:{PORT}", "BACKEND_URL": f"http://127.0.0.1:{PORT}",
                                  "REFLEX_USE_GRANIAN": "true", "GRANIAN_WORKERS": "1"}  # fmt: skip
    proc = subprocess.Popen(
        ["reflex", "run", "--env", "prod", "--backend-only", "--backend-host", "127.0.0.1", "--backend-port", str(BASE)],
        env=env, cwd=ROOT, stdout=open(run_dir / "in-process.log", "ab"), stderr=subprocess.STDOUT,  # noqa: SIM115
        start_new_session=True,
    )  # fmt: skip
    for _ in range(120):
        if healthy(BASE):
            return proc
        time.sleep(1)
    raise SystemExit("the in-process instance did not become healthy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="1,2,4")
    parser.add_argument("--clients", default="50,200")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--repeat", type=int, default=1,
                        help="measure every configuration this many times, in turn (in process, then Redis, again)")
    parser.add_argument("--skip-build", action="store_true", help="reuse the frontend build already there")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get("REDIS_URL"):
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    backends = [int(b) for b in args.backends.split(",")]
    clients = [int(c) for c in args.clients.split(",")]
    run_dir = Path(tempfile.mkdtemp(prefix="volley-bench-"))
    os.environ["BCRYPT_ROUNDS"] = "4"
    # The sessions are opened here and checked by the instances: both must hash tokens with the same key.
    os.environ["SECRET_KEY"] = prod_env(1, run_dir)["SECRET_KEY"]
    rows = []
    if not args.skip_build:
        subprocess.run([str(PROD), "build"], env=prod_env(1, run_dir), cwd=ROOT, check=True)
    subprocess.run(["python", "-m", "volley_app.cli", "migrate"], env=prod_env(1, run_dir) | {"APP_ENV": "production"},
                   cwd=ROOT, check=True)  # fmt: skip
    sessions = sessions_for(max(clients))

    def measure(label: str, n: int) -> None:
        for c in clients:
            cpu, wall = time.process_time(), time.monotonic()
            result = asyncio.run(load(sessions[:c], args.seconds))
            result["load"] = os.getloadavg()[0]
            result["cores"] = (time.process_time() - cpu) / (time.monotonic() - wall)  # the load generator's own
            rows.append((label, n, c, result))
            print(f"{label} backends={n} clients={c}: {result['rate']:.0f} events/s, p50 {result['p50']:.0f} ms, "
                  f"p95 {result['p95']:.0f} ms, errors {result['errors']}, load average {result['load']:.1f}, "
                  f"load generator {result['cores']:.2f} cores",
                  flush=True)  # fmt: skip

    for _ in range(args.repeat):
        if args.in_process:
            proc = in_process_instance(run_dir)
            env = prod_env(1, run_dir)
            subprocess.run(["python", "deploy/render_nginx.py", "--backends", f"127.0.0.1:{BASE}", "--root",
                            ".web/build/client", "--prefix", str(run_dir / "nginx")], env=env, cwd=ROOT, check=True,
                           stdout=open(run_dir / "nginx.conf", "w"))  # noqa: SIM115  # fmt: skip
            subprocess.run(["nginx", "-p", str(run_dir / "nginx"), "-c", str(run_dir / "nginx.conf")], check=True)
            try:
                measure("in process (no Redis)", 1)
            finally:
                subprocess.run(["nginx", "-p", str(run_dir / "nginx"), "-c", str(run_dir / "nginx.conf"), "-s", "quit"])
                os.killpg(proc.pid, 15)
                proc.wait(60)
                time.sleep(2)
        for n in backends:
            env = prod_env(n, run_dir) | {"SKIP_BUILD": "1"}
            subprocess.run([str(PROD), "start"], env=env, cwd=ROOT, check=True)
            try:
                measure("Redis", n)
            finally:
                subprocess.run([str(PROD), "stop"], env=env, cwd=ROOT, check=False)
                time.sleep(2)

    print("\n| state | backends | clients | events/s | p50 ms | p95 ms | errors | load average | load generator |\n"
          "|---|---|---|---|---|---|---|---|---|")  # fmt: skip
    for label, n, c, r in rows:
        print(f"| {label} | {n} | {c} | {r['rate']:.0f} | {r['p50']:.0f} | {r['p95']:.0f} | {r['errors']} "
              f"| {r['load']:.1f} | {r['cores']:.2f} cores |")  # fmt: skip


if __name__ == "__main__":
    main()
