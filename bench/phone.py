"""Benchmark: the first load of the app's pages on a phone, against the same pages saved as static HTML.

One command (run it alone on the machine: nothing else running):

    .venv/bin/python bench/phone.py            # three runs a page, medians
    .venv/bin/python bench/phone.py --runs 5

The app is started as ``make run`` starts it (``scripts/run.sh``: one port, the production build, SQLite with the
demo data) in a temporary folder. Each page is opened in Chromium with a phone's profile through CDP (Slow 4G:
1.6 Mbps down, 750 kbps up, 150 ms round trip; the CPU slowed 4x; 390 x 844 px), each run in a new browser context
(nothing cached, no service worker), and measured:

- content visible: the largest contentful paint (LCP);
- usable: when React owns every control of the page (a tap does what it says), for the app's pages; a static page
  is usable when it has loaded;
- CLS: the layout shift of the load;
- bytes: what went over the network (headers and bodies, as sent).

The static floor of a page is the page as the app drew it (its DOM once loaded, without scripts), saved with the
same stylesheets and images and served by a plain static file server (gzip, as the app's own files are sent): what the same content costs with no app at all. The
player's /dash pages open on a device that keeps the player's login (Trust This Device: its storage and its cookie, so
the server draws the page's first paint, ``api/first_paint.py``) but has kept no copy of a page it saw. A repeat
visit (``/dash`` again in the same browser, its service worker and cache warm, the copy of the page it saw kept) is
measured against the static page's own repeat visit. ``/dash`` after the login page is the way a player comes in on a new phone: the login page
open while they type (TYPING_SECONDS; it fetches the app's files once they start), then ``/dash`` in the same browser, against
the cold ``/dash``'s floor. Then Lighthouse (LIGHTHOUSE_VERSION, its mobile preset, performance only) scores each page
and its floor, each run in a browser of its own with nothing cached. The tables go to bench/RESULTS.md with the date,
commit, machine and load average.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import functools
import gzip
import http.server
import io
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from volley_app.api.first_paint import COOKIE as PAINT_COOKIE  # noqa: E402 - the project's root is on the path first
from volley_app.services.accounts.auth import BROWSER_TOKEN  # noqa: E402 - the project's root is on the path first

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
PHONE = {"width": 390, "height": 844}
SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
CPU_SLOWDOWN = 4
TYPING_SECONDS = 8  # a username and a password typed on a phone
# Lighthouse's mobile preset (its default: the same Slow 4G and 4x CPU, simulated), performance only. 12 runs on this
# machine's Node.js 20 (13 asks for 22); installed for the bench under .tools/ from the npm registry the first time.
LIGHTHOUSE_VERSION = "12.8.2"
DEMO_PLAYER = "alice"

# Kept by the page from its start: the largest contentful paint, the layout shift, when React owned every control.
_MEASURE = """(() => {
  const m = window.__phone = {lcp: 0, cls: 0, usable: 0};
  new PerformanceObserver((l) => { for (const e of l.getEntries()) m.lcp = e.startTime; })
    .observe({type: 'largest-contentful-paint', buffered: true});
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) m.cls += e.value; })
    .observe({type: 'layout-shift', buffered: true});
  const own = (el) => Object.keys(el).some((k) => k.startsWith('__reactFiber'));
  const look = () => {
    if (!document.body) return setTimeout(look, 20);
    // The app's pages carry React Router's context (set by their own inline script, whether their modules start at once
    // or once a page drawn by the server has painted); the static floor and the backend's own pages do not.
    const app = window.__reactRouterContext !== undefined;
    if (!app) { if (document.readyState === 'complete') { m.usable = performance.now(); return; } return setTimeout(look, 20); }
    const controls = [...document.querySelectorAll('button, form, a[href], input')];
    if (own(document.documentElement) && controls.length && controls.every(own)) { m.usable = performance.now(); return; }
    setTimeout(look, 20);
  };
  look();
})();"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def made_run(tmp: Path):
    """The app as ``make run`` starts it, on a free port; yields its address."""
    port = _free_port()
    env = {k: os.environ[k] for k in ("PATH", "HOME", "USER", "LANG", "TMPDIR", "TERM") if k in os.environ}
    env.update(PORT=str(port), HOST="127.0.0.1", DATABASE_URL=f"sqlite:///{tmp / 'volley.db'}", VAR_DIR=str(tmp / "var"),
               UPLOAD_DIR=str(tmp / "var" / "uploads"), REFLEX_WEB_WORKDIR=str(tmp / "web"),
               REFLEX_STATES_WORKDIR=str(tmp / "states"))  # fmt: skip
    web = ROOT / ".web"
    if (web / "node_modules").is_dir():
        shutil.copytree(web, tmp / "web", symlinks=True, ignore=shutil.ignore_patterns("node_modules", "build"))
        (tmp / "web" / "node_modules").symlink_to(web / "node_modules", target_is_directory=True)
    log = open(tmp / "run.log", "wb")  # noqa: SIM115 - open while the app runs
    proc = subprocess.Popen(["bash", str(ROOT / "scripts" / "run.sh")], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    url = f"http://localhost:{port}"
    try:
        for _ in range(900):
            if proc.poll() is not None:
                raise SystemExit(f"scripts/run.sh stopped:\n{(tmp / 'run.log').read_text()[-3000:]}")
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(url + "/ping", timeout=2):
                    break
            time.sleep(1)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=30)
        log.close()


class _Static(http.server.SimpleHTTPRequestHandler):
    """A plain static file server that sends a file's gzip copy (``<file>.gz``) to a browser that takes gzip, and lets
    the browser keep what it got for an hour, as a web server in front of a static site does."""

    def log_message(self, *_args) -> None:
        pass

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if "gzip" in self.headers.get("Accept-Encoding", "") and os.path.isfile(path + ".gz"):
            body = Path(path + ".gz").read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        return super().send_head()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=3600")  # a repeat visit takes every file from the cache
        super().end_headers()


def _gzipped(path: Path) -> None:
    path.with_name(path.name + ".gz").write_bytes(gzip.compress(path.read_bytes(), 9))


@contextlib.contextmanager
def static_server(root: Path):
    root.mkdir(parents=True, exist_ok=True)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Static, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def _load(context, url: str, settle: float = 1.5, then=None) -> dict:
    """Open ``url`` in a page of ``context`` on the phone's profile, do ``then(page)`` if given, and stay ``settle``
    seconds; what it measured."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    sent = {"bytes": 0}
    cdp.on("Network.loadingFinished", lambda e: sent.__setitem__("bytes", sent["bytes"] + e["encodedDataLength"]))
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.goto(url, wait_until="load", timeout=120_000)
    page.wait_for_function("() => window.__phone && window.__phone.usable > 0", timeout=120_000)
    if then is not None:
        then(page)
    page.wait_for_timeout(settle * 1000)  # late content and its shifts
    found = page.evaluate("() => window.__phone") | {"bytes": sent["bytes"]}
    page.close()
    return found


def _new_context(browser, *, storage=None, service_worker: bool = False):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=3, is_mobile=True, has_touch=True,
                              storage_state=storage, service_workers="allow" if service_worker else "block")  # fmt: skip
    ctx.add_init_script(_MEASURE)
    return ctx


def _save_static(browser, app: str, path: str, storage, floor: Path) -> str:
    """The page at ``path`` as the app drew it, without its scripts, with its stylesheets, under ``floor``."""
    ctx = browser.new_context(viewport=PHONE, storage_state=storage, service_workers="block")
    page = ctx.new_page()
    page.goto(app + path, wait_until="load")
    page.wait_for_timeout(3000)
    html = page.content()
    ctx.close()
    html = re.sub(r"<script\b.*?</script>", "", html, flags=re.S | re.I)
    html = re.sub(r'<link[^>]+rel="modulepreload"[^>]*>', "", html)
    for used in set(re.findall(r'(?:href|src)="(/[^"?#]+\.(?:css|svg|png|ico))"', html)):
        target = floor / used.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        with urllib.request.urlopen(app + used) as answer:
            target.write_bytes(answer.read())
        _gzipped(target)
    slug = re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-") or "home"
    (floor / slug).mkdir(parents=True, exist_ok=True)
    (floor / slug / "index.html").write_text(html)
    _gzipped(floor / slug / "index.html")
    return f"/{slug}/"


def _lighthouse() -> Path:
    prefix = ROOT / ".tools" / "lighthouse"
    cli = prefix / "node_modules" / ".bin" / "lighthouse"
    if not cli.exists():
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--save-exact", "--prefix", str(prefix),
                        f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True)  # fmt: skip
    return cli


def _lighthouse_run(p, cli: Path, url: str, login: tuple[str, str] | None) -> dict:
    """One Lighthouse run of ``url`` in a browser of its own with nothing cached; ``login``: (origin, token) kept in
    its storage and its cookie first, as a trusted login keeps it (Lighthouse is told not to clear the storage)."""
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="lighthouse-", ignore_cleanup_errors=True) as profile:
        chrome = subprocess.Popen([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--remote-debugging-port={port}",
                                   f"--user-data-dir={profile}", "about:blank"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
        try:
            for _ in range(100):
                with contextlib.suppress(OSError):
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=2):
                        break
                time.sleep(0.1)
            if login is not None:
                browser = p.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
                browser.contexts[0].add_cookies([{"name": PAINT_COOKIE, "value": login[1], "url": login[0] + "/dash"}])
                page = browser.contexts[0].new_page()
                page.goto(login[0] + "/favicon.svg")
                page.evaluate("([key, token]) => localStorage.setItem(key, token)", [BROWSER_TOKEN, login[1]])
                page.close()
                browser.close()  # disconnects; the browser and its storage stay
            found = subprocess.run([str(cli), url, f"--port={port}", "--only-categories=performance", "--output=json",
                                    "--output-path=stdout", "--quiet", "--disable-storage-reset"],
                                   capture_output=True, text=True, check=True, timeout=300)  # fmt: skip
        finally:
            os.killpg(chrome.pid, signal.SIGTERM)
            chrome.wait(timeout=30)
    report = json.loads(found.stdout)
    audits = report["audits"]
    return {"score": report["categories"]["performance"]["score"] * 100,
            "lcp": audits["largest-contentful-paint"]["numericValue"], "tbt": audits["total-blocking-time"]["numericValue"],
            "cls": audits["cumulative-layout-shift"]["numericValue"]}  # fmt: skip


def _login_only(storage: dict) -> dict:
    """A browser's storage with its login and without the pages it kept a copy of (``components/last_seen.py``): the
    cold loads measure a device that has not seen the page before."""
    from volley_app.components.last_seen import STORAGE_KEY

    for origin in storage.get("origins", []):
        origin["localStorage"] = [item for item in origin.get("localStorage", []) if item["name"] != STORAGE_KEY]
    return storage


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lighthouse-runs", type=int, default=3, help="Lighthouse runs a page (0: none)")
    parser.add_argument("--no-write", action="store_true", help="print the table, do not add it to RESULTS.md")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from volley_app.demo import DEMO_PASSWORD

    load_before = os.getloadavg()
    rows: list[tuple[str, dict, dict]] = []
    scores: list[tuple[str, dict, dict]] = []
    with tempfile.TemporaryDirectory(prefix="phone-bench-") as tmp_dir, made_run(Path(tmp_dir)) as app, \
            sync_playwright() as p:  # fmt: skip
        tmp = Path(tmp_dir)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        # A logged-in player's browser (the login once, unthrottled): its storage opens /dash logged in.
        ctx = browser.new_context(viewport=PHONE)
        page = ctx.new_page()
        page.goto(app + "/login")
        page.get_by_label("Username").fill(DEMO_PLAYER)
        page.get_by_label("Password").fill(DEMO_PASSWORD)
        if not page.get_by_label("Trust This Device").is_checked():
            page.get_by_label("Trust This Device").click()  # the login kept in the browser's storage
        page.get_by_role("button", name="Login", exact=True).click()
        page.wait_for_url(re.compile(r"/dash"), timeout=60_000)
        player = _login_only(ctx.storage_state())
        page.goto(app + "/leagues")
        league = page.locator('a[href^="/leagues/"]').first.get_attribute("href") or "/leagues/1"
        league_id = league.rstrip("/").rsplit("/", 1)[-1]
        ctx.close()
        pages = [("/", None), ("/login", None), ("/leagues", None), (f"/leagues/{league_id}", None),
                 ("/dash", player), (f"/dash/leagues/{league_id}/teams", player)]  # fmt: skip
        floor = tmp / "floor"
        with static_server(floor) as static:
            copies = {}
            for path, storage in pages:
                copy = copies[path] = _save_static(browser, app, path, storage, floor)
                app_runs, floor_runs = [], []
                for _ in range(args.runs):
                    for runs, url, who in ((app_runs, app + path, storage), (floor_runs, static + copy, None)):
                        c = _new_context(browser, storage=who)
                        runs.append(_load(c, url))
                        c.close()
                rows.append((path, {k: _median(app_runs, k) for k in ("lcp", "usable", "bytes")} | {
                    "cls": max(r["cls"] for r in app_runs)}, {k: _median(floor_runs, k) for k in ("lcp", "usable", "bytes")}))
                print(path, rows[-1][1], rows[-1][2], flush=True)  # noqa: T201
            # /dash as a player's phone reaches it: from the login page, on which the person types for TYPING_SECONDS
            # (the page fetches the app's files once they start). Against the floor of a cold /dash.
            after_login = []
            for _ in range(args.runs):
                c = _new_context(browser, storage=player)
                _load(c, app + "/login", settle=TYPING_SECONDS, then=lambda pg: pg.get_by_label("Username").fill(DEMO_PLAYER))
                after_login.append(_load(c, app + "/dash"))
                c.close()
            dash_floor = next(floor for path, _app, floor in rows if path == "/dash")
            rows.append(("/dash after the login page", {k: _median(after_login, k) for k in ("lcp", "usable", "bytes")}
                         | {"cls": max(r["cls"] for r in after_login)}, dash_floor))  # fmt: skip
            # A repeat visit: /dash again in the browser that opened it, its service worker and cache warm.
            warm_app, warm_floor = [], []
            copy = _save_static(browser, app, "/dash", player, floor)
            for _ in range(args.runs):
                c = _new_context(browser, storage=player, service_worker=True)
                _load(c, app + "/dash")
                time.sleep(2)  # the service worker installs
                warm_app.append(_load(c, app + "/dash"))
                c.close()
                c = _new_context(browser)
                _load(c, static + copy)
                warm_floor.append(_load(c, static + copy))
                c.close()
            rows.append(("/dash again (warm)", {k: _median(warm_app, k) for k in ("lcp", "usable", "bytes")} | {
                "cls": max(r["cls"] for r in warm_app)}, {k: _median(warm_floor, k) for k in ("lcp", "usable", "bytes")}))
            # Lighthouse, the same pages and their floors, each run in a browser of its own.
            if args.lighthouse_runs:
                cli = _lighthouse()
                token = next(i["value"] for o in player["origins"] for i in o["localStorage"] if i["name"] == BROWSER_TOKEN)
                for path, storage in pages:
                    runs = {kind: [_lighthouse_run(p, cli, url, login) for _ in range(args.lighthouse_runs)]
                            for kind, url, login in (("app", app + path, (app, token) if storage else None),
                                                     ("floor", static + copies[path], None))}  # fmt: skip
                    scores.append((path, *({k: _median(runs[kind], k) for k in ("score", "lcp", "tbt", "cls")}
                                           for kind in ("app", "floor"))))  # fmt: skip
                    print(path, scores[-1][1:], flush=True)  # noqa: T201
        browser.close()
    load_after = os.getloadavg()
    _report(rows, scores, args.runs, args.lighthouse_runs, load_before, load_after, write=not args.no_write)


def _report(rows, scores, runs: int, lighthouse_runs: int, before, after, *, write: bool) -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    lines = [
        f"## phone.py — {dt.date.today().isoformat()}, commit {commit}, make run (SQLite, demo data)",
        "",
        f"Machine: {platform.system()} {platform.release()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
        f"Chromium's headless shell, 390 x 844 px, Slow 4G (1.6 Mbps, 150 ms RTT), CPU slowed {CPU_SLOWDOWN}x; "
        f"each page {runs} times in a new context, medians (CLS: the worst). Load average before "
        f"{before[0]:.2f}, after {after[0]:.2f} (1 min).",
        "",
        "| page | content visible (LCP) | usable | CLS | bytes | static floor LCP | floor bytes | LCP / floor |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for path, got, floor in rows:
        ratio = got["lcp"] / floor["lcp"] if floor["lcp"] else float("nan")
        lines.append(f"| `{path}` | {got['lcp'] / 1000:.2f} s | {got['usable'] / 1000:.2f} s | {got['cls']:.3f} | "
                     f"{got['bytes'] / 1024:.0f} KB | {floor['lcp'] / 1000:.2f} s | {floor['bytes'] / 1024:.0f} KB | "
                     f"{ratio:.1f}x |")  # fmt: skip
    if scores:
        lines += [
            "",
            f"Lighthouse {LIGHTHOUSE_VERSION}, mobile preset (simulated Slow 4G, 4x CPU), performance; each page "
            f"{lighthouse_runs} times in a browser of its own with nothing cached (a player's login in its storage for "
            "/dash pages), medians:",
            "",
            "| page | score | LCP | total blocking time | CLS | static floor score | floor LCP |",
            "|---|---|---|---|---|---|---|",
        ]
        for path, got, floor in scores:
            lines.append(f"| `{path}` | {got['score']:.0f} | {got['lcp'] / 1000:.2f} s | {got['tbt']:.0f} ms | "
                         f"{got['cls']:.3f} | {floor['score']:.0f} | {floor['lcp'] / 1000:.2f} s |")  # fmt: skip
    text = "\n".join(lines) + "\n"
    print("\n" + text)  # noqa: T201
    if write:
        with open(ROOT / "bench" / "RESULTS.md", "a") as out:
            out.write("\n" + text)


if __name__ == "__main__":
    main()
