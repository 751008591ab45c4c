"""The production topology on this machine: scripts/prod.sh starts two backend-only instances behind the
shipped nginx config, one frontend build, on the PostgreSQL and Redis of DATABASE_URL and REDIS_URL.

Runs only when those name PostgreSQL and Redis (the embedded default has one process and nothing to fail over).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.tcp_link import TcpLink
from tests.e2e.conftest import web_copy

ROOT = Path(__file__).resolve().parents[2]
PROD = ROOT / "scripts" / "prod.sh"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
# The build embeds the address it is served from; a fixed port (unless set) keeps it stable between runs.
PORT = int(os.environ.get("DEPLOY_TEST_PORT", "18480"))


def _deployable() -> str:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        return "DATABASE_URL does not name PostgreSQL"
    if not os.environ.get("REDIS_URL"):
        return "REDIS_URL is not set"
    return ""


def pytest_collection_modifyitems(config, items):
    why = _deployable()
    deploy_items = [i for i in items if "tests/deploy" in str(i.fspath)]
    if deploy_items and not why and not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        # PostgreSQL and Redis are configured, so this tier must run: a missing proxy is a failure.
        pytest.exit("nginx is not installed (scripts/test.sh installs it)", returncode=3)
    if why:
        for item in items:
            if "tests/deploy" in str(item.fspath):
                item.add_marker(pytest.mark.skip(reason=f"production topology test: {why}"))


def _free_pair() -> int:
    """A port p with p and p+1 free."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        try:
            with socket.socket() as s2:
                s2.bind(("127.0.0.1", base + 1))
            return base
        except OSError:
            continue
    raise RuntimeError("no two free ports in a row")


@dataclasses.dataclass
class Deployment:
    url: str
    env: dict[str, str]
    base_port: int
    dir: Path
    # The instances reach Redis through this link: ``redis_link.cut()`` is a Redis outage for them alone.
    redis_link: TcpLink

    def run(self, *args: str, timeout: float = 180) -> None:
        subprocess.run([str(PROD), *args], env=self.env, cwd=ROOT, check=True, timeout=timeout)

    def instance_at(self, upstream: str) -> int:
        """The instance number behind an upstream address (127.0.0.1:port)."""
        return int(upstream.rsplit(":", 1)[1]) - self.base_port + 1

    def kill(self, n: int) -> None:
        self.run("kill-instance", str(n))

    def stop(self, n: int) -> None:
        self.run("stop-instance", str(n))

    def start(self, n: int) -> None:
        self.run("start-instance", str(n))

    def health(self, n: int) -> int:
        """The status instance ``n`` answers on ``/_health`` (0: no answer)."""
        import urllib.error
        import urllib.request

        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.base_port + n - 1}/_health", timeout=3) as r:
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code
        except OSError:
            return 0


def _through(link: TcpLink, url: str) -> str:
    """``url`` (redis://[user:password@]host:port/db) with the link's local address in place of the server's."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = f"{userinfo}@127.0.0.1:{link.port}" if userinfo else f"127.0.0.1:{link.port}"
    return urlunsplit(parts._replace(netloc=netloc))


@pytest.fixture(scope="session")
def deployment(migrated, tmp_path_factory) -> Iterator[Deployment]:
    from urllib.parse import urlsplit

    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    server = urlsplit(os.environ["REDIS_URL"])
    link = TcpLink(server.hostname or "127.0.0.1", server.port or 6379)
    link.start()
    base = _free_pair()
    run_dir = tmp_path_factory.mktemp("prod")
    # The topology's build goes to a folder of its own: the end-to-end tier serves the checkout's .web, and this tier
    # may run beside another (scripts/test.sh). nginx's workers read it as another user: not under pytest's own
    # folders, which only their owner may enter.
    web = Path(tempfile.mkdtemp(prefix="volley-deploy-web-"))
    web.chmod(0o755)
    web_copy(web / "web")
    env = os.environ | {
        "REFLEX_WEB_WORKDIR": str(web / "web"),
        "PUBLIC_URL": f"http://127.0.0.1:{PORT}",
        "SECRET_KEY": "failover-test-secret-key-0123456789abcdefghij",
        "INSTANCES": "2",
        "WORKERS": "1",
        "BACKEND_PORT_BASE": str(base),
        "PROD_DIR": str(run_dir),
        "NGINX_EXPOSE_UPSTREAM": "1",
        "SMTP_HOST": "",
        "CORS_ORIGINS": "",
        "REDIS_URL": _through(link, os.environ["REDIS_URL"]),
    }
    env.pop("APP_ENV", None)
    dep = Deployment(url=f"http://127.0.0.1:{PORT}", env=env, base_port=base, dir=run_dir, redis_link=link)
    started = time.monotonic()
    try:
        dep.run("start", timeout=420)
        print(f"production topology up in {time.monotonic() - started:.0f}s")
        yield dep
    finally:
        link.restore()
        subprocess.run([str(PROD), "stop"], env=env, cwd=ROOT, timeout=120, check=False)
        link.close()
        shutil.rmtree(web, ignore_errors=True)
        for log in sorted(run_dir.glob("instance-*.log")):
            tail = log.read_text(errors="replace").splitlines()[-15:]
            print(f"--- {log.name}\n" + "\n".join(tail))


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=20_000)
    if not Path(CHROMIUM).exists():
        pytest.exit(f"Chromium not found at {CHROMIUM}: run the tests with `make test`", returncode=3)
    from tests.e2e.conftest import CHROMIUM_ARGS

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
