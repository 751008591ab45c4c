"""Inline scripts are allowed by hash, page by page: the policy names each script a page carries, nothing else."""

from __future__ import annotations

import base64
import gzip
import hashlib
import re

import httpx
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from volley_app.api import script_policy, security

BOOT = 'window.__reactRouterContext = {"basename": "/"};'
MODULE = 'import "/assets/entry.js";'
PAGE = (f'<html><head><script src="/assets/app.js"></script><script>{BOOT}</script>'
        f'<script type="module" async="">{MODULE}</script><script type="application/json">{{"a": 1}}</script>'
        '</head><body>Hi</body></html>')  # fmt: skip


def _sha(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


def _script_src(response: httpx.Response) -> str:
    csp = response.headers["content-security-policy"]
    return re.search(r"script-src ([^;]*)", csp).group(1)


async def _get(path: str, **headers) -> httpx.Response:
    def page(_request):
        return HTMLResponse(PAGE)

    def zipped(_request):
        return Response(gzip.compress(PAGE.encode()), media_type="text/html", headers={"content-encoding": "gzip"})

    def brotli(_request):
        return Response(b"\x0b\x02\x80", media_type="text/html", headers={"content-encoding": "br"})

    def data(_request):
        return JSONResponse({"html": PAGE})

    def unchanged(_request):
        return Response(status_code=304, headers={"etag": '"1"'})

    inner = Starlette(routes=[Route("/page", page), Route("/zipped", zipped), Route("/br", brotli), Route("/data", data),
                             Route("/unchanged", unchanged)])  # fmt: skip
    app = security.protect(inner, backend_urls=["http://127.0.0.1:8000"])
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
        return await client.get(path, headers=headers)


def test_the_hashes_of_a_pages_inline_scripts():
    assert script_policy.inline_script_hashes(PAGE.encode()) == [_sha(BOOT), _sha(MODULE)]


async def test_a_page_allows_its_own_inline_scripts_by_hash_and_no_others():
    response = await _get("/page")
    assert response.text == PAGE
    sources = _script_src(response).split()
    assert sources[:2] == ["'self'", "'unsafe-eval'"]
    assert _sha(BOOT) in sources and _sha(MODULE) in sources
    assert "'unsafe-inline'" not in sources and len(sources) == 4


async def test_a_gzipped_page_is_read_for_its_hashes_and_sent_as_it_was():
    response = await _get("/zipped", **{"accept-encoding": "gzip"})
    assert response.text == PAGE  # httpx undoes the gzip: the body went out unchanged
    assert _sha(BOOT) in _script_src(response).split()


async def test_a_page_in_an_encoding_that_cannot_be_read_keeps_working():
    response = await _get("/br")
    assert "'unsafe-inline'" in _script_src(response).split()


async def test_other_responses_allow_no_inline_script():
    response = await _get("/data")
    assert _script_src(response).split() == ["'self'", "'unsafe-eval'"]


def test_the_build_wide_hashes_for_nginx(tmp_path):
    (tmp_path / "a.html").write_text(PAGE)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.html").write_text(f"<script>{BOOT}</script><script>var other = 1;</script>")
    assert script_policy.build_hashes(tmp_path) == sorted({_sha(BOOT), _sha(MODULE), _sha("var other = 1;")})
    policy = "default-src 'self'; script-src 'self' 'unsafe-eval'; object-src 'none'"
    assert script_policy.with_sources(policy, ["'sha256-x'"]) == (
        "default-src 'self'; script-src 'self' 'unsafe-eval' 'sha256-x'; object-src 'none'"
    )


async def test_a_not_modified_answer_leaves_the_browsers_copy_its_policy():
    response = await _get("/unchanged")
    assert response.status_code == 304 and "content-security-policy" not in response.headers
    assert response.headers["x-frame-options"] == "DENY"


async def test_a_page_sent_from_its_file_gets_its_hashes(tmp_path):
    # Under make run the backend serves the prebuilt pages from their files (the server's pathsend extension).
    page_file = tmp_path / "index.html"
    page_file.write_text(PAGE)

    async def from_file(scope, receive, send):
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/html; charset=utf-8"),
                                (b"content-length", str(page_file.stat().st_size).encode())]})  # fmt: skip
        await send({"type": "http.response.pathsend", "path": str(page_file)})

    app = security.protect(from_file, backend_urls=["http://127.0.0.1:8000"])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://localhost:3000") as client:
        response = await client.get("/")
    assert response.status_code == 200 and response.text == PAGE
    assert _sha(BOOT) in _script_src(response).split()
