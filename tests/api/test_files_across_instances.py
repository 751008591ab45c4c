"""Several instances behind one address share no disk: a bracket stored by one is served by another.

This process stores the file (its own UPLOAD_DIR); a second app process, with an UPLOAD_DIR of its own and
its own database engine on the same database, serves it. The production-topology tier does the same through
nginx (tests/deploy/test_files.py).
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.factories import actor_of, add_league, add_league_session, make_user
from volley_app.models import Role, utcnow
from volley_app.services.seasons import leagues
from volley_app.settings import get_settings

ROOT = Path(__file__).resolve().parents[2]
PDF = b"%PDF-1.4\n" + b"%" * 5000 + b"\n%%EOF\n"
SECRET = "files-across-instances-0123456789abcdefghijklmn"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def here(tmp_path, monkeypatch):
    """This process, as one instance: its own upload folder."""
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path / "here"))
    monkeypatch.setenv("SECRET_KEY", SECRET)
    get_settings.cache_clear()
    yield tmp_path / "here"
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.fixture
def other_instance(tmp_path, migrated) -> Iterator[str]:
    """A second app process serving the REST API, with an upload folder of its own; yields its address."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = os.environ | {"UPLOAD_DIR": str(tmp_path / "there"), "SECRET_KEY": SECRET, "PUBLIC_URL": url,
                        "PYTHONPATH": str(ROOT)}  # fmt: skip
    code = (
        "import uvicorn\n"
        "from volley_app.api.app import create_api\n"
        f"uvicorn.run(create_api(), host='127.0.0.1', port={port}, log_level='warning')\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{url}/api/openapi.json", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None, "the second instance did not start"
                assert time.monotonic() < deadline, "the second instance did not answer"
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_bracket_uploaded_on_one_instance_downloads_from_another(db, here, other_instance):
    svl = make_user(db, "svla", Role.SVL)
    player = make_user(db, "pat")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=4))
    leagues.upload_bracket(db, actor_of(svl), lg.id, data=PDF)
    db.commit()
    link = leagues.bracket_link(db, actor_of(player), lg.id)

    got = httpx.get(other_instance + link, timeout=30)
    assert got.status_code == 200, got.text
    assert got.content == PDF and got.headers["content-type"] == "application/pdf"
    assert not here.exists() or not any(here.iterdir())  # nothing was written to this instance's disk
