# ruff: noqa: S603, S607 - the benchmark starts the topology's own programs
"""Benchmark: league night, what open tabs cost the server. First scenario: parked tabs.

N logged-in tabs (websockets speaking Socket.IO as the pages do, through nginx) each open the leagues list
(``/dash/leagues``: its load reads the list and starts the tab's 15 s poll), then nobody clicks. After the tabs
are open and a settling pause, the instances' processes are sampled for ``--seconds``: CPU (cores, from
/proc: user + system time over wall time) and memory (resident set) per tab. Loopback only, bounded.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/league_night.py --tabs 200,1000 --seconds 60 [--in-process] [--backends 1,2]

The topology is bench/throughput.py's: scripts/prod.sh (one frontend build, backend-only instances behind nginx,
PostgreSQL + Redis); ``--in-process`` also measures one instance with its state in process memory. Run it alone on
the machine. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import throughput  # noqa: E402
from bench.throughput import PROD, Tab, in_process_instance, prod_env, sessions_for  # noqa: E402

LEAGUES = {"pathname": "/dash/leagues", "asPath": "/dash/leagues"}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def _group_pids(leaders: list[int]) -> list[int]:
    """Every process in the sessions of ``leaders`` (an instance and its workers)."""
    sessions = {os.getsid(p) for p in leaders if Path(f"/proc/{p}").exists()}
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) in sessions:
                    found.append(int(entry.name))
            except (ProcessLookupError, PermissionError):
                continue
    return found


def _cpu_and_rss(pids: list[int]) -> tuple[float, int]:
    """User + system seconds so far, and resident bytes now, summed over ``pids``."""
    cpu, rss = 0.0, 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
    return cpu, rss


async def parked(sessions: list[str], leaders: list[int], seconds: float, settle: float) -> dict:
    pids = _group_pids(leaders)
    _cpu, rss_before = _cpu_and_rss(pids)
    tabs = [Tab(str(i), LEAGUES) for i in range(len(sessions))]
    opened = time.monotonic()
    for i in range(0, len(tabs), 25):
        await asyncio.gather(*(t.open(s) for t, s in zip(tabs[i : i + 25], sessions[i : i + 25], strict=False)))
    open_seconds = time.monotonic() - opened
    await asyncio.sleep(settle)  # the pages' loads answered, the first round of each poll run
    for t in tabs:
        while not t.updates.empty():
            t.updates.get_nowait()
    cpu0, wall0 = _cpu_and_rss(pids)[0], time.monotonic()
    await asyncio.sleep(seconds)
    cpu1, rss = _cpu_and_rss(pids)
    wall = time.monotonic() - wall0
    updates = sum(t.updates.qsize() for t in tabs)
    closed = sum(1 for t in tabs if t.closed)
    await asyncio.gather(*(t.close() for t in tabs), return_exceptions=True)
    return {"cores": (cpu1 - cpu0) / wall, "kb_per_tab": (rss - rss_before) / 1024 / len(tabs),
            "updates_per_s": updates / wall, "closed": closed, "open_s": open_seconds}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", default="200,1000")
    parser.add_argument("--backends", default="1")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--settle", type=float, default=20, help="after the tabs are open, before measuring")
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--skip-build", action="store_true", help="reuse the frontend build already there")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get("REDIS_URL"):
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    tab_counts = [int(n) for n in args.tabs.split(",")]
    run_dir = Path(tempfile.mkdtemp(prefix="volley-bench-"))
    os.environ["BCRYPT_ROUNDS"] = "4"
    os.environ["SECRET_KEY"] = prod_env(1, run_dir)["SECRET_KEY"]
    if not args.skip_build:
        subprocess.run([str(PROD), "build"], env=prod_env(1, run_dir), cwd=ROOT, check=True)
    subprocess.run(["python", "-m", "volley_app.cli", "migrate"], env=prod_env(1, run_dir) | {"APP_ENV": "production"},
                   cwd=ROOT, check=True)  # fmt: skip
    subprocess.run(["python", "-m", "volley_app.cli", "seed-demo", "--if-empty"], env=prod_env(1, run_dir), cwd=ROOT,
                   check=True)  # the leagues the list shows  # fmt: skip
    sessions = sessions_for(max(tab_counts))
    rows = []

    def measure(label: str, n: int, leaders: list[int]) -> None:
        for count in tab_counts:
            result = asyncio.run(parked(sessions[:count], leaders, args.seconds, args.settle))
            result["load"] = os.getloadavg()[0]
            rows.append((label, n, count, result))
            print(f"{label} backends={n} tabs={count}: {result['cores']:.3f} cores, {result['kb_per_tab']:.0f} KB/tab, "
                  f"{result['updates_per_s']:.1f} updates/s, {result['closed']} closed, opened in "
                  f"{result['open_s']:.0f} s, load average {result['load']:.1f}", flush=True)  # fmt: skip

    if args.in_process:
        proc = in_process_instance(run_dir)
        env = prod_env(1, run_dir)
        conf = run_dir / "nginx.conf"
        subprocess.run(["python", "deploy/render_nginx.py", "--backends", f"127.0.0.1:{throughput.BASE}", "--root",
                        ".web/build/client", "--prefix", str(run_dir / "nginx")], env=env, cwd=ROOT, check=True,
                       stdout=conf.open("w"))  # fmt: skip
        subprocess.run(["nginx", "-p", str(run_dir / "nginx"), "-c", str(conf)], check=True)
        try:
            measure("in process (no Redis)", 1, [proc.pid])
        finally:
            subprocess.run(["nginx", "-p", str(run_dir / "nginx"), "-c", str(conf), "-s", "quit"], check=False)
            os.killpg(proc.pid, 15)
            proc.wait(60)
            time.sleep(2)
    for n in [int(b) for b in args.backends.split(",")]:
        env = prod_env(n, run_dir) | {"SKIP_BUILD": "1"}
        subprocess.run([str(PROD), "start"], env=env, cwd=ROOT, check=True)
        try:
            leaders = [int((run_dir / f"instance-{i}.pid").read_text()) for i in range(1, n + 1)]
            measure("Redis", n, leaders)
        finally:
            subprocess.run([str(PROD), "stop"], env=env, cwd=ROOT, check=False)
            time.sleep(2)

    print("\n| state | backends | parked tabs | server cores | memory per tab | updates sent/s | tabs closed "
          "| load average |\n|---|---|---|---|---|---|---|---|")  # fmt: skip
    for label, n, count, r in rows:
        print(f"| {label} | {n} | {count} | {r['cores']:.3f} | {r['kb_per_tab']:.0f} KB | {r['updates_per_s']:.1f} "
              f"| {r['closed']} | {r['load']:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()
