"""Schemathesis over the REST API with each kind of caller's token, against a local server on loopback.

Every role gets a fresh small world (tests/api/world.py) on a throwaway SQLite file (or ``DATABASE_URL``), a
server on 127.0.0.1, and one ``st run`` with every check. The failures are counted by check and printed.

    source scripts/env.sh
    python scripts/api_schemathesis.py [--max-examples 25] [--roles admin,player] [--phases examples,coverage,fuzzing]

Exits non-zero when any check fails. Loopback only; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
_TMP = Path(tempfile.mkdtemp(prefix="volley-st-"))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{_TMP / 'st.db'}")
os.environ["APP_ENV"] = "test"
os.environ.setdefault("BCRYPT_ROUNDS", "4")


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(port: int):
    import uvicorn

    from volley_app.api.app import create_api

    server = uvicorn.Server(uvicorn.Config(create_api(), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    for _ in range(100):
        if server.started:
            return server
        time.sleep(0.1)
    raise SystemExit("the API server did not start")


def _world() -> dict:
    from sqlmodel import Session

    from tests.api import world
    from tests.conftest import clear_tables
    from volley_app import db as dbmod

    clear_tables()
    with Session(dbmod.get_engine(), expire_on_commit=False) as session:
        return world.build(session)


def _failures(report: Path) -> collections.Counter:
    found: collections.Counter = collections.Counter()
    for line in report.read_text().splitlines():
        event = json.loads(line)
        for name, body in event.items():
            if name != "ScenarioFinished":
                continue
            recorder = body.get("recorder", {})
            for checks in recorder.get("checks", {}).values():
                for check in checks:
                    if check.get("status") == "failure":
                        found[(check.get("name"), recorder.get("label", ""))] += 1
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-examples", type=int, default=25)
    parser.add_argument("--roles", default="anonymous,player,other_player,svl,other_svl,admin")
    parser.add_argument("--phases", default="examples,coverage,fuzzing")
    parser.add_argument("--checks", default="all")
    args = parser.parse_args()

    from tests.conftest import migrate_fresh

    migrate_fresh()
    port = _free_port()
    server = _serve(port)
    total = 0
    try:
        for role in args.roles.split(","):
            x = _world()
            report = _TMP / f"{role}.ndjson"
            cmd = ["st", "run", f"http://127.0.0.1:{port}/api/openapi.json", "--checks", args.checks,
                   "--phases", args.phases, "--max-examples", str(args.max_examples), "--workers", "1",
                   "--report", "ndjson", "--report-ndjson-path", str(report), "--no-color", "--seed", "1",
                   "--generation-database", "none", "--suppress-health-check", "all"]  # fmt: skip
            if role != "anonymous":
                cmd += ["-H", f"Authorization: Bearer {x['tokens'][role]}"]
            started = time.monotonic()
            out = subprocess.run(cmd, capture_output=True, text=True, cwd=_TMP, check=False)  # noqa: S603
            failures = _failures(report)
            cases = out.stdout.count("\n")
            total += sum(failures.values())
            summary = [ln for ln in out.stdout.splitlines() if "test cases" in ln.lower() or "passed" in ln.lower()]
            say(f"== {role}: {sum(failures.values())} failures in {time.monotonic() - started:.0f}s; "
                  f"{' | '.join(summary[-2:]) or cases}")  # fmt: skip
            by_check = collections.Counter()
            for (check, label), n in sorted(failures.items()):
                by_check[check] += n
                say(f"   {check:32} {label}  x{n}")
            if by_check:
                say(f"   by check: {dict(by_check)}")
    finally:
        server.should_exit = True
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
