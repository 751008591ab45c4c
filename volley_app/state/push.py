"""Push notifications on this device (My Info): the browser's subscription is asked for and handed to the server.

The browser does its part in scripts the events send (permission, the service worker's subscription with the app's
VAPID key); each answers a small dict that comes back to a handler here, which calls the service with the acting
person. Any browser may call these handlers with anything: the service checks what it is given.
"""

from __future__ import annotations

import json

import reflex as rx

from volley_app.services.mail import push
from volley_app.state.auth import AuthState
from volley_app.state.forms import failure_text, run_action

# This browser's subscription, if it has one: {supported, endpoint, blocked}.
_DEVICE = """(async () => {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return {supported: false, endpoint: '', blocked: false};
  }
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  return {supported: true, endpoint: sub ? sub.endpoint : '', blocked: Notification.permission === 'denied'};
})()"""

# Ask for permission, subscribe with the app's key (a subscription made with another key is replaced), answer the
# subscription's endpoint and keys, or {error}.
_SUBSCRIBE = """(async (key) => {
  try {
    if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
      return {error: 'unsupported'};
    }
    if (await Notification.requestPermission() !== 'granted') return {error: 'blocked'};
    await navigator.serviceWorker.register('/sw.js');
    const reg = await navigator.serviceWorker.ready;
    const bytes = Uint8Array.from(atob(key.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    let sub = await reg.pushManager.getSubscription();
    const held = sub && sub.options && sub.options.applicationServerKey;
    if (held && new Uint8Array(held).join() !== bytes.join()) { await sub.unsubscribe(); sub = null; }
    if (!sub) sub = await reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: bytes});
    const j = sub.toJSON();
    return {endpoint: j.endpoint, p256dh: j.keys.p256dh, auth: j.keys.auth};
  } catch (e) {
    return {error: 'failed'};
  }
})(%s)"""

# Drop this browser's subscription; answer the endpoint it had ('' when none), or {error}.
_UNSUBSCRIBE = """(async () => {
  try {
    const reg = await navigator.serviceWorker.getRegistration('/');
    const sub = reg ? await reg.pushManager.getSubscription() : null;
    if (!sub) return {endpoint: ''};
    const endpoint = sub.endpoint;
    await sub.unsubscribe();
    return {endpoint};
  } catch (e) {
    return {error: 'failed'};
  }
})()"""

UNSUPPORTED = ("This browser cannot show notifications from a web page. On an iPhone or iPad, add the app to your "
               "Home Screen (Share, then Add to Home Screen) and turn them on from there.")  # fmt: skip
BLOCKED = "Notifications are blocked for this site. Allow them in your browser's settings for this site, then try again."
FAILED = "This browser could not turn notifications on. Please try again."
TURNED_ON = "Notifications are on for this device."
TURNED_OFF = "Notifications are off for this device."
TEST_SENT = "A test notification is on its way to your devices."
NO_DEVICE = "No device of yours takes notifications yet: turn them on first."
_BROWSER_SAYS = {"unsupported": UNSUPPORTED, "blocked": BLOCKED, "failed": FAILED}


def _answer(found: object) -> dict[str, str]:
    """What a script answered, as text by name (anything else a browser sent is dropped)."""
    if not isinstance(found, dict):
        return {}
    return {str(k): str(v) for k, v in found.items() if isinstance(v, str | bool)}


class PushState(AuthState):
    push_known: rx.Field[bool] = rx.field(False)  # the browser has said what it can do
    push_supported: rx.Field[bool] = rx.field(True)
    push_on: rx.Field[bool] = rx.field(False)  # this device takes this person's notifications
    push_devices: rx.Field[int] = rx.field(0)  # how many of this person's devices do
    push_busy: rx.Field[bool] = rx.field(False)
    push_notice: rx.Field[str] = rx.field("")
    push_error: rx.Field[str] = rx.field("")

    def _show(self, state: push.DeviceState) -> None:
        self.push_on, self.push_devices, self.push_known, self.push_busy = state["on"], state["devices"], True, False

    def _refused(self, message: str) -> None:
        self.push_error, self.push_notice, self.push_busy, self.push_known = message, "", False, True

    @rx.event
    def check_device(self):
        """Ask the browser whether it takes notifications (the card's first draw)."""
        self.push_notice = self.push_error = ""
        return rx.call_script(_DEVICE, callback=PushState.device_found)

    @rx.event
    async def device_found(self, found: dict):
        said = _answer(found)
        self.push_supported = said.get("supported") != "False"
        state, failure = await run_action(push.device_state, actor=await self._actor(), endpoint=said.get("endpoint", ""))
        if failure is not None or state is None:
            self._refused(failure_text(failure) if failure else FAILED)
            return
        self._show(state)
        if said.get("blocked") == "True" and not state["on"]:
            self.push_error = BLOCKED

    def _ask_browser(self, script: str, callback):
        """Run ``script`` in the browser (once at a time), its answer to ``callback``."""
        if self.push_busy:
            return None
        self.push_busy, self.push_notice, self.push_error = True, "", ""
        return rx.call_script(script, callback=callback)

    async def _change(self, change, notice: str, **given: object) -> None:
        """``change`` this device's subscription on the server with what the browser gave, then say so."""
        state, failure = await run_action(change, actor=await self._actor(), **given)
        if failure is not None or state is None:
            self._refused(failure_text(failure) if failure else FAILED)
            return
        self._show(state)
        self.push_notice = notice

    @rx.event
    def turn_on(self):
        return self._ask_browser(_SUBSCRIBE % json.dumps(push.public_key()), PushState.subscribed)

    @rx.event
    async def subscribed(self, found: dict):
        said = _answer(found)
        if "error" in said or "endpoint" not in said:
            self._refused(_BROWSER_SAYS.get(said.get("error", ""), FAILED))
            return
        await self._change(push.subscribe, TURNED_ON, endpoint=said["endpoint"], p256dh=said.get("p256dh"),
                           auth=said.get("auth"), device=self.router.headers.user_agent)  # fmt: skip

    @rx.event
    def turn_off(self):
        return self._ask_browser(_UNSUBSCRIBE, PushState.unsubscribed)

    @rx.event
    async def unsubscribed(self, found: dict):
        said = _answer(found)
        if "error" in said:
            self._refused(FAILED)
            return
        await self._change(push.unsubscribe, TURNED_OFF, endpoint=said.get("endpoint", ""))

    @rx.event
    async def send_test(self):
        count, failure = await run_action(push.send_test, actor=await self._actor())
        if failure is not None or count is None:
            self._refused(failure_text(failure) if failure else FAILED)
            return
        self.push_error, self.push_notice = ("", TEST_SENT) if count else (NO_DEVICE, "")
