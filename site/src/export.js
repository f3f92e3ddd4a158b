// "Download inzending": the learner's code and the browser's verdicts as a submission file in the
// offline runner's format (docs/grading.md, runner/offline/grading/submission.py), so the teacher can grade it
// with `python -m runner grade`. The learner's name is asked once, in the page, and remembered.

const NAME_STORAGE_KEY = "werkplaats:learner-name";
const MAX_NAME_CHARS = 100; // runner/offline/grading/submission.py refuses longer names

export function loadLearnerName() {
  try {
    const name = window.localStorage.getItem(NAME_STORAGE_KEY);
    return typeof name === "string" ? name.slice(0, MAX_NAME_CHARS) : "";
  } catch {
    return "";
  }
}

export function saveLearnerName(name) {
  try {
    window.localStorage.setItem(NAME_STORAGE_KEY, name);
  } catch {
    // Storage disabled or full: the name is simply asked again next time.
  }
}

// The submission object. `verdicts` maps checkpoint id -> pass|fail|error|timeout and holds only
// checks made on exactly this code with the current tests.
export function buildSubmission({ lesson, learner, code, meta, verdicts, now = new Date() }) {
  return {
    lesson,
    learner,
    code,
    lesson_revision: meta.lesson_revision,
    bundle_sha256: meta.bundle_sha256,
    runner_version: meta.runner_version,
    created_at: now.toISOString(),
    browser_verdicts: verdicts,
  };
}

// All of a learner's work in one module as one file (docs/grading.md, "Module export"): per
// lesson the code this browser holds and the verdicts it showed on exactly that code with the
// current tests. `lessons`: [{lesson, code, bundle_sha256, verdicts}]; lessons without code are
// left out by the caller.
export function buildModuleSubmission({ module, learner, lessons, now = new Date() }) {
  return {
    module,
    learner,
    created_at: now.toISOString(),
    lessons: lessons.map(({ lesson, code, bundle_sha256: bundle, verdicts }) => ({
      lesson,
      code,
      bundle_sha256: bundle,
      browser_verdicts: verdicts,
    })),
  };
}

// A file name a learner recognises: "woorden-01-anna-de-vries.json" (a module id works as well).
export function submissionFileName(lesson, learner) {
  const slug = learner
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `${lesson}-${slug || "inzending"}.json`;
}

export function download(fileName, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Wires the name field and the export button. `collect()` resolves with {lesson, code, meta, verdicts,
// unchecked} or null while the lesson's checkpoint data is not there yet; `checkAll()` checks
// every checkpoint and resolves when done.
export function initExport(root, { collect, checkAll }) {
  const nameField = root.querySelector("[data-testid=learner-name]");
  const button = root.querySelector("[data-testid=export]");
  const message = root.querySelector("[data-export-message]");
  if (!nameField || !button) return;
  nameField.value = loadLearnerName();
  const say = (text) => {
    if (message) message.textContent = text;
  };
  // Checking from the message: afterwards the next download carries the verdicts.
  const offerCheck = () => {
    if (!message) return;
    const checkNow = document.createElement("button");
    checkNow.type = "button";
    checkNow.className = "wp-button hand-in__check";
    checkNow.dataset.testid = "export-check";
    checkNow.textContent = "Controleer nu alle checkpoints";
    checkNow.addEventListener("click", async () => {
      say("Bezig met controleren…");
      try {
        await checkAll();
      } catch {
        say("Het controleren lukte niet. Probeer het nog eens met de knoppen bij de checkpoints.");
        return;
      }
      say("Klaar met controleren. Download je inzending opnieuw: dan zit de uitslag erin.");
      button.focus();
    });
    message.append(" ", checkNow);
  };
  nameField.addEventListener("input", () => {
    nameField.removeAttribute("aria-invalid");
    saveLearnerName(nameField.value.trim());
  });
  button.addEventListener("click", async () => {
    const learner = nameField.value.trim();
    if (!learner) {
      nameField.setAttribute("aria-invalid", "true");
      say("Vul eerst je naam in: die komt in het bestand voor je docent.");
      nameField.focus();
      return;
    }
    const data = await collect();
    if (data === null) {
      say("De checkpoints van deze les zijn nog niet geladen; probeer het zo nog eens.");
      return;
    }
    saveLearnerName(learner);
    const submission = buildSubmission({ ...data, learner });
    const fileName = submissionFileName(data.lesson, learner);
    download(fileName, `${JSON.stringify(submission, null, 2)}\n`);
    const note = data.unchecked > 0
      ? ` ${data.unchecked} ${data.unchecked === 1 ? "checkpoint is" : "checkpoints zijn"} nog niet gecontroleerd met deze code; je docent controleert alles opnieuw.`
      : "";
    say(`Inzending opgeslagen als ${fileName}.${note}`);
    if (data.unchecked > 0 && checkAll) offerCheck();
  });
}
