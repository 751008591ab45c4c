"""Files on several machines: a bracket stored by one instance downloads from every instance and through nginx.

This test process stores the file as one more instance would, with an upload folder of its own (no disk is
shared with the running instances); each instance and the public address then serve it.
"""

from __future__ import annotations

import datetime as dt

import httpx

from tests.factories import actor_of, add_league, add_league_session, make_user
from volley_app.models import Role, utcnow
from volley_app.services.seasons import leagues
from volley_app.settings import get_settings

PDF = b"%PDF-1.4\n" + b"%" * 4000 + b"\n%%EOF\n"


def test_a_bracket_uploaded_on_one_instance_downloads_on_every_instance(deployment, db, tmp_path, monkeypatch):
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path / "this-machine"))
    monkeypatch.setenv("SECRET_KEY", deployment.env["SECRET_KEY"])  # links are signed as the instances sign them
    get_settings.cache_clear()
    try:
        svl = make_user(db, "filesvl", Role.SVL)
        player = make_user(db, "fileplayer")
        now = utcnow()
        sid = add_league_session(db, svl, "Files", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
        lg = add_league(db, svl, sid, start=now + dt.timedelta(days=4))
        leagues.upload_bracket(db, actor_of(svl), lg.id, data=PDF)
        db.commit()
        link = leagues.bracket_link(db, actor_of(player), lg.id)
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()

    for n in (1, 2):  # both instances run (an earlier test may have stopped one)
        deployment.start(n)
    instances = [f"http://127.0.0.1:{deployment.base_port + n}" for n in (0, 1)]
    for base in (*instances, deployment.url):
        got = httpx.get(base + link, timeout=30)
        assert got.status_code == 200, (base, got.status_code, got.text[:200])
        assert got.content == PDF and got.headers["content-type"] == "application/pdf", base
    assert not (tmp_path / "this-machine").exists() or not any((tmp_path / "this-machine").iterdir())
