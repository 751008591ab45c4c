"""Two instances behind nginx: the background loops (mail, push, sweeps, reminders) run in one of them, and move to
the other when it stops."""

from __future__ import annotations

import time

import redis

from volley_app.services.core import background

RUNS_HERE = "Background loops run here"


def _said(deployment, n: int) -> int:
    """How many times instance ``n`` has taken the loops over since the deployment started."""
    path = deployment.dir / f"instance-{n}.log"
    return path.read_text(errors="replace").count(RUNS_HERE) if path.exists() else 0


def _wait(predicate, timeout: float, what: str) -> None:
    ends = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > ends:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def test_the_loops_run_in_one_instance_and_move_to_the_other_when_it_stops(deployment):
    store = redis.Redis.from_url(deployment.env["REDIS_URL"])
    _wait(lambda: store.get(background.LEASE_KEY) is not None, 30, "an instance to take the lease")
    _wait(lambda: _said(deployment, 1) + _said(deployment, 2) >= 1, 10, "an instance to say it runs the loops")
    before = {n: _said(deployment, n) for n in (1, 2)}
    holder = 1 if before[1] > before[2] else 2
    other = 3 - holder
    time.sleep(2 * background.RENEW_SECONDS)  # several renewals: the other instance never takes them too
    assert {n: _said(deployment, n) for n in (1, 2)} == before

    deployment.stop(holder)  # it gives the lease up on its way out
    _wait(lambda: _said(deployment, other) > before[other], background.RENEW_SECONDS + 10,
          "the other instance to take the loops over")  # fmt: skip
    deployment.start(holder)
    time.sleep(2 * background.RENEW_SECONDS)
    assert _said(deployment, holder) == before[holder], "the instance back holds off while the other runs them"
    assert _said(deployment, other) == before[other] + 1
