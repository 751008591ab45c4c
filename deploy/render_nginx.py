"""Render deploy/nginx.conf.template for this deployment: its address, the backend instances, the build.

    python deploy/render_nginx.py --listen 8080 --backends 127.0.0.1:8001,127.0.0.1:8002 \\
        --root .web/build/client --prefix var/nginx > var/nginx/nginx.conf

The static pages get the same security headers the backend gives its own responses
(``volley_app.api.security.headers``), computed from the environment (PUBLIC_URL, Stripe keys).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
# A backend that fails this many requests within FAIL_TIMEOUT gets none for FAIL_TIMEOUT.
MAX_FAILS = 1
FAIL_TIMEOUT = "10s"


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def security_headers(indent: str = "            ", root: Path | None = None) -> str:
    """The headers' nginx lines; with the build at ``root``, the policy allows its pages' inline scripts by hash."""
    sys.path.insert(0, str(ROOT))
    from volley_app.api.script_policy import build_hashes, with_sources
    from volley_app.api.security import headers
    from volley_app.settings import get_settings

    settings = get_settings()
    found = headers(settings, backend_urls=[settings.public_url])
    if root is not None:
        # No page found (no build yet): inline scripts stay allowed rather than every page broken.
        hashes = build_hashes(root) or ["'unsafe-inline'"]
        found["Content-Security-Policy"] = with_sources(found["Content-Security-Policy"], hashes)
    return "\n".join(f"{indent}add_header {name} {_quote(value)} always;" for name, value in found.items())


def render(*, listen: str, backends: list[str], root: Path, prefix: Path, server_name: str = "_",
           max_body: str = "3m", mime_types: str = "/etc/nginx/mime.types", expose_upstream: bool = False) -> str:  # fmt: skip
    if not backends:
        raise SystemExit("at least one backend (host:port) is needed")
    sys.path.insert(0, str(ROOT))
    from volley_app.api.first_paint import COOKIE

    servers = "\n".join(f"        server {b} max_fails={MAX_FAILS} fail_timeout={FAIL_TIMEOUT};" for b in backends)
    values = {
        "LISTEN": listen,
        "SERVER_NAME": server_name,
        "ROOT": str(root.resolve()),
        "PREFIX": str(prefix.resolve()),
        "BACKENDS": ", ".join(backends),
        "UPSTREAM_SERVERS": servers,
        "MAX_BODY": max_body,
        "MIME_TYPES": mime_types,
        "SECURITY_HEADERS": security_headers(root=root),
        "PAINT_COOKIE": "$cookie_" + COOKIE,
        # Tests only: the websocket handshake names the instance it reached.
        "EVENT_EXTRA": "            add_header X-Volley-Upstream $upstream_addr always;" if expose_upstream else "",
    }
    text = TEMPLATE.read_text()
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    if "{{" in text:
        raise SystemExit("the template names a value render() does not fill")
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", help="address:port or port nginx listens on (default: PUBLIC_URL's port)")
    parser.add_argument("--backends", required=True, help="comma-separated host:port of the backend instances")
    parser.add_argument("--root", required=True, type=Path, help="the frontend build (reflex export --frontend-only)")
    parser.add_argument("--prefix", required=True, type=Path, help="nginx's pid, logs and temp files go here")
    parser.add_argument("--server-name", default="_")
    parser.add_argument("--expose-upstream", action="store_true",
                        help="name the instance in the websocket handshake's headers (for the failover test)")
    args = parser.parse_args(argv)
    listen = args.listen
    if not listen:
        import os

        parts = urlsplit(os.environ.get("PUBLIC_URL", "http://localhost:8080"))
        listen = str(parts.port or (443 if parts.scheme == "https" else 80))
    args.prefix.mkdir(parents=True, exist_ok=True)
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    sys.stdout.write(render(listen=listen, backends=backends, root=args.root, prefix=args.prefix,
                            server_name=args.server_name, expose_upstream=args.expose_upstream))  # fmt: skip


if __name__ == "__main__":
    main()
