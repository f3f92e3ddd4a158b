// The page's side of the service worker (site/src/service-worker.js, written to _site/sw.js):
// registers it, asks it to keep Python for offline use once the page starts Python, and offers the
// reload when a newer build is ready. Used by lesson pages and the index.
//
// Under `build.py serve` nothing is registered (the live-reload script marks the page): while a
// teacher edits, every page must come fresh from the dev server. The dev server's own /sw.js
// removes a service worker that an earlier static serve on the same address left behind.

export const UPDATE_TEXT = "Er is een nieuwere versie van de Werkplaats klaar.";
export const UPDATE_BUTTON_TEXT = "Nu vernieuwen";

function setOfflineState(state) {
  document.documentElement.dataset.offline = state;
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
  if (!("serviceWorker" in navigator) || window.werkplaatsLiveReload) return null;
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
  });
  let registration;
  try {
    registration = await container.register(new URL("../sw.js", import.meta.url).href);
  } catch (error) {
    console.warn("no offline copy:", error);
    return null;
  }
  watchForUpdates(registration);
  const active = (await container.ready).active;
  active?.postMessage({ type: "status" });
  if (python) {
    // Python starts (on intent, warm-start.js): from now on keep Pyodide too, for the next visit.
    const askForRuntime = () => (container.controller ?? active)?.postMessage({ type: "cache-runtime" });
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
