"""Behind the shipped nginx config each visitor is their own client; nobody picks their address with a header.

The whole backend (every transformer, as the server runs it) serves on a real port; nginx runs the rendered
``deploy/nginx.conf.template`` in front of it. Visitors connect from different loopback addresses.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn
from sqlmodel import select

from tests.factories import PASSWORD, make_user, public_league_world
from volley_app.models import LoginAttempt

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def instance(db, backend):
    """The backend on 127.0.0.1 (uvicorn's own forwarded-address support off: the app decides)."""
    _app, asgi = backend
    port = _free_port()
    config = uvicorn.Config(asgi, host="127.0.0.1", port=port, log_level="warning", lifespan="off",
                            proxy_headers=False)  # fmt: skip
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the backend did not start"
        time.sleep(0.05)
    yield port
    srv.should_exit = True
    thread.join(10)


@pytest.fixture
def proxy(instance, tmp_path):
    """nginx with the shipped config in front of the instance; its address."""
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed (scripts/test.sh installs it)")
    port = _free_port()
    prefix = tmp_path / "nginx"
    (prefix / "build").mkdir(parents=True)
    (prefix / "build" / "index.html").write_text("<!doctype html><title>app</title>")
    conf = subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "render_nginx.py"), "--listen", f"127.0.0.1:{port}",
         "--backends", f"127.0.0.1:{instance}", "--root", str(prefix / "build"), "--prefix", str(prefix)],
        check=True, capture_output=True, text=True, cwd=ROOT,
    ).stdout  # fmt: skip
    (prefix / "nginx.conf").write_text(conf)
    subprocess.run([NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf")], check=True, timeout=20)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        subprocess.run([NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-s", "stop"], timeout=20,
                       check=False)  # fmt: skip


def _visitor(address: str, base: str) -> httpx.Client:
    return httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address=address), timeout=10)


def _login(client: httpx.Client, password: str, **headers) -> httpx.Response:
    return client.post("/api/auth", json={"username": "frank", "password": password}, headers=headers)


def _clients(db) -> list[str]:
    db.expire_all()
    return sorted(set(db.exec(select(LoginAttempt.client)).all()))


def test_two_visitors_behind_nginx_are_two_clients(db, proxy):
    make_user(db, "frank")
    with _visitor("127.0.10.1", proxy) as guesser, _visitor("127.0.10.2", proxy) as owner:
        for _ in range(3):
            assert _login(guesser, "wrong-guess").status_code == 401
        assert _login(guesser, "wrong-guess").status_code == 429  # this visitor waits
        assert _clients(db) == ["127.0.10.1"]
        response = _login(owner, PASSWORD)  # the owner, elsewhere, does not
        assert response.status_code == 200, response.text


def test_a_visitor_cannot_name_another_address_through_nginx(db, proxy):
    make_user(db, "frank")
    with _visitor("127.0.10.3", proxy) as guesser:
        for n in range(3):
            assert _login(guesser, "wrong-guess", **{"X-Forwarded-For": f"203.0.113.{n}"}).status_code == 401
        assert _login(guesser, PASSWORD, **{"X-Forwarded-For": "203.0.113.9"}).status_code == 429
    assert _clients(db) == ["127.0.10.3"]


def test_a_client_not_behind_a_trusted_proxy_cannot_name_its_address(db, instance):
    make_user(db, "frank")
    with _visitor("127.0.10.4", f"http://127.0.0.1:{instance}") as guesser:
        for n in range(3):
            assert _login(guesser, "wrong-guess", **{"X-Forwarded-For": f"203.0.113.{n}"}).status_code == 401
        assert _login(guesser, PASSWORD, **{"X-Forwarded-For": "127.0.0.1"}).status_code == 429
    assert _clients(db) == ["127.0.10.4"]


def test_the_instance_believes_the_proxy_on_this_machine(db, instance):
    make_user(db, "frank")
    with _visitor("127.0.0.1", f"http://127.0.0.1:{instance}") as proxy_like:
        assert _login(proxy_like, "wrong-guess", **{"X-Forwarded-For": "203.0.113.5"}).status_code == 401
    assert _clients(db) == ["203.0.113.5"]


def test_the_home_page_and_the_public_league_pages_come_from_the_instances_through_nginx(db, proxy):
    league = public_league_world(db)["open"]
    with _visitor("127.0.10.5", proxy) as visitor:
        home = visitor.get("/")
        assert home.status_code == 200 and "<h1>Play more volleyball.</h1>" in home.text  # not the build's empty shell
        assert "The next league starts" in home.text
        listed = visitor.get("/leagues")
        assert listed.status_code == 200 and "<h1>Volleyball leagues</h1>" in listed.text  # not the build's page
        page = visitor.get(f"/leagues/{league}")
        assert page.status_code == 200 and "<h1>Monday C 6s</h1>" in page.text
        assert page.headers["cache-control"] == "public, max-age=60"
        assert visitor.get("/leagues/999999").status_code == 404
