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
