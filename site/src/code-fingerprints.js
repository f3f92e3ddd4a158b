// Whether a stored checkpoint result still belongs to the code the editor holds. A result keeps
// two fingerprints of the code it graded (checkpoint-results.js): `code`, of the whole file
// (codeFingerprint), and `fingerprint`, of the part of it the checkpoint depends on: its function
// and what that reaches (runner/core/fingerprint.py, computed by Python in the page's worker).
// A result is current when the whole file is unchanged, or when its checkpoint's part is: editing
// another function or adding an example below keeps a pass. The lesson page, the index page and
// both exports decide with `resultIsCurrent`, so they always agree.
//
// The per-checkpoint fingerprints of the editor's code are kept in localStorage next to the code,
// tagged with the whole-file fingerprint they were computed for, so the index page (which has no
// Python) can use them; for code they were not computed for, only the whole-file rule applies.
import { codeFingerprint } from "./checkpoint-results.js";

const STORAGE_VERSION = 1;

export function fingerprintsStorageKey(lessonId) {
  return `werkplaats:${lessonId}:fingerprints`;
}

function validFingerprints(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    && Object.values(value).every((item) => typeof item === "string");
}

// {checkpoint id: fingerprint} of exactly `code`, or null when none are stored for it.
export function loadCodeFingerprints(lessonId, code) {
  try {
    const raw = window.localStorage.getItem(fingerprintsStorageKey(lessonId));
    if (raw === null) return null;
    const entry = JSON.parse(raw);
    if (entry && entry.version === STORAGE_VERSION && entry.code === codeFingerprint(code)
        && validFingerprints(entry.fingerprints)) {
      return entry.fingerprints;
    }
  } catch {
    // unreadable or no storage: as if none were stored
  }
  return null;
}

export function saveCodeFingerprints(lessonId, code, fingerprints) {
  try {
    const entry = { version: STORAGE_VERSION, code: codeFingerprint(code), fingerprints };
    window.localStorage.setItem(fingerprintsStorageKey(lessonId), JSON.stringify(entry));
  } catch {
    // Full or disabled storage: the index page then compares whole files only.
  }
}

/**
 * @param {object} result a stored result (checkpoint-results.js)
 * @param {string} id its checkpoint
 * @param {{code: string, fingerprints: object|null}} current the whole-file fingerprint of the
 *   editor's code and its per-checkpoint fingerprints (null: not known for this code)
 */
export function resultIsCurrent(result, id, { code, fingerprints }) {
  if (result.code === code) return true;
  if (!fingerprints || typeof result.fingerprint !== "string") return false;
  return Object.prototype.hasOwnProperty.call(fingerprints, id) && result.fingerprint === fingerprints[id];
}

// The verdicts an export carries: results made with the current tests on code that is current.
export function currentVerdicts(entryResults, checkpointIds, current) {
  const verdicts = {};
  for (const id of checkpointIds) {
    const result = Object.prototype.hasOwnProperty.call(entryResults, id) ? entryResults[id] : null;
    if (result && !result.stale && resultIsCurrent(result, id, current)) verdicts[id] = result.status;
  }
  return verdicts;
}
