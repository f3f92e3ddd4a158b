// The retrieval-run viewer widget of rag-03: draws each question's evidence and its top-k
// retrieved spans over the source positions, the union coverage with its gaps, the three measures
// at the chosen k, a results table of rag-01's word windows at several settings, and ("Mijn
// evaluatie") the learner's own evaluate on the same run, called through context.runner.
import { compareEvaluation, expectedResult } from "./learner-evaluation.js";
import { CONFIGURATIONS, LAMP_EXAMPLE, TEST_SET } from "./lesson-runs.js";
import { configurationRuns, evaluateRuns, formatMeasure, meanContextWords } from "./retrieval-runs.js";

// Drawing every question of a test set of 1000 would take longer than it helps; the measures
// always count all of them.
export const MAX_DRAWN_QUESTIONS = 40;

function percent(position, length) {
  return `${(100 * position) / length}%`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The runs a learner can choose: the lesson's worked example, then each configuration.
 * @param {typeof import("../../site/src/python-text.js")} pythonText  context.pythonText
 */
export function lessonRuns(pythonText) {
  const runs = [{ id: "voorbeeld", label: "Lesvoorbeeld: vier lampvragen", ...LAMP_EXAMPLE, table: null }];
  for (const [window, overlap] of CONFIGURATIONS) {
    const computed = configurationRuns(TEST_SET.corpus, TEST_SET.questions, window, overlap, pythonText);
    runs.push({
      id: `venster-${window}-overlap-${overlap}`,
      label: `Venster ${window}, overlap ${overlap}`,
      corpus: TEST_SET.corpus,
      questions: TEST_SET.questions,
      rankings: computed.rankings,
      table: computed,
    });
  }
  return runs;
}

export class RetrievalRunViewer {
  /**
   * @param {HTMLElement} root  the template's `[data-runs]` section
   * @param {{runner?: object, values?: object, judge?: object, options: {k: number}}} context
   * @param {Array} runs  what lessonRuns() returns (the benchmark passes larger ones)
   */
  constructor(root, { runner = null, values = null, judge = null }, runs) {
    this.root = root;
    this.runner = runner;
    this.values = values;
    this.judge = judge;
    this.runs = runs;
    const find = (testId) => root.querySelector(`[data-testid=${testId}]`);
    this.runSelect = find("rr-run");
    this.runHelp = find("rr-run-help");
    this.kField = find("rr-k");
    this.kValue = find("rr-k-value");
    this.figures = { questions: find("rr-questions"), single: find("rr-single"), union: find("rr-union"), mrr: find("rr-mrr") };
    this.versionList = find("rr-versions");
    this.questionList = find("rr-question-list");
    this.drawnNote = find("rr-drawn-note");
    this.tableBody = find("rr-table-body");
    this.learnerButton = find("rr-learner-run");
    this.learnerStatus = find("rr-learner-status");
    this.learnerTable = find("rr-learner-result");
    this.learnerRunning = false;

    for (const run of runs) {
      const option = element("option", "", run.label);
      option.value = run.id;
      this.runSelect.append(option);
    }
    this.runSelect.addEventListener("change", () => this.showRun(this.runSelect.value));
    this.kField.addEventListener("input", () => this.setK(Number(this.kField.value)));
    this.tableBody.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-run]");
      if (button) this.showRun(button.dataset.run);
    });
    this.learnerButton.addEventListener("click", () => this.showLearnerEvaluation());
    if (runner) {
      runner.onCodeChange(() => this.updateLearnerButton());
      this.updateLearnerButton();
    }
    this.k = Number(this.kField.value);
    this.run = runs[0];
    this.drawTable();
    this.showRun(this.run.id);
  }

  get runIndex() {
    return this.runs.indexOf(this.run);
  }

  showRun(runId) {
    this.run = this.runs.find((run) => run.id === runId) ?? this.runs[0];
    this.runSelect.value = this.run.id;
    this.runHelp.textContent = this.run.table === null
      ? "De vaste rankings van het voorbeeld in de les; vraag 4 heeft een lege ranking (niets gevonden)."
      : `De acht vragen van de testset, gezocht in ${this.run.table.passages} passages van deze opstelling.`;
    this.drawVersions();
    this.redraw();
  }

  setK(k) {
    this.k = k;
    this.redraw();
  }

  /** Everything that depends on k: the figures, each drawn question and the table's measures. */
  redraw() {
    this.kField.value = String(this.k);
    this.kValue.textContent = String(this.k);
    const evaluation = evaluateRuns(this.run.questions, this.run.rankings, this.k);
    this.evaluation = evaluation;
    this.figures.questions.textContent = String(evaluation.questions);
    this.figures.single.textContent = formatMeasure(evaluation.single);
    this.figures.union.textContent = formatMeasure(evaluation.union);
    this.figures.mrr.textContent = formatMeasure(evaluation.mrr);
    this.drawQuestions(evaluation);
    this.updateTable();
    this.clearLearnerResult();
  }

  drawVersions() {
    const items = Object.entries(this.run.corpus).map(([version, text]) => {
      const item = element("div", "runs__version");
      item.dataset.version = version;
      item.append(element("p", "runs__version-name", `${version} · ${Array.from(text).length} tekens`),
        element("pre", "runs__version-text", text));
      return item;
    });
    this.versionList.replaceChildren(...items);
  }

  drawQuestions(evaluation) {
    const { questions, corpus, rankings } = this.run;
    const drawn = questions.slice(0, MAX_DRAWN_QUESTIONS);
    this.drawnNote.hidden = drawn.length === questions.length;
    this.drawnNote.textContent = `De eerste ${drawn.length} van ${questions.length} vragen staan hieronder; de maten tellen ze allemaal.`;
    const lengths = Object.fromEntries(Object.entries(corpus).map(([version, text]) => [version, Array.from(text).length]));
    const fragment = document.createDocumentFragment();
    drawn.forEach((question, index) => {
      fragment.append(this.questionItem(question, rankings[question.id], evaluation.perQuestion[index], lengths));
    });
    this.questionList.replaceChildren(fragment);
  }

  questionItem(question, ranking, hits, lengths) {
    const [version, start, end] = question.evidence;
    const item = element("article", "runs__question");
    item.dataset.testid = "rr-question";
    item.dataset.question = question.id;
    item.dataset.singleRank = hits.singleRank === null ? "" : String(hits.singleRank);
    item.dataset.unionHit = String(hits.unionHit);
    item.append(element("p", "runs__question-title",
      `${question.id} · ${question.question} · bewijs ${version} [${start}, ${end}) · „${question.quote}”`));
    const top = ranking.slice(0, this.k);
    const versions = [version, ...Object.keys(lengths).filter((name) => name !== version && top.some((span) => span[0] === name))];
    for (const name of versions) {
      const track = element("div", "runs__track");
      track.dataset.version = name;
      track.append(element("span", "runs__track-label", name));
      const lane = element("div", "runs__lane");
      const length = lengths[name];
      if (name === version) {
        const evidence = element("span", "runs__evidence");
        evidence.style.left = percent(start, length);
        evidence.style.width = percent(end - start, length);
        evidence.title = `bewijs [${start}, ${end})`;
        lane.append(evidence);
      }
      let row = 0;
      top.forEach(([spanVersion, spanStart, spanEnd], position) => {
        if (spanVersion !== name) return;
        const rank = position + 1;
        const kind = spanVersion !== version ? "is-other" : rank === hits.singleRank ? "is-single" : "is-same";
        const bar = element("span", `runs__bar ${kind}`, String(rank));
        bar.dataset.testid = "rr-bar";
        bar.dataset.rank = String(rank);
        bar.style.left = percent(spanStart, length);
        bar.style.width = percent(spanEnd - spanStart, length);
        bar.style.top = `${1.4 + row * 1.2}rem`;
        bar.title = `plek ${rank}: ${spanVersion} [${spanStart}, ${spanEnd})`;
        row += 1;
        lane.append(bar);
      });
      lane.style.height = `${1.6 + Math.max(row, 0) * 1.2}rem`;
      if (name === version) lane.append(this.coverageLane(hits, start, end, length));
      track.append(lane);
      item.append(track);
    }
    const rankText = hits.singleRank === null ? "geen single hit" : `single hit op plek ${hits.singleRank}`;
    const unionText = hits.unionHit ? "union hit" : "geen union hit";
    const gaps = end - start - hits.coveredChars;
    item.append(element("p", "runs__verdict",
      `${rankText} · ${unionText}: ${hits.coveredChars} van ${end - start} tekens gedekt` + (gaps > 0 && hits.coveredChars > 0 ? `, ${gaps} in een gat` : "")));
    return item;
  }

  // The evidence's own stretch of the lane, split into covered pieces and gaps.
  coverageLane(hits, start, end, length) {
    const strip = element("span", "runs__coverage");
    strip.dataset.testid = "rr-coverage";
    let cursor = start;
    const segment = (low, high, covered) => {
      const piece = element("span", covered ? "runs__covered" : "runs__gap");
      piece.style.left = percent(low, length);
      piece.style.width = percent(high - low, length);
      piece.dataset.start = String(low);
      piece.dataset.end = String(high);
      piece.title = `${covered ? "gedekt" : "gat"} [${low}, ${high})`;
      strip.append(piece);
    };
    for (const [low, high] of hits.coveredPieces) {
      if (low > cursor) segment(cursor, low, false);
      segment(low, high, true);
      cursor = high;
    }
    if (cursor < end) segment(cursor, end, false);
    return strip;
  }

  drawTable() {
    const rows = [];
    for (const run of this.runs) {
      if (run.table === null) continue;
      const row = element("tr");
      row.dataset.testid = "rr-config-row";
      row.dataset.run = run.id;
      const name = element("th");
      name.scope = "row";
      const button = element("button", "runs__row-button", run.label);
      button.type = "button";
      button.dataset.run = run.id;
      name.append(button);
      row.append(name, element("td", "", String(run.table.passages)), element("td", "", String(run.table.storedWords)));
      for (const key of ["single", "union", "mrr", "context"]) {
        const cell = element("td");
        cell.dataset.measure = key;
        row.append(cell);
      }
      rows.push(row);
    }
    this.tableBody.replaceChildren(...rows);
  }

  updateTable() {
    for (const row of this.tableBody.rows) {
      const run = this.runs.find((candidate) => candidate.id === row.dataset.run);
      const evaluation = run === this.run ? this.evaluation : evaluateRuns(run.questions, run.rankings, this.k);
      const cells = Object.fromEntries([...row.querySelectorAll("td[data-measure]")].map((cell) => [cell.dataset.measure, cell]));
      cells.single.textContent = formatMeasure(evaluation.single);
      cells.union.textContent = formatMeasure(evaluation.union);
      cells.mrr.textContent = formatMeasure(evaluation.mrr);
      cells.context.textContent = formatMeasure(meanContextWords(run.questions, run.table, this.k));
      const current = run === this.run;
      row.classList.toggle("is-current", current);
      if (current) row.setAttribute("aria-current", "true");
      else row.removeAttribute("aria-current");
    }
  }

  // ----- "Mijn evaluatie" ------------------------------------------------------------------

  updateLearnerButton() {
    const ready = this.runner.definesFunction("evaluate");
    this.learnerButton.disabled = !ready || this.learnerRunning;
    if (!this.learnerRunning && this.learnerTable.hidden) {
      this.learnerStatus.textContent = ready
        ? "Klik op Mijn evaluatie: je evaluate draait op deze zoekronde met deze k."
        : "Zodra je code een functie evaluate heeft, kun je hier je eigen uitkomst bekijken.";
    }
  }

  async showLearnerEvaluation() {
    if (this.learnerRunning || this.runner === null) return;
    if (!this.runner.definesFunction("evaluate")) {
      this.learnerStatus.textContent = "Je code definieert nog geen functie evaluate; schrijf die eerst in de editor.";
      return;
    }
    const run = this.run;
    const k = this.k;
    const expected = expectedResult(this.evaluation);
    this.learnerRunning = true;
    this.learnerButton.disabled = true;
    this.root.dataset.learnerState = "running";
    this.learnerStatus.textContent = this.runner.loadingText() ?? "Je evaluate draait…";
    let comparison;
    try {
      const reply = await this.runner.callLearner("evaluate", [run.questions, run.rankings, run.corpus, k], {
        onStatus: () => { this.learnerStatus.textContent = "Je evaluate draait…"; },
      });
      comparison = compareEvaluation(reply, expected, this.values, this.judge);
    } catch (error) {
      comparison = { verdict: "no-result", summary: `Python kon je evaluate niet draaien: ${error && (error.message || error)}`, rows: [] };
    } finally {
      this.learnerRunning = false;
    }
    if (run !== this.run || k !== this.k) {
      this.root.dataset.learnerState = "stale";
      this.learnerStatus.textContent = "De zoekronde of k veranderde terwijl je functie draaide; klik opnieuw op Mijn evaluatie.";
      this.updateLearnerButton();
      return;
    }
    this.drawLearnerResult(comparison);
    this.updateLearnerButton();
  }

  drawLearnerResult(comparison) {
    this.root.dataset.learnerState = comparison.verdict;
    this.learnerStatus.textContent = comparison.summary;
    const body = this.learnerTable.tBodies[0];
    body.replaceChildren(...comparison.rows.map((row) => {
      const line = element("tr");
      line.dataset.testid = "rr-learner-row";
      line.dataset.key = row.key;
      line.dataset.same = String(row.same);
      line.append(element("th", "", row.key), element("td", "", row.expected), element("td", "", row.actual),
        element("td", row.same ? "runs__same" : "runs__different", row.same ? "klopt" : "verschilt"));
      return line;
    }));
    this.learnerTable.hidden = comparison.rows.length === 0;
  }

  clearLearnerResult() {
    if (this.learnerTable.hidden) return;
    this.learnerTable.hidden = true;
    this.learnerTable.tBodies[0].replaceChildren();
    this.root.dataset.learnerState = "stale";
    this.learnerStatus.textContent = "De zoekronde of k is veranderd; klik opnieuw op Mijn evaluatie.";
  }
}

/**
 * The widget's entry (site/src/mount-widgets.js calls it for each `:::{widget} retrieval-runs`).
 * "Bekijk in de visualisatie" runs the learner's evaluate on the shown run.
 * @param {HTMLElement} element  the widget's root, `[data-widget=retrieval-runs]`
 */
export function mount(element, context) {
  const viewer = new RetrievalRunViewer(element.querySelector("[data-runs]"), context, lessonRuns(context.pythonText));
  return { viewer, showCheckpoint: () => viewer.showLearnerEvaluation() };
}
