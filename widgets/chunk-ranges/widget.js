// The chunk-range visualizer widget: draws what chunk-ranges.js computes for the text, window
// and overlap a learner types, lets them pick a passage, and ("Mijn passages") overlays the
// passages of their own word_chunks, called through the page's shared runner (context.runner).
import { computeChunkRanges, formatDutchDecimal, measureCoverage } from "./chunk-ranges.js";
import { GroupedList } from "./grouped-list.js";
import { comparePassages, learnerOutcome } from "./learner-passages.js";
import widgetPython from "./widget.py";

const WORDS_PER_GROUP = 400;
const PASSAGES_PER_GROUP = 100;
const STATUS_LABELS = {
  matching: "klopt",
  misplaced: "verkeerd geplaatst",
  missing: "ontbreekt",
  extra: "extra",
};

function rangeText(start, end) {
  return `[${start}, ${end})`;
}

function passageLabel(passage, number) {
  return `Passage ${number} · woorden ${rangeText(passage.wordStart, passage.wordEnd)} · ` +
    `tekens ${rangeText(passage.start, passage.end)}`;
}

export class ChunkRangeVisualizer {
  /**
   * @param {HTMLElement} root  the template's `[data-visualizer]` section
   * @param {{runner: object, values: object, pythonText: object, judge: object}} context  the widget context
   *   (site/src/mount-widgets.js)
   */
  constructor(root, { runner, values, pythonText, judge }) {
    this.root = root;
    this.runner = runner;
    this.values = values;
    this.judge = judge;
    this.pythonText = pythonText;
    const find = (testId) => root.querySelector(`[data-testid=${testId}]`);
    this.source = find("viz-source");
    this.windowField = find("viz-window");
    this.overlapField = find("viz-overlap");
    this.problems = find("viz-problems");
    this.result = root.querySelector("[data-viz-result]");
    this.wordList = find("viz-words");
    this.passageList = find("viz-passages");
    this.selectedRange = find("viz-selected-range");
    this.selectedText = find("viz-selected-text");
    this.sourceView = find("viz-source-view");
    this.passagesCount = find("viz-passages-count");
    this.coverageFigure = find("viz-coverage");
    this.duplicationFigure = find("viz-duplication");
    this.learnerButton = find("viz-learner-run");
    this.learnerStatus = find("viz-learner-status");
    this.learnerList = find("viz-learner-passages");
    this.overlayNote = find("viz-overlay-note");
    this.learnerLabels = root.querySelectorAll("[data-viz-learner-label]");
    this.referenceLabels = root.querySelectorAll("[data-viz-reference-label]");

    this.ranges = null;
    this.drawnInput = null;
    this.selected = -1;
    this.words = new GroupedList(this.wordList, {
      groupSize: WORDS_PER_GROUP,
      groupClass: "visualizer__word-group",
      createItem: (index) => {
        const item = document.createElement("span");
        item.dataset.index = index;
        return item;
      },
    });
    this.passages = new GroupedList(this.passageList, {
      groupSize: PASSAGES_PER_GROUP,
      groupClass: "visualizer__passage-group",
      // The options stay the listbox's own: the groups are only there for the layout.
      groupRole: "none",
      createItem: (index) => {
        const item = document.createElement("div");
        item.className = "visualizer__passage";
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", "false");
        item.tabIndex = -1;
        item.dataset.testid = "viz-passage";
        item.dataset.index = index;
        return item;
      },
    });
    this.learnerComparison = null;
    this.learnerRunning = false;
    this.frame = 0;

    const schedule = () => this.scheduleRedraw();
    for (const field of [this.source, this.windowField, this.overlapField]) {
      field.addEventListener("input", schedule);
      field.addEventListener("change", schedule);
    }
    this.passageList.addEventListener("click", (event) => this.onPassageClick(event));
    this.passageList.addEventListener("keydown", (event) => this.onPassageKey(event));
    this.learnerButton.addEventListener("click", () => this.showLearnerPassages());
    this.watchEditor();
    this.redraw();
  }

  // Typing fires faster than a redraw of 20 000 characters is useful: one redraw per frame.
  scheduleRedraw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.redraw();
    });
  }

  redraw() {
    const input = [this.source.value, this.windowField.value, this.overlapField.value];
    // A "change" after the "input" that already drew this state would only lose the selection.
    if (this.drawnInput && input.every((value, index) => value === this.drawnInput[index])) return;
    this.drawnInput = input;
    const ranges = computeChunkRanges(...input, this.pythonText);
    const keepSelected = this.selected;
    // Items are reused: take the old selection and overlay off them before drawing anew.
    this.clearLearnerOverlay();
    this.unselect();
    this.ranges = ranges;
    this.drawProblems(ranges.problems);
    this.result.hidden = !ranges.valid;
    if (!ranges.valid) {
      this.words.clear();
      this.passages.clear();
      this.drawFigures(null);
      return;
    }
    this.drawWords(ranges.words, ranges.coverage.timesStored);
    this.drawPassages(ranges.passages);
    this.drawFigures(ranges);
    this.select(Math.min(Math.max(keepSelected, 0), ranges.passages.length - 1), {
      focus: false,
      force: true,
    });
  }

  drawProblems(problems) {
    this.problems.hidden = problems.length === 0;
    if (problems.length === 0) {
      this.problems.replaceChildren();
      return;
    }
    const intro = document.createElement("p");
    intro.textContent = "word_chunks zou deze invoer weigeren, dus er is niets te tekenen:";
    const list = document.createElement("ul");
    for (const problem of problems) {
      const item = document.createElement("li");
      item.textContent = problem;
      list.append(item);
    }
    this.problems.replaceChildren(intro, list);
  }

  // The index is shown by CSS from data-index: one element and one text node per word.
  drawWords(words, timesStored) {
    this.words.resize(words.length);
    for (let index = 0; index < words.length; index += 1) {
      const text = words[index].text;
      const className = wordClass(timesStored[index]);
      this.words.update(index, `${className}|${text}`, (item) => {
        item.className = className;
        item.textContent = text;
      });
    }
  }

  drawPassages(passages) {
    this.passages.resize(passages.length);
    for (let index = 0; index < passages.length; index += 1) {
      const passage = passages[index];
      const label = passageLabel(passage, index + 1);
      this.passages.update(index, label, (item) => {
        item.dataset.wordStart = passage.wordStart;
        item.dataset.wordEnd = passage.wordEnd;
        item.dataset.start = passage.start;
        item.dataset.end = passage.end;
        item.textContent = label;
      });
    }
  }

  drawFigures(ranges) {
    if (ranges === null) {
      this.passagesCount.textContent = "–";
      this.coverageFigure.textContent = "–";
      this.duplicationFigure.textContent = "–";
      return;
    }
    const coverage = ranges.coverage;
    this.passagesCount.textContent = String(ranges.passages.length);
    this.coverageFigure.textContent = `${coverage.coveredWords} / ${coverage.totalWords}`;
    this.duplicationFigure.textContent = coverage.duplicationFactor === null
      ? "–"
      : `${formatDutchDecimal(coverage.duplicationFactor)}×`;
  }

  /** Choose passage `index`: mark it in the list, its words, and its exact range in the source. */
  select(index, { focus = true, force = false } = {}) {
    if (index < 0 || index >= this.passages.length) return;
    if (index === this.selected && !force) return;
    this.unselect();
    this.selected = index;
    const item = this.passages.items[index];
    item.setAttribute("aria-selected", "true");
    item.tabIndex = 0;
    // Focus scrolls the list to the item; a redraw while typing must not move the page.
    if (focus) item.focus();
    const passage = this.ranges.passages[index];
    this.markWords(passage, true);
    this.selectedRange.textContent = `Passage ${index + 1}: woorden ` +
      `${rangeText(passage.wordStart, passage.wordEnd)} · tekenbereik ` +
      `${rangeText(passage.start, passage.end)}`;
    this.selectedText.textContent = passage.text;
    this.drawSourceHighlight(passage, focus);
  }

  unselect() {
    const item = this.passages.items[this.selected];
    if (item) {
      item.setAttribute("aria-selected", "false");
      item.tabIndex = -1;
      this.markWords(this.ranges.passages[this.selected], false);
    }
    this.selected = -1;
  }

  markWords(passage, selected) {
    const items = this.words.items;
    for (let index = passage.wordStart; index < passage.wordEnd; index += 1) {
      items[index].classList.toggle("is-selected", selected);
    }
  }

  // The source split into three text nodes: the passage's exact slice sits in a <mark>. The
  // offsets shown are code points; slicing the JavaScript string needs UTF-16 positions.
  drawSourceHighlight(passage, scrollToMark) {
    const text = this.source.value;
    const mark = document.createElement("mark");
    mark.textContent = text.slice(passage.utf16Start, passage.utf16End);
    this.sourceView.replaceChildren(
      text.slice(0, passage.utf16Start), mark, text.slice(passage.utf16End),
    );
    const view = this.sourceView;
    if (scrollToMark && view.scrollHeight > view.clientHeight) {
      // The view is position: relative, so offsetTop counts from its top.
      view.scrollTop = Math.max(0, mark.offsetTop - view.clientHeight / 3);
    }
  }

  onPassageClick(event) {
    const item = event.target.closest("[data-testid=viz-passage]");
    if (item) this.select(Number(item.dataset.index));
  }

  // A listbox: arrows move (and choose), Home/End jump, Page keys skip ten.
  onPassageKey(event) {
    const last = this.passages.length - 1;
    const moves = {
      ArrowDown: this.selected + 1,
      ArrowRight: this.selected + 1,
      ArrowUp: this.selected - 1,
      ArrowLeft: this.selected - 1,
      Home: 0,
      End: last,
      PageDown: this.selected + 10,
      PageUp: this.selected - 10,
    };
    if (!(event.key in moves) || last < 0) return;
    event.preventDefault();
    this.select(Math.min(Math.max(moves[event.key], 0), last));
  }

  // ----- "Mijn passages" ------------------------------------------------------------------

  // The button is only useful once the editor's code defines word_chunks; follow its edits.
  watchEditor() {
    this.runner.onCodeChange(() => this.updateLearnerButton());
    this.updateLearnerButton();
  }

  updateLearnerButton() {
    const ready = this.runner.definesFunction("word_chunks");
    this.learnerButton.disabled = !ready || this.learnerRunning;
    if (!this.learnerRunning && this.learnerComparison === null) {
      this.learnerStatus.textContent = ready
        ? "Klik op Mijn passages: je word_chunks draait op deze tekst, dit venster en deze overlap."
        : "Zodra je code een functie word_chunks heeft, kun je hier je eigen passages bekijken.";
    }
  }

  /** Run the learner's word_chunks on the current input and overlay the result. */
  async showLearnerPassages() {
    if (this.learnerRunning) return;
    if (this.runner.learnerCode() === null) {
      this.learnerStatus.textContent = "Er is geen editor op deze pagina om word_chunks uit te lezen.";
      return;
    }
    if (!this.runner.definesFunction("word_chunks")) {
      this.learnerStatus.textContent =
        "Je code definieert nog geen functie word_chunks; schrijf die eerst in de editor.";
      return;
    }
    // Rendering waits for the next frame; the overlay belongs to the input as it is now.
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.redraw();
    }
    const ranges = this.ranges;
    this.learnerRunning = true;
    this.learnerButton.disabled = true;
    this.root.setAttribute("data-learner-state", "running");
    this.learnerStatus.textContent = this.runner.loadingText() ?? "Je word_chunks draait…";
    let comparison;
    try {
      comparison = await this.learnerComparisonFor(ranges);
    } catch (error) {
      comparison = noComparison(`Python kon je word_chunks niet draaien: ${error && (error.message || error)}`);
    } finally {
      this.learnerRunning = false;
    }
    // Typing during the run made the answer stale; say so instead of drawing it.
    if (ranges !== this.ranges) {
      this.root.setAttribute("data-learner-state", "stale");
      this.learnerStatus.textContent =
        "De invoer veranderde terwijl je functie draaide; klik opnieuw op Mijn passages.";
      this.updateLearnerButton();
      return;
    }
    this.drawLearnerOverlay(comparison);
    this.updateLearnerButton();
  }

  // Two calls through the shared runner: this widget's own Python turns the input into
  // word_chunks's arguments (the document with its revision), then the learner's function runs.
  async learnerComparisonFor(ranges) {
    // The runner's time limit is the page's run limit (the lesson's run_seconds).
    const options = {
      onStatus: () => { this.learnerStatus.textContent = "Je word_chunks draait…"; },
    };
    const prepared = await this.runner.callModule(widgetPython, "learner_arguments",
      [this.source.value, this.windowField.value, this.overlapField.value], options);
    if (prepared.status !== "returned") return noComparison(failureText(prepared, this.runner.timeLimitSeconds));
    const args = prepared.value;
    if (args === null) return comparePassages(ranges, learnerOutcome({}, null, this.values), this.values, this.judge);
    const reply = await this.runner.callLearner("word_chunks", args, options);
    if (reply.status === "timeout" || reply.status === "stopped" || reply.status === "error") {
      return noComparison(failureText(reply, this.runner.timeLimitSeconds));
    }
    return comparePassages(ranges, learnerOutcome(reply, args[0], this.values), this.values, this.judge);
  }

  drawLearnerOverlay(comparison) {
    this.learnerComparison = comparison;
    this.root.setAttribute("data-learner-state", comparison.verdict);
    this.learnerStatus.textContent = comparison.summary;
    comparison.referenceStatus.forEach((status, index) => {
      const item = this.passages.items[index];
      if (!item) return;
      item.dataset.learnerStatus = status;
      const badge = document.createElement("span");
      badge.className = "visualizer__badge";
      badge.textContent = STATUS_LABELS[status];
      item.append(" ", badge);
      // The badge is not part of the label: the next draw must write this item again.
      this.passages.invalidate(index);
    });
    const fragment = document.createDocumentFragment();
    for (const learnerItem of comparison.learner) {
      fragment.append(learnerPassageItem(learnerItem));
    }
    this.learnerList.replaceChildren(fragment);
    this.learnerList.hidden = comparison.learner.length === 0;
    this.markLearnerCoverage(comparison.learner);
    this.labelWhosePassages(comparison.summary);
  }

  // With the overlay on, the word row shows the learner's passages while the passage list and the
  // figures still describe the reference: every part says whose it is, and the verdict sits on top.
  labelWhosePassages(summary) {
    const overlay = summary !== null;
    const learnerMarks = this.wordList.dataset.marks === "learner";
    for (const label of this.learnerLabels) label.hidden = !learnerMarks;
    for (const label of this.referenceLabels) label.hidden = !overlay;
    this.overlayNote.hidden = !overlay;
    this.overlayNote.textContent = !overlay ? "" : learnerMarks
      ? `Je eigen passages: ${summary} De kleuren in de woordenrij tonen nu je passages; de lijst Passages en de cijfers horen bij de referentie.`
      : `Je eigen passages: ${summary} De woordenrij, de lijst Passages en de cijfers horen bij de referentie.`;
  }

  // Which words the learner's passages store twice or not at all, marked on the word list.
  markLearnerCoverage(learnerItems) {
    const total = this.words.length;
    const usable = learnerItems.filter((item) =>
      item.wordStart !== null && item.wordEnd !== null &&
      item.wordStart >= 0 && item.wordStart < item.wordEnd && item.wordEnd <= total);
    if (usable.length === 0 && learnerItems.length === 0) return;
    const coverage = measureCoverage(total, usable);
    this.wordList.dataset.marks = "learner";
    for (let index = 0; index < total; index += 1) {
      const classes = this.words.items[index].classList;
      classes.toggle("is-learner-missing", coverage.timesStored[index] === 0);
      classes.toggle("is-learner-repeated", coverage.timesStored[index] > 1);
      this.words.invalidate(index);
    }
  }

  // Called before every redraw; the reused items lose their learner marks in that draw, because
  // drawing the overlay invalidated them.
  clearLearnerOverlay() {
    if (this.learnerComparison === null) return;
    this.learnerComparison = null;
    for (const item of this.passages.items) delete item.dataset.learnerStatus;
    this.root.setAttribute("data-learner-state", "stale");
    this.learnerList.replaceChildren();
    this.learnerList.hidden = true;
    delete this.wordList.dataset.marks;
    this.labelWhosePassages(null);
    this.learnerStatus.textContent =
      "De invoer is veranderd; klik opnieuw op Mijn passages om je functie hierop te draaien.";
  }
}

function wordClass(timesStored) {
  if (timesStored === 0) return "visualizer__word is-missing";
  return timesStored > 1 ? "visualizer__word is-repeated" : "visualizer__word";
}

function learnerPassageItem(learnerItem) {
  const item = document.createElement("li");
  item.dataset.testid = "viz-learner-passage";
  item.dataset.status = learnerItem.status;
  const bounds = (start, end) =>
    (start === null || end === null ? "?" : rangeText(start, end));
  const label = document.createElement("span");
  label.textContent = `Jouw passage ${learnerItem.position + 1} · woorden ` +
    `${bounds(learnerItem.wordStart, learnerItem.wordEnd)} · tekens ` +
    `${bounds(learnerItem.start, learnerItem.end)}`;
  const badge = document.createElement("span");
  badge.className = "visualizer__badge";
  badge.textContent = STATUS_LABELS[learnerItem.status];
  item.append(label, " ", badge);
  if (learnerItem.problem) {
    const problem = document.createElement("span");
    problem.className = "visualizer__learner-problem wp-exact";
    problem.textContent = learnerItem.problem;
    item.append(" ", problem);
  }
  return item;
}

function noComparison(summary) {
  return { verdict: "no-result", summary, learner: [], referenceStatus: [] };
}

// A call that did not end in the function's own answer (the runner's reply status).
function failureText(reply, timeLimitSeconds) {
  if (reply.status === "timeout") {
    return `Je word_chunks liep langer dan ${timeLimitSeconds} ${timeLimitSeconds === 1 ? "seconde" : "seconden"} en is gestopt.`;
  }
  if (reply.status === "stopped") return "Gestopt voordat je word_chunks klaar was.";
  return `Python kon je word_chunks niet draaien: ${reply.message}`;
}

/**
 * The widget's entry (site/src/mount-widgets.js calls it for each `:::{widget} chunk-ranges`).
 * "Bekijk in de visualisatie" on a checkpoint the lesson lists for this widget shows the
 * learner's passages.
 * @param {HTMLElement} element  the widget's root, `[data-widget=chunk-ranges]`
 * @param {{runner: object, values: object, pythonText: object, judge: object}} context
 */
export function mount(element, context) {
  const visualizer = new ChunkRangeVisualizer(element.querySelector("[data-visualizer]"), context);
  return { visualizer, showCheckpoint: () => visualizer.showLearnerPassages() };
}
