"""The page a player saw last, shown again the moment they come back, until the app shows it live.

A /dash page's content comes over the app's websocket, after its JavaScript has run: on a phone, a second or more
after the page opened, even when every file comes from the device. Once the app shows a page, the browser keeps a
copy of it (the page as drawn and the style rules it uses) in the storage that keeps the login: the tab's storage
for a login not kept on this device (no Trust This Device), so the copy goes with the tab; the device's for a
trusted one. When that page is opened again under the same login, the copy is put on the screen before the app
starts (marked busy), and the moment the app shows its own content the copy goes. Its links work as links; a button
tapped on it is tapped on the app's page when that comes, if that button and what it is part of (its list item, its
row, the header) read the same there, or the whole page does (else the tap is dropped, and the person sees the page
as it is now); its fields take no typing. A copy is kept for the last ``PAGES_KEPT`` pages; none of a page with a
card form, a password or a file field; none after the login ends (a logout, another login), which drops them all.
The server may have drawn the page's copy already (``api/first_paint.py``): it is shown the same way, and only to
the login it was drawn for.

React passes by the copy's element in the page's body (a tag it never draws), so the app's hydration is not
disturbed; should React draw the body afresh and drop it, the app's page shows at once.
"""

from __future__ import annotations

import json

from volley_app import routes
from volley_app.api import first_paint
from volley_app.services.accounts import auth

PAGES_KEPT = 6
LARGEST = 400_000  # characters of one page's copy; a larger page is not kept
SHOWN_AT_MOST_MS = 15_000  # the copy goes after this even if the app has not shown the page (no connection)
TAP_WAIT_MS = 10_000  # how long a tap on the copy waits for its button on the app's page as that fills in (a busy phone)
STORAGE_KEY = "vb_seen"
TAG = first_paint.TAG  # the copy's element

LAST_SEEN_PAGE = r"""(function () {
  var keys = KEYS;
  PAINT_COOKIE
  if (location.pathname.indexOf(keys.dash) !== 0) return;
  var stores;
  try { stores = [sessionStorage, localStorage]; } catch (e) { return; }
  function login() {
    var tab = sessionStorage.getItem(keys.tab), kept = localStorage.getItem(keys.token);
    if (tab) return {who: tab.slice(-12), store: sessionStorage};
    return kept ? {who: kept.slice(-12), store: localStorage} : null;
  }
  // What is kept for the login ``now``; copies kept under another login, or in the storage it does not use, go.
  function read(now) {
    var found = null;
    stores.forEach(function (store) {
      var raw = store.getItem(keys.seen), kept = null;
      try { kept = raw && JSON.parse(raw); } catch (e) {}
      if (now && store === now.store && kept && kept.who === now.who && kept.pages) found = kept;
      else if (raw) store.removeItem(keys.seen);
    });
    return found || (now ? {who: now.who, pages: []} : null);
  }
  function here() { return location.pathname + location.search; }
  function live() { return document.querySelector('body > [data-is-root-theme] main'); }
  // The app shows a page's own content (not its spinner) in its main column (the style rules drawn with it aside).
  function ready(main) {
    var shown = main ? Array.prototype.filter.call(main.children, function (el) { return el.tagName !== 'STYLE'; }) : [];
    return shown.length > 0 && !shown[0].matches('[role="status"][aria-label="Loading"]');
  }
  function paint() {
    var now = login();
    paintCookie(now && now.store === localStorage ? localStorage.getItem(keys.token) : "");
  }
  function said(el) { return el ? el.textContent.replace(/\s+/g, '') : ''; }
  function around(button) { return button.closest('li, tr, header'); }
  var opened = login(), seen = read(opened), copy = null, rules = null, timer = null, tapped = null;
  paint();
  // A copy the server drew for the device's login (api/first_paint.py) is in the body; the meta in the head names
  // its login. Under another login here it never shows: hidden now, dropped once it is there.
  var drawn = document.querySelector('meta[name="' + keys.drawn + '"]'), mine = drawn && opened && drawn.content === opened.who;
  if (drawn && !mine) {
    rules = document.createElement('style');
    rules.textContent = keys.tag + '{display:none !important}html > body > [data-is-root-theme]{display:block !important}';
    document.head.appendChild(rules);
  }
  var page = !drawn && seen && seen.pages.filter(function (p) { return p.path === here(); })[0];
  // A copy on the screen until the app shows the page: its fields take no typing, a button tapped on it is tapped
  // again on the app's page when it shows, if that button and what it is part of read the same there.
  function show(el) {
    copy = el;
    Array.prototype.forEach.call(copy.querySelectorAll('input, select, textarea'), function (f) { f.disabled = true; });
    copy.addEventListener('click', function (e) {
      var button = e.target.closest && e.target.closest('button');
      if (!button) return;
      e.preventDefault();
      tapped = {at: Array.prototype.indexOf.call(copy.querySelectorAll('button'), button), label: said(button),
        part: said(around(button) || copy.querySelector('main')), page: said(copy.querySelector('main'))};
    }, true);
    setTimeout(done, keys.shownAtMost);
  }
  if (page) {
    rules = document.createElement('style');
    rules.textContent = keys.tag + '{display:block}body > [data-is-root-theme]{display:none !important}' + page.css;
    document.head.appendChild(rules);
    var kept = document.createElement(keys.tag);
    kept.setAttribute('aria-busy', 'true');
    kept.innerHTML = page.html;
    show(kept);
  }
  function adopt() {
    var el = drawn && !copy && document.querySelector('body > ' + keys.tag);
    if (!el) return;
    drawn = null;
    if (mine) show(el);
    else el.remove();
  }
  function done() {
    if (!copy) return;
    copy.remove();
    if (rules) rules.remove();
    copy = rules = null;
    if (tapped) { tapped.until = Date.now() + keys.tapWaitMs; replay(); }
  }
  // The tap kept from the copy, on the app's page: the one button there that reads as the tapped one did and is part
  // of what reads the same (its list item, row or the header), or the button at its place on a page that reads the
  // same. Looked for as the app's page fills in, for a moment; then dropped.
  function replay() {
    var main = live(), root = main && main.closest('[data-is-root-theme]');
    if (!tapped || !root) return;
    var buttons = Array.prototype.slice.call(root.querySelectorAll('button')), at = buttons[tapped.at];
    var found = buttons.filter(function (b) { return said(b) === tapped.label && said(around(b) || main) === tapped.part; });
    if (found.length !== 1 && at && said(at) === tapped.label && said(main) === tapped.page) found = [at];
    if (found.length === 1) { tapped = null; found[0].click(); }
    else if (Date.now() > tapped.until) tapped = null;
  }
  function styleOf(html) {
    var used = {}, found = [];
    (html.match(/css-[a-z0-9]+/g) || []).forEach(function (name) { used[name] = true; });
    Array.prototype.forEach.call(document.querySelectorAll('style[data-emotion]'), function (el) {
      var list = [];
      try { list = el.sheet ? el.sheet.cssRules : []; } catch (e) {}
      Array.prototype.forEach.call(list, function (rule) {
        var name = (rule.cssText.match(/css-[a-z0-9]+/) || [])[0];
        if (name && used[name]) found.push(rule.cssText);
      });
    });
    return found.join('');
  }
  function keep() {
    timer = null;
    var now = login(), main = live();
    // The page shows what the login it opened under may see: under another login (or none) now, nothing is kept.
    if (!now || !opened || now.who !== opened.who) { read(now); return; }
    if (!ready(main) || main.querySelector('iframe, input[type="password"], input[type="file"]')) return;
    var html = main.closest('[data-is-root-theme]').outerHTML, css = styleOf(html), at = here();
    if (html.length + css.length > keys.largest) return;
    var kept = read(now);
    kept.pages = [{path: at, html: html, css: css}].concat(kept.pages.filter(function (p) { return p.path !== at; }))
      .slice(0, keys.pagesKept);
    try { now.store.setItem(keys.seen, JSON.stringify(kept)); } catch (e) { now.store.removeItem(keys.seen); }
  }
  function watch() {
    adopt();
    if (copy && !copy.isConnected) document.body.insertBefore(copy, document.body.firstChild);
    new MutationObserver(function () {
      adopt();
      if (copy && (!copy.isConnected || ready(live()))) done();
      else if (tapped && !copy) replay();
      if (!copy) { clearTimeout(timer); timer = setTimeout(keep, 500); }
    }).observe(document.body, {childList: true, subtree: true, characterData: true, attributes: true});
    // Left with a copy still to keep, or with no login (a logout): keep() keeps it, or drops every copy.
    window.addEventListener('pagehide', function () {
      paint();
      if (timer || !login()) { clearTimeout(timer); keep(); }
    });
  }
  if (document.body) watch();
  else new MutationObserver(function (_, self) {
    if (document.body) { self.disconnect(); watch(); }
  }).observe(document.documentElement, {childList: true});
})();""".replace("PAINT_COOKIE", first_paint.PAINT_COOKIE).replace("KEYS", json.dumps({
    "dash": routes.DASH, "token": auth.BROWSER_TOKEN, "tab": auth.BROWSER_TAB_TOKEN, "seen": STORAGE_KEY, "tag": TAG, "drawn": first_paint.DRAWN,
    "pagesKept": PAGES_KEPT, "largest": LARGEST, "shownAtMost": SHOWN_AT_MOST_MS, "tapWaitMs": TAP_WAIT_MS}))  # fmt: skip
