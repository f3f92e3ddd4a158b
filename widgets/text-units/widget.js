// The unit table of lesson rag-00b. The table, the byte strip and the chosen span come from
// units.js (the same counts as the lesson's solution.py, proven by widgets/text-units/tests), so
// they follow every keystroke without Python. "Vergelijk met mijn functies" runs the learner's own
// utf8_offsets, char_to_utf16 and byte_span_to_chars through the shared runner and puts each answer
// beside the right one; learner output is shown as text only.
import {
  MAX_CODE_POINTS, analyse, codePointLabel, hex, offsetRows, spanToChars, utf16Positions, visibleChar,
} from "./units.js";

const FUNCTIONS = ["utf8_offsets", "char_to_utf16", "byte_span_to_chars"];

function marker(symbol, words) {
  // A symbol for the eye and words for a screen reader: a state is never shown by colour alone.
  const span = document.createElement("span");
  span.className = "text-units__marker";
  const shown = document.createElement("span");
  shown.setAttribute("aria-hidden", "true");
  shown.textContent = symbol;
  const said = document.createElement("span");
  said.className = "visually-hidden";
  said.textContent = words;
  span.append(shown, said);
  return span;
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

function markerHtml(symbol, words) {
  return `<span class="text-units__marker"><span aria-hidden="true">${symbol}</span><span class="visually-hidden">${words}</span></span>`;
}

// Redraws a container whose children are one element per part (HTML strings), touching only the
// children whose HTML changed: the parts a redraw shares with the last one at the head and at the
// tail stay in the page. A keystroke changes a few rows of the table, so most of it is never
// parsed, styled or laid out again. `drawn`: the parts last drawn (null: none yet).
function patchChildren(container, drawn, parts) {
  if (drawn === null) {
    container.innerHTML = parts.join("");
    return;
  }
  const shortest = Math.min(drawn.length, parts.length);
  let head = 0;
  while (head < shortest && drawn[head] === parts[head]) head += 1;
  let tail = 0;
  while (tail < shortest - head && drawn[drawn.length - 1 - tail] === parts[parts.length - 1 - tail]) tail += 1;
  const children = container.children;
  for (let stale = drawn.length - head - tail; stale > 0; stale -= 1) children[head].remove();
  const fresh = parts.slice(head, parts.length - tail).join("");
  if (fresh === "") return;
  if (head === 0) container.insertAdjacentHTML("afterbegin", fresh);
  else children[head - 1].insertAdjacentHTML("afterend", fresh);
}

function charText(row) {
  return row.lone ? codePointLabel(row.codePoint) : visibleChar(row);
}

/** Dutch for what byte_span_to_chars does with the span (the reference's answer). */
export function describeSpan(analysis, byteStart, byteEnd, outcome) {
  const range = `Bytes [${byteStart}, ${byteEnd})`;
  if (outcome.kind === "not-int") return "Een bytegrens is een geheel getal.";
  if (outcome.kind === "outside") {
    return `${range}: grens ${outcome.edge} ligt buiten de ${analysis.totalBytes} bytes van de tekst; byte_span_to_chars geeft een ValueError.`;
  }
  if (outcome.kind === "cut") {
    const row = outcome.row;
    return `${range} knippen codepunt ${row.index} (${charText(row)}, ${codePointLabel(row.codePoint)}, bytes ${row.byteStart} tot ${row.byteEnd}) doormidden bij grens ${outcome.edge}; byte_span_to_chars geeft een ValueError.`;
  }
  if (outcome.kind === "reversed") return `${range}: het begin ligt na het eind; byte_span_to_chars geeft een ValueError.`;
  const covered = analysis.rows.slice(outcome.start, outcome.end).map(charText).join(" ");
  const what = outcome.start === outcome.end ? "een leeg bereik" : covered;
  return `${range} zijn codepunten [${outcome.start}, ${outcome.end}): ${what}. byte_span_to_chars geeft [${outcome.start}, ${outcome.end}].`;
}

export class UnitTable {
  constructor(root, { runner, values, pythonText, judge }) {
    this.root = root;
    this.runner = runner;
    this.values = values;
    this.judge = judge;
    // A field's number as Python would get it: digits only (no sign, no decimals).
    this.wholeNumber = (text) => pythonText.integerLiteral(text, { negative: false });
    const find = (testId) => root.querySelector(`[data-testid=${testId}]`);
    this.source = find("tu-source");
    this.summary = find("tu-summary");
    this.problem = find("tu-problem");
    this.rowsBody = find("tu-rows");
    this.strip = find("tu-boundaries");
    this.byteStart = find("tu-byte-start");
    this.byteEnd = find("tu-byte-end");
    this.spanResult = find("tu-span-result");
    this.learnerButton = find("tu-learner-run");
    this.learnerStatus = find("tu-learner-status");
    this.learnerSpan = find("tu-learner-span");
    this.learnerColumns = [...root.querySelectorAll("[data-learner-column]")];
    this.focusedBoundary = 0;
    // What the last redraw drew, one HTML string per row / strip element (see patchChildren), and
    // what the chosen span marks in it.
    this.drawnRows = null;
    this.drawnStrip = null;
    this.markedRows = [];
    this.markedGroups = [];
    this.chosenButtons = [];
    this.pickingEnd = false;  // the next click on a boundary sets the end
    this.learner = null;  // the learner's answers for this.analysis, when compared
    this.learnerRunning = false;
    this.source.addEventListener("input", () => { this.forgetLearner(); this.draw(); });
    for (const input of [this.byteStart, this.byteEnd]) {
      input.addEventListener("input", () => { this.pickingEnd = false; this.drawSpan(); });
    }
    this.strip.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-boundary]");
      if (button) this.pick(Number(button.dataset.boundary));
    });
    this.strip.addEventListener("keydown", (event) => this.moveFocus(event));
    this.learnerButton.addEventListener("click", () => this.showLearner());
    this.runner.onCodeChange(() => this.updateLearnerButton());
    this.draw();
    this.updateLearnerButton();
  }

  // ----- drawing -------------------------------------------------------------------------

  draw() {
    const analysis = analyse(this.source.value);
    this.analysis = analysis;
    this.root.dataset.valid = String(analysis.valid && !analysis.tooLong);
    const problems = [];
    if (analysis.tooLong) {
      problems.push(`Deze tekst heeft ${analysis.rows.length} codepunten; de tabel toont er hoogstens ${MAX_CODE_POINTS}. Maak hem korter.`);
    }
    if (!analysis.valid) {
      problems.push("Deze tekst bevat een losse surrogaat: die heeft geen UTF-8-codering, dus utf8_offsets, char_to_utf16 en byte_span_to_chars geven een ValueError. De tabel telt hem voor 3 bytes, zoals Python met \"surrogatepass\" doet.");
    }
    this.problem.textContent = problems.join(" ");
    this.problem.hidden = problems.length === 0;
    const shown = analysis.tooLong ? { ...analysis, rows: [] } : analysis;
    this.summary.textContent = analysis.tooLong ? "" : this.summaryText(analysis);
    this.drawRows(shown);
    this.drawStrip(shown);
    this.drawSpan();
  }

  summaryText(analysis) {
    const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
    return `${count(analysis.rows.length, "codepunt", "codepunten")} · ${count(analysis.totalBytes, "UTF-8-byte", "UTF-8-bytes")} · ${count(analysis.totalUnits, "UTF-16-eenheid", "UTF-16-eenheden")}`;
  }

  drawRows(analysis) {
    // One HTML string per redraw: at the size limit (100 rows) this is several times faster than
    // building each cell as a node. Everything that comes from the text is escaped.
    const learner = this.learner;
    const code = (text) => `<td class="text-units__code">${escapeHtml(text)}</td>`;
    const parts = [];
    // Rows kept from the last redraw must be as their HTML says: without the span's marks.
    this.clearSpanMarks();
    for (const row of analysis.rows) {
      const bytes = row.lone ? "geen (losse surrogaat)" : row.bytes.map((byte) => hex(byte, 2)).join(" ");
      parts.push(`<tr data-testid="tu-row" data-index="${row.index}" data-byte-start="${row.byteStart}" `
        + `data-byte-end="${row.byteEnd}" data-utf16="${row.utf16Start}"${row.lone ? ' data-lone="true"' : ""}>`
        + `<td><span data-row-marker></span>${row.index}</td>`
        + `<td class="text-units__char">${escapeHtml(visibleChar(row))}</td>`
        + code(codePointLabel(row.codePoint)) + code(bytes) + code(`[${row.byteStart}, ${row.byteEnd})`)
        + code(row.units.map((unit) => hex(unit, 4)).join(" ")) + code(String(row.utf16Start))
        + (learner ? this.learnerCellsHtml(row.index) : "") + "</tr>");
    }
    // The end of the text is a position too: char_to_utf16(text, len(text)) and the last boundary.
    const length = analysis.rows.length;
    parts.push(`<tr data-testid="tu-end-row" data-index="${length}" data-utf16="${analysis.totalUnits}">`
      + `<td><span data-row-marker></span>${length}</td><td class="text-units__char">(einde)</td><td></td><td></td>`
      + code(`[${analysis.totalBytes}]`) + "<td></td>" + code(String(analysis.totalUnits))
      + (learner ? `<td></td>${this.learnerCellsHtml(length, false)}` : "") + "</tr>");
    patchChildren(this.rowsBody, this.drawnRows, parts);
    this.drawnRows = parts;
    this.rowElements = [...this.rowsBody.querySelectorAll("tr[data-testid=tu-row]")];
    for (const column of this.learnerColumns) column.hidden = !learner;
    this.rowsBody.closest("table").classList.toggle("text-units__table--learner", Boolean(learner));
  }

  drawStrip(analysis) {
    const inside = new Map();  // byte offset inside a code point -> that row
    for (const row of analysis.rows) {
      for (let at = row.byteStart + 1; at < row.byteEnd; at += 1) inside.set(at, row);
    }
    this.focusedBoundary = Math.min(this.focusedBoundary, analysis.totalBytes);
    this.clearSpanMarks();
    this.boundaryLabels = [];
    // One part per element of the strip: a boundary between code points, or a code point's
    // group of bytes with the boundaries inside it. Every boundary is drawn out of the tab order;
    // the one roving tab stop is set after (it moves without a redraw).
    const parts = [];
    let html = "";
    let boundary = 0;
    const button = (row) => {
      const label = row ? `grens ${boundary}, midden in ${charText(row)}` : `grens ${boundary}`;
      this.boundaryLabels.push(label);
      html += `<button type="button" class="text-units__boundary${row ? " text-units__boundary--inner" : ""}" `
        + `data-testid="tu-boundary" data-boundary="${boundary}"${row ? ' data-inner="true"' : ""} `
        + `tabindex="-1" aria-label="${escapeHtml(label)}">${boundary}</button>`;
    };
    const part = () => {
      parts.push(html);
      html = "";
    };
    button(null);
    part();
    for (const row of analysis.rows) {
      // The bytes of one code point (and the boundaries inside it) stay together on a line.
      html += `<span class="text-units__group" data-row="${row.index}">`;
      row.bytes.forEach((byte, at) => {
        if (at > 0) button(row);
        // aria-hidden: the table says the same in text.
        html += `<span class="text-units__byte" aria-hidden="true">${hex(byte, 2)}</span>`;
        boundary += 1;
      });
      html += "</span>";
      part();
      button(null);
      part();
    }
    patchChildren(this.strip, this.drawnStrip, parts);
    this.drawnStrip = parts;
    this.boundaryButtons = [...this.strip.querySelectorAll("button[data-boundary]")];
    this.byteGroups = [...this.strip.querySelectorAll(".text-units__group")];
    for (const stop of this.strip.querySelectorAll("button[data-boundary][tabindex='0']")) stop.tabIndex = -1;
    this.boundaryButtons[this.focusedBoundary].tabIndex = 0;
  }

  /** Takes the chosen span's marks off the boundaries, rows and byte groups that carry them. */
  clearSpanMarks() {
    for (const button of this.chosenButtons) {
      button.dataset.chosen = "";
      button.setAttribute("aria-label", this.boundaryLabels[Number(button.dataset.boundary)]);
    }
    this.chosenButtons = [];
    for (const tr of this.markedRows) {
      tr.dataset.span = "";
      tr.querySelector("[data-row-marker]").textContent = "";
    }
    for (const group of this.markedGroups) group.classList.remove("text-units__byte--in-span");
    this.markedRows = [];
    this.markedGroups = [];
  }

  span() {
    return [this.wholeNumber(this.byteStart.value), this.wholeNumber(this.byteEnd.value)];
  }

  drawSpan() {
    const analysis = this.analysis;
    const [byteStart, byteEnd] = this.span();
    const outcome = analysis.tooLong ? { kind: "too-long" }
      : byteStart === null || byteEnd === null ? { kind: "not-int" } : spanToChars(analysis, byteStart, byteEnd);
    this.outcome = outcome;
    this.root.dataset.span = outcome.kind;
    this.spanResult.dataset.kind = outcome.kind;
    this.spanResult.textContent = outcome.kind === "too-long" ? "" : describeSpan(analysis, byteStart, byteEnd, outcome);
    // Only the boundaries, rows and byte groups whose state changes are touched.
    this.clearSpanMarks();
    for (const [boundary, role] of [[byteStart, "begin"], [byteEnd, "eind"]]) {
      const button = boundary === null ? undefined : this.boundaryButtons[boundary];
      if (!button) continue;
      const both = byteStart === byteEnd;
      button.dataset.chosen = role === "eind" && !both ? "end" : "start";
      button.setAttribute("aria-label", `${this.boundaryLabels[boundary]}, gekozen als ${both ? "begin en eind" : role}`);
      this.chosenButtons.push(button);
    }
    const mark = (index, state) => {
      const tr = this.rowElements[index];
      if (!tr) return;
      tr.dataset.span = state;
      tr.querySelector("[data-row-marker]").innerHTML = state === "in-span"
        ? markerHtml("▶ ", "in het gekozen bereik: ") : markerHtml("✂ ", "doorgeknipt: ");
      this.markedRows.push(tr);
      if (state === "in-span") {
        const group = this.byteGroups[index];
        group.classList.add("text-units__byte--in-span");
        this.markedGroups.push(group);
      }
    };
    if (outcome.kind === "span") for (let index = outcome.start; index < outcome.end; index += 1) mark(index, "in-span");
    if (outcome.kind === "cut") mark(outcome.row.index, "cut");
    this.drawLearnerSpan();
  }

  pick(boundary) {
    this.focusedBoundary = boundary;
    if (this.pickingEnd) {
      this.byteEnd.value = String(boundary);
      this.pickingEnd = false;
    } else {
      this.byteStart.value = String(boundary);
      this.byteEnd.value = String(boundary);
      this.pickingEnd = true;
    }
    for (const button of this.strip.querySelectorAll("button[data-boundary][tabindex='0']")) button.tabIndex = -1;
    if (this.boundaryButtons[boundary]) this.boundaryButtons[boundary].tabIndex = 0;
    this.drawSpan();
  }

  moveFocus(event) {
    const last = this.analysis.tooLong ? 0 : this.analysis.totalBytes;
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    let next;
    if (event.key in moves) next = this.focusedBoundary + moves[event.key];
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = last;
    else return;
    event.preventDefault();
    next = Math.max(0, Math.min(last, next));
    const buttons = this.boundaryButtons;
    buttons[this.focusedBoundary]?.setAttribute("tabindex", "-1");
    this.focusedBoundary = next;
    buttons[next]?.setAttribute("tabindex", "0");
    buttons[next]?.focus();
  }

  // ----- the learner's functions -----------------------------------------------------------

  forgetLearner() {
    this.learner = null;
    this.learnerSpan.hidden = true;
    delete this.root.dataset.learnerState;
    this.updateLearnerButton();
  }

  learnerReady() {
    return FUNCTIONS.some((name) => this.runner.definesFunction(name));
  }

  updateLearnerButton() {
    const ready = this.learnerReady();
    this.learnerButton.disabled = !ready || this.learnerRunning;
    if (!this.learnerRunning && this.learner === null) {
      this.learnerStatus.textContent = ready
        ? "Klik op Vergelijk met mijn functies: je eigen functies rekenen op deze tekst en dit bytebereik."
        : "Zodra je code een van deze functies heeft, kun je ze hier vergelijken.";
    }
  }

  problemOf(reply, name) {
    if (reply.status === "returned") return null;
    if (reply.status === "timeout") return `${name} liep langer dan ${this.runner.timeLimitSeconds} seconden en is gestopt.`;
    if (reply.status === "stopped") return `${name} is gestopt.`;
    if (reply.status === "raised") return reply.message || `${name} gaf een fout.`;
    return reply.message || `${name} gaf geen antwoord.`;
  }

  async showLearner() {
    if (this.learnerRunning) return;
    const analysis = this.analysis;
    if (analysis.tooLong) {
      this.learnerStatus.textContent = `Maak de tekst eerst korter dan ${MAX_CODE_POINTS + 1} codepunten.`;
      return;
    }
    this.learnerRunning = true;
    this.updateLearnerButton();
    this.root.dataset.learnerState = "running";
    const text = this.source.value;
    const learner = { offsets: null, offsetsProblem: null, positions: null, positionsProblem: null };
    try {
      if (!analysis.valid) {
        // The reference raises a ValueError on this text; a lone surrogate cannot cross to Python
        // intact, so the learner's functions are not run on it.
        learner.offsetsProblem = "niet uitgevoerd: deze tekst hoort een ValueError te geven.";
        learner.positionsProblem = learner.offsetsProblem;
      } else {
        await this.learnerOffsets(text, learner);
        await this.learnerPositions(text, analysis, learner);
      }
    } finally {
      this.learnerRunning = false;
    }
    if (analysis !== this.analysis) {
      this.root.dataset.learnerState = "stale";
      this.learnerStatus.textContent = "De tekst veranderde terwijl je functies draaiden; klik opnieuw.";
      this.updateLearnerButton();
      return;
    }
    this.learner = learner;
    this.expectedPositions = utf16Positions(analysis);
    this.offsetsDifference = this.firstDifference("offsets");
    this.positionsDifference = this.firstDifference("positions");
    this.drawRows(analysis);
    this.drawSpan();
    await this.runLearnerSpan();
    this.reportLearner();
    this.updateLearnerButton();
  }

  async learnerOffsets(text, learner) {
    if (!this.runner.definesFunction("utf8_offsets")) {
      learner.offsetsProblem = "utf8_offsets is nog niet geschreven.";
      return;
    }
    this.learnerStatus.textContent = this.runner.loadingText() ?? "utf8_offsets rekent…";
    const reply = await this.runner.callLearner("utf8_offsets", [text]);
    const problem = this.problemOf(reply, "utf8_offsets");
    if (problem) learner.offsetsProblem = problem;
    else if (!Array.isArray(reply.value)) learner.offsetsProblem = `utf8_offsets gaf ${this.values.pythonRepr(reply.value)}, geen list.`;
    else learner.offsets = reply.value;
  }

  async learnerPositions(text, analysis, learner) {
    if (!this.runner.definesFunction("char_to_utf16")) {
      learner.positionsProblem = "char_to_utf16 is nog niet geschreven.";
      return;
    }
    learner.positions = [];
    for (let index = 0; index <= analysis.rows.length; index += 1) {
      this.learnerStatus.textContent = `char_to_utf16: index ${index} van ${analysis.rows.length}…`;
      const reply = await this.runner.callLearner("char_to_utf16", [text, index]);
      const problem = this.problemOf(reply, "char_to_utf16");
      learner.positions.push(problem ? { problem } : { value: reply.value });
      if (reply.status === "timeout" || reply.status === "stopped") break;
    }
  }

  learnerCellsHtml(index, withOffsets = true) {
    const learner = this.learner;
    const expectedRow = this.analysis.rows[index];
    let offsets = "";
    if (learner.offsets !== null && expectedRow) {
      const got = learner.offsets[index];
      const expected = `[${expectedRow.index}, ${expectedRow.byteStart}, ${expectedRow.byteEnd}]`;
      offsets = this.verdictHtml(got === undefined ? "(geen rij)" : this.values.pythonRepr(got), expected,
        index === this.offsetsDifference);
    } else if (index === 0 && learner.offsetsProblem) {
      offsets = escapeHtml(learner.offsetsProblem);
    }
    let positions = "";
    const position = learner.positions?.[index];
    if (position) {
      const expected = String(this.expectedPositions[index]);
      const shown = position.problem ?? this.values.pythonRepr(position.value);
      positions = this.verdictHtml(shown, expected, index === this.positionsDifference);
    } else if (index === 0 && learner.positionsProblem) {
      positions = escapeHtml(learner.positionsProblem);
    }
    const cellOf = (html) => `<td class="text-units__code text-units__learner-cell">${html}</td>`;
    return (withOffsets ? cellOf(offsets) : "") + cellOf(positions);
  }

  verdictHtml(shown, expected, first) {
    const same = shown === expected;
    return `<span data-testid="tu-learner-cell" data-verdict="${same ? "same" : "different"}"`
      + `${first ? ' data-first-difference="true"' : ""}>`
      + markerHtml(same ? "✓ " : "✗ ", same ? "gelijk: " : "anders: ") + escapeHtml(shown)
      + (first ? markerHtml(" ← eerste verschil", ", het eerste verschil") : "") + "</span>";
  }

  /** The first row where the learner differs from the right answer, or -1. */
  firstDifference(kind) {
    const learner = this.learner;
    const analysis = this.analysis;
    if (kind === "offsets") {
      if (learner.offsets === null) return -1;
      // The grader's judge (context.judge): its path starts with the row, "[3][1]" or "[6]".
      const found = this.judge.firstDifference(learner.offsets, offsetRows(analysis));
      return found === null ? -1 : Number(/^\[(\d+)\]/.exec(found.path)[1]);
    }
    if (!learner.positions) return -1;
    const expected = utf16Positions(analysis);
    return learner.positions.findIndex((position, index) =>
      position.problem !== undefined || this.values.pythonRepr(position.value) !== String(expected[index]));
  }

  async runLearnerSpan() {
    this.learnerSpanReply = null;
    if (!this.runner.definesFunction("byte_span_to_chars") || !this.analysis.valid) return;
    const [byteStart, byteEnd] = this.span();
    if (byteStart === null || byteEnd === null) return;
    this.learnerStatus.textContent = "byte_span_to_chars rekent…";
    const reply = await this.runner.callLearner("byte_span_to_chars", [this.source.value, byteStart, byteEnd]);
    this.learnerSpanReply = { reply, byteStart, byteEnd };
    this.drawLearnerSpan();
  }

  drawLearnerSpan() {
    const answer = this.learnerSpanReply;
    const [byteStart, byteEnd] = this.span();
    if (!this.learner || !answer || answer.byteStart !== byteStart || answer.byteEnd !== byteEnd) {
      this.learnerSpan.hidden = !this.learner;
      this.learnerSpan.dataset.verdict = "";
      this.learnerSpan.textContent = this.learner
        ? "Het bytebereik veranderde: klik opnieuw op Vergelijk met mijn functies voor jouw byte_span_to_chars." : "";
      return;
    }
    const { reply } = answer;
    const outcome = this.outcome;
    const expected = outcome.kind === "span" ? `[${outcome.start}, ${outcome.end}]` : "een ValueError";
    let got;
    if (reply.status === "returned") got = this.values.pythonRepr(reply.value);
    else if (reply.status === "raised" && reply.error?.isValueError) got = "een ValueError";
    else got = this.problemOf(reply, "byte_span_to_chars");
    const same = got === expected;
    this.learnerSpan.hidden = false;
    this.learnerSpan.dataset.verdict = same ? "same" : "different";
    this.learnerSpan.replaceChildren(marker(same ? "✓ " : "✗ ", same ? "gelijk: " : "anders: "),
      `Jouw byte_span_to_chars(text, ${byteStart}, ${byteEnd}) geeft ${got}; juist is ${expected}.`);
  }

  reportLearner() {
    const parts = [];
    const offsetsAt = this.firstDifference("offsets");
    const positionsAt = this.firstDifference("positions");
    if (this.learner.offsets !== null) {
      parts.push(offsetsAt === -1 ? "utf8_offsets klopt voor elke rij."
        : offsetsAt >= this.analysis.rows.length ? `utf8_offsets geeft ${this.learner.offsets.length} rijen voor ${this.analysis.rows.length} codepunten.`
          : `utf8_offsets verschilt eerst bij rij ${offsetsAt}.`);
    } else if (this.learner.offsetsProblem) parts.push(`utf8_offsets: ${this.learner.offsetsProblem}`);
    if (this.learner.positions) {
      parts.push(positionsAt === -1 ? "char_to_utf16 klopt voor elke index." : `char_to_utf16 verschilt eerst bij index ${positionsAt}.`);
    } else if (this.learner.positionsProblem) parts.push(`char_to_utf16: ${this.learner.positionsProblem}`);
    if (this.learnerSpanReply) parts.push(this.learnerSpan.dataset.verdict === "same" ? "byte_span_to_chars klopt voor dit bereik." : "byte_span_to_chars verschilt voor dit bereik.");
    const differs = offsetsAt !== -1 || positionsAt !== -1 || this.learnerSpan.dataset.verdict === "different"
      || this.learner.offsetsProblem || this.learner.positionsProblem;
    this.root.dataset.learnerState = differs ? "different" : "matching";
    this.learnerStatus.textContent = parts.join(" ");
  }
}

/**
 * The widget's entry (site/src/mount-widgets.js calls it for each `:::{widget} text-units`).
 * "Bekijk in de visualisatie" on one of the lesson's checkpoints compares the learner's functions.
 */
export function mount(element, context) {
  const table = new UnitTable(element.querySelector("[data-text-units]"), context);
  return { table, showCheckpoint: () => table.showLearner() };
}
