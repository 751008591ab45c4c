"""The pages a visitor opens first, drawn here as plain HTML from Jinja templates (``templates/public/``): the home
page (``/``) and the public league pages (``/leagues``, ``/leagues/{id}``). A visitor reads them without logging in or
running a script (on a phone they show as soon as their few kilobytes arrive), and a shared link's preview (a group
chat's card) finds its title, description, Open Graph tags and schema.org ``SportsEvent`` in what is sent.

The reads are ``services.operations.home.announcement`` and ``services.operations.public_leagues``; a league a
visitor may not see, or none, answers a page saying so with 404. Links to the app's own pages (sign up,
registration) are on PUBLIC_URL, as in emails.

The login page (``/login``) is drawn here too, so a player at the gym can log in as soon as the form shows: it posts
to itself, and a login that holds answers with a page that leaves the token where the app's pages look for it
(``state.auth.AuthState``) and goes on; one that does not answers with the form again and what went wrong. Once the
person starts on the form, the page has the browser fetch the app's first files from the build (at the lowest
priority), so the page the login goes on to takes them from the browser's cache.
"""

from __future__ import annotations

import datetime as dt
import functools
import gzip
import json
import logging
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jinja2
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from volley_app import db, routes
from volley_app.api import first_paint
from volley_app.api.deps import client_ip
from volley_app.api.security import built_pages
from volley_app.services.accounts import auth
from volley_app.services.core import validation
from volley_app.services.core.errors import UNEXPECTED, DomainError, Forbidden
from volley_app.services.operations import home
from volley_app.services.operations import public_leagues as svc
from volley_app.settings import ROOT, SITE_NAME, get_settings

log = logging.getLogger(__name__)

TEMPLATES = Path(__file__).resolve().parents[1] / "templates" / "public"
# Short: a league's places and standings change, and nothing here belongs to anyone.
CACHING = "public, max-age=60"

_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined,
    trim_blocks=True, lstrip_blocks=True,
)  # fmt: skip


def _logo() -> Markup:
    """The site's logo drawn in the page (no request of its own; the dev server's backend has no static files)."""
    svg = (ROOT / "assets" / "logo.svg").read_text()
    drawn = svg.replace('role="img" aria-label="Volleyball"', 'aria-hidden="true" focusable="false" width="36" height="36"')
    return Markup(drawn)  # noqa: S704 - the project's own file


_FAVICON = "data:image/svg+xml," + urllib.parse.quote((ROOT / "assets" / "favicon.svg").read_text().strip())
_LOGO = _logo()


def _json_ld(data: dict[str, Any]) -> Markup:
    """``data`` as the text of a ``<script type="application/ld+json">``: nothing in it can end the script."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))  # noqa: S704 - no markup left


def _frame(path: str) -> dict[str, Any]:
    """What every page's frame shows: the site, its links, this page's own address. The home page and the login are
    the backend's, as these pages are (on its own origin on the dev server); the app's pages are on PUBLIC_URL."""
    return {
        "site": SITE_NAME, "logo": _LOGO, "favicon": _FAVICON, "year": dt.date.today().year,
        "url": routes.absolute(path), "image": routes.absolute("/icons/icon-512.png"),
        "home": routes.backend_absolute(routes.HOME), "login": routes.backend_absolute(routes.LOGIN),
        "signup": routes.absolute(routes.SIGNUP), "leagues": routes.public_leagues_base,
        "about": routes.absolute(routes.ABOUT), "contact": routes.absolute(routes.CONTACT),
    }  # fmt: skip


def _page(template: str, path: str, request: Request, *, status: int = 200, caching: str = CACHING,
          **values: Any) -> HTMLResponse:  # fmt: skip
    """The page, gzipped for a browser that takes it (a fifth of the bytes on a phone's line)."""
    body = _env.get_template(template).render(**_frame(path), **values).encode()
    headers = {"Cache-Control": caching, "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        body, headers["Content-Encoding"] = gzip.compress(body, 6), "gzip"
    return HTMLResponse(body, status_code=status, headers=headers)


def _iso(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _event(lg: svc.PublicLeague, url: str) -> dict[str, Any]:
    """The league as a schema.org SportsEvent: what, when, where, and what a team pays."""
    open_places = lg["registration_open"] and lg["places_left"] > 0
    return {
        "@context": "https://schema.org", "@type": "SportsEvent", "name": f"{lg['name']} volleyball league",
        "sport": "Volleyball", "url": url, "description": _describe(lg),
        "startDate": _iso(lg["start_at"]), "endDate": _iso(lg["end_at"]),
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
        "location": {"@type": "Place", "name": lg["venue"], "address": lg["where"] or lg["venue"]},
        "organizer": {"@type": "Organization", "name": lg["venue"]},
        "offers": {"@type": "Offer", "url": url, "price": f"{lg['price_cents'] / 100:.2f}", "priceCurrency": "USD",
                   "availability": "https://schema.org/" + ("InStock" if open_places else "SoldOut")},
    }  # fmt: skip


def _places(lg: svc.PublicLeague) -> str:
    if not lg["registration_open"]:
        return "Registration closed"
    if lg["places_left"] == 0:
        return "Full: waitlist open"
    return f"{lg['places_left']} of {lg['places']} places left"


def _describe(lg: svc.PublicLeague) -> str:
    """One sentence a preview card shows: the league, when, where, the price, and places or that it is running."""
    if lg["stage"] != svc.REGISTRATION:
        now = "running now"
    else:
        now = ("registration open, " if lg["registration_open"] else "") + _places(lg).lower()
    return (f"{lg['skill_level']} level {lg['format']} volleyball on {lg['day']}s at {lg['time']}, at {lg['venue']}, "
            f"{lg['weeks']} weeks from {lg['starts']}. {lg['price']}; {now}.")  # fmt: skip


def _card(lg: svc.PublicLeague) -> dict[str, Any]:
    """A league as the pages draw it: its facts, its link, its places in words."""
    return {**lg, "href": routes.public_league_path(lg["id"]), "places_text": _places(lg),
            "running": lg["stage"] != svc.REGISTRATION}  # fmt: skip


def _not_found(path: str, message: str, request: Request) -> HTMLResponse:
    return _page("not_found.jinja", path, request, status=404, title="League not found", message=message,
                 description="This league is not on the site.")  # fmt: skip


# What the login page answers: the form, with what went wrong or a notice; never kept by a cache (it holds what
# was typed, or a token).
NOT_KEPT = "no-store"
CROSS_SITE_LOGIN = "Please log in from this site's own login page."


# The build's pages whose files the login page warms: the shell every app page shares, and the player's home, where
# most logins go on to.
FIRST_PAGES = ("index.html", routes.DASH.strip("/") + "/index.html")


class _FirstFiles(HTMLParser):
    """The files a built page loads before it shows (its module scripts and stylesheets), in the page's order, each
    once; only the site's own (a path, as the build writes them: the very address the page asks for)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {k: v or "" for k, v in attrs}
        rel = named.get("rel", "").lower().split()
        if tag == "link" and ("modulepreload" in rel or "stylesheet" in rel):
            href = named.get("href", "")
        elif tag == "script" and named.get("type", "").lower() == "module":
            href = named.get("src", "")
        else:
            return
        parts = urllib.parse.urlsplit(href)
        if href.startswith("/") and not parts.scheme and not parts.netloc and href not in self.found:
            self.found.append(href)


@functools.cache
def _files_of(build: Path) -> tuple[str, ...]:
    """The first files of the app's pages in the build at ``build``: read once (a build never changes under the
    process that serves it; a new one comes with a restart)."""
    files = _FirstFiles()
    for page in FIRST_PAGES:
        if (build / page).is_file():
            files.feed((build / page).read_text(errors="replace"))
    files.close()
    return tuple(files.found)


def _app_files() -> tuple[str, ...]:
    """What the login page has the browser fetch ahead: the app's first files, where this origin serves the build
    (``make run``, nginx); none without a build (a backend-only test) or where the app's pages are on another origin
    (the dev server, whose pages are not the build's)."""
    build = built_pages()
    if not routes.backend_shares_origin() or not (build / "index.html").is_file():
        return ()
    return _files_of(build.resolve())


def _login_form(request: Request, next_path: str, *, status: int = 200, error: str = "", notice: str = "",
                username: str = "", trusted: bool = True) -> HTMLResponse:  # fmt: skip
    """The login form (spec section 2), with what went wrong (``error``) or a ``notice``; ``next_path``: where a
    login goes on to (kept through Sign Up)."""
    after = routes.safe_next(next_path) if next_path else ""
    return _page(
        "login.jinja", routes.LOGIN, request, status=status, caching=NOT_KEPT, title="Login", window_title="Login",
        description="Log in to find a sub, answer sub requests and run your team.",
        action=routes.LOGIN, next=next_path, error=error, notice=notice, username=username, trusted=trusted,
        signup_href=routes.absolute(routes.signup_with_next(after) if after else routes.SIGNUP),
        forgot=routes.absolute(routes.FORGOT_PASSWORD), trust_key=auth.BROWSER_TRUST, prefetch=_app_files(),
    )  # fmt: skip


def _from_this_site(request: Request) -> bool:
    """Whether a form was sent from this site's own pages: a browser names the page's origin (``Origin``) or says
    where the request comes from (``Sec-Fetch-Site``); a client that says neither is not a browser on another site."""
    settings = get_settings()
    own = {urllib.parse.urlsplit(u)._replace(path="", query="", fragment="").geturl().rstrip("/")
           for u in (settings.public_url, settings.backend_url)}  # fmt: skip
    origin = request.headers.get("origin")
    if origin is not None:
        return origin.rstrip("/") in own
    return request.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")


# Keeps a login (its token and trust choice) where the app's pages look for it (``state.auth.AuthState``): a trusted
# one in local storage, one for this tab only in session storage. Run by the page answering a login that holds and,
# where the app's pages are on another origin, by theirs (``volley_app.LOGIN_HANDOVER``).
# The device's login also goes in the cookie that has the server draw a player's first pages (``api.first_paint``).
KEEP_LOGIN = first_paint.PAINT_COOKIE + """
function keepLogin(keys, login) {
  if (login.trusted) { localStorage.setItem(keys.token, login.token); sessionStorage.removeItem(keys.tab); }
  else { sessionStorage.setItem(keys.tab, login.token); localStorage.removeItem(keys.token); }
  localStorage.setItem(keys.trust, login.trusted ? "true" : "false");
  paintCookie(login.trusted ? login.token : "");
}"""


def _logged_in(request: Request, result: auth.LoginResult, target: str) -> HTMLResponse:
    """The answer to a login that holds: a page that keeps the token where the trust choice says (as the app keeps
    it) and goes on to ``target``; a new device token as the cookie the app reads."""
    keys = {"token": auth.BROWSER_TOKEN, "tab": auth.BROWSER_TAB_TOKEN, "trust": auth.BROWSER_TRUST,
            "handover": auth.BROWSER_HANDOVER}  # fmt: skip
    # Where the app's pages are on another origin (the dev server), its storage is not this page's: the login is
    # handed over in the address.
    apart = not routes.backend_shares_origin()
    done = {"token": result.token, "trusted": result.trusted, "target": routes.absolute(target) if apart else target,
            "keys": keys, "handover": apart}  # fmt: skip
    response = _page("logged_in.jinja", routes.LOGIN, request, caching=NOT_KEPT, title="Logging in",
                     window_title="Login", description="Logging in.", target=target, done=_json_ld(done),
                     keep_login=Markup(KEEP_LOGIN))  # fmt: skip  # noqa: S704 - the module's own script
    if result.device:
        response.set_cookie(auth.BROWSER_DEVICE, result.device, max_age=auth.DEVICE_DAYS * 86400, path="/",
                            samesite="strict", secure=get_settings().public_url.lower().startswith("https://"))  # fmt: skip
    return response


def create_public_pages_api() -> FastAPI:
    """The home page and the public league pages, mounted in front of the app like the REST API."""
    api = FastAPI(docs_url=None, openapi_url=None, redoc_url=None, swagger_ui_oauth2_redirect_url=None)
    base = routes.public_leagues_base

    @api.exception_handler(DomainError)
    async def _refused(request: Request, exc: DomainError) -> HTMLResponse:
        return _not_found(request.url.path, exc.message, request)

    @api.api_route(routes.HOME, methods=["GET", "HEAD"], response_class=HTMLResponse)
    def home_page(request: Request) -> HTMLResponse:
        """The site's front door (spec section 2): the announcement of the next league, what the site does, the way
        in (sign up, log in, the leagues) and the rest of the site."""
        return _page(
            "home.jinja", routes.HOME, request, title=SITE_NAME, window_title=SITE_NAME,
            description="Find a sub in minutes, pick up games as a sub, and sign your team up for volleyball leagues "
                        "in Lexington, KY, all from your phone.",
            banner=db.call(home.announcement), franchise=routes.absolute(routes.FRANCHISE),
            host=routes.absolute(routes.HOST), promote=routes.absolute(routes.PROMOTE),
        )  # fmt: skip

    @api.api_route(routes.LOGIN, methods=["GET", "HEAD"], response_class=HTMLResponse)
    @api.api_route(routes.LOGIN + "/", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
    def login_page(request: Request, next: str = "") -> HTMLResponse:  # noqa: A002 - the address's own name
        return _login_form(request, next)

    @api.post(routes.LOGIN, response_class=HTMLResponse)
    @api.post(routes.LOGIN + "/", response_class=HTMLResponse, include_in_schema=False)
    async def log_in(request: Request) -> HTMLResponse:
        """Check the username and password (the failed-login ceiling, known devices: ``auth.login``), then on to
        ``next`` when it is this site's and the user's to open, else the user's home."""
        form = await request.form()
        data = {k: v if isinstance(v := form.get(k), str) else "" for k in ("username", "password", "trust", "next")}
        username, trusted = data["username"].strip().lower(), validation.flag(data["trust"])
        again = functools.partial(_login_form, request, data["next"], username=username[:50], trusted=trusted)
        if not _from_this_site(request):
            return again(status=Forbidden.status_code, error=CROSS_SITE_LOGIN)
        try:
            result = await db.run(auth.login, username=username, password=data["password"], trusted=trusted,
                                  client=client_ip(request), device=request.cookies.get(auth.BROWSER_DEVICE, ""))  # fmt: skip
        except auth.SignInLinkSent as sent:
            return again(status=sent.status_code, notice=sent.message)
        except DomainError as refused:
            return again(status=refused.status_code, error=refused.message)
        except Exception:
            log.exception("unexpected failure of a login")
            return again(status=503, error=UNEXPECTED)
        return _logged_in(request, result, routes.after_login(data["next"], result.actor.roles))

    @api.api_route(base, methods=["GET", "HEAD"], response_class=HTMLResponse)
    @api.api_route(base + "/", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
    def league_list(request: Request, page: str = "") -> HTMLResponse:
        found = db.call(svc.public_leagues, bookmark=page)
        rows = [_card(lg) for lg in found.rows]
        events = [{"@type": "ListItem", "position": i, "item": _event(lg, routes.absolute(routes.public_league_path(lg["id"])))}
                  for i, lg in enumerate(found.rows, start=1)]  # fmt: skip
        return _page(
            "leagues.jinja", routes.public_leagues_path(page), request, title="Volleyball leagues",
            description="Volleyball leagues open for registration and running now: days, times, venues, skill levels, "
                        "prices and places left. Register a team in minutes.",
            rows=rows, total=found.total, capped=found.capped,
            next=routes.public_leagues_path(found.next) if found.next else "",
            previous=routes.public_leagues_path(found.previous) if found.previous else "",
            json_ld=_json_ld({"@context": "https://schema.org", "@type": "ItemList", "itemListElement": events}),
        )  # fmt: skip

    @api.api_route(base + "/{league_id}", methods=["GET", "HEAD"], response_class=HTMLResponse)
    def league_page(request: Request, league_id: str) -> HTMLResponse:
        found = db.call(svc.public_league, league_id)
        lg = found.league
        path = routes.public_league_path(lg["id"])
        registration = routes.new_team_path(lg["id"])
        return _page(
            "league.jinja", path, request, title=f"{lg['name']} volleyball league at {lg['venue']}",
            description=_describe(lg),
            league=_card(lg), standings=found.standings, weeks=found.weeks, running=found.running,
            register=routes.backend_absolute(routes.login_with_next(registration)),
            register_signup=routes.absolute(routes.signup_with_next(registration)),
            json_ld=_json_ld(_event(lg, routes.absolute(path))),
        )  # fmt: skip

    return api
