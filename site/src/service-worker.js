// The site's service worker (written to _site/sw.js by builder/service_worker.py, which puts the
// build's manifest in place of the placeholder below; not bundled). It keeps the built site for
// offline use in one cache per build, named by the build id:
// - install: the shell (every page, bundle, widget bundle, checkpoint archive) goes into the new
//   cache, each file copied from an older build's cache when its SHA-256 is the same, else
//   downloaded and checked against the manifest (a file of another build fails the install);
// - the runtime (vendored Pyodide and wheels) is added once a page starts Python (message
//   "cache-runtime"), so a page that is only read downloads no Pyodide;
// - a new build waits until a page asks for it ("activate", the page's "Vernieuwen" button), then
//   replaces every older cache as a whole: a page is never served from two builds.
// Requests outside the manifest (numpy from the public CDN, ...) go to the network untouched.
const MANIFEST = self.WERKPLAATS_MANIFEST;
const CACHE_PREFIX = "werkplaats-";
const CACHE_NAME = `${CACHE_PREFIX}${MANIFEST.build}`;
// Each cache holds its own manifest, so a later build can tell which files it may copy.
const MANIFEST_KEY = "__werkplaats_manifest__.json";
const SCOPE = new URL("./", self.location.href).href;
const runtime = new Set(MANIFEST.runtime);

function absolute(url) {
  return new URL(url, SCOPE).href;
}

// The manifest's name for a request: a folder's index.html is asked for as the folder.
function manifestUrl(requestUrl) {
  const url = new URL(requestUrl);
  url.search = "";
  url.hash = "";
  if (!url.href.startsWith(SCOPE)) return null;
  let relative = url.href.slice(SCOPE.length);
  if (relative === "" || relative === "index.html") relative = "./";
  else if (relative.endsWith("/index.html")) relative = relative.slice(0, -"index.html".length);
  return Object.hasOwn(MANIFEST.files, relative) ? relative : null;
}

async function sha256(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

// A fresh copy from the server, kept only if it is this build's file.
async function download(url) {
  const response = await fetch(absolute(url), { cache: "no-store" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const body = await response.clone().arrayBuffer();
  if ((await sha256(body)) !== MANIFEST.files[url]) throw new Error(`${url}: not the file of build ${MANIFEST.build}`);
  return response;
}

// url -> the cached response of the same bytes in an older build's cache.
async function reusableFromOlderCaches() {
  const reusable = new Map();
  for (const name of await caches.keys()) {
    if (!name.startsWith(CACHE_PREFIX) || name === CACHE_NAME) continue;
    const cache = await caches.open(name);
    const stored = await cache.match(absolute(MANIFEST_KEY));
    if (!stored) continue;
    const older = await stored.json();
    for (const [url, hash] of Object.entries(older.files)) {
      if (MANIFEST.files[url] !== hash || reusable.has(url)) continue;
      const response = await cache.match(absolute(url));
      if (response) reusable.set(url, response);
    }
  }
  return reusable;
}

async function fill(cache, urls, reusable) {
  await Promise.all(urls.map(async (url) => {
    if (await cache.match(absolute(url))) return;
    await cache.put(absolute(url), reusable.get(url) ?? (await download(url)));
  }));
}

async function install() {
  const cache = await caches.open(CACHE_NAME);
  const reusable = await reusableFromOlderCaches();
  const shell = Object.keys(MANIFEST.files).filter((url) => !runtime.has(url));
  await fill(cache, shell, reusable);
  // A runtime file the older build had already is kept too: an update costs no Pyodide download.
  await fill(cache, MANIFEST.runtime.filter((url) => reusable.has(url)), reusable);
  await cache.put(absolute(MANIFEST_KEY), new Response(JSON.stringify(MANIFEST), {
    headers: { "Content-Type": "application/json" },
  }));
}

async function runtimeIsCached(cache) {
  for (const url of MANIFEST.runtime) if (!(await cache.match(absolute(url)))) return false;
  return true;
}

async function cacheRuntime() {
  const cache = await caches.open(CACHE_NAME);
  await fill(cache, MANIFEST.runtime, new Map());
}

async function dropOlderCaches() {
  for (const name of await caches.keys()) {
    if (name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME) await caches.delete(name);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(install());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(dropOlderCaches());
});

self.addEventListener("message", (event) => {
  const { type } = event.data ?? {};
  const reply = (message) => event.source?.postMessage({ build: MANIFEST.build, ...message });
  if (type === "activate") {
    self.skipWaiting();
  } else if (type === "cache-runtime") {
    event.waitUntil(cacheRuntime().then(
      () => reply({ type: "offline-ready" }),
      (error) => reply({ type: "offline-failed", message: String(error.message ?? error) }),
    ));
  } else if (type === "status") {
    event.waitUntil(caches.open(CACHE_NAME).then(runtimeIsCached).then(
      (complete) => reply({ type: complete ? "offline-ready" : "shell-ready" }),
    ));
  }
});

async function respond(request, url) {
  const cache = await caches.open(CACHE_NAME);
  const cached = await cache.match(absolute(url));
  if (cached) return cached;
  // Not cached yet (a runtime file before "cache-runtime" finished): from the network, and kept
  // when it is this build's file.
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const body = await response.clone().arrayBuffer();
    if ((await sha256(body)) === MANIFEST.files[url]) await cache.put(absolute(url), response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = manifestUrl(request.url);
  if (url === null) return; // not part of the site: the network as usual
  event.respondWith(respond(request, url));
});
