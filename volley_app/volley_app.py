"""The Reflex app: every declared page, the REST API under /api; the mail and push senders, the sweeps and the
reminders in the background (``services.core.background``: in this process, or in one of several instances).

The whole backend (and, in production, the pages it serves) sits behind the host check and the
security headers (``api.security``), and sees each request's real client (``api.proxy``); uploads are judged
before their body is read (``state.uploads``), and every other request body is capped before it is parsed
(``api.body_limit``).
"""

from __future__ import annotations

import json
import logging

import reflex as rx

from volley_app import registry, routes
from volley_app.api.app import create_api
from volley_app.api.body_limit import BodyLimit
from volley_app.api.exports import create_exports_api
from volley_app.api.feeds import create_feeds_api
from volley_app.api.mail_links import create_mail_links_api
from volley_app.api.proxy import ForwardedClient
from volley_app.api.public_pages import KEEP_LOGIN, create_public_pages_api
from volley_app.api.security import protect
from volley_app.components.last_seen import LAST_SEEN_PAGE
from volley_app.services.accounts import auth
from volley_app.services.core import background
from volley_app.services.mail import mail, push
from volley_app.services.operations import clock_sweep, game_requests
from volley_app.services.subs import invites, sub_reminders
from volley_app.services.teams import league_places, rsvps
from volley_app.state import redis_state, sockets
from volley_app.state.client_errors import frontend_exception_handler
from volley_app.state.outage import backend_exception_handler
from volley_app.state.uploads import UPLOAD_PATH, UploadGuard

sockets.install()  # several instances: a killed one's socket records do not orphan its tabs
redis_state.install()  # each event in two round trips to Redis, not four
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

# The server-drawn page shows its forms a moment before React takes them over; a form sent in that moment would
# go to the browser's own post, which the pages' server does not answer. Until React owns a form, sending it is
# kept, and sent once React does (the same form, or the one drawn in its place): the tap is not lost.
EARLY_SUBMIT_GUARD = """(function () {
  function own(el) { return Object.keys(el || {}).some(function (k) { return k.indexOf('__reactProps') === 0; }); }
  var kept = false, resending = false;
  document.addEventListener('submit', function (e) {
    var form = e.target;
    if (own(form)) {
      // The kept submit sent again: React takes it (at once, or once its hydration is done), never the browser.
      if (resending) e.preventDefault();
      return;
    }
    e.preventDefault();
    if (kept) return;
    kept = true;
    var index = Array.prototype.indexOf.call(document.forms, form), tries = 0;
    var timer = setInterval(function () {
      var now = form.isConnected ? form : document.forms[index];
      if (++tries > 1200) { clearInterval(timer); kept = false; return; }
      if (!now || !own(now)) return;
      clearInterval(timer);
      kept = false;
      resending = true;
      try { now.requestSubmit(); } finally { resending = false; }
    }, 50);
  }, true);
})();"""

# The app installs on a phone's home screen (assets/manifest.webmanifest) and opens without a connection to say so
# (assets/sw.js, assets/offline.html); the service worker is asked for once the page has loaded.
THEME_COLOR = "#f76b15"
REGISTER_SERVICE_WORKER = """if ('serviceWorker' in navigator) {
  window.addEventListener('load', function () { navigator.serviceWorker.register('/sw.js').catch(function () {}); });
}"""


# Where the backend listens on an origin of its own (the dev server), the login page (drawn there) hands a login that
# held to the app's origin in the address's fragment; kept here as the login page keeps it on one origin
# (``api.public_pages.KEEP_LOGIN``), then taken out of the address. Only such a set-up has it.
LOGIN_HANDOVER = """(function () {
  KEEP_LOGIN
  var keys = KEYS, key = "#" + keys.handover + "=";
  if (location.hash.indexOf(key) !== 0) return;
  try {
    keepLogin(keys, JSON.parse(decodeURIComponent(location.hash.slice(key.length))));
  } catch (e) {}
  history.replaceState(null, "", location.pathname + location.search);
})();""".replace("KEEP_LOGIN", KEEP_LOGIN).replace("KEYS", json.dumps({
    "handover": auth.BROWSER_HANDOVER, "token": auth.BROWSER_TOKEN, "tab": auth.BROWSER_TAB_TOKEN,
    "trust": auth.BROWSER_TRUST}))  # fmt: skip


def _inline_script(source: str) -> rx.Component:
    return rx.el.script(custom_attrs={"dangerouslySetInnerHTML": {"__html": source}})


app = rx.App(
    api_transformer=[create_api(), create_feeds_api(), create_exports_api(), create_mail_links_api(),
                     create_public_pages_api(), UploadGuard,
                     lambda inner: BodyLimit(inner, exempt=(UPLOAD_PATH,)), protect, ForwardedClient],
    head_components=[
        rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml"),
        rx.el.link(rel="manifest", href="/manifest.webmanifest"),
        rx.el.link(rel="apple-touch-icon", href="/icons/apple-touch-icon.png"),
        rx.el.meta(name="theme-color", content=THEME_COLOR),
        _inline_script(EARLY_SUBMIT_GUARD),
        _inline_script(REGISTER_SERVICE_WORKER),
        _inline_script(LAST_SEEN_PAGE),
        *([] if routes.backend_shares_origin() else [_inline_script(LOGIN_HANDOVER)]),
    ],
    html_lang="en",
    stylesheets=["/theme.css"],
    backend_exception_handler=backend_exception_handler,
    frontend_exception_handler=frontend_exception_handler,
)
registry.add_pages(app)
# Where these run (every instance, one of them, or not in this one): BACKGROUND_TASKS.
app.register_lifespan_task(background.run_forever, loops=(
    mail.run_sender_forever, push.run_sender_forever, league_places.run_sweeper_forever, sub_reminders.run_forever,
    invites.run_sweeper_forever, clock_sweep.run_forever, game_requests.run_forever, rsvps.run_forever,
))
