// Entry point of the index page (assets/index-page.js; the index loads neither the editor nor
// Python): each lesson card shows the learner's progress from this browser's own storage.
// Every card carries what the stored results are compared with, rendered by the builder
// (builder/lesson_progress.py): the lesson id, its checkpoint ids, the hash of its current tests
// and the fingerprint of its starter code (what the editor shows when no code of the learner's is
// stored). Unreadable storage shows no progress at all; it never breaks the page.
import { codeFingerprint, loadStoredResults } from "./checkpoint-results.js";
import { loadCode } from "./code-storage.js";
import { lessonProgress, progressText } from "./lesson-progress.js";

// The code the lesson page's editor would open with: the learner's, else the starter code.
function editorCodeFingerprint(lessonId, starterFingerprint) {
  const { code } = loadCode(lessonId);
  if (code !== null) return codeFingerprint(code);
  return starterFingerprint || null;
}

function showProgress(element) {
  const { lesson, bundleSha256, checkpoints, starterFingerprint } = element.dataset;
  const { entry, problem } = loadStoredResults(lesson);
  if (problem === "unavailable") return; // no storage: nothing can be known, the card says nothing
  const progress = lessonProgress({
    entry, // null when absent or corrupted: nothing passed
    bundleSha256,
    checkpointIds: checkpoints.split(" ").filter(Boolean),
    codeFingerprint: editorCodeFingerprint(lesson, starterFingerprint),
  });
  element.querySelector("[data-progress-text]").textContent = progressText(progress);
  const bar = element.querySelector("[data-progress-bar]");
  if (bar) bar.style.width = `${(100 * progress.passed) / Math.max(progress.total, 1)}%`;
  element.dataset.passed = String(progress.passed);
  element.toggleAttribute("data-complete", progress.total > 0 && progress.passed === progress.total);
  element.hidden = false;
}

function start() {
  for (const element of document.querySelectorAll("[data-lesson-progress]")) {
    try {
      showProgress(element);
    } catch (error) {
      // One unreadable lesson must not cost the others their progress.
      console.error(error);
    }
  }
}

start();
