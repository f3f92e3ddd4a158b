// Entry point of a lesson page. Every page module is a function that receives the shared
// context {root, python, editor, lessonId} and wires itself only if its markup is on the page;
// to add one, import it and list it in PAGE_MODULES. Widgets are no page modules: widgets.js
// mounts each `[data-widget]` from its own bundle.
import { initCheckpoints } from "./checkpoints.js";
import { EditorPanel } from "./editor.js";
import { initExamples } from "./examples.js";
import { pageLessonId, positiveNumberSetting } from "./page-settings.js";
import { initPracticeJumps } from "./practice-jump.js";
import { initWidgets } from "./widgets.js";
import { getPythonWorker } from "./worker-client.js";

const PAGE_MODULES = [initExamples, initPracticeJumps, initWidgets, initCheckpoints];

const DEFAULT_TIME_LIMIT_SECONDS = 10;

// `?timeLimit=2` (tests) overrides the panel's data-time-limit (the page's setting).
function timeLimitSeconds(panel) {
  return positiveNumberSetting({
    urlParameter: "timeLimit",
    element: panel,
    attribute: "data-time-limit",
    fallback: DEFAULT_TIME_LIMIT_SECONDS,
  });
}

function start() {
  const panel = document.querySelector("[data-editor-panel]");
  const limit = timeLimitSeconds(panel);
  const python = getPythonWorker({ timeLimitSeconds: limit });
  const editor = panel ? new EditorPanel(panel, { python, lessonId: pageLessonId(), timeLimitSeconds: limit }) : null;
  const context = { root: document, python, editor, lessonId: pageLessonId() };
  // For tests and the browser console; page modules get the context passed in instead.
  window.werkplaats = context;
  for (const initModule of PAGE_MODULES) {
    try {
      initModule(context);
    } catch (error) {
      // One broken widget must not take the editor down with it.
      console.error(error);
    }
  }
}

start();
