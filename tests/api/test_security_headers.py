"""Security headers on every response of the backend, the host check, and the API docs outside production only."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from starlette.routing import Mount, Route

from volley_app.api import security
from volley_app.api.app import create_api
from volley_app.settings import Settings, get_settings

BASE = "http://localhost:3000"

EXPECTED = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
}


def backend_routes(app) -> list[tuple[str, str]]:
    """(method, path) of every route the backend serves: Reflex's own, the REST API's, one file under each mount."""
    found: list[tuple[str, str]] = []
    for route in [*app._api.routes, *create_api().routes]:
        if isinstance(route, Mount):
            found.append(("GET", f"{route.path}/no-such-file.png"))
            continue
        if isinstance(route, Route):
            method = sorted(route.methods - {"HEAD"})[0]
            found.append((method, re.sub(r"\{[^}]+\}", "1", route.path)))
    found.append(("GET", "/no/such/path"))
    return sorted(set(found))


def check_headers(response: httpx.Response) -> None:
    """The security headers every response carries."""
    for name, value in EXPECTED.items():
        assert response.headers.get(name) == value, (response.request.url, name, response.headers.get(name))
    csp = response.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp and "object-src 'none'" in csp
    assert "camera=()" in response.headers.get("permissions-policy", "")


def test_every_backend_route_is_listed(backend):
    """The route list the header check walks is the backend's own: a new route joins it by itself."""
    app, _asgi = backend
    paths = {path for _method, path in backend_routes(app)}
    assert {"/ping", "/_health", "/_upload", "/api/auth", "/api/users/me", "/api/stripe/webhook"} <= paths
    assert len(paths) >= 12


async def test_security_headers_on_every_backend_route(backend, client, db):
    app, _asgi = backend
    statuses = {}
    for method, path in backend_routes(app):
        response = await client.request(method, path)
        statuses[path] = response.status_code
        check_headers(response)
    assert statuses["/ping"] == 200 and statuses["/no/such/path"] == 404
    assert statuses["/api/auth"] in (400, 422) and statuses["/_upload"] == 403


async def test_a_forged_host_is_refused_and_never_reflected(client):
    for path in ("/", "/login", "/api/users/me", "/ping", "/_upload/x.png"):
        response = await client.get(path, headers={"host": "evil.example"}, follow_redirects=False)
        assert response.status_code == 400
        assert "evil.example" not in response.text
        assert "evil.example" not in response.headers.get("location", "")
        check_headers(response)


async def test_the_own_hosts_are_answered(client):
    assert (await client.get("/ping")).status_code == 200
    assert (await client.get("/ping", headers={"host": "127.0.0.1:8000"})).status_code == 200


def test_allowed_hosts_come_from_the_public_address():
    prod = Settings(app_env="production", secret_key="k" * 40, public_url="https://play.example.org",
                    backend_url="https://play.example.org", allowed_hosts="www.play.example.org")  # fmt: skip
    assert security.allowed_hosts(prod) == ["play.example.org", "www.play.example.org"]
    dev = Settings(public_url="http://localhost:3000")
    assert "localhost" in security.allowed_hosts(dev)


def test_hsts_only_when_the_public_address_is_https():
    plain = security.headers(Settings(public_url="http://localhost:3000"))
    assert "Strict-Transport-Security" not in plain
    https = security.headers(Settings(public_url="https://play.example.org"))
    assert https["Strict-Transport-Security"].startswith("max-age=63072000")


def test_stripe_hosts_are_allowed_only_when_stripe_is_configured():
    without = security.headers(Settings())["Content-Security-Policy"]
    assert "stripe.com" not in without and "frame-src 'none'" in without
    keyed = Settings(stripe_secret_key="sk_test_x", stripe_publishable_key="pk_test_x")
    csp = security.headers(keyed)["Content-Security-Policy"]
    assert "script-src 'self' 'unsafe-eval' https://js.stripe.com" in csp
    assert "frame-src https://js.stripe.com https://hooks.stripe.com" in csp
    assert "https://api.stripe.com" in csp


def test_the_state_channel_is_allowed_to_connect():
    csp = security.headers(Settings(backend_url="http://127.0.0.1:8123"))["Content-Security-Policy"]
    assert "ws://127.0.0.1:8123" in csp and "http://127.0.0.1:8123" in csp


@pytest.mark.parametrize(("env", "docs_status"), [("development", 200), ("test", 200), ("production", 404)])
async def test_api_docs_exist_only_outside_production(monkeypatch, env, docs_status):
    monkeypatch.setenv("APP_ENV", env)
    monkeypatch.setenv("SECRET_KEY", "a-production-secret-key-of-some-length")
    get_settings.cache_clear()
    try:
        transport = httpx.ASGITransport(app=create_api())
        async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
            assert (await c.get("/api/docs")).status_code == docs_status
            assert (await c.get("/api/openapi.json")).status_code == docs_status
            assert (await c.get("/redoc")).status_code == 404
            assert (await c.get("/docs/oauth2-redirect")).status_code == 404
    finally:
        monkeypatch.setenv("APP_ENV", "test")
        get_settings.cache_clear()


def _served(content_type: str, cache_control: str | None = None):
    """A stand-in for what the one-port backend serves: any path answers 200 with ``content_type``."""

    async def app(scope, receive, send):
        headers = [(b"content-type", content_type.encode())]
        if cache_control:
            headers.append((b"cache-control", cache_control.encode()))
        status = 404 if scope["path"].endswith("/missing.js") else 200
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"x"})

    return security.protect(app)


@pytest.mark.parametrize(
    ("method", "path", "content_type", "own", "expected"),
    [
        ("GET", "/assets/entry.client-Bx81fQ2a.js", "text/javascript", None, "public, max-age=31536000, immutable"),
        ("HEAD", "/assets/root-C3a0.css", "text/css", None, "public, max-age=31536000, immutable"),
        ("GET", "/dash/leagues", "text/html; charset=utf-8", None, "no-cache"),
        ("GET", "/login", "text/html", None, "no-cache"),
        ("GET", "/assets/reflex-env-a1.js", "text/javascript", "no-cache", "no-cache"),
        ("GET", "/api/exports/teams.csv", "text/csv", "private, no-store", "private, no-store"),
        ("GET", "/favicon.svg", "image/svg+xml", None, None),
        ("GET", "/assets/missing.js", "text/plain", None, None),
        ("POST", "/assets/x.js", "text/html", None, None),
    ],
)
async def test_built_files_are_cached_for_good_and_pages_checked_each_visit(method, path, content_type, own, expected):
    """On one port (``make run``) as behind nginx: a new build's files have new names, so the old ones are kept for a
    year; a page is asked for again each visit, so a deploy is seen at once; a response's own rule is kept."""
    transport = httpx.ASGITransport(app=_served(content_type, own))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
        response = await c.request(method, path)
    assert response.headers.get("cache-control") == expected
    check_headers(response)


def test_nginx_caches_the_built_files_as_the_one_port_backend_does():
    conf = (Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf.template").read_text()
    assets = conf[conf.index("location /assets/"):]
    pages = conf[conf.index("location / {"):]
    assert f'Cache-Control "{security.CACHED_FOR_GOOD.decode()}"' in assets[: assets.index("}")]
    assert f'Cache-Control "{security.CHECKED_EACH_TIME.decode()}"' in pages[: pages.index("}")]


@pytest.fixture
def built(tmp_path):
    """A build as React Router leaves it: each page as ``<page>.html`` and ``<page>/index.html``, served by the
    static files server Reflex's one port uses (html pages, directories sent on to their ``/`` address)."""
    from starlette.applications import Starlette
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    for page in ("contact", "dash/leagues"):
        (tmp_path / page).mkdir(parents=True)
        for file in (tmp_path / f"{page}.html", tmp_path / page / "index.html"):
            file.write_text(f"<!doctype html><title>{page}</title>")
    (tmp_path / "index.html").write_text("<!doctype html><title>home</title>")
    (tmp_path / "404.html").write_text("<!doctype html><title>not found</title>")
    (tmp_path.parent / "secret.html").write_text("not a page")
    served = Starlette(routes=[Mount("/", StaticFiles(directory=tmp_path, html=True))])
    return security.PageAddresses(served, pages=lambda: tmp_path)


@pytest.mark.parametrize(("path", "page"), [("/contact", "contact"), ("/contact/", "contact"),
                                            ("/dash/leagues", "dash/leagues"), ("/", "home")])  # fmt: skip
async def test_a_page_answers_at_its_own_address_without_a_redirect(built, path, page):
    transport = httpx.ASGITransport(app=built)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
        for method in ("GET", "HEAD"):
            response = await c.request(method, path)
            assert response.status_code == 200, (method, path, response.headers.get("location"))
    assert f"<title>{page}</title>" in (await httpx.AsyncClient(transport=transport, base_url=BASE).get(path)).text


async def test_only_a_page_of_the_build_is_looked_up_for_an_address(built):
    transport = httpx.ASGITransport(app=built)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
        assert (await c.get("/nowhere")).status_code == 404
        assert (await c.get("/404")).status_code == 404  # the page for unknown addresses is not one
        assert (await c.get("/../secret")).status_code == 404
        assert (await c.get("/contact.html")).status_code == 200  # a file's own name still serves it
        assert (await c.post("/contact")).status_code == 405  # only reads are looked up
