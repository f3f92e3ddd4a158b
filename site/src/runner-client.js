// The page's one client of runner/core/web.py: how any code in the page runs a function of the
// grading core in the Pyodide worker. One set-up for every caller (the checkpoint panel,
// checkpoint-panel.js, and the widgets' WidgetRunner, widget-runner.js): the lesson's checkpoint archive
// unpacked once (lesson-archive.js), the unpacked runner made importable, and the same two
// arguments, `root` and `lesson_dir`, in every call.
import { PYTHON_ROOT, lessonArchive } from "./lesson-archive.js";

// Makes the unpacked runner importable as `web`; a snippet then ends with the expression whose
// value `evaluate` returns.
const IMPORT_RUNNER = String.raw`
import sys
if args["root"] not in sys.path:
    sys.path.insert(0, args["root"])
from runner.core import web
`;

/**
 * Python for the worker's `evaluate` that returns `expression`, an expression over `web`
 * (runner.core.web) and `args`, e.g. `web.check(args["code"], args["lesson_dir"], args["only"])`.
 * @param {string} expression
 */
export function webSnippet(expression) {
  return `${IMPORT_RUNNER}${expression}\n`;
}

/**
 * The arguments every web snippet gets, plus `extra`: where the runner is unpacked (`root`) and
 * the lesson's folder in the archive (`lesson_dir`).
 * @param {{lessonDir: string}} archive  what lessonArchive resolves with
 */
export function webArgs(archive, extra = {}) {
  return { root: PYTHON_ROOT, lesson_dir: archive.lessonDir, ...extra };
}

export { lessonArchive };
