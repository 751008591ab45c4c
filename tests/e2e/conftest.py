"""End-to-end set-up: the real app (production build) and Chromium driven by Playwright.

The app runs in this process (backend in a thread, as reflex.testing does), on
the test database, so tests can arrange data through the services. The
frontend is served on a port chosen here, so the backend's CORS allow-list is
the app's own origin, as in production; like the shipped nginx, it passes
``/api/`` and ``/leagues`` to the backend, so links built from PUBLIC_URL work in the browser.

Several test processes each run an app and a browser of their own, on a database of their own
(``tests/conftest.py``), and serve one build of the pages: the first process builds it for the
sources' digest, the others (and later runs, while the sources stay the same) serve it as it is,
each with its own backend's address in it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Chromium's headless shell (Debian's chromium-headless-shell, what Playwright itself runs headless): the same engine
# as the browser, without its window machinery, at about two thirds of its processor time.
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / "artifacts"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _public_url() -> str:
    from volley_app.settings import get_settings

    return get_settings().public_url


@pytest.fixture(scope="session")
def smtp():
    """A real SMTP server on loopback that the app under test delivers its outbox to.

    It also notes every link of every message it receives whose origin is not the app's PUBLIC_URL.
    """
    from tests.links import foreign, message_links
    from tests.smtp_server import SmtpSink

    class Sink(SmtpSink):
        def __init__(self):
            super().__init__()
            self.foreign_links: list[tuple[str, str]] = []

        def _receive(self, envelope) -> str:
            reply = super()._receive(envelope)
            with self._lock:
                if reply.startswith("250") and self.messages:
                    msg = self.messages[-1]
                    self.foreign_links += [(str(msg["Subject"]), u) for u in foreign(message_links(msg), _public_url())]
            return reply

    with Sink() as sink:
        os.environ.update(sink.env)
        yield sink


@pytest.fixture(autouse=True)
def mail_links_stay_on_the_public_url(smtp):
    """Every link of every message a test's app sends (delivered or left in the outbox) is on PUBLIC_URL."""
    yield
    found, smtp.foreign_links[:] = list(smtp.foreign_links), []
    assert found == [], f"mail links off the app's address {_public_url()}: {found}"


@pytest.fixture
def db(db):
    """The test database's session, as everywhere; and the test's mail delivered or dropped before its tables are emptied.

    The app's sender may be sending a test's message when the test ends: emptied then, the message
    would reach the next test's mailbox. So each test's unsent mail is dropped, and a message being
    sent is waited for (a row is either dropped or claimed by the sender, never both).
    """
    yield db
    import time

    import sqlalchemy as sa

    from tests.links import foreign, links
    from volley_app.db import get_engine
    from volley_app.models import OutboxMessage, OutboxStatus

    outbox = OutboxMessage.__table__
    with get_engine().connect() as conn:
        unsent = conn.execute(sa.select(outbox.c.subject, outbox.c.body_text, outbox.c.body_html, outbox.c.list_unsubscribe)
                              .where(outbox.c.status != OutboxStatus.SENT)).all()  # fmt: skip
    off = [(row[0], u) for row in unsent for u in foreign(links(*row[1:]), _public_url())]
    deadline = time.monotonic() + 30
    while True:
        with get_engine().begin() as conn:
            conn.execute(sa.delete(outbox).where(outbox.c.status != OutboxStatus.SENDING))
            sending = conn.execute(sa.select(sa.func.count()).where(outbox.c.status == OutboxStatus.SENDING)).scalar()
        if not sending or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert off == [], f"mail links off the app's address {_public_url()}: {off}"


@pytest.fixture
def mailbox(smtp):
    """The SMTP sink, emptied for this test."""
    smtp.fail = False
    smtp.clear()
    return smtp


_HOP_BY_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"host", b"content-length"}


def _backend_under(pages, backend: str):
    """The pages' server, with ``/api/``, the home page and the public league pages passed to the backend at
    ``backend``, as the shipped nginx does.

    So every link the app builds from PUBLIC_URL (files, answers from email) is followed on the pages' origin.
    """
    import httpx

    from volley_app import routes

    async def app(scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] != "http" or not (path.startswith("/api/") or routes.drawn_by_backend(path)):
            return await pages(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in _HOP_BY_HOP and k.lower() != b"accept-encoding"]
        headers += [(b"host", dict(scope["headers"]).get(b"host", b"127.0.0.1")),
                    (b"x-forwarded-for", scope["client"][0].encode()), (b"x-forwarded-proto", b"http"),
                    (b"accept-encoding", b"identity")]  # fmt: skip
        url = backend + scope["raw_path"].decode() + (f"?{scope['query_string'].decode()}" if scope["query_string"] else "")
        async with httpx.AsyncClient() as client:
            answer = await client.request(scope["method"], url, headers=headers, content=body, follow_redirects=False)
        await send({"type": "http.response.start", "status": answer.status_code,
                    "headers": [(k, v) for k, v in answer.headers.raw if k.lower() not in _HOP_BY_HOP]})  # fmt: skip
        await send({"type": "http.response.body", "body": answer.content})

    return app


BUILD = ROOT / ".web" / "build" / "client"
BUILD_STAMP = BUILD / ".sources.sha256"
_BUILT_FROM = ("volley_app", "assets", "rxconfig.py", "requirements.txt")


def web_copy(to: Path) -> None:
    """``to`` as a copy of the checkout's ``.web`` (if it is there): its sources, its installed packages linked. A
    build made there (REFLEX_WEB_WORKDIR) leaves the pages this tier serves from ``.web`` as they are."""
    web = ROOT / ".web"
    if not (web / "node_modules").is_dir():
        return  # the build installs the packages itself, the first time
    shutil.copytree(web, to, symlinks=True, ignore=shutil.ignore_patterns("node_modules", "build"))
    (to / "node_modules").symlink_to(web / "node_modules", target_is_directory=True)


def _sources_digest() -> str:
    """A digest of every file the frontend build is made from."""
    import hashlib

    digest = hashlib.sha256()
    for top in _BUILT_FROM:
        path = ROOT / top
        files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) if path.is_dir() else [path]
        for f in files:
            digest.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()


def _build_is_current() -> bool:
    return BUILD_STAMP.is_file() and (BUILD / "index.html").is_file() and BUILD_STAMP.read_text() == _sources_digest()


@contextlib.contextmanager
def _one_build_at_a_time() -> Iterator[None]:
    """Held while a process compiles and builds the pages: the processes of one run share ``.web``."""
    import fcntl

    (ROOT / ".web").mkdir(exist_ok=True)
    with open(ROOT / ".web" / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _env_rewritten(pages, backend: str):
    """The pages, with the backend address the build holds (its ``reflex-env`` module) set to ``backend``.

    One build serves every process of a run (and the next run, while the sources are the same);
    each process's pages talk to its own backend.
    """
    import re

    address = backend.split("//", 1)[1].encode()

    async def app(scope, receive, send):
        path = scope.get("path", "") if scope["type"] == "http" else ""
        file = BUILD / path.lstrip("/")
        if re.fullmatch(r"/assets/reflex-env-[\w-]+\.js", path) and file.is_file():
            body = re.sub(rb"//127\.0\.0\.1:\d+", b"//" + address, file.read_bytes())
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"text/javascript"), (b"cache-control", b"no-cache")]})  # fmt: skip
            await send({"type": "http.response.body", "body": body})
            return
        await pages(scope, receive, send)

    return app


@pytest.fixture(scope="session")
def app_url(migrated, smtp) -> Iterator[str]:
    """Start the app once for the whole e2e session; yields the frontend URL."""
    from reflex.testing import AppHarnessProd, _get_uvicorn
    from reflex.utils import exec as rx_exec

    from volley_app.settings import get_settings

    port = _free_port()
    origin = f"http://127.0.0.1:{port}"
    os.environ["CORS_ORIGINS"] = origin
    os.environ["PUBLIC_URL"] = origin
    os.environ["PATH"] = f"{ROOT / '.tools' / 'node_modules' / '.bin'}{os.pathsep}{os.environ['PATH']}"
    os.environ["REFLEX_USE_SYSTEM_BUN"] = "1"
    os.environ["REFLEX_TELEMETRY_ENABLED"] = "false"
    get_settings.cache_clear()

    from volley_app.api.security import protect

    class Harness(AppHarnessProd):
        built = False  # the pages' build is current for the sources: this process serves it as it is

        def start(self):
            # Reflex's set-up empties ``.web`` (its build, the pages another process serves) before it
            # compiles: with a current build, only the compile runs.
            from unittest import mock

            import reflex.utils.prerequisites
            from reflex.environment import environment

            with _one_build_at_a_time():
                self.built = _build_is_current()
                if not self.built:
                    return super().start()
                # Nor is the app compiled again (its pages are in the build), as for a backend-only instance; the
                # harness turns compiling back on once the backend is up.
                environment.REFLEX_SKIP_COMPILE.set(True)
                with mock.patch.object(reflex.utils.prerequisites, "initialize_frontend_dependencies", lambda: None):
                    return super().start()

        def _start_frontend(self):
            if not self.built:
                super()._start_frontend()
                BUILD_STAMP.write_text(_sources_digest())
                return
            import reflex.constants
            from reflex.config import get_config
            from reflex.environment import environment

            get_config().api_url = "http://{}:{}".format(*self._poll_for_servers(timeout=30).getsockname())
            environment.REFLEX_ENV_MODE.set(reflex.constants.Env.PROD)
            self.frontend_thread = threading.Thread(target=self._run_frontend)
            self.frontend_thread.start()

        def _run_frontend(self):
            # In production one port serves the pages through the backend, behind its host check and
            # security headers; the pages' own server here sits behind the same wrapper.
            uvicorn = _get_uvicorn()
            backend_host, backend_port = self.backend.servers[0].sockets[0].getsockname()[:2]
            backend = f"http://{backend_host}:{backend_port}"
            pages = _backend_under(protect(_env_rewritten(rx_exec._frontend_prod_app(), backend), backend_urls=[backend]), backend)
            self.frontend_server = uvicorn.Server(
                uvicorn.Config(app=pages, host="127.0.0.1", port=port, log_level="warning")
            )
            self.frontend_server.run()

    harness = Harness.create(root=ROOT, app_name="volley_app")
    with harness:
        yield origin + "/"


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import expect, sync_playwright

    # Assertions wait as long as actions do: CI shares 2 cores between the app, Redis and Chromium.
    expect.set_options(timeout=15_000)

    if not Path(CHROMIUM).exists():
        pytest.exit(f"Chromium not found at {CHROMIUM}: run the tests with `make test`", returncode=3)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


# The page's server-drawn HTML shows before React has taken it over; a click in that gap does nothing (a dialog's
# button) or posts the form natively. A person's click comes later than a test's: each page load waits for it. (A page
# the backend draws only fetches the app's files ahead, as the login does: no React comes to take it over.)
HYDRATED = """() => {
  if (!document.querySelector('link[rel="modulepreload"][href*="entry.client"], script[src*="entry.client"]')) return true;
  const own = (el) => Object.keys(el).some((k) => k.startsWith('__reactFiber'));
  return own(document.documentElement) && [...document.querySelectorAll('button, form, a[href]')].every(own); }"""


def _hydrating(page):
    """``page`` whose ``goto`` and ``reload`` return once the page is React's (see ``HYDRATED``)."""
    for name in ("goto", "reload"):
        load = getattr(page, name)

        def loaded(*args, _load=load, **kwargs):
            response = _load(*args, **kwargs)
            with contextlib.suppress(Exception):  # a download, a file or an error page has no React to wait for
                page.wait_for_function(HYDRATED, timeout=15_000)
            return response

        setattr(page, name, loaded)
    return page


@pytest.fixture
def new_page(browser, app_url, db, request):
    """A factory of pages, each in a fresh browser context (a new 'device'). Screenshots on failure."""
    contexts = []

    def make(width: int = 1280, height: int = 800, *, service_worker: bool = False):
        # The app's service worker (tests/e2e/test_installable.py) only where a test asks for it: it asks the
        # network for every page first, so a walk sees the same pages without it, sooner.
        ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=app_url,
                                  service_workers="allow" if service_worker else "block")  # fmt: skip
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        return _hydrating(ctx.new_page())

    yield make
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for i, ctx in enumerate(contexts):
        if failed:
            ARTIFACTS.mkdir(exist_ok=True)
            for j, pg in enumerate(ctx.pages):
                pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{i}-{j}.png"), full_page=True)
        ctx.close()


@pytest.fixture
def page(new_page):
    return new_page()


def pytest_collection_modifyitems(items):
    """With several processes (``--dist loadgroup``), a file's tests run in one process, so what a file sets up
    is set up once; the cases of a file that says ``CASES_APART = True`` (each takes minutes) are spread out."""
    for item in items:
        apart = getattr(item.module, "CASES_APART", False)
        item.add_marker(pytest.mark.xdist_group(item.nodeid if apart else item.module.__name__))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)
