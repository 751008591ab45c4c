"""A player's home (``/dash``) and a league's standings drawn by the server, so a phone shows them before the app's
JavaScript has come and run.

The app's pages get their content over its websocket, after some 300 KB of JavaScript: on a phone, seconds after
the page opened. A browser that keeps a login on this device (Trust This Device) also keeps its token in a cookie
(``COOKIE``, only for ``/dash`` addresses; written by the pages' own scripts, ``PAINT_COOKIE``). For a document
request with it, the server answers the build's own page with a copy of the page drawn from the same service read
the app's page makes, in a ``vb-seen`` element at the top of the body, the element a page the browser kept is shown
in (``components/last_seen.py``): the app's page is hidden until it shows its own content, and the copy goes. The
copy is marked with the login it was drawn for; the page's script drops it at once if the browser's login is
another. Without the cookie, for a login that no longer holds, for someone the page is not drawn for (an operator),
or for a league they may not read, the build's page comes as it is.

The copy's frame (header, footer, their style) is the build's own prerendered frame of ``/dash``; its content is drawn
from the templates in ``templates/first_paint/`` with the classes of the app's theme.
"""

from __future__ import annotations

import functools
import gzip
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape
from sqlmodel import Session
from starlette.types import ASGIApp, Receive, Scope, Send

from volley_app import db, routes
from volley_app.api.script_policy import LATER_MODULE
from volley_app.services.accounts import auth
from volley_app.services.core import paging
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import DomainError
from volley_app.services.operations import home
from volley_app.services.seasons import results
from volley_app.services.teams import rsvps
from volley_app.settings import SITE_NAME

log = logging.getLogger(__name__)

COOKIE = "vb_paint"
TAG = "vb-seen"  # the element a copy of a page is shown in (components/last_seen.py)
DRAWN = "vb-drawn"  # the name of the head's meta that says a copy is in the body, and for which login
WHO = 12  # the characters of the token that name a login in the page (its last ones, as the pages' script reads them)

TEMPLATES = Path(__file__).resolve().parents[1] / "templates" / "first_paint"
_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined,
    trim_blocks=True, lstrip_blocks=True,
)  # fmt: skip
_env.globals.update(routes=routes, answers=rsvps.ANSWER_TONES)

_STANDINGS = re.compile(r"^/dash/leagues/(\d{1,12})/teams/?$")
# The build's page of an address: the home's own; a league's standings have none (a dynamic address), the app's
# fallback page starts it.
HOME_FILE = routes.DASH.strip("/") + "/index.html"
FALLBACK_FILE = "__spa-fallback.html"

# Written by the app's pages (``components/last_seen.py``) and the login page (``api/public_pages.py``): the cookie
# follows the device's login: set while the device keeps one, gone when it does not (a login for this tab only, a
# logout). Only /dash addresses send it; a link from another site opens with it (Lax), as it opens logged in. It
# lasts as long as a browser lets a cookie last: whether the login still holds is the server's to say.
COOKIE_SECONDS = 400 * 86400
PAINT_COOKIE = """function paintCookie(token) {
  var rest = "; Path=PATH; SameSite=Lax" + (location.protocol === "https:" ? "; Secure" : "");
  document.cookie = "NAME=" + (token ? token + "; Max-Age=AGE" : "; Max-Age=0") + rest;
}""".replace("NAME", COOKIE).replace("PATH", routes.DASH).replace("AGE", str(COOKIE_SECONDS))


@dataclass(frozen=True)
class _Drawn:
    template: str
    title: str  # the window's title, as the app's page gives it (``registry.page``)
    values: dict[str, Any]


def _address(path: str) -> tuple[str, str] | None:
    """Which page ``path`` opens, drawn here: ("home", ""), ("standings", league id), or None."""
    if path in (routes.DASH, routes.DASH + "/"):
        return "home", ""
    found = _STANDINGS.match(path)
    return ("standings", found.group(1)) if found else None


def _read(session: Session, token: str, page: str, league_id: str) -> _Drawn | None:
    """What the page shows to the login ``token`` (the app's page's own read), or None where nothing is drawn."""
    actor = auth.resolve(session, token)
    if actor is None or home.elsewhere(actor) is not None:
        return None
    try:
        return _home(session, actor) if page == "home" else _standings(session, actor, league_id)
    except DomainError:  # refused to this login: the app's page says why
        return None


def _home(session: Session, actor: Actor) -> _Drawn:
    found = home.player_home(session, actor)
    listed = found.open_requests.value
    rows = listed.rows if listed is not None else []
    return _Drawn("home.jinja", "Home", {
        "first_name": actor.first_name, "sub_info": routes.user_path(actor.user_id), "is_sub": found.is_sub,
        "team_cards": found.team_cards, "next_games": found.next_games, "commitments": found.commitments,
        "requests": [{**r, "href": routes.sub_request_path(r["id"])} for r in rows],
        "shown": paging.summary(1, len(rows), listed.total, listed.capped) if listed is not None else "",
        "leagues": {key: [{**lg, "href": routes.league_path(lg["id"])} for lg in found.leagues.get(key, [])]
                    for key in ("registration", "current", "all")},
    })  # fmt: skip


def _standings(session: Session, actor: Actor, league_id: str) -> _Drawn:
    standing = results.standings(session, actor, league_id)
    league = standing["league"]
    return _Drawn("standings.jinja", "Standings", {
        "league": league["name"], "back": routes.league_path(league["id"]),
        "teams": [{**t, "note": results.note_of(t)} for t in standing["teams"]],
        "ranking": standing["ranking"], "how": standing["how"],
    })  # fmt: skip


@functools.cache
def _file(root: Path, name: str) -> str | None:
    """A page of the build at ``root`` (read once: a build never changes under the process serving it)."""
    path = root / name
    return path.read_text() if path.is_file() else None


def _closing(html: str, start: int) -> int | None:
    """Where the ``<div>`` opened at ``start`` ends (just after its ``</div>``); None if it does not."""
    depth = 0
    for tag in re.finditer(r"<(/?)div\b", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return html.index(">", start + tag.end()) + 1
    return None


@functools.cache
def _frame(root: Path) -> tuple[str, str] | None:
    """The app's frame around a /dash page's content, from the build's prerendered home: (before, after) its main
    column's content; None without a build or where the page is not as expected."""
    page = _file(root, HOME_FILE)
    start = page.find("<div data-is-root-theme") if page else -1
    if page is None or start < 0:
        return None
    end = _closing(page, start)
    if end is None:
        return None
    frame = page[start:end]
    opened = frame.find("<main")
    closed = frame.find("</main>")
    if opened < 0 or closed < 0:
        return None
    inside = frame.index(">", opened) + 1
    return frame[:inside], frame[closed:]


def _drawn_page(page: str, frame: tuple[str, str], drawn: _Drawn, who: str) -> str:
    """``page`` with the copy at the top of its body and, in its head, the meta that says whose it is."""
    content = _env.get_template(drawn.template).render(**drawn.values)
    copy = _env.get_template("_copy.jinja").render(
        tag=TAG, who=who, before=Markup(frame[0]), content=Markup(content), after=Markup(frame[1]),  # noqa: S704 - the build's own markup and our templates' output
    )  # fmt: skip
    page = _after_paint(re.sub(r"<title>.*?</title>", "", page, count=1, flags=re.S))
    head = page.index(">", page.index("<head")) + 1
    title = escape(f"{drawn.title} | {SITE_NAME}")
    page = f'{page[:head]}<meta name="{DRAWN}" content="{who}"/><title>{title}</title>{page[head:]}'
    body = page.index(">", page.index("<body")) + 1
    return page[:body] + copy + page[body:]


_MODULE_PRELOAD = re.compile(r'<link rel="modulepreload"[^>]*>')
_MODULE = re.compile(r'<script type="module"([^>]*)>(.*?)</script>', re.S)
# Starts the page's modules (kept as LATER_MODULE) once the page has painted: the next frame after the first one the
# stylesheet lets through (at once in a tab nobody sees, which paints nothing).
_START_AFTER_PAINT = """<script>(function () {
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll('script[type="TYPE"]'), function (kept) {
      var module = document.createElement('script');
      module.type = 'module';
      module.textContent = kept.textContent;
      kept.replaceWith(module);
    });
  }
  if (document.visibilityState === 'hidden') start();
  else requestAnimationFrame(function () { setTimeout(start, 0); });
})();</script>""".replace("TYPE", LATER_MODULE)


def _after_paint(page: str) -> str:
    """``page`` with the app's modules fetched and started once the copy has painted, not beside the stylesheet the
    paint waits for: on a phone's line they would share its bandwidth (some 300 KB of them against its 80)."""
    page = _MODULE_PRELOAD.sub("", page)
    page = _MODULE.sub(lambda m: f'<script type="{LATER_MODULE}"{m.group(1)}>{m.group(2)}</script>', page)
    end = page.rindex("</body>")
    return page[:end] + _START_AFTER_PAINT + page[end:]


def _cookie(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            found = SimpleCookie()
            try:
                found.load(value.decode("latin-1"))
            except Exception:  # a cookie header this parser refuses: no login here
                return ""
            if COOKIE in found:
                return found[COOKIE].value
    return ""


def _wants_page(scope: Scope) -> bool:
    accept = next((v for k, v in scope.get("headers", []) if k == b"accept"), b"")
    return b"text/html" in accept


def _gzips(scope: Scope) -> bool:
    return any(k == b"accept-encoding" and b"gzip" in v.lower() for k, v in scope.get("headers", []))


class FirstPaint:
    """Answers a document request for ``/dash`` or a league's standings that carries the device's login: the build's
    page with a copy drawn for that login where there is one to draw, else the build's page as it is (behind nginx,
    only such requests come here). Every other request goes on to ``app``."""

    def __init__(self, app: ASGIApp, pages: Callable[[], Path]):
        self.app = app
        self._pages = pages

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        address = _address(scope["path"])
        token = _cookie(scope) if address is not None and _wants_page(scope) else ""
        root = self._pages().resolve() if token else None
        page = _file(root, HOME_FILE if address and address[0] == "home" else FALLBACK_FILE) if root else None
        if address is None or root is None or page is None:
            await self.app(scope, receive, send)
            return
        frame, html = _frame(root), page
        try:
            drawn = await db.run(_read, token, *address) if frame is not None and len(token) <= 200 else None
            if drawn is not None and frame is not None:
                html = _drawn_page(page, frame, drawn, token[-WHO:])
        except Exception:  # the app's page comes as built: it draws the same content itself
            log.exception("a first paint was not drawn: %s", scope["path"])
        await _answer(scope, send, html.encode())


async def _answer(scope: Scope, send: Send, body: bytes) -> None:
    """The page, never kept by a cache (it may be drawn for one login), gzipped for a browser that takes it."""
    headers = [(b"content-type", b"text/html; charset=utf-8"), (b"cache-control", b"private, no-store"),
               (b"vary", b"Cookie, Accept-Encoding")]  # fmt: skip
    if _gzips(scope):
        body = gzip.compress(body, 6)
        headers.append((b"content-encoding", b"gzip"))
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
