// How far a learner is with one lesson, from the results checkpoint-panel.js stored: the same rule as
// the lesson page's progress badge. A pass counts only when it was made with the lesson's current
// tests (the bundle hash) and on code whose part that checkpoint depends on is what the editor
// would show now (code-fingerprints.js); other passes are "eerder gehaald" and need a re-check.
import { resultIsCurrent } from "./code-fingerprints.js";

/**
 * @param {{entry: object|null, bundleSha256: string, checkpointIds: string[], current: object|null}} facts
 *   `entry`: the stored results (checkpoint-results.js) or null; `current`: {code, fingerprints}
 *   of the code the editor would show (code-fingerprints.js `resultIsCurrent`), or null when that
 *   cannot be told (then the code is not compared).
 * @returns {{passed: number, earlier: number, total: number}}
 */
export function lessonProgress({ entry, bundleSha256, checkpointIds, current }) {
  const progress = { passed: 0, earlier: 0, total: checkpointIds.length };
  if (!entry) return progress;
  const sameTests = entry.bundle_sha256 === bundleSha256;
  for (const id of checkpointIds) {
    const result = Object.prototype.hasOwnProperty.call(entry.results, id) ? entry.results[id] : null;
    if (!result || result.status !== "pass") continue;
    const counts = sameTests && !result.stale && (current === null || resultIsCurrent(result, id, current));
    if (counts) progress.passed += 1;
    else progress.earlier += 1;
  }
  return progress;
}

/** "2 van 3 checkpoints gehaald", and what needs a re-check. */
export function progressText({ passed, earlier, total }) {
  const checkpoints = total === 1 ? "checkpoint" : "checkpoints";
  const text = `${passed} van ${total} ${checkpoints} gehaald`;
  return earlier > 0 ? `${text} · ${earlier} eerder gehaald, controleer opnieuw` : text;
}
