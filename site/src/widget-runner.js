// The one way a widget runs Python: a call of one function, through runner/core/web.py `call`
// in the page's Pyodide worker, with the same plain values and the same Dutch messages as
// grading. The function is the learner's (the editor's main.py), the lesson's reference
// solution (solution.py from the checkpoint archive), or one in the widget's own Python source.
// Widgets get a WidgetRunner as `context.runner` (see mount-widgets.js).
import { LOADING_PYTHON, packageErrorMessage } from "./editor.js";
import { callReply, stringifyPlain } from "./python-values.js";
import { lessonArchive, webArgs, webSnippet } from "./runner-client.js";

// Without a page limit (the worker's, from the lesson's run_seconds): the default run limit.
const DEFAULT_TIME_LIMIT_SECONDS = 10;
// Through the page's one client of runner.core.web (runner-client.js), as the checkpoint panel.
const CALL_SNIPPET = webSnippet(`web.call_for_page(args["request"])`);

/**
 * @typedef {object} CallReply
 * @property {"returned"|"raised"|"load-error"|"no-function"|"timeout"|"stopped"|"error"} status
 * @property {*} value       the return value, decoded (python-values.js), when returned
 * @property {{type: string, isValueError: boolean, message: string, line: number|null}|null} error
 *   the exception (raised, load-error)
 * @property {string} message  Dutch, as grading says it ("" when returned)
 * @property {string} stdout   what the code printed
 */

export class WidgetRunner {
  /**
   * @param {{python: import("./worker-client.js").PythonWorker|null, editor: object|null,
   *          metaUrl: string}} services
   */
  constructor({ python, editor, metaUrl }) {
    this.python = python;
    this.editor = editor;
    this.metaUrl = metaUrl;
  }

  /** A call's time limit unless it asks for another: the page's run limit (the lesson's run_seconds). */
  get timeLimitSeconds() {
    return this.python?.timeLimitSeconds ?? DEFAULT_TIME_LIMIT_SECONDS;
  }

  /** The editor's code, or null on a page without an editor. */
  learnerCode() {
    return this.editor && typeof this.editor.getCode === "function" ? this.editor.getCode() : null;
  }

  /** Whether `code` (default: the editor's) defines a top-level function `name`. */
  definesFunction(name, code = this.learnerCode()) {
    if (code === null) return false;
    const escaped = name.replace(/[^A-Za-z0-9_]/g, "");
    return new RegExp(`^(async\\s+)?def\\s+${escaped}\\s*\\(`, "m").test(code);
  }

  /** `listener(code)` after every change of the editor's code. */
  onCodeChange(listener) {
    this.editor?.onChange?.(listener);
  }

  /** What to show while Python still has to start, or null when it is running. */
  loadingText() {
    const state = this.python && this.python.state;
    return state === "ready" || state === "busy" ? null : LOADING_PYTHON;
  }

  /** Call the learner's `functionName(...args)` in the editor's current code. */
  callLearner(functionName, args = [], options = {}) {
    const source = this.learnerCode();
    if (source === null) {
      return Promise.resolve(failure("error", "Er is geen editor op deze pagina."));
    }
    return this.call({ source, function: functionName, args, kwargs: options.kwargs ?? {} },
      { ...options, loadImports: true });
  }

  /** Call `functionName` of the lesson's reference solution (checkpoints/<id>/solution.py). */
  callReference(functionName, args = [], options = {}) {
    return this.call({ source: null, function: functionName, args, kwargs: options.kwargs ?? {} }, options);
  }

  /** Call `functionName` in a widget's own Python source (imported as text by its widget.js). */
  callModule(source, functionName, args = [], options = {}) {
    return this.call({ source, filename: "widget.py", function: functionName, args, kwargs: options.kwargs ?? {} },
      options);
  }

  /** @returns {Promise<CallReply>} */
  async call(request, { timeLimitSeconds = this.timeLimitSeconds, onStatus, loadImports = false } = {}) {
    if (this.python === null) return failure("error", "Python is niet beschikbaar op deze pagina.");
    const archive = await lessonArchive(this.python, this.metaUrl);
    let envelope;
    try {
      await this.python.ready;
      if (archive.problem) return failure("error", `Python-code draaien lukt nu niet: ${archive.problem}.`);
      // As for a check: the packages the learner's code imports (numpy) load before it runs.
      if (loadImports) {
        const { packages } = await this.python.call("load-imports", { code: request.source });
        if (packages.length > 0) return failure("error", packages.map(packageErrorMessage).join(" "));
      }
      envelope = await this.python.evaluate(CALL_SNIPPET, {
        args: webArgs(archive, { request: stringifyPlain({ ...request, lesson_dir: archive.lessonDir }) }),
        timeLimitSeconds,
        onStatus,
      });
    } catch (error) {
      const kind = error && error.kind;
      if (kind === "timeout") return failure("timeout", `Gestopt na ${timeLimitSeconds} seconden.`);
      if (kind === "stopped" || kind === "interrupted") return failure("stopped", "Gestopt.");
      return failure("error", String((error && error.message) || error));
    }
    // The page stopped the code: the worker client says whether by its time limit or by Stop.
    if (envelope.status === "stopped") return failure("stopped", "Gestopt.");
    return callReply(envelope.reply);
  }
}

function failure(status, message) {
  return { status, value: null, error: null, message, stdout: "" };
}
