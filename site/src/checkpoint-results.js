// The learner's checkpoint results per lesson in localStorage, as checkpoint-panel.js keeps them
// and the index page (index-page.js) reads them. Storage may be full, disabled or hold junk from an
// older version: none of that may break a page, so every failure is "no results".
//
// Entry: {version, bundle_sha256, results: {<checkpoint id>: result}}; `bundle_sha256` is the hash
// of the tests the results were made with (meta.json's), a result's `code` the fingerprint of the
// code it checked (codeFingerprint) and `fingerprint` that of the part of it the checkpoint
// depends on (runner/core/fingerprint.py; absent in results of older versions): code-fingerprints.js.

const VERDICTS = new Set(["pass", "fail", "error", "timeout"]);
const STORAGE_VERSION = 1;

export function resultsStorageKey(lessonId) {
  return `werkplaats:${lessonId}:checkpoints`;
}

// A short fingerprint of the code a result belongs to (FNV-1a, 32 bits, over UTF-16 code units):
// enough to tell whether the editor still holds the code that was checked. The builder computes
// the same for a lesson's starter code (builder/lesson_progress.py).
export function codeFingerprint(code) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < code.length; index += 1) {
    hash ^= code.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${code.length}:${hash.toString(16)}`;
}

const isText = (value) => typeof value === "string";
const isCount = (value) => Number.isInteger(value) && value >= 0;

function validStoredResult(result) {
  return result !== null && typeof result === "object"
    && VERDICTS.has(result.status) && isCount(result.passed) && isCount(result.total)
    && isText(result.message) && typeof result.before_tests === "boolean"
    && (result.expected === null || isText(result.expected))
    && (result.actual === null || isText(result.actual))
    && (result.note === undefined || isText(result.note))
    && isText(result.code) && (result.fingerprint === undefined || isText(result.fingerprint))
    && typeof result.stale === "boolean";
}

// {entry} when usable, {entry: null, problem} when unreadable, {entry: null} when absent.
export function loadStoredResults(lessonId) {
  let raw;
  try {
    raw = window.localStorage.getItem(resultsStorageKey(lessonId));
  } catch {
    return { entry: null, problem: "unavailable" };
  }
  if (raw === null) return { entry: null };
  try {
    const entry = JSON.parse(raw);
    if (entry && entry.version === STORAGE_VERSION && isText(entry.bundle_sha256)
        && entry.results && typeof entry.results === "object" && !Array.isArray(entry.results)
        && Object.values(entry.results).every(validStoredResult)) {
      return { entry };
    }
  } catch {
    // unreadable: reported below
  }
  return { entry: null, problem: "corrupted" };
}

// `results`: {<checkpoint id>: result}, made with the tests whose hash is `bundleSha256`.
export function saveStoredResults(lessonId, bundleSha256, results) {
  try {
    const entry = { version: STORAGE_VERSION, bundle_sha256: bundleSha256, results };
    window.localStorage.setItem(resultsStorageKey(lessonId), JSON.stringify(entry));
  } catch {
    // Full or disabled storage: the results just do not survive a reload.
  }
}
