"""The app's state managers: Reflex's file-backed one with its folder walk paced, and both kept to the Reflex
release they were written against."""

from __future__ import annotations

import re
from pathlib import Path

from reflex.istate.manager import StateManager
from reflex.istate.manager.disk import StateManagerDisk
from reflex.utils import path_ops

from volley_app.state import redis_state

ROOT = Path(__file__).resolve().parents[2]


def test_the_release_they_were_written_for_is_the_one_pinned():
    pinned = re.search(r"^reflex==(\S+)$", (ROOT / "requirements.txt").read_text(), re.MULTILINE)
    assert pinned is not None and pinned.group(1) == redis_state.REFLEX_RELEASE
    assert redis_state.fits() and not redis_state.fits("0.11.0")


def test_under_another_release_reflexs_own_managers_stay(monkeypatch):
    monkeypatch.setattr(redis_state, "fits", lambda release=None: False)
    monkeypatch.setattr(StateManager, "create", StateManager.create)  # put back whatever the test changes
    before = StateManager.__dict__["create"]
    redis_state.install()
    assert StateManager.__dict__["create"] is before


def test_the_state_files_folder_is_walked_at_most_once_a_minute(monkeypatch):
    walks: list[Path] = []
    real_ls = path_ops.ls
    monkeypatch.setattr(path_ops, "ls", lambda folder: walks.append(folder) or real_ls(folder))
    clock = [1000.0]
    monkeypatch.setattr(redis_state.time, "monotonic", lambda: clock[0])
    manager = StateManagerDisk()
    manager.__class__ = redis_state.StateManagerDiskPaced  # as the app's create makes it
    walks.clear()
    for _ in range(30):  # a minute of Reflex's write loop (a pass every two seconds)
        manager._purge_expired_states()
        clock[0] += 2.0
    assert len(walks) == 1
    manager._purge_expired_states()  # a minute on: the next walk
    assert len(walks) == 2


def test_the_app_makes_the_paced_manager_where_reflex_would_keep_files(monkeypatch):
    monkeypatch.setattr(StateManager, "create", StateManager.create)
    redis_state.install()
    monkeypatch.setattr(redis_state, "_reflex_create", lambda cls: StateManagerDisk())
    assert type(StateManager.create()) is redis_state.StateManagerDiskPaced
