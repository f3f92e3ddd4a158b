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
//
// What it serves is this build's, byte for byte: a file is checked against the manifest's SHA-256
// when it enters this build's cache (downloaded, fetched, or carried over from an older build's
// cache at an update) and, for the page's own files, again every time it is served; one that does
// not match (written by something else on this origin) is thrown away and fetched again. The
// runtime (pyodide/: the wasm, the standard library, Pyodide's loader) is the exception on the
// serving side: it is served as stored, unhashed, and checked again in the background once Python
// is up ("cache-runtime"), where a damaged or replaced copy is thrown away and fetched again for
// the next load. Why that is safe: only the Pyodide worker reads those files, and it is already the
// sandbox for hostile code (learner code runs there, without `caches`, `indexedDB` or a way to
// start a worker: pyodide-worker.js removes them before anything runs), so a forged runtime file
// can do there no more than learner code can. Why it matters: hashing the 9.6 MB wasm on every
// load delayed every start, and a response served as stored (the Response from the Cache API
// itself, never a copy built from its bytes) is the only kind for which Chromium keeps the
// compiled wasm beside the cache entry (its WebAssembly code cache for Cache Storage: a response
// the worker builds with `new Response()`, or one with another URL, gets no code cache), so a
// later load deserializes the machine code instead of compiling 9.6 MB again.
//
// Cross-origin isolation on any static host: a page or script served from here gets the two
// isolation headers when the server sent none (as `coi-serviceworker` does), so Stop without a
// restart and input() work on GitHub Pages too, after the one reload offline.js makes when this
// worker first takes over; a server that sends the headers keeps its own. Only documents and
// scripts need them (the browser reads them from a page and from a worker's script); every other
// file is kept and served as the server sent it, so the wasm keeps its code cache on such hosts
// too.
//
// The Python memory snapshot (worker-client.js, offline.js) is kept in this build's cache too, as
// `__werkplaats_snapshot__` with its SHA-256 and its Pyodide version: one per build, gone with the
// build's cache, stored only by a page of this site (never by a worker). Pages read it straight
// from the cache; the Pyodide worker checks the SHA-256 before it trusts a restored interpreter.
const MANIFEST = self.WERKPLAATS_MANIFEST;
const CACHE_PREFIX = "werkplaats-";
const CACHE_NAME = `${CACHE_PREFIX}${MANIFEST.build}`;
// Each cache holds its own manifest, so a later build can tell which files it may copy.
const MANIFEST_KEY = "__werkplaats_manifest__.json";
const SCOPE = new URL("./", self.location.href).href;
const runtime = new Set(MANIFEST.runtime);
const SNAPSHOT_PATH = "__werkplaats_snapshot__";
const SNAPSHOT_DIGEST_HEADER = "X-Werkplaats-SHA256";
const SNAPSHOT_VERSION_HEADER = "X-Werkplaats-Pyodide";
// Far above a started Pyodide with the runner (~30 MB), far below what would crowd out the site.
const SNAPSHOT_MAX_BYTES = 256 * 1024 * 1024;
const ISOLATION_HEADERS = [
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Embedder-Policy", "require-corp"],
];

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

async function isBuildFile(url, body) {
  return (await sha256(body)) === MANIFEST.files[url];
}

function hasIsolationHeaders(headers) {
  return ISOLATION_HEADERS.every(([name]) => headers.has(name));
}

// A page or a script outside the runtime (the Pyodide worker's own script among them): where the
// browser reads the isolation headers. Pyodide's modules, the wasm and data files need none.
function needsIsolationHeaders(url) {
  if (runtime.has(url)) return false;
  return url === "./" || url.endsWith("/") || url.endsWith(".html") || url.endsWith(".js");
}

// How each file was last served, for the page's timeline (offline.js asks with "served"): from the
// cache as stored (Chromium's wasm code cache applies), a copy with headers added, or the network.
const SERVED_AS_STORED = "cache";
const SERVED_AS_COPY = "cache-copy";
const SERVED_FROM_NETWORK = "network";
const servedFrom = new Map();

// `response` with `body`, and the isolation headers where the server sent none.
function isolated(response, body) {
  const headers = new Headers(response.headers);
  if (!hasIsolationHeaders(headers)) {
    for (const [name, value] of ISOLATION_HEADERS) headers.set(name, value);
  }
  // The body is the decoded bytes now.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

// What `url` is kept and served as: the response itself, or a copy (`body`: its bytes, read from a
// clone) where a page or script needs the isolation headers the server did not send, or where it
// came through a redirect (which a page's navigation would refuse).
function storable(url, response, body) {
  const addHeaders = needsIsolationHeaders(url) && !hasIsolationHeaders(response.headers);
  return addHeaders || response.redirected ? isolated(response, body) : response;
}

// A fresh copy from the server, kept only if it is this build's file.
async function download(url) {
  const response = await fetch(absolute(url), { cache: "no-store" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const body = await response.clone().arrayBuffer();
  if (!(await isBuildFile(url, body))) throw new Error(`${url}: not the file of build ${MANIFEST.build}`);
  return storable(url, response, body);
}

// The cached copy of `url` when its bytes are still this build's; a copy that is not is removed.
// `serving`: the answer to a request (said in `servedFrom`), not a check.
async function verifiedFromCache(cache, url, serving = false) {
  const cached = await cache.match(absolute(url));
  if (!cached) return null;
  const body = await cached.clone().arrayBuffer();
  if (await isBuildFile(url, body)) {
    const served = storable(url, cached, body);
    if (serving) servedFrom.set(url, served === cached ? SERVED_AS_STORED : SERVED_AS_COPY);
    return served;
  }
  await cache.delete(absolute(url));
  return null;
}

// A runtime file as stored, unhashed: checked when it entered the cache and again by
// "cache-runtime" once Python is up (see the top of this file for why that is enough).
async function runtimeFromCache(cache, url) {
  const cached = await cache.match(absolute(url));
  if (cached) servedFrom.set(url, SERVED_AS_STORED);
  return cached ?? null;
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

// Every file of `urls` in `cache`, checked: a copy from an older build's cache only when its bytes
// are this build's (that cache's own manifest says which files to try, nothing more).
async function fill(cache, urls, reusable) {
  await Promise.all(urls.map(async (url) => {
    if (await verifiedFromCache(cache, url)) return;
    const older = reusable.get(url);
    if (older) {
      const body = await older.clone().arrayBuffer();
      if (await isBuildFile(url, body)) {
        await cache.put(absolute(url), storable(url, older, body));
        return;
      }
    }
    await cache.put(absolute(url), await download(url));
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

// The runtime into this build's cache, and every runtime file already there checked again (each
// is served unhashed): a damaged or replaced copy is thrown away and fetched again.
async function cacheRuntime() {
  const cache = await caches.open(CACHE_NAME);
  await fill(cache, MANIFEST.runtime, new Map());
}

// Older builds' caches go, their snapshots with them.
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
  } else if (type === "store-snapshot") {
    // From a page of the site only: a worker (where learner code runs) never stores one.
    if (!(event.source instanceof WindowClient)) return;
    event.waitUntil(storeSnapshot(event.data.snapshot, event.data.pyodideVersion).then(
      (bytes) => reply({ type: "snapshot-stored", bytes }),
      (error) => reply({ type: "snapshot-failed", message: String(error.message ?? error) }),
    ));
  } else if (type === "build") {
    event.ports[0]?.postMessage({ build: MANIFEST.build });
  } else if (type === "served") {
    event.ports[0]?.postMessage({ build: MANIFEST.build, served: Object.fromEntries(servedFrom) });
  } else if (type === "drop-snapshot") {
    event.waitUntil(dropSnapshots());
  } else if (type === "status") {
    event.waitUntil(caches.open(CACHE_NAME).then(runtimeIsCached).then(
      (complete) => reply({ type: complete ? "offline-ready" : "shell-ready" }),
    ));
  }
});

async function respond(request, url) {
  const cache = await caches.open(CACHE_NAME);
  const cached = runtime.has(url) ? await runtimeFromCache(cache, url) : await verifiedFromCache(cache, url, true);
  if (cached) return cached;
  // Not cached yet (a runtime file before "cache-runtime" finished) or thrown away above: from the
  // network, and kept when it is this build's file.
  servedFrom.set(url, SERVED_FROM_NETWORK);
  const response = await fetch(request);
  if (response.type !== "basic") return response;
  const body = await response.clone().arrayBuffer();
  const served = storable(url, response, body);
  if (!response.ok || !(await isBuildFile(url, body))) return served;
  await cache.put(absolute(url), served.clone());
  // The wasm of a start that got it from the network is compiled from the cache entry, so the code
  // Chromium keeps for it belongs to the entry the next page load is served.
  if (runtime.has(url)) return (await cache.match(absolute(url))) ?? served;
  return served;
}

function snapshotKeys(cache) {
  // Also the `__werkplaats_snapshot__/<version>` entries earlier versions of this file kept.
  return cache.keys().then((requests) => requests.filter((request) => request.url.startsWith(absolute(SNAPSHOT_PATH))));
}

async function dropSnapshots() {
  const cache = await caches.open(CACHE_NAME);
  for (const request of await snapshotKeys(cache)) await cache.delete(request);
}

async function storeSnapshot(bytes, pyodideVersion) {
  if (!(bytes instanceof ArrayBuffer) || bytes.byteLength === 0 || bytes.byteLength > SNAPSHOT_MAX_BYTES) {
    throw new Error("not a snapshot");
  }
  if (typeof pyodideVersion !== "string" || !/^[0-9A-Za-z.+-]{1,40}$/.test(pyodideVersion)) {
    throw new Error("no Pyodide version");
  }
  const digest = await sha256(bytes);
  await dropSnapshots(); // one per build
  const cache = await caches.open(CACHE_NAME);
  // One fixed URL: a page finds it with one `cache.match`, without listing the cache.
  await cache.put(absolute(SNAPSHOT_PATH), new Response(bytes, {
    headers: {
      "Content-Type": "application/octet-stream",
      [SNAPSHOT_DIGEST_HEADER]: digest,
      [SNAPSHOT_VERSION_HEADER]: pyodideVersion,
    },
  }));
  return bytes.byteLength;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = manifestUrl(request.url);
  if (url === null) return; // not part of the site: the network as usual
  event.respondWith(respond(request, url));
});
