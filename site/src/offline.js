// The page's side of the service worker (site/src/service-worker.js, written to _site/sw.js):
// registers it, asks it to keep Python for offline use once the page starts Python, and offers the
// reload when a newer build is ready. Used by lesson pages and the index.
//
// Under `build.py serve` nothing is registered (the live-reload script marks the page): while a
// teacher edits, every page must come fresh from the dev server. The dev server's own /sw.js
// removes a service worker that an earlier static serve on the same address left behind.

//
// It also keeps the Python memory snapshot for the next page load (pythonSnapshotStore), and on a
// server that sends no isolation headers it reloads the page once, when the service worker first
// takes over, so the page gets them from the service worker (isolateOnce).

export const UPDATE_TEXT = "Er is een nieuwere versie van de Werkplaats klaar.";
export const UPDATE_BUTTON_TEXT = "Nu vernieuwen";
export const ISOLATION_RELOAD_TEXT =
  "De pagina wordt één keer opnieuw geladen, zodat de Stop-knop en input() hier volledig werken. Je code blijft bewaard.";
// Remembers, for this tab, that the reload was made: it is never made twice.
const ISOLATION_RELOAD_KEY = "werkplaats-isolation-reload";
const ISOLATION_RELOAD_DELAY_MS = 1500;
// As in service-worker.js: this build's cache, and the snapshot's entry in it.
const CACHE_PREFIX = "werkplaats-";
const SNAPSHOT_URL = new URL("../__werkplaats_snapshot__", import.meta.url).href;
const SNAPSHOT_DIGEST_HEADER = "X-Werkplaats-SHA256";
const SNAPSHOT_VERSION_HEADER = "X-Werkplaats-Pyodide";
const BUILD_CACHE = /^werkplaats-[0-9a-f]+$/;
const BUILD_ANSWER_MS = 2000;
// Set once the service worker says it kept a snapshot, removed when a lookup finds none: lets the
// next page prepare its Python worker without waiting for that lookup (worker-client.js `prepare`).
const SNAPSHOT_KEPT_KEY = "werkplaats-python-snapshot-kept";
const RUNTIME_CHECK_DELAY_MS = 3000;

function setOfflineState(state) {
  document.documentElement.dataset.offline = state;
}

function rememberSnapshotKept(kept) {
  try {
    if (kept) localStorage.setItem(SNAPSHOT_KEPT_KEY, "1");
    else localStorage.removeItem(SNAPSHOT_KEPT_KEY);
  } catch {
    // no storage: every page looks the snapshot up before it prepares
  }
}

function serviceWorkerUsable() {
  return "serviceWorker" in navigator && !window.werkplaatsLiveReload;
}

/**
 * Where the page's Python worker keeps its memory snapshot between page loads: this build's cache
 * of the service worker (site/src/service-worker.js). Null where there is no service worker (or
 * under `build.py serve`, where every start is a full one).
 * @returns {import("./worker-client.js").SnapshotStore|null}
 */
export function pythonSnapshotStore() {
  if (!serviceWorkerUsable()) return null;
  return {
    async load() {
      // Only a page the service worker serves has a build (and a cache) to look in.
      const controller = navigator.serviceWorker.controller;
      if (!controller) return null;
      const cacheName = await buildCache(controller);
      if (cacheName === null) return null;
      const cache = await caches.open(cacheName);
      const response = await cache.match(SNAPSHOT_URL);
      if (!response) {
        rememberSnapshotKept(false);
        return null;
      }
      // The ~15 MB body goes to the worker as a Blob, a handle on the stored bytes: the worker
      // reads them, off this thread, while it loads Pyodide (worker-client.js).
      return {
        bytes: response.blob(),
        sha256: response.headers.get(SNAPSHOT_DIGEST_HEADER) ?? "",
        pyodideVersion: response.headers.get(SNAPSHOT_VERSION_HEADER) ?? "",
      };
    },
    store(bytes, pyodideVersion) {
      // The first visit: the service worker may still be installing; the snapshot waits for it.
      navigator.serviceWorker.ready.then((registration) => {
        const target = navigator.serviceWorker.controller ?? registration.active;
        target?.postMessage({ type: "store-snapshot", snapshot: bytes, pyodideVersion }, [bytes]);
      });
    },
    drop() {
      rememberSnapshotKept(false);
      navigator.serviceWorker.controller?.postMessage({ type: "drop-snapshot" });
    },
    likely() {
      try {
        return navigator.serviceWorker.controller !== null && localStorage.getItem(SNAPSHOT_KEPT_KEY) === "1";
      } catch {
        return false;
      }
    },
    // url -> how the service worker last served it ("cache": the stored response itself, which
    // keeps Chromium's wasm code cache; "cache-copy"; "network"), for the start's timeline.
    async served() {
      const controller = navigator.serviceWorker.controller;
      return controller ? (await askServiceWorker(controller, "served"))?.served ?? null : null;
    },
  };
}

// The service worker's answer to `type` on a MessageChannel (null when it does not answer at once).
function askServiceWorker(controller, type) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), BUILD_ANSWER_MS);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data ?? null);
    };
    controller.postMessage({ type }, [channel.port2]);
  });
}

// The cache of the build whose service worker serves this page, or null (no such cache, no
// answer). With one build's cache on the origin, as almost always, that is the one (the service
// worker names its cache by its build and removes older ones when it activates): no round trip to
// a service worker that is busy serving the page's files. With two (a newer build installing
// beside it), the service worker says which is its own.
async function buildCache(controller) {
  const names = (await caches.keys()).filter((name) => BUILD_CACHE.test(name));
  if (names.length === 1) return names[0];
  if (names.length === 0) {
    rememberSnapshotKept(false);
    return null;
  }
  const build = await askBuild(controller);
  if (build === null) return null;
  return names.includes(`${CACHE_PREFIX}${build}`) ? `${CACHE_PREFIX}${build}` : null;
}

// The build id of the service worker that serves this page (null when it does not answer at once).
async function askBuild(controller) {
  const build = (await askServiceWorker(controller, "build"))?.build;
  return typeof build === "string" && /^[0-9a-f]+$/.test(build) ? build : null;
}

function showIsolationNotice() {
  const notice = document.createElement("div");
  notice.className = "update-notice";
  notice.dataset.testid = "isolation-notice";
  notice.setAttribute("role", "status");
  const text = document.createElement("p");
  text.textContent = ISOLATION_RELOAD_TEXT;
  notice.append(text);
  document.body.prepend(notice);
}

// The server sent no isolation headers and this page came from it before the service worker took
// over: one reload, once the learner's program (if any) has ended, and the service worker serves
// the page with the headers. Never twice in a tab, so a browser that still refuses isolation (or a
// service worker of an older build) costs one reload at most.
function isolateOnce(python) {
  if (globalThis.crossOriginIsolated || navigator.serviceWorker.controller) return;
  try {
    if (sessionStorage.getItem(ISOLATION_RELOAD_KEY)) return;
    sessionStorage.setItem(ISOLATION_RELOAD_KEY, "1");
  } catch {
    return; // no session storage: no way to be sure the reload happens only once
  }
  showIsolationNotice();
  const reloadWhenFree = () => {
    if (python && (python.state === "busy" || python.state === "loading")) {
      const stop = python.onStateChange((state) => {
        if (state === "busy" || state === "loading") return;
        stop();
        window.location.reload();
      });
    } else {
      window.location.reload();
    }
  };
  setTimeout(reloadWhenFree, ISOLATION_RELOAD_DELAY_MS);
}

function showUpdateNotice(waiting) {
  if (document.querySelector("[data-update-notice]")) return;
  const notice = document.createElement("div");
  notice.className = "update-notice";
  notice.dataset.updateNotice = "";
  notice.dataset.testid = "update-notice";
  notice.setAttribute("role", "status");
  const text = document.createElement("p");
  text.textContent = `${UPDATE_TEXT} Je code en resultaten blijven bewaard.`;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "wp-button";
  button.dataset.testid = "update-reload";
  button.textContent = UPDATE_BUTTON_TEXT;
  button.addEventListener("click", () => {
    button.disabled = true;
    waiting.postMessage({ type: "activate" });
  });
  notice.append(text, button);
  document.body.prepend(notice);
}

function watchForUpdates(registration) {
  const offer = (worker) => {
    // Without a controller this is the first install, not an update: nothing to reload.
    if (worker && navigator.serviceWorker.controller) showUpdateNotice(worker);
  };
  if (registration.waiting) offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed") offer(installing);
    });
  });
}

/**
 * @param {{python?: import("./worker-client.js").PythonWorker|null}} options
 * @returns {Promise<ServiceWorkerRegistration|null>}
 */
export async function initOffline({ python = null } = {}) {
  if (!serviceWorkerUsable()) return null;
  const container = navigator.serviceWorker;
  const controlled = container.controller !== null;
  // A newer build took over (here or in another tab): this page belongs to the old one, so load
  // the new one rather than mix an old page with new files. Code and results are in storage.
  container.addEventListener("controllerchange", () => {
    if (controlled) window.location.reload();
  });
  container.addEventListener("message", (event) => {
    const { type } = event.data ?? {};
    if (type === "offline-ready") setOfflineState("ready");
    else if (type === "shell-ready") setOfflineState("shell");
    else if (type === "offline-failed") setOfflineState("failed");
    else if (type === "snapshot-stored") {
      document.documentElement.dataset.pythonSnapshot = "stored";
      rememberSnapshotKept(true);
    }
    else if (type === "snapshot-failed") document.documentElement.dataset.pythonSnapshot = "failed";
  });
  let registration;
  try {
    registration = await container.register(new URL("../sw.js", import.meta.url).href);
  } catch (error) {
    console.warn("no offline copy:", error);
    return null;
  }
  if (!registration) return null; // service workers switched off (a browser policy, a test)
  watchForUpdates(registration);
  const active = (await container.ready).active;
  active?.postMessage({ type: "status" });
  isolateOnce(python);
  if (python) {
    // Python starts (on intent, warm-start.js): from now on keep Pyodide too, for the next visit.
    // Asked a few seconds after the start began, not at once: the service worker then also checks
    // every runtime file it already holds (it serves them unhashed, service-worker.js), and that
    // hashing (~14 MB) should not compete with a start from the snapshot and the learner's first
    // check. Asked whether the start succeeds or not: a damaged wasm fails (or stalls) this start,
    // and is replaced for the next page load.
    const askForRuntime = () => setTimeout(
      () => (container.controller ?? active)?.postMessage({ type: "cache-runtime" }), RUNTIME_CHECK_DELAY_MS);
    if (python.state !== "idle") askForRuntime();
    else {
      const stop = python.onStateChange((state) => {
        if (state === "idle") return;
        stop();
        askForRuntime();
      });
    }
  }
  return registration;
}
