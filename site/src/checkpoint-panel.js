// "Jouw checkpoints": the panel that grades the code in the editor with the lesson's shipped
// tests, one checkpoint after another (checkpoint-check.js runs each in the page's one Pyodide
// worker, from the archive builder/checkpoint_bundle.py writes), shows the results on the cards
// (checkpoint-card.js), keeps them per lesson in localStorage (checkpoint-results.js: tied to the
// test bundle's hash and to fingerprints of the checked code; a result of other tests, or of a
// checkpoint whose function or what it uses changed since, shows as needing a re-check:
// code-fingerprints.js) and offers the hand-in file (export.js).
import { codeFingerprint, loadStoredResults, saveStoredResults } from "./checkpoint-results.js";
import { showResult, showTransient, stateText } from "./checkpoint-card.js";
import {
  computeFingerprints, gradeCheckpoint, importProblem, loadAhead, resultToStore, setupProblemResult, warmTests,
} from "./checkpoint-check.js";
import {
  currentVerdicts, loadCodeFingerprints, resultIsCurrent, saveCodeFingerprints,
} from "./code-fingerprints.js";
import { LOADING_PYTHON } from "./editor.js";
import { initExport } from "./export.js";
import { pageLessonId, positiveNumberSetting } from "./page-settings.js";
import { lessonArchive, webArgs } from "./runner-client.js";

// For all shipped tests of one checkpoint together, when the page does not say (the builder writes
// the lesson's `check_seconds` from checkpoints.toml; the offline grader applies the same limit).
const DEFAULT_CHECK_TIME_LIMIT_SECONDS = 5;

// After an edit, the per-checkpoint fingerprints are computed once typing pauses this long.
const FINGERPRINT_DELAY_MS = 150;

// `?checkTimeLimit=2` (tests) overrides the data-time-limit the builder writes from the lesson's
// settings (checkpoints.toml): on each card its own limit, on the panel the lesson's.
function timeLimitFromPage(element, fallback) {
  return positiveNumberSetting({
    urlParameter: "checkTimeLimit",
    element,
    attribute: "data-time-limit",
    fallback,
  });
}

class CheckpointPanel {
  constructor(panel, { python, editor, lessonId }) {
    this.panel = panel;
    this.python = python;
    this.editor = editor;
    this.lessonId = lessonId;
    this.timeLimitSeconds = timeLimitFromPage(panel, DEFAULT_CHECK_TIME_LIMIT_SECONDS);
    this.meta = null;
    this.setupProblem = null;
    this.busy = false;
    this.queue = []; // checkpoint ids waiting for their check
    this.results = new Map(); // id -> stored result (see validStoredResult)
    this.outdated = new Set(); // ids whose result belongs to other code than the editor's
    // Per-checkpoint fingerprints (code-fingerprints.js) of the code whose whole-file fingerprint
    // is `code`: the editor's, or a moment ago while the new ones are computed.
    this.prints = { code: null, fingerprints: null };
    this.printsTimer = null;
    this.printsPending = false; // new fingerprints for the editor's code are on their way
    this.editedBeforeMeta = false;
    this.cards = new Map();
    for (const card of panel.querySelectorAll("[data-checkpoint]")) {
      this.cards.set(card.dataset.checkpoint, {
        card,
        button: card.querySelector("[data-testid^=check-]"),
        state: card.querySelector("[data-checkpoint-state]"),
        feedback: card.querySelector("[data-checkpoint-feedback]"),
        title: card.querySelector(".checkpoint__title")?.textContent.trim() ?? card.dataset.checkpoint,
        timeLimitSeconds: timeLimitFromPage(card, this.timeLimitSeconds),
      });
    }
    this.progress = panel.querySelector("[data-testid=progress]");
    this.notice = panel.querySelector("[data-checkpoint-notice]");
    this.announcer = panel.querySelector("[data-checkpoint-announcer]");
    this.checkAllButton = panel.querySelector("[data-testid=check-all]");

    for (const [id, { button }] of this.cards) {
      button?.addEventListener("click", () => this.check([id]));
    }
    this.checkAllButton?.addEventListener("click", () => this.checkAll());
    this.editor?.onChange(() => {
      // An edit before the lesson's meta has loaded cannot be followed yet: loadMeta does it.
      if (!this.meta) this.editedBeforeMeta = true;
      this.followCode();
      this.schedulePrints();
    });
    // Python just started: the fingerprints of code edited meanwhile can be computed now.
    this.python.onStateChange?.((state) => {
      if (state === "ready") this.schedulePrints();
    });
    initExport(panel, { collect: () => this.exportData(), checkAll: () => this.checkAll() });
    this.metaReady = this.loadMeta(panel.dataset.metaUrl);
  }

  async loadMeta(metaUrl) {
    // The archive is shared with the widgets (lesson-archive.js): unpacked once per start.
    const archive = await lessonArchive(this.python, metaUrl);
    this.archive = archive;
    if (archive.meta === null) {
      this.setupProblem = archive.problem;
      return;
    }
    this.meta = archive.meta;
    if (this.editor) {
      const code = this.editor.getCode();
      this.prints = { code: codeFingerprint(code), fingerprints: loadCodeFingerprints(this.lessonId, code) };
    }
    this.restore();
    // Code edited while the meta loaded gets what any edit gets (its fingerprints, with results
    // to keep); so do results of other code than the editor's with no fingerprints stored for it
    // (an older version of the page): Python tells which of them still hold.
    if (this.editedBeforeMeta || (this.outdated.size > 0 && !this.prints.fingerprints)) this.schedulePrints();
    this.python.addSetup(async ({ evaluate }) => {
      if (archive.problem) {
        this.setupProblem = archive.problem;
        return;
      }
      this.setupProblem = await warmTests(evaluate, this.pythonArgs());
    });
  }

  // The check limit of one checkpoint: all its tests together (offline enforces the same).
  timeLimitFor(id) {
    return this.cards.get(id)?.timeLimitSeconds ?? this.timeLimitSeconds;
  }

  pythonArgs(extra = {}) {
    return webArgs(this.archive, extra);
  }

  // Results from an earlier visit; those made with other tests show as needing a re-check.
  restore() {
    const { entry, problem } = loadStoredResults(this.lessonId);
    if (problem === "corrupted") {
      this.showNotice("Je opgeslagen checkpoint-resultaten waren onleesbaar en zijn genegeerd.");
    }
    if (entry) {
      const changed = entry.bundle_sha256 !== this.meta.bundle_sha256;
      for (const [id, result] of Object.entries(entry.results)) {
        if (this.cards.has(id)) this.results.set(id, changed ? { ...result, stale: true } : result);
      }
    }
    for (const id of this.cards.keys()) this.render(id);
    this.renderProgress();
  }

  persist() {
    if (!this.meta) return;
    saveStoredResults(this.lessonId, this.meta.bundle_sha256, Object.fromEntries(this.results));
  }

  showNotice(text) {
    if (!this.notice) return;
    this.notice.textContent = text;
    this.notice.hidden = false;
  }

  announce(text) {
    if (this.announcer) this.announcer.textContent = text;
  }

  checkAll() {
    return this.check([...this.cards.keys()]);
  }

  // Checks run one after another; a click while others run joins the queue. Resolves when the
  // queue is empty.
  async check(ids) {
    if (!this.editor) return;
    for (const id of ids) {
      if (this.queue.includes(id)) continue;
      this.queue.push(id);
      this.show(id, { status: "running" });
    }
    if (!this.busy) this.idle = this.runQueue();
    await this.idle;
  }

  async runQueue() {
    this.busy = true;
    this.panel.toggleAttribute("data-checking", true);
    try {
      await this.metaReady;
      if (this.python.state !== "ready" && this.python.state !== "busy") {
        this.announce(LOADING_PYTHON);
      }
      while (this.queue.length > 0) {
        const code = this.editor.getCode();
        const batch = this.queue.splice(0);
        const packageProblem = await this.loadImports(code);
        const ahead = packageProblem ? new Map() : await this.loadAhead(batch, code);
        const stored = [];
        // Stop (a Run queued behind the checks) ends the whole batch: the checkpoints not yet
        // checked go back to what they showed, as the stopped one does.
        let stopped = false;
        for (const id of batch) {
          const result = stopped ? null
            : packageProblem ?? (ahead.has(id) ? ahead.get(id) : await this.grade(id, code));
          stopped = result === null;
          stored.push([id, this.finish(id, result, code)]);
        }
        // The fingerprints only matter once the code changes: computed after the verdicts, so
        // the learner does not wait for them.
        if (!packageProblem) this.addFingerprints(stored, await this.fingerprintsOf(code));
      }
    } finally {
      this.busy = false;
      this.panel.toggleAttribute("data-checking", false);
    }
  }

  // Packages the code imports (numpy) must be loaded before the tests import main.py.
  async loadImports(code) {
    if (this.setupProblem) return null;
    return importProblem(this.python, code);
  }

  async loadAhead(ids, code) {
    if (this.setupProblem) return new Map();
    // One checkpoint on a page that interrupts Python in place: its own check loads the code under
    // the same limit and says the same (runner.core.web), so loading ahead would only cost an
    // import before the verdict. Without isolation it still pays: the page then replaces the
    // worker, and only the load ahead can tell the learner it was the loading that took too long.
    if (ids.length === 1 && this.python.interruptible) return new Map();
    return loadAhead(this.python, ids, {
      args: this.pythonArgs({ code, only: ids }),
      timeLimitSeconds: Math.max(...ids.map((id) => this.timeLimitFor(id))),
    });
  }

  async grade(id, code) {
    if (this.setupProblem) return setupProblemResult(this.setupProblem);
    return gradeCheckpoint(this.python, id, {
      args: this.pythonArgs({ code, only: [id] }),
      timeLimitSeconds: this.timeLimitFor(id),
    });
  }

  // {checkpoint id: fingerprint} of `code` (runner/core/fingerprint.py), computed by the worker;
  // null when Python cannot say (not loaded, stopped). Those of the editor's code are stored for
  // the index page.
  async fingerprintsOf(code) {
    if (!this.meta || this.setupProblem) return null;
    const fingerprints = await computeFingerprints(this.python, this.pythonArgs({ code }));
    if (fingerprints === null) return null;
    if (this.editor && this.editor.getCode() === code) {
      this.prints = { code: codeFingerprint(code), fingerprints };
      saveCodeFingerprints(this.lessonId, code, fingerprints);
    }
    return fingerprints;
  }

  // After an edit: once typing pauses, the new fingerprints, and the cards re-drawn with them.
  // With results to keep this starts Python if it is not running (only it can tell which
  // function changed); without, it waits for a check or Run to start Python.
  schedulePrints() {
    clearTimeout(this.printsTimer);
    this.printsPending = false;
    if (!this.meta || !this.editor || this.python.state === "failed") return;
    const running = this.python.state === "ready" || this.python.state === "busy";
    if (!running && this.results.size === 0) return;
    this.printsPending = true;
    this.printsTimer = setTimeout(async () => {
      const code = this.editor.getCode();
      if (this.prints.code !== codeFingerprint(code) || !this.prints.fingerprints) {
        await this.fingerprintsOf(code);
      }
      if (this.editor.getCode() === code) this.printsPending = false;
      this.followCode();
    }, FINGERPRINT_DELAY_MS);
  }

  // The fingerprints that describe the editor's code now: while new ones are being computed, the
  // latest ones, so a pass does not blink at every key; when Python cannot compute them, none
  // (then only an unchanged file keeps a result).
  currentCode(code = this.editor.getCode()) {
    const whole = codeFingerprint(code);
    if (this.prints.code === whole) return { code: whole, fingerprints: this.prints.fingerprints };
    return { code: whole, fingerprints: this.printsPending ? this.prints.fingerprints : null };
  }

  // Fingerprints of exactly the editor's code, computed now when needed (for an export).
  async exactCode() {
    const code = this.editor.getCode();
    const whole = codeFingerprint(code);
    if (this.prints.code !== whole || !this.prints.fingerprints) {
      if (this.python.state === "ready" || this.python.state === "busy") await this.fingerprintsOf(code);
    }
    return { code: whole, fingerprints: this.prints.code === whole ? this.prints.fingerprints : null };
  }

  // The result of a check, stored and shown (null when the editor's Stop ended it).
  finish(id, result, code) {
    if (result === null) {
      // Stopped with the editor's Stop button: back to what it was before.
      this.render(id);
      this.announce(`Controle van checkpoint ${this.cardNumber(id)} gestopt.`);
      return null;
    }
    const stored = resultToStore(result, code);
    this.results.set(id, stored);
    // Results kept from older tests stay marked, so the stored entry can take the new hash.
    this.persist();
    this.render(id);
    this.renderProgress();
    const { title } = this.cards.get(id);
    const outdated = this.outdated.has(id);
    this.announce(`Checkpoint ${this.cardNumber(id)}, ${title}: ${stateText(stored, this.timeLimitFor(id), { outdated })}`);
    return stored;
  }

  // Each result of `stored` ([id, result]) that is still the one kept gets the fingerprint of its
  // checkpoint (so a later edit elsewhere in the code keeps it), and is stored again.
  addFingerprints(stored, fingerprints) {
    if (!fingerprints) return;
    let added = false;
    for (const [id, result] of stored) {
      if (result === null || this.results.get(id) !== result || typeof fingerprints[id] !== "string") continue;
      result.fingerprint = fingerprints[id];
      added = true;
    }
    if (!added) return;
    this.persist();
    this.followCode();
  }

  cardNumber(id) {
    return [...this.cards.keys()].indexOf(id) + 1;
  }

  // A transient state (running) that is not stored.
  show(id, result) {
    showTransient(id, this.cards.get(id), result, this.timeLimitFor(id));
  }

  // A stored result whose checkpoint's code changed since (not one of older tests: that is stale).
  // `current` is what currentCode() says, when the caller already has it.
  isOutdated(id, result, current = this.editor ? this.currentCode() : null) {
    return this.editor !== null && !result.stale && !resultIsCurrent(result, id, current);
  }

  // After an edit: re-draw only the cards whose result turned outdated or current again.
  followCode() {
    let changed = false;
    const current = this.currentCode(); // once per edit, not per card
    // For tests: the fingerprints of exactly the editor's code are known (and stored).
    this.panel.toggleAttribute("data-fingerprints-current",
      this.prints.code === current.code && this.prints.fingerprints !== null);
    for (const [id, result] of this.results) {
      if (this.cards.get(id).card.dataset.status === "running") continue;
      if (this.isOutdated(id, result, current) !== this.outdated.has(id)) {
        this.render(id);
        changed = true;
      }
    }
    if (changed) this.renderProgress();
  }

  render(id) {
    const result = this.results.get(id) ?? { status: "pending" };
    const outdated = result.status !== "pending" && this.isOutdated(id, result);
    if (outdated) this.outdated.add(id);
    else this.outdated.delete(id);
    showResult(id, this.cards.get(id), result, { outdated, timeLimitSeconds: this.timeLimitFor(id) });
  }

  // Counts passes of the current code only; passes of earlier code are mentioned apart.
  renderProgress() {
    const passes = [...this.cards.keys()].filter((id) => {
      const result = this.results.get(id);
      return result && !result.stale && result.status === "pass";
    });
    const earlier = passes.filter((id) => this.outdated.has(id)).length;
    const passed = passes.length - earlier;
    if (this.progress) {
      this.progress.textContent = earlier > 0
        ? `${passed} / ${this.cards.size} · ${earlier} met eerdere code`
        : `${passed} / ${this.cards.size}`;
      this.progress.toggleAttribute("data-outdated", earlier > 0);
    }
    this.panel.dataset.passed = String(passed);
  }

  // The verdicts the panel shows as current, for exactly the editor's code.
  async exportData() {
    if (!this.meta || !this.editor) return null;
    const code = this.editor.getCode();
    const current = await this.exactCode();
    const verdicts = currentVerdicts(Object.fromEntries(this.results), [...this.cards.keys()], current);
    return {
      lesson: this.meta.lesson,
      code,
      meta: this.meta,
      verdicts,
      unchecked: this.cards.size - Object.keys(verdicts).length,
    };
  }
}

/**
 * Page module (see lesson.js): the checkpoint panel.
 * @param {{root: ParentNode, python: object, editor: object|null}} context
 */
export function initCheckpoints({ root, python, editor }) {
  const panel = root.querySelector("[data-checkpoint-panel]");
  if (!panel) return null;
  return new CheckpointPanel(panel, { python, editor, lessonId: pageLessonId(root) });
}
