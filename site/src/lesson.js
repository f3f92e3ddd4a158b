// Entry point of a lesson page. Every page module is a function that receives the shared
// context {root, python, editor, lessonId} and wires itself only if its markup is on the page;
// to add one, import it and list it in PAGE_MODULES. Widgets are no page modules: mount-widgets.js
// mounts each `[data-widget]` from its own bundle.
import { initCheckpoints } from "./checkpoint-panel.js";
import { EditorPanel } from "./editor.js";
import { initExamples } from "./examples.js";
import { initOffline, pythonSnapshotStore } from "./offline.js";
import { pageLessonId, positiveNumberSetting } from "./page-settings.js";
import { initPracticeJumps } from "./practice-jump.js";
import { initScrollRegions } from "./scroll-regions.js";
import { initSolutionConfirmation } from "./solution-confirmation.js";
import { initWarmStart } from "./warm-start.js";
import { initWidgets } from "./mount-widgets.js";
import { getPythonWorker } from "./worker-client.js";

const PAGE_MODULES = [
  initScrollRegions, initExamples, initPracticeJumps, initWidgets, initSolutionConfirmation, initCheckpoints, initWarmStart,
];

const DEFAULT_TIME_LIMIT_SECONDS = 10;

// `?timeLimit=2` (tests) overrides the panel's data-time-limit (the lesson's `run_seconds`).
function timeLimitSeconds(panel) {
  return positiveNumberSetting({
    urlParameter: "timeLimit",
    element: panel,
    attribute: "data-time-limit",
    fallback: DEFAULT_TIME_LIMIT_SECONDS,
  });
}

// The lesson's `browser_packages` (checkpoints.toml), loaded on every (re)start of the worker
// before anything runs. A failed download does not stop the page: a Run that imports the package
// then names it in Dutch (editor.js packageErrorMessage).
function preloadLessonPackages(python) {
  const packages = document.querySelector("main[data-browser-packages]")?.dataset.browserPackages.split(" ") ?? [];
  if (packages.length === 0) return;
  python.addSetup(async ({ call }) => {
    try {
      const { packages: failures } = await call("load-packages", { packages });
      for (const failure of failures) console.warn(`package ${failure.name} did not load: ${failure.reason}`);
    } catch (error) {
      console.warn(error);
    }
  });
}

function start() {
  const panel = document.querySelector("[data-editor-panel]");
  const limit = timeLimitSeconds(panel);
  const python = getPythonWorker({ timeLimitSeconds: limit, snapshots: pythonSnapshotStore() });
  preloadLessonPackages(python);
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
  initOffline({ python });
}

start();
