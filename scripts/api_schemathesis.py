"""Schemathesis over the REST API with each kind of caller's token, against a local server on loopback.

Every role gets a fresh small world (tests/api/world.py) on a throwaway SQLite file (or ``DATABASE_URL``), a
server on 127.0.0.1, and one ``st run`` with every check. The failures are counted by check and printed, with the
cases run, the server errors and the schema-valid requests refused. A schema-valid request refused (400, 422) by an
operation of ``BEYOND_THE_DOCUMENT`` (tests/api/test_openapi_schema.py: its rule depends on what is stored, which
no JSON schema can state) is listed with that reason and not counted; any other failure is.

    source scripts/env.sh
    python scripts/api_schemathesis.py [--max-examples 25] [--roles admin,player] [--phases examples,coverage,fuzzing]

Exits non-zero when any check fails. Loopback only; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import base64
import collections
import dataclasses
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


SERVER_ERROR = "not_a_server_error"
REJECTED = "positive_data_acceptance"
STORED_DATA_REFUSALS = (400, 422)  # a rule's refusal; 401/403/404 pass the check anyway


@dataclasses.dataclass
class Outcome:
    cases: int = 0
    failures: collections.Counter = dataclasses.field(default_factory=collections.Counter)  # (check, operation)
    beyond: collections.Counter = dataclasses.field(default_factory=collections.Counter)  # operation
    said: dict = dataclasses.field(default_factory=dict)  # (check, operation) -> an answer, as an example

    def count(self, check: str) -> int:
        return sum(n for (name, _op), n in self.failures.items() if name == check)


def _answer(interaction: dict) -> tuple[int | None, str]:
    response = interaction.get("response") or {}
    content = (response.get("content") or {}).get("$base64") or ""
    text = base64.b64decode(content).decode("utf-8", "replace") if content else ""
    return response.get("status_code"), text[:160]


def _read(report: Path, beyond: dict[str, str]) -> Outcome:
    """The run's cases and failed checks; a refusal by an operation the document cannot state goes to ``beyond``."""
    found = Outcome()
    for line in report.read_text().splitlines():
        event = json.loads(line)
        for name, body in event.items():
            if name != "ScenarioFinished":
                continue
            recorder = body.get("recorder", {})
            interactions = recorder.get("interactions", {})
            found.cases += len(interactions)
            for case_id, checks in recorder.get("checks", {}).items():
                for check in checks:
                    if check.get("status") != "failure":
                        continue
                    key = (check.get("name"), recorder.get("label", ""))
                    status, text = _answer(interactions.get(case_id, {}))
                    if key[0] == REJECTED and key[1] in beyond and status in STORED_DATA_REFUSALS:
                        found.beyond[key[1]] += 1
                        continue
                    found.failures[key] += 1
                    found.said.setdefault(key, f"{status} {text}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-examples", type=int, default=25)
    parser.add_argument("--roles", default="anonymous,player,other_player,svl,other_svl,admin")
    parser.add_argument("--phases", default="examples,coverage,fuzzing")
    parser.add_argument("--checks", default="all")
    args = parser.parse_args()

    from tests.api.test_openapi_schema import BEYOND_THE_DOCUMENT
    from tests.conftest import migrate_fresh

    migrate_fresh()
    port = _free_port()
    server = _serve(port)
    database = os.environ["DATABASE_URL"].split(":", 1)[0]
    totals = Outcome()
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
            subprocess.run(cmd, capture_output=True, text=True, cwd=_TMP, check=False)  # noqa: S603
            found = _read(report, BEYOND_THE_DOCUMENT)
            totals.cases += found.cases
            totals.failures.update(found.failures)
            totals.beyond.update(found.beyond)
            say(f"== {role}: {found.cases} cases, {found.count(SERVER_ERROR)} server errors, "
                f"{found.count(REJECTED)} schema-valid requests rejected, {sum(found.failures.values())} failures "
                f"in {time.monotonic() - started:.0f}s")  # fmt: skip
            for (check, label), n in sorted(found.failures.items()):
                say(f"   {check:32} {label}  x{n}: {found.said[(check, label)]}")
            for label, n in sorted(found.beyond.items()):
                say(f"   refused by stored data           {label}  x{n} (not counted: {BEYOND_THE_DOCUMENT[label]})")
    finally:
        server.should_exit = True
    total = sum(totals.failures.values())
    by_check = collections.Counter()
    for (check, _label), n in totals.failures.items():
        by_check[check] += n
    say(f"== {database}: {totals.cases} cases, {totals.count(SERVER_ERROR)} server errors, "
        f"{totals.count(REJECTED)} schema-valid requests rejected, {total} failures in all {dict(by_check)}; "
        f"{sum(totals.beyond.values())} refusals by stored data in {len(totals.beyond)} operations not counted")  # fmt: skip
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
