// Warm start: the page's one Python worker starts when the learner shows they are about to use
// it, so the first Run or check does not wait for Pyodide. Intent is:
// - the editor comes into view for a moment (stacked layout: the learner scrolled to it);
//   side by side it is always in view, so there only the pointer resting on it counts;
// - focus inside the practice area (the editor, a check button);
// - pressing a control that leads there: "Naar de editor", "Laad in editor", a checkpoint marker.
// Never on a page that is only read, and never when the browser asks to save data (then Python
// starts on the first Run or check, as before). A page only read does cost, where this build has a
// stored snapshot, a prepared worker: Pyodide's compiled wasm and the snapshot's bytes in memory,
// no interpreter (see `prepare`, docs/architecture.md "Memory snapshot"). A Run or check during the start waits for the
// same `ready` (worker-client.js); the editor's status line says what is happening.
import { practiceBesideText } from "./practice-jump.js";
import { START_SNAPSHOT, START_SNAPSHOT_FAILED } from "./worker-client.js";

// Long enough that scrolling past the practice area on the way down is no intent.
export const IN_VIEW_MS = 1000;
const POINTER_REST_MS = 400;
const INTENT_CONTROLS = "[data-to-editor], [data-load-example], [data-checkpoint-marker]";

export const WARMING_TEXT = "Python wordt alvast geladen, zodat je code straks meteen draait…";
export const WARM_TEXT = "Python staat klaar.";
// The same, after a start from the memory snapshot an earlier page load kept (worker-client.js),
// and after one that could not be used.
export const WARM_SNAPSHOT_TEXT = "Python staat klaar (snel gestart uit de bewaarde kopie).";
export const WARM_FALLBACK_TEXT = "Python staat klaar (volledig gestart: de bewaarde kopie was niet bruikbaar).";

export function readyText(startKind) {
  if (startKind === START_SNAPSHOT) return WARM_SNAPSHOT_TEXT;
  if (startKind === START_SNAPSHOT_FAILED) return WARM_FALLBACK_TEXT;
  return WARM_TEXT;
}
export const WARM_FAILED_TEXT = "Python kon niet alvast geladen worden; Uitvoeren probeert het opnieuw.";

export function browserSavesData() {
  return navigator.connection?.saveData === true;
}

/**
 * Page module (see lesson.js).
 * @param {{root: ParentNode, python: import("./worker-client.js").PythonWorker, editor: object|null}} context
 */
export function initWarmStart({ root, python, editor }) {
  const practice = root.querySelector("main.lesson > .practice");
  if (!practice || !python || browserSavesData()) return null;
  // Where a snapshot of this build is stored, the worker gets the start ready without running
  // Python (worker-client.js `prepare`), so a click at once only restores.
  python.prepare?.();
  const cleanups = [];
  let started = false;

  const start = (reason) => {
    if (started) return;
    started = true;
    for (const cleanup of cleanups) cleanup();
    practice.dataset.warmStart = reason;
    // A Run's own status ("Je programma draait…", "Klaar.") is more to the point than ours.
    if (editor?.running) return;
    // Python may be up or starting already without the learner having asked: a background job
    // (the fingerprints of stored results, checkpoint-panel.js) starts it at page load. The status line
    // then says so all the same.
    if (python.state === "ready" || python.state === "busy") {
      editor?.setStatus(readyText(python.startKind));
      return;
    }
    const show = (state) => {
      // Once a Run is under way, this status is done (a later "ready", after a check or the
      // fingerprint job, must not overwrite the Run's "Klaar.").
      if (editor?.running) return state !== "loading";
      if (state === "loading") editor?.setStatus(WARMING_TEXT);
      else if (state === "ready") editor?.setStatus(readyText(python.startKind));
      else if (state === "failed") editor?.setStatus(WARM_FAILED_TEXT);
      return state === "ready" || state === "failed";
    };
    const stopFollowing = python.onStateChange((state) => {
      if (show(state)) stopFollowing();
    });
    // Not started yet: start it now (the listener above sees "loading"). A start under way: say so.
    if (python.state === "idle") python.ready.catch(() => {}); // the failure is shown above
    else if (show(python.state)) stopFollowing();
  };

  const listen = (target, type, handler, options) => {
    target.addEventListener(type, handler, options);
    cleanups.push(() => target.removeEventListener(type, handler, options));
  };

  listen(practice, "focusin", () => start("focus"));
  listen(root, "pointerdown", (event) => {
    if (event.target.closest?.(INTENT_CONTROLS)) start("control");
  }, { capture: true });
  listen(root, "keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target.closest?.(INTENT_CONTROLS)) start("control");
  }, { capture: true });

  let restTimer = null;
  listen(practice, "pointerenter", () => {
    restTimer = setTimeout(() => start("pointer"), POINTER_REST_MS);
  });
  listen(practice, "pointerleave", () => clearTimeout(restTimer));
  cleanups.push(() => clearTimeout(restTimer));

  if ("IntersectionObserver" in window) {
    let viewTimer = null;
    const observer = new IntersectionObserver((entries) => {
      const visible = entries.some((entry) => entry.isIntersecting);
      clearTimeout(viewTimer);
      // Beside the text the panel is always in view: that says nothing about the learner.
      if (visible && !practiceBesideText()) viewTimer = setTimeout(() => start("view"), IN_VIEW_MS);
    }, { threshold: 0.5 });
    // The code box itself, half of it: the heading of the panel under the end of the text is not yet
    // intent. Without an editor on the page, the practice area.
    observer.observe(practice.querySelector("[data-testid=editor]") ?? practice);
    cleanups.push(() => {
      observer.disconnect();
      clearTimeout(viewTimer);
    });
  }
  return { start };
}
