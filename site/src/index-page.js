// Entry point of the index page (assets/index-page.js; the index loads neither the editor nor
// Python): each lesson card shows the learner's progress from this browser's own storage.
// Every card carries what the stored results are compared with, rendered by the builder
// (builder/lesson_progress.py): the lesson id, its checkpoint ids, the hash of its current tests
// and the fingerprints of its starter code (what the editor shows when no code of the learner's is
// stored): of the whole file and per checkpoint. Unreadable storage shows no progress at all; it
// never breaks the page.
import { codeFingerprint, loadStoredResults } from "./checkpoint-results.js";
import { currentVerdicts, loadCodeFingerprints } from "./code-fingerprints.js";
import { loadCode } from "./code-storage.js";
import {
  buildModuleSubmission, download, loadLearnerName, saveLearnerName, submissionFileName,
} from "./export.js";
import { lessonProgress, progressText } from "./lesson-progress.js";
import { initOffline } from "./offline.js";

function starterFingerprints(element) {
  try {
    const value = JSON.parse(element.dataset.starterFingerprints ?? "null");
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

// The fingerprints of the code the lesson page's editor would open with: the learner's stored
// code (per checkpoint when the lesson page stored them for exactly that code), else the starter
// code's, which the builder wrote on the card. Null: nothing to compare with.
function editorCode(element) {
  const { lesson, starterFingerprint } = element.dataset;
  const { code } = loadCode(lesson);
  if (code !== null) return { code: codeFingerprint(code), fingerprints: loadCodeFingerprints(lesson, code) };
  if (!starterFingerprint) return null;
  return { code: starterFingerprint, fingerprints: starterFingerprints(element) };
}

function showProgress(element) {
  const { lesson, bundleSha256, checkpoints } = element.dataset;
  const { entry, problem } = loadStoredResults(lesson);
  if (problem === "unavailable") return; // no storage: nothing can be known, the card says nothing
  const progress = lessonProgress({
    entry, // null when absent or corrupted: nothing passed
    bundleSha256,
    checkpointIds: checkpoints.split(" ").filter(Boolean),
    current: editorCode(element),
  });
  element.querySelector("[data-progress-text]").textContent = progressText(progress);
  const bar = element.querySelector("[data-progress-bar]");
  if (bar) bar.style.width = `${(100 * progress.passed) / Math.max(progress.total, 1)}%`;
  element.dataset.passed = String(progress.passed);
  element.toggleAttribute("data-complete", progress.total > 0 && progress.passed === progress.total);
  element.hidden = false;
}

// A lesson's part of the module export: its stored code (none: not started here, left out) and
// the verdicts the lesson page shows for that code with the current tests.
function lessonWork(element) {
  const { lesson, bundleSha256, checkpoints } = element.dataset;
  const { code } = loadCode(lesson);
  if (code === null) return null;
  const { entry } = loadStoredResults(lesson);
  const verdicts = entry && entry.bundle_sha256 === bundleSha256
    ? currentVerdicts(entry.results, checkpoints.split(" ").filter(Boolean), editorCode(element))
    : {};
  return { lesson, code, bundle_sha256: bundleSha256, verdicts };
}

// "Download al je werk": one file with every lesson of the module, for the teacher's grader.
function initModuleExport(form) {
  const section = form.closest("[data-module]");
  const nameField = form.querySelector("[data-learner-name]");
  const message = form.querySelector("[data-export-message]");
  nameField.value = loadLearnerName();
  nameField.addEventListener("input", () => {
    nameField.removeAttribute("aria-invalid");
    saveLearnerName(nameField.value.trim());
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const learner = nameField.value.trim();
    if (!learner) {
      nameField.setAttribute("aria-invalid", "true");
      message.textContent = "Vul eerst je naam in: die komt in het bestand voor je docent.";
      nameField.focus();
      return;
    }
    saveLearnerName(learner);
    const lessons = [...section.querySelectorAll("[data-lesson-progress]")].map(lessonWork).filter(Boolean);
    if (lessons.length === 0) {
      message.textContent = "Je hebt in deze browser nog geen code geschreven voor de lessen van deze module.";
      return;
    }
    const module = section.dataset.module;
    const fileName = submissionFileName(module, learner);
    download(fileName, `${JSON.stringify(buildModuleSubmission({ module, learner, lessons }), null, 2)}\n`);
    const count = `${lessons.length} ${lessons.length === 1 ? "les" : "lessen"}`;
    message.textContent = `Opgeslagen als ${fileName}, met je werk van ${count}.`;
  });
}

function start() {
  for (const form of document.querySelectorAll("[data-module-export]")) initModuleExport(form);
  for (const element of document.querySelectorAll("[data-lesson-progress]")) {
    try {
      showProgress(element);
    } catch (error) {
      // One unreadable lesson must not cost the others their progress.
      console.error(error);
    }
  }
  initOffline();
}

start();
