"""Push notifications in Chromium: a player turns them on from My Info, the server's encrypted message reaches the
push service stand-in (which decrypts it as the browser would), and the service worker shows it when the browser's
push service delivers it (CDP ``ServiceWorker.deliverPushMessage``); a tap opens its page.

Chromium's own push service (Google's) is out of reach here: the page's ``PushManager`` hands out a subscription at
the stand-in instead, with keys the stand-in holds, as a browser's push service would.
"""

from __future__ import annotations

import datetime as dt
import json
import time

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import make_sub, make_user, open_as, screenshot
from tests.factories import actor_of
from volley_app import db
from volley_app.models import Gender, Rating, SubRequest, SubStatus, User, utcnow
from volley_app.services.subs import request_changes

PHONE = {"width": 390, "height": 844}
# The browser's PushManager, subscribing at the stand-in (one subscription per device, kept across pages).
_FAKE_PUSH_SERVICE = """(() => {
  const device = %s;
  const made = () => ({endpoint: device.endpoint, options: {applicationServerKey: null},
    toJSON: () => ({endpoint: device.endpoint, keys: {p256dh: device.p256dh, auth: device.auth}}),
    unsubscribe: async () => { localStorage.removeItem('push-device'); return true; }});
  PushManager.prototype.subscribe = async function () { localStorage.setItem('push-device', '1'); return made(); };
  PushManager.prototype.getSubscription = async function () { return localStorage.getItem('push-device') ? made() : null; };
})();"""
# The device's screen, where the service worker's notifications show: Chromium's headless shell has none (it refuses
# to show one), so the worker's calls to show one are kept here instead, with what they would show.
_SCREEN = """() => {
  self.shownHere = [];
  self.registration.showNotification = async (title, options) => { self.shownHere.push({title, ...options}); };
}"""
_SHOWN = """() => self.shownHere.map((n) => ({title: n.title, body: n.body, tag: n.tag, actions: (n.actions || []).map((a) => a.title)}))"""



def _deliver(page, message: dict) -> None:
    """The browser's push service hands ``message`` to the app's service worker."""
    cdp = page.context.new_cdp_session(page)
    found = {}
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda e: found.update({r["registrationId"]: r for r in e["registrations"]}))  # fmt: skip
    cdp.send("ServiceWorker.enable")
    page.wait_for_timeout(200)
    registration = next(r for r in found.values() if r["scopeURL"].rstrip("/") == page.url.split("/dash")[0])
    origin = registration["scopeURL"].rstrip("/")
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": origin, "registrationId": registration["registrationId"],
                                                  "data": json.dumps(message)})  # fmt: skip


def _screen_of(page):
    """The page's service worker, its notifications kept (see ``_SCREEN``)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready")
    worker = next(w for w in page.context.service_workers if w.url.endswith("/sw.js"))
    worker.evaluate(_SCREEN)
    return worker


def _shown(worker, count: int = 1) -> list[dict]:
    """The notifications the service worker showed, once there are ``count`` (at most 10 s)."""
    for _ in range(100):
        shown = worker.evaluate(_SHOWN)
        if len(shown) >= count:
            return shown
        time.sleep(0.1)
    return shown


def test_a_player_turns_push_on_and_a_test_arrives_as_a_notification(new_page, app_url, push_service):
    make_user("nadia")
    device = push_service.device()
    page = new_page(**PHONE, service_worker=True)
    page.context.grant_permissions(["notifications"], origin=app_url.rstrip("/"))
    page.context.add_init_script(_FAKE_PUSH_SERVICE % json.dumps(device))
    open_as(page, "nadia", "/dash/playerinfo")
    expect(page.locator("#push-state")).to_have_text("Off for this device. ")
    page.get_by_role("button", name="Turn on notifications").click()
    expect(page.get_by_role("status").filter(has_text="Notifications are on for this device.")).to_be_visible()
    expect(page.locator("#push-state")).to_contain_text("On for this device. 1 device of yours takes them.")
    screenshot(page, "push-on-390")

    page.get_by_role("button", name="Send a test").click()
    expect(page.get_by_role("status").filter(has_text="A test notification is on its way")).to_be_visible()
    message = push_service.wait_for(device["endpoint"])[0]  # the app's sender sent it, encrypted; decrypted there
    assert message["title"] == "Notifications are on" and message["url"] == "/dash/playerinfo"

    worker = _screen_of(page)
    _deliver(page, message)
    assert _shown(worker) == [{"title": "Notifications are on", "body": message["body"], "tag": "test", "actions": []}]

    page.reload()  # the device is remembered: off turns it off here and on the server
    expect(page.locator("#push-state")).to_contain_text("On for this device.")
    page.get_by_role("button", name="Turn off on this device").click()
    expect(page.get_by_role("status").filter(has_text="Notifications are off for this device.")).to_be_visible()
    expect(page.locator("#push-state")).to_have_text("Off for this device. ")


def test_a_sub_accepts_from_the_invitations_button_and_the_requestor_is_told_on_her_phone(new_page, app_url, push_service):
    make_user("alma", first_name="Alma")
    make_sub("bram", "Bram", Gender.MALE, Rating.B)
    alma_device, bram_device = push_service.device(), push_service.device()
    origin = app_url.rstrip("/")

    alma, alma_worker = _turned_on(new_page, origin, "alma", alma_device)
    bram, bram_worker = _turned_on(new_page, origin, "bram", bram_device)

    rid = db.call(_request_naming, "alma", "bram")
    invitation = push_service.wait_for(bram_device["endpoint"])[0]
    _deliver(bram, invitation)
    [shown] = _shown(bram_worker)
    assert shown["actions"] == ["Accept", "Decline"] and "Alma" in shown["body"]
    # Bram taps Accept on the notification: the worker answers by the invitation's signed link, the app stays shut.
    bram_worker.evaluate("notificationClicked({...self.shownHere[0], close() {}}, 'accept')")
    assert _shown(bram_worker, 2)[1]["title"] == "You accepted the sub request"
    assert db.call(lambda s: s.get(SubRequest, rid).status) == SubStatus.ACCEPTED

    accepted = push_service.wait_for(alma_device["endpoint"])[0]
    _deliver(alma, accepted)
    [told] = _shown(alma_worker)
    assert "Bram" in told["title"] + told["body"] and told["actions"] == []
    # A tap on it opens the request's page (a window only a real tap may open: its address is checked here).
    assert alma_worker.evaluate("self.shownHere[0].data.url") == f"/dash/notes/{rid}"

    # Under the bell, each has theirs.
    for page, unread in ((alma, 1), (bram, 1)):
        page.goto("/dash/notifications")
        expect(page.get_by_role("link", name=f"Notifications, {unread} unread")).to_be_visible()
    expect(alma.get_by_text(told["title"])).to_be_visible()
    expect(bram.get_by_text(shown["title"])).to_be_visible()
    screenshot(alma, "push-notifications-390")


def _turned_on(new_page, origin: str, username: str, device: dict):
    """``username``'s phone, its browser subscribed at the stand-in as ``device``, with notifications turned on from
    My Info; the phone and its service worker (its screen kept)."""
    page = new_page(**PHONE, service_worker=True)
    page.context.grant_permissions(["notifications"], origin=origin)
    page.context.add_init_script(_FAKE_PUSH_SERVICE % json.dumps(device))
    open_as(page, username, "/dash/playerinfo")
    page.get_by_role("button", name="Turn on notifications").click()
    expect(page.locator("#push-state")).to_contain_text("On for this device.")
    return page, _screen_of(page)


def _request_naming(s, requestor: str, sub: str) -> int:
    asker = s.exec(select(User).where(User.username == requestor)).one()
    named = s.exec(select(User).where(User.username == sub)).one()
    when = (utcnow() + dt.timedelta(days=3)).replace(second=0, microsecond=0)
    return request_changes.create(s, actor_of(asker), recipient_id=named.id, team="Spikers", date=when,
                                  svl="Lexington Sportsplex", skill_level="C", format="6s")  # fmt: skip
