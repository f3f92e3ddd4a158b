// Running a check in the page's one Pyodide worker (runner/core/web.py, through runner-client.js):
// loading the lesson's tests, the packages the code imports, grading one checkpoint, the
// per-checkpoint fingerprints; the Dutch result when something other than the tests stops a check;
// and the result as it is stored (checkpoint-results.js keeps it).
import { codeFingerprint } from "./checkpoint-results.js";
import { packageErrorMessage } from "./editor.js";
import { webSnippet } from "./runner-client.js";

const WARM_SNIPPET = webSnippet(`web.bundle_for(args["lesson_dir"]).bundle_sha256`);
const CHECK_SNIPPET = webSnippet(`web.check(args["code"], args["lesson_dir"], args["only"])`);
const FINGERPRINTS_SNIPPET = webSnippet(`web.fingerprints(args["code"], args["lesson_dir"])`);
const LOAD_AHEAD_SNIPPET = webSnippet(`web.load_ahead(args["code"], args["lesson_dir"], args["only"])`);
// runner/core/messages.py timeout_at_load, for a page whose worker was replaced (no isolation).
const TIMEOUT_AT_LOAD = "Je code werd niet binnen de tijdslimiet geladen (een oneindige lus?). Er is nog niets getest.";

// A check that ends before the tests ran (or could say more), with `message` for the learner.
export function problemResult(message) {
  return { status: "error", passed: 0, total: 0, before_tests: true, message, visible: false, expected: null, actual: null };
}

export function setupProblemResult(setupProblem) {
  return problemResult(`Controleren lukt nu niet: ${setupProblem}.`);
}

// Unpacks the lesson's tests in the worker ahead of the first check (a worker setup step):
// null, or what went wrong, to end "Controleren lukt nu niet: …".
export async function warmTests(evaluate, args) {
  try {
    await evaluate(WARM_SNIPPET, { args });
    return null;
  } catch (error) {
    return `de checkpoint-tests konden niet geladen worden (${error.message ?? error})`;
  }
}

// Packages the code imports (numpy) must be loaded before the tests import main.py: null, or the
// result that says which could not be loaded.
export async function importProblem(python, code) {
  try {
    const { packages } = await python.call("load-imports", { code });
    if (packages.length === 0) return null;
    return problemResult(packages.map(packageErrorMessage).join(" "));
  } catch (error) {
    return problemResult(`Python kon niet starten (${error.message ?? error}).`);
  }
}

// The result of checkpoint `id` over `args` (runner-client.js webArgs with code and only), or
// null when the editor's Stop ended it: in the worker (an interrupt Python caught, `status`
// "stopped") or by replacing the worker (`kind` "stopped").
export async function gradeCheckpoint(python, id, { args, timeLimitSeconds }) {
  try {
    const value = await python.evaluate(CHECK_SNIPPET, { args, timeLimitSeconds });
    if (value.status === "stopped") return null;
    return value.checkpoints[0];
  } catch (error) {
    if (error.kind === "timeout") {
      return { ...problemResult(`${id} was niet binnen de tijdslimiet klaar (een oneindige lus?).`), status: "timeout", before_tests: false };
    }
    if (error.kind === "stopped") return null;
    return problemResult(`De controle zelf liep vast (${error.message ?? error}); meld dit aan je docent.`);
  }
}

// Before a batch of checks, the code is loaded once under the longest of their limits: code that
// loops while it loads would otherwise wait out a limit per checkpoint (and, without isolation,
// start Python anew each time). A Map of checkpoint id -> result (null: stopped) for each
// checkpoint that needs no check of its own; empty when the code loaded, so each check runs.
export async function loadAhead(python, ids, { args, timeLimitSeconds }) {
  const forAll = (result) => new Map(ids.map((id) => [id, result]));
  try {
    const value = await python.evaluate(LOAD_AHEAD_SNIPPET, { args, timeLimitSeconds });
    if (value.status === "stopped") return forAll(null);
    if (value.status === "timeout") return new Map(value.checkpoints.map((result) => [result.id, result]));
    return new Map();
  } catch (error) {
    if (error.kind === "stopped") return forAll(null);
    if (error.kind === "timeout") return forAll({ ...problemResult(TIMEOUT_AT_LOAD), status: "timeout" });
    return new Map(); // anything else: each check runs and says what went wrong
  }
}

// {checkpoint id: fingerprint} of the code in `args` (runner/core/fingerprint.py); null when
// Python cannot say (not loaded, stopped).
export async function computeFingerprints(python, args) {
  try {
    // Background work: the editor's Stop leaves it alone (worker-client.js interrupt).
    return await python.evaluate(FINGERPRINTS_SNIPPET, { args, background: true });
  } catch {
    return null;
  }
}

// A checkpoint's result as it is stored: of `code`, and (`fingerprint`) of the part of the code the
// checkpoint depends on, so a later edit elsewhere keeps it.
export function resultToStore(result, code, fingerprint) {
  const stored = {
    status: result.status,
    passed: result.passed,
    total: result.total,
    before_tests: result.before_tests,
    message: result.message,
    visible: result.visible === true,
    expected: result.expected ?? null,
    actual: result.actual ?? null,
    // A checkpoint this one uses fails too (runner/core/web.py): the cause may be there.
    note: typeof result.note === "string" ? result.note : "",
    code: codeFingerprint(code),
    stale: false,
  };
  if (typeof fingerprint === "string") stored.fingerprint = fingerprint;
  return stored;
}
