"""Benchmark: the cost of checking a session on every event, and of a login.

Every protected Reflex handler resolves the browser's token against the
database, so ``auth.resolve`` runs once per user action. Run:

    .venv/bin/python bench/bench_auth.py            # SQLite in a temp dir
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench .venv/bin/python bench/bench_auth.py

Results are appended to bench/RESULTS.md by hand after a run (see there).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.db")


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def report(name: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p95 = samples[int(len(samples) * 0.95) - 1]
    print(f"{name:<38} n={len(samples):<5} median={statistics.median(samples):7.2f} ms  p95={p95:7.2f} ms")


def main() -> None:
    import sqlalchemy as sa

    from volley_app import db
    from volley_app.migrations import upgrade_to_head
    from volley_app.models import Role
    from volley_app.services.accounts import accounts, auth

    engine = db.get_engine()
    if engine.dialect.name == "postgresql":
        with engine.begin() as c:
            c.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    upgrade_to_head()
    for i in range(200):
        db.call(accounts.create_user, username=f"user{i}", password="pass1234", email=f"u{i}@example.com",
                first_name="U", last_name="Ser", region="KY", roles=[Role.PLAYER])  # fmt: skip
    tokens = [db.call(auth.login, username=f"user{i}", password="pass1234").token for i in range(50)]
    print(f"database: {engine.dialect.name}; bcrypt rounds: {os.environ.get('BCRYPT_ROUNDS', '12')}")
    it = iter(tokens * 40)
    report("auth.resolve (session check per event)", timed(lambda: db.call(auth.resolve, next(it)), 2000))
    report("auth.login (bcrypt + session row)", timed(lambda: db.call(auth.login, username="user7", password="pass1234"), 20))


if __name__ == "__main__":
    main()
