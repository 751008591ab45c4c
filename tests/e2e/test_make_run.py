"""The app as ``make run`` starts it (``scripts/run.sh``): one port, the backend serving the prebuilt pages from their files.

The rest of this tier serves the pages from a server of its own (``conftest.app_url``); here the run
script itself starts the app, as a person does, on a free port with its own SQLite database and VAR_DIR
in a temporary folder, the demo data seeded by the script. Chromium then opens the home page, the public
leagues (the backend's own page on the same port), logs in as a demo operator, follows the links to a league and downloads a CSV export; no page may break the
Content-Security-Policy (its inline scripts are allowed by their hashes) and no request may answer
404 or 500.

The run script builds the frontend, as ``make run`` always does. The build goes to a folder of its own
(REFLEX_WEB_WORKDIR), never to the checkout's ``.web``, which the other tests' pages are served from;
that folder starts as a copy of ``.web`` with its installed packages, so only the compile and the
bundle are done again (about a minute and a half on two cores).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ROOT, _free_port, web_copy
from tests.e2e.helpers import expect_path, log_in
from volley_app.demo import DEMO_PASSWORD

RUN_SCRIPT = ROOT / "scripts" / "run.sh"
START_SECONDS = 600  # a first build on a machine with no installed frontend packages takes minutes
# What a person's shell passes on: nothing of the test run's own settings (its database, mail server, origins).
PASSED_ON = ("PATH", "HOME", "USER", "LANG", "LC_ALL", "TMPDIR", "TERM")


def _wait_until_up(proc: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"scripts/run.sh stopped (exit {proc.returncode}):\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(url + "/ping", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1)
    pytest.fail(f"scripts/run.sh did not answer on {url} within {START_SECONDS} s:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="module")
def made_run(tmp_path_factory):
    """The app started by scripts/run.sh; yields its address (the PUBLIC_URL the script sets)."""
    tmp = tmp_path_factory.mktemp("make-run")
    web_copy(tmp / "web")
    port = _free_port()
    env = {k: os.environ[k] for k in PASSED_ON if k in os.environ}
    env.update(
        PORT=str(port),
        HOST="127.0.0.1",
        DATABASE_URL=f"sqlite:///{tmp / 'volley.db'}",
        VAR_DIR=str(tmp / "var"),
        UPLOAD_DIR=str(tmp / "var" / "uploads"),
        REFLEX_WEB_WORKDIR=str(tmp / "web"),
        REFLEX_STATES_WORKDIR=str(tmp / "states"),
    )
    log = tmp / "run.log"
    started = time.monotonic()
    with open(log, "wb") as out:
        proc = subprocess.Popen(["bash", str(RUN_SCRIPT)], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:
        url = f"http://localhost:{port}"
        _wait_until_up(proc, url, log)
        print(f"scripts/run.sh answered after {time.monotonic() - started:.0f} s")  # noqa: T201
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def test_make_run_serves_working_pages(browser, made_run):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=made_run, accept_downloads=True)
    ctx.set_default_timeout(15_000)
    broken: list[str] = []
    ctx.on("console", lambda m: broken.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    ctx.on("weberror", lambda e: broken.append(f"page error: {e.error}"))
    ctx.on("response", lambda r: broken.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None)
    # A request cut short by the next navigation is no fault (net::ERR_ABORTED); one the policy blocks is.
    ctx.on("requestfailed", lambda r: None if r.failure == "net::ERR_ABORTED" else broken.append(
        f"failed {r.method} {r.url}: {r.failure}"))  # fmt: skip
    try:
        page = ctx.new_page()
        home = page.goto("/contact")
        assert home is not None and home.status == 200
        policy = home.headers.get("content-security-policy", "")
        script_src = next((d for d in policy.split(";") if d.strip().startswith("script-src")), "")
        assert "'sha256-" in script_src and "'unsafe-inline'" not in script_src, policy  # the page's scripts, by hash
        # A page is asked for again on each visit; the build's hashed files are kept for good (a repeat visit
        # asks for none of them).
        assert home.headers.get("cache-control") == "no-cache", home.headers
        built = [r for r in page.context.request.get(made_run + "/contact").text().split('"') if r.startswith("/assets/")]
        assert built, "no built file named by the contact page"
        cached = page.context.request.get(made_run + built[0])
        assert cached.status == 200 and cached.headers.get("cache-control") == "public, max-age=31536000, immutable"

        for address in ("/contact", "/dash/leagues"):  # a page's own address is the page: no redirect to ".../"
            answer = page.context.request.get(made_run + address, max_redirects=0)
            assert answer.status == 200 and answer.headers.get("cache-control") == "no-cache", (address, answer.headers)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert broken == [], "\n".join(broken)  # a blocked inline script shows here, before anything is clicked
        # The home page and the public leagues are the backend's own pages on this one port, not the app's "page
        # not found"; the home page is what was sent, with no script to wait for.
        page.goto("/")
        expect(page.get_by_role("heading", name="Play more volleyball.", level=1)).to_be_visible()
        assert page.locator("script[src]").count() == 0
        page.get_by_role("link", name="Browse Leagues").click()
        expect_path(page, "/leagues")
        expect(page.get_by_role("heading", name="Volleyball leagues", level=1)).to_be_visible()
        page.get_by_role("navigation", name="Site").get_by_role("link", name="Log In").click()
        expect_path(page, "/login")
        assert page.locator("script[src]").count() == 0  # the login too is the page as sent, posted to the backend
        log_in(page, "lexsports", DEMO_PASSWORD)
        expect_path(page, "/dash/sessions")

        page.get_by_role("link", name="Leagues", exact=True).first.click()
        expect_path(page, "/dash/leagues")
        page.get_by_role("table").get_by_role("link").first.click()
        expect(page).to_have_url(re.compile(r"/dash/leagues/\d+/?$"))
        page.reload()  # a league's own address opened afresh: its page comes from the prebuilt files too
        link = page.get_by_role("link", name="Captain list (CSV)")
        expect(link).to_be_visible()
        with page.expect_download() as got:
            link.click()
        download = got.value
        assert download.failure() is None, download.failure()
        assert download.suggested_filename.endswith(".csv"), download.suggested_filename
        body = Path(download.path()).read_bytes()
        assert body.strip() and b"<html" not in body.lower(), body[:200]

        assert broken == [], "\n".join(broken)
    finally:
        ctx.close()
