// "Jouw checkpoints": grades the code in the editor with the lesson's shipped tests, inside the
// page's one Pyodide worker (runner/core/web.py from the archive builder/checkpoint_bundle.py writes),
// shows what to fix in Dutch, keeps the results per lesson in localStorage (checkpoint-results.js:
// tied to the test bundle's hash and to fingerprints of the checked code; a result of other tests,
// or of a checkpoint whose function or what it uses changed since, shows as needing a re-check:
// code-fingerprints.js) and offers the hand-in file (export.js). Everything derived from the
// learner's code is inserted as text, never as HTML.
import { codeFingerprint, loadStoredResults, saveStoredResults } from "./checkpoint-results.js";
import {
  currentVerdicts, loadCodeFingerprints, resultIsCurrent, saveCodeFingerprints,
} from "./code-fingerprints.js";
import { LOADING_PYTHON, packageErrorMessage, secondsText } from "./editor.js";
import { initExport } from "./export.js";
import { pageLessonId, positiveNumberSetting } from "./page-settings.js";
import { lessonArchive, webArgs, webSnippet } from "./runner-client.js";
import { makeScrollRegion } from "./scroll-regions.js";

// For all shipped tests of one checkpoint together, when the page does not say (the builder writes
// the lesson's `check_seconds` from checkpoints.toml; the offline grader applies the same limit).
const DEFAULT_CHECK_TIME_LIMIT_SECONDS = 5;

// Calls of runner.core.web through the page's one client of it (runner-client.js).
const WARM_SNIPPET = webSnippet(`web.bundle_for(args["lesson_dir"]).bundle_sha256`);
const CHECK_SNIPPET = webSnippet(`web.check(args["code"], args["lesson_dir"], args["only"])`);
const FINGERPRINTS_SNIPPET = webSnippet(`web.fingerprints(args["code"], args["lesson_dir"])`);
// After an edit, the per-checkpoint fingerprints are computed once typing pauses this long.
const FINGERPRINT_DELAY_MS = 150;

function testsText(passed, total) {
  return `${passed} van ${total} ${total === 1 ? "test" : "tests"} geslaagd`;
}

// The one-line state under the button, for a result (or pending/running). `outdated`: the
// result belongs to other code than the editor holds now.
export function stateText(result, timeLimitSeconds, { outdated = false } = {}) {
  if (result.stale) {
    return result.status === "pass"
      ? "Eerder geslaagd, maar de tests van deze les zijn veranderd: controleer opnieuw."
      : "De tests van deze les zijn veranderd sinds je vorige controle: controleer opnieuw.";
  }
  if (outdated) {
    return result.status === "pass"
      ? "Geslaagd met een eerdere versie van je code — controleer opnieuw."
      : "Gecontroleerd met een eerdere versie van je code — controleer opnieuw.";
  }
  switch (result.status) {
    case "running":
      return "Bezig met controleren…";
    case "pass":
      return `Geslaagd: ${testsText(result.passed, result.total)}.`;
    case "fail":
      return `Nog niet goed: ${testsText(result.passed, result.total)}.`;
    case "error":
      return result.before_tests
        ? "Fout: er is nog geen test uitgevoerd."
        : `Fout: ${testsText(result.passed, result.total)}.`;
    case "timeout":
      return `Te traag: gestopt na ${secondsText(timeLimitSeconds)}.`;
    default:
      return "Nog niet gecontroleerd.";
  }
}

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
    // Results of other code than the editor's, with no fingerprints stored for it (an older
    // version of the page): Python tells which of them still hold.
    if (this.outdated.size > 0 && !this.prints.fingerprints) this.schedulePrints();
    this.python.addSetup(async ({ evaluate }) => {
      if (archive.problem) {
        this.setupProblem = archive.problem;
        return;
      }
      try {
        await evaluate(WARM_SNIPPET, { args: this.pythonArgs() });
        this.setupProblem = null;
      } catch (error) {
        this.setupProblem = `de checkpoint-tests konden niet geladen worden (${error.message ?? error})`;
      }
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
        const prints = packageProblem ? null : await this.fingerprintsOf(code);
        for (const id of batch) {
          const result = packageProblem ?? (await this.grade(id, code));
          this.finish(id, result, code, prints?.[id]);
        }
      }
    } finally {
      this.busy = false;
      this.panel.toggleAttribute("data-checking", false);
    }
  }

  // Packages the code imports (numpy) must be loaded before the tests import main.py.
  async loadImports(code) {
    if (this.setupProblem) return null;
    try {
      const { packages } = await this.python.call("load-imports", { code });
      if (packages.length === 0) return null;
      return this.problemResult(packages.map(packageErrorMessage).join(" "));
    } catch (error) {
      return this.problemResult(`Python kon niet starten (${error.message ?? error}).`);
    }
  }

  problemResult(message) {
    return { status: "error", passed: 0, total: 0, before_tests: true, message, visible: false, expected: null, actual: null };
  }

  async grade(id, code) {
    if (this.setupProblem) return this.problemResult(`Controleren lukt nu niet: ${this.setupProblem}.`);
    try {
      const value = await this.python.evaluate(CHECK_SNIPPET, {
        args: this.pythonArgs({ code, only: [id] }),
        timeLimitSeconds: this.timeLimitFor(id),
      });
      return value.checkpoints[0];
    } catch (error) {
      if (error.kind === "timeout") {
        return { ...this.problemResult(`${id} was niet binnen de tijdslimiet klaar (een oneindige lus?).`), status: "timeout", before_tests: false };
      }
      if (error.kind === "stopped") return null;
      return this.problemResult(`De controle zelf liep vast (${error.message ?? error}); meld dit aan je docent.`);
    }
  }

  // {checkpoint id: fingerprint} of `code` (runner/core/fingerprint.py), computed by the worker;
  // null when Python cannot say (not loaded, stopped). Those of the editor's code are stored for
  // the index page.
  async fingerprintsOf(code) {
    if (!this.meta || this.setupProblem) return null;
    let fingerprints;
    try {
      // Background work: the editor's Stop leaves it alone (worker-client.js interrupt).
      fingerprints = await this.python.evaluate(FINGERPRINTS_SNIPPET, { args: this.pythonArgs({ code }), background: true });
    } catch {
      return null;
    }
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

  finish(id, result, code, fingerprint) {
    if (result === null) {
      // Stopped with the editor's Stop button: back to what it was before.
      this.render(id);
      this.announce(`Controle van checkpoint ${this.cardNumber(id)} gestopt.`);
      return;
    }
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
    // Of the part of the code this checkpoint depends on: a later edit elsewhere keeps the result.
    if (typeof fingerprint === "string") stored.fingerprint = fingerprint;
    this.results.set(id, stored);
    // Results kept from older tests stay marked, so the stored entry can take the new hash.
    this.persist();
    this.render(id);
    this.renderProgress();
    const { title } = this.cards.get(id);
    const outdated = this.outdated.has(id);
    this.announce(`Checkpoint ${this.cardNumber(id)}, ${title}: ${stateText(stored, this.timeLimitFor(id), { outdated })}`);
  }

  cardNumber(id) {
    return [...this.cards.keys()].indexOf(id) + 1;
  }

  // A transient state (running) that is not stored.
  show(id, result) {
    const { card, state } = this.cards.get(id);
    card.dataset.status = result.status;
    card.removeAttribute("data-stale");
    card.removeAttribute("data-outdated");
    state.textContent = stateText(result, this.timeLimitFor(id));
    this.renderMarker(id, result.status);
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
    const { card, state, feedback } = this.cards.get(id);
    const result = this.results.get(id) ?? { status: "pending" };
    const outdated = result.status !== "pending" && this.isOutdated(id, result);
    if (outdated) this.outdated.add(id);
    else this.outdated.delete(id);
    // Neither kind of earlier result counts: the card waits for a check, like an unchecked one.
    card.dataset.status = result.stale || outdated ? "pending" : result.status;
    card.toggleAttribute("data-stale", result.stale === true);
    card.toggleAttribute("data-outdated", outdated);
    state.textContent = stateText(result, this.timeLimitFor(id), { outdated });
    // Feedback on the earlier code stays: the learner is probably fixing just that.
    this.renderFeedback(id, feedback, result.stale ? null : result);
    this.renderMarker(id, result.stale ? "pending" : outdated ? "outdated" : result.status);
  }

  renderFeedback(id, feedback, result) {
    feedback.replaceChildren();
    if (!result || result.status === "pass" || result.status === "pending") {
      feedback.hidden = true;
      return;
    }
    const message = document.createElement("p");
    message.className = "checkpoint__message";
    message.textContent = result.message;
    feedback.append(message);
    if (result.note) {
      const note = document.createElement("p");
      note.className = "checkpoint__note";
      note.dataset.checkpointNote = "";
      note.textContent = result.note;
      feedback.append(note);
    }
    if (result.visible && (result.expected !== null || result.actual !== null)) {
      const list = document.createElement("dl");
      list.className = "checkpoint__comparison";
      for (const [label, value] of [["Verwacht", result.expected], ["Jouw uitkomst", result.actual]]) {
        if (value === null) continue;
        const term = document.createElement("dt");
        term.textContent = label;
        const detail = document.createElement("dd");
        const pre = document.createElement("pre");
        pre.textContent = value;
        // A long value scrolls inside its box (max-height): reachable by keyboard, named.
        makeScrollRegion(pre, label);
        detail.append(pre);
        list.append(term, detail);
      }
      feedback.append(list);
    }
    if (result.status === "timeout") {
      const advice = document.createElement("p");
      advice.textContent = `Je functie mocht ${secondsText(this.timeLimitFor(id))} rekenen. De pagina werkt gewoon verder: pas je code aan en controleer opnieuw.`;
      feedback.append(advice);
    }
    // A widget that lists this checkpoint (its `checkpoints:` option in the lesson) can show it.
    if ([...document.querySelectorAll("[data-widget-checkpoints]")].some(
      (widget) => widget.dataset.widgetCheckpoints.split(" ").includes(id))) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "wp-button checkpoint__visualize";
      button.textContent = "Bekijk in de visualisatie";
      button.addEventListener("click", () => {
        document.dispatchEvent(new CustomEvent("werkplaats:show-in-widget", { detail: { checkpoint: id } }));
      });
      feedback.append(button);
    }
    feedback.hidden = false;
  }

  // The inline marker in the lesson text mirrors the panel.
  renderMarker(id, status) {
    for (const marker of document.querySelectorAll("[data-checkpoint-marker]")) {
      if (marker.dataset.checkpointMarker !== id) continue;
      marker.dataset.status = status;
      let label = marker.querySelector(".checkpoint-marker__status");
      if (!label) {
        label = document.createElement("span");
        label.className = "checkpoint-marker__status";
        (marker.querySelector("a") ?? marker).append(label);
      }
      label.textContent = MARKER_TEXT[status] ?? "";
    }
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

const MARKER_TEXT = {
  pending: "",
  running: "wordt gecontroleerd…",
  outdated: "eerdere code: controleer opnieuw",
  pass: "✓ geslaagd",
  fail: "nog niet goed",
  error: "fout",
  timeout: "te traag",
};

// "Vastgelopen? Bekijk de voorbeeldoplossing": opening it first asks, in the page, whether the
// learner really wants to see it.
export function initSolutionConfirmation(root) {
  const area = root.querySelector("[data-solution-area]");
  if (!area) return;
  const details = area.querySelector("details");
  const summary = details?.querySelector("summary");
  const question = area.querySelector("[data-solution-confirm]");
  if (!details || !summary || !question) return;
  let confirmed = false;
  summary.addEventListener("click", (event) => {
    if (details.open || confirmed) return;
    event.preventDefault();
    question.hidden = false;
    question.querySelector("[data-testid=solution-confirm]").focus();
  });
  question.querySelector("[data-testid=solution-confirm]").addEventListener("click", () => {
    confirmed = true;
    question.hidden = true;
    details.open = true;
    summary.focus();
  });
  question.querySelector("[data-testid=solution-cancel]").addEventListener("click", () => {
    question.hidden = true;
    summary.focus();
  });
}

/**
 * Page module (see lesson.js): the checkpoint panel and the solution's confirmation.
 * @param {{root: ParentNode, python: object, editor: object|null}} context
 */
export function initCheckpoints({ root, python, editor }) {
  initSolutionConfirmation(root);
  const panel = root.querySelector("[data-checkpoint-panel]");
  if (!panel) return null;
  return new CheckpointPanel(panel, { python, editor, lessonId: pageLessonId(root) });
}
