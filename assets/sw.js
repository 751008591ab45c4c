// The app's service worker. Pages always come from the network, so what a person sees after a deploy is the new
// app; without a connection a page opens the offline page instead of the browser's error. The build's hashed files
// (/assets/, named by their content: a new build has new names) are kept on the device once fetched, the newest
// FILES_KEPT of them, so a repeat visit does not download them again.
const SHELL = "shell-v1";
const FILES = "files";
const FILES_KEPT = 120;
const OFFLINE = "/offline.html";
const SHELL_FILES = [OFFLINE, "/favicon.svg", "/icons/icon-192.png", "/manifest.webmanifest"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL && n !== FILES).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function keepNewest(cache) {
  const kept = await cache.keys();
  await Promise.all(kept.slice(0, Math.max(0, kept.length - FILES_KEPT)).map((request) => cache.delete(request)));
}

async function hashedFile(request) {
  const cache = await caches.open(FILES);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
    await keepNewest(cache);
  }
  return response;
}

async function page(request) {
  try {
    return await fetch(request);
  } catch (error) {
    return (await caches.match(OFFLINE)) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Downloads and links answered by the backend (files, email answers) go to the network as they are.
    if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/_")) return;
    event.respondWith(page(request));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(hashedFile(request));
  }
});

// Push notifications (services/mail/push.py sends them): a message is {title, body, url, tag, actions}. A tap opens
// its page (a window of the app already showing it comes to the front). An action with `post` answers by its signed
// link without opening the app (a sub's Accept or Decline), and says how that went in a notification of its own; one
// without opens its address.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = { body: event.data ? event.data.text() : "" };
  }
  const actions = Array.isArray(message.actions) ? message.actions : [];
  event.waitUntil(
    self.registration.showNotification(message.title || "Volleyball Leagues", {
      body: message.body || "",
      tag: message.tag || undefined,
      renotify: Boolean(message.tag),
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      data: { url: message.url || "/dash", actions },
      actions: actions.map((a) => ({ action: a.action, title: a.title })),
    }),
  );
});

function pageText(html, tag) {
  const found = html.match(new RegExp(`<${tag}>([^<]*)</${tag}>`));
  if (!found) return "";
  return found[1].replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

async function openPage(url) {
  const target = new URL(url || "/dash", self.location.origin).href;
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = open.find((client) => client.url === target && "focus" in client);
  if (same) return same.focus();
  return self.clients.openWindow(target);
}

async function answer(action, notification) {
  const url = notification.data.url;
  let title = "Your answer was sent";
  let body = "Tap to open the request.";
  try {
    const response = await fetch(action.url, { method: "POST", credentials: "omit" });
    if (response.type !== "opaque") {
      const html = await response.text();
      title = pageText(html, "h1") || (response.ok ? title : "Your answer was not recorded");
      body = pageText(html, "p") || body;
    }
  } catch (error) {
    return openPage(action.url); // no connection: the link's own page asks again once it opens
  }
  return self.registration.showNotification(title, { body, tag: notification.tag || undefined, icon: "/icons/icon-192.png",
    data: { url, actions: [] } });
}

// A tap on ``notification`` (``action``: the name of its button, "" for the notification itself).
function notificationClicked(notification, action) {
  notification.close();
  const data = notification.data || {};
  const chosen = (data.actions || []).find((a) => a.action === action);
  return chosen && chosen.post ? answer(chosen, notification) : openPage(chosen ? chosen.url : data.url);
}

self.addEventListener("notificationclick", (event) => event.waitUntil(notificationClicked(event.notification, event.action)));
