"""What every response of the app carries, and which hosts it answers to.

``protect(asgi_app)`` wraps the whole backend (pages, API, uploads, the websocket):

- a Host header that is not one of the app's own names is refused (400), so a
  forged Host is never reflected into a redirect or a link;
- every HTTP response gets the security headers: a Content-Security-Policy
  (Stripe's hosts only when Stripe is configured), frame-ancestors 'none' and
  X-Frame-Options DENY, nosniff, Referrer-Policy strict-origin-when-cross-origin,
  a Permissions-Policy that turns off what the app never uses, and HSTS when the
  public address is https.

In production one port serves the compiled pages through the backend, so the
pages and static files get the headers from this same wrapper, and the same caching
as behind nginx (``deploy/nginx.conf.template``): the build's hashed files under
``/assets/`` are kept for a year and never asked for again, a page is checked again
on every visit (a new deploy is seen at once).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

import secure
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from volley_app import routes
from volley_app.api.first_paint import FirstPaint
from volley_app.api.script_policy import InlineScriptHashes
from volley_app.services.money import payments
from volley_app.settings import Settings, get_settings

STRIPE_SCRIPT = "https://js.stripe.com"
STRIPE_FRAMES = ("https://js.stripe.com", "https://hooks.stripe.com")
STRIPE_API = "https://api.stripe.com"

# Features the app never uses: no page may ask for them, framed or not.
UNUSED_FEATURES = ("camera", "microphone", "geolocation", "payment", "usb", "magnetometer", "gyroscope",
                   "accelerometer", "display-capture", "browsing-topics")  # fmt: skip


def _origins(url: str) -> list[str]:
    """The http(s) origin of ``url`` and its websocket twin (the state channel)."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return []
    ws = {"http": "ws", "https": "wss"}.get(parts.scheme)
    found = [f"{parts.scheme}://{parts.netloc}"]
    if ws:
        found.append(f"{ws}://{parts.netloc}")
    return found


def _backend_urls() -> list[str]:
    """Where the browser reaches the backend: the Reflex config's api_url (it may differ from the page's origin)."""
    try:
        from reflex.config import get_config

        return [get_config().api_url]
    except Exception:  # no Reflex config (a bare API test)
        return []


def content_security_policy(settings: Settings, backend_urls: Iterable[str] = ()) -> secure.ContentSecurityPolicy:
    stripe = payments.stripe_configured(settings)
    connect = ["'self'"]
    for url in (settings.backend_url, *backend_urls):
        connect += [o for o in _origins(url) if o not in connect]
    images = ["'self'", "data:", "blob:"]  # the backend's origin too: it serves private files (a league's bracket)
    images += [o for o in connect if o.startswith("http") and o not in images]
    # Inline scripts are allowed by hash, page by page (api/script_policy.py). 'unsafe-eval': Reflex's
    # frontend runs the scripts an event sends (rx.call_script) and dynamic components through eval().
    scripts = ["'self'", "'unsafe-eval'"]
    frames = ["'none'"]
    if stripe:
        scripts.append(STRIPE_SCRIPT)
        frames = list(STRIPE_FRAMES)
        connect.append(STRIPE_API)
    return (
        secure.ContentSecurityPolicy()
        .default_src("'self'")
        .script_src(*scripts)
        .style_src("'self'", "'unsafe-inline'")
        .img_src(*images)
        .font_src("'self'", "data:")
        .connect_src(*connect)
        .frame_src(*frames)
        .object_src("'none'")
        .base_uri("'self'")
        .form_action("'self'")
        .frame_ancestors("'none'")
    )


def headers(settings: Settings | None = None, backend_urls: Iterable[str] = ()) -> dict[str, str]:
    """The security headers of every response, by name."""
    settings = settings or get_settings()
    permissions = secure.PermissionsPolicy()
    for feature in UNUSED_FEATURES:
        permissions.add_directive(feature)
    hsts = None
    if settings.public_url.lower().startswith("https://"):
        hsts = secure.StrictTransportSecurity().max_age(63_072_000).include_subdomains()
    return dict(secure.Secure(
        csp=content_security_policy(settings, backend_urls),
        referrer=secure.ReferrerPolicy().strict_origin_when_cross_origin(),
        xcto=secure.XContentTypeOptions(),
        xfo=secure.XFrameOptions().deny(),
        permissions=permissions,
        hsts=hsts,
    ).headers)


def allowed_hosts(settings: Settings | None = None) -> list[str]:
    """The host names the app answers to: its public and backend addresses, the allowed origins, ALLOWED_HOSTS."""
    settings = settings or get_settings()
    hosts: list[str] = []
    for url in (settings.public_url, settings.backend_url, *settings.cors_origins):
        name = urlsplit(url).hostname
        if name and name not in hosts:
            hosts.append(name)
    hosts += [h for h in settings.allowed_hosts if h not in hosts]
    if settings.app_env != "production":
        hosts += [h for h in ("localhost", "127.0.0.1") if h not in hosts]
    return hosts


class SecurityHeaders:
    """Adds :func:`headers` to every HTTP response (built once, on the first request, when the config is final)."""

    def __init__(self, app: ASGIApp, build: Callable[[], dict[str, str]] | None = None):
        self.app = app
        self._build = build or (lambda: headers(backend_urls=_backend_urls()))

    @functools.cached_property
    def _raw(self) -> list[tuple[bytes, bytes]]:
        return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in self._build().items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ours = self._raw
        names = {k for k, _ in ours}

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": kept + ours}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# The build's files under /assets/ carry a hash of their content in their name: a new build has new names.
ASSETS = "/assets/"
CACHED_FOR_GOOD = b"public, max-age=31536000, immutable"
CHECKED_EACH_TIME = b"no-cache"


class StaticCaching:
    """The caching of the pages and the build's files when the backend serves them itself (one port).

    A response that says how it may be cached (an export, a feed, the API) keeps its own rule.
    """

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        built_file = scope["path"].startswith(ASSETS)

        async def send_with_caching(message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = message.get("headers", [])
                names = {k.lower() for k, _ in headers}
                page = any(k.lower() == b"content-type" and v.startswith(b"text/html") for k, v in headers)
                if b"cache-control" not in names and (built_file or page):
                    rule = CACHED_FOR_GOOD if built_file else CHECKED_EACH_TIME
                    message = {**message, "headers": [*headers, (b"cache-control", rule)]}
            await send(message)

        await self.app(scope, receive, send_with_caching)


def built_pages() -> Path:
    """Where the frontend build keeps its pages and files, as Reflex's one-port server reads them (``.web`` or
    REFLEX_WEB_WORKDIR, as nginx's root: ``scripts/prod.sh``)."""
    from reflex import constants
    from reflex.utils import prerequisites

    return prerequisites.get_web_dir() / constants.Dirs.STATIC


class PageAddresses:
    """A page's own address (``/login``) answers with its page at once, as behind nginx (``try_files $uri
    $uri.html $uri/index.html``): the build keeps a page as ``login/index.html``, and the one-port static server
    would first send the browser on to ``/login/`` (a round trip more on a phone). Only the file looked up changes;
    the address the browser shows stays."""

    def __init__(self, app: ASGIApp, pages: Callable[[], Path] = built_pages):
        self.app = app
        self._pages = pages

    def _page_of(self, path: str) -> str | None:
        """The page file to serve for ``path``, where the static server would redirect it to ``path/``."""
        last = path.rsplit("/", 1)[-1]
        if not last or "." in last or path.startswith(("/api/", "/_")) or routes.drawn_by_backend(path):
            return None
        root = self._pages().resolve()
        page = (root / path.lstrip("/") / "index.html").resolve()
        return path + "/index.html" if page.is_relative_to(root) and page.is_file() else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            page = self._page_of(scope["path"])
            if page is not None:
                scope = {**scope, "path": page, "raw_path": page.encode()}
        await self.app(scope, receive, send)


def protect(app: ASGIApp, backend_urls: Iterable[str] | None = None) -> ASGIApp:
    """``app`` behind the host check, every response with the security headers.

    ``backend_urls``: where pages reach the backend, when the Reflex config of this process does not say.
    """
    build = None if backend_urls is None else (lambda: headers(backend_urls=list(backend_urls)))
    guarded = TrustedHostMiddleware(FirstPaint(PageAddresses(StaticCaching(app)), built_pages), allowed_hosts=allowed_hosts())
    return InlineScriptHashes(SecurityHeaders(guarded, build))
