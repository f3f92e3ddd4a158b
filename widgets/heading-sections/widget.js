// The structure view of rag-02: draws what structure.js computes for the Markdown a learner types
// (headings with their paths, section chunks, sized chunks, rag-01's fixed windows), highlights the
// chosen chunk's exact span in the source with fences shaded, shows its embed_text, and ("Mijn
// chunks") compares the learner's own functions with the reference through context.runner.
import { analyse } from "./structure.js";
import { firstDifference } from "./compare.js";
import widgetPython from "./widget.py";

const CHECKPOINTS = ["markdown_headings", "section_chunks", "sized_chunks"];

function range(start, end) {
  return `[${start}, ${end})`;
}

// Children of `container` for `entries`, reused by key: the run of equal keys at the start and
// the one at the end stay as they are, only the middle is rewritten, added or removed. An edit
// that turns one heading of thousands into text then touches a handful of elements instead of
// every one after it (their position shifts, their key does not).
function reconcile(container, count, same, make, fill) {
  const old = container.children;
  const oldCount = old.length;
  let prefix = 0;
  while (prefix < oldCount && prefix < count && same(old[prefix], prefix)) prefix += 1;
  let suffix = 0;
  while (suffix < oldCount - prefix && suffix < count - prefix
    && same(old[oldCount - 1 - suffix], count - 1 - suffix)) suffix += 1;
  const oldMiddle = oldCount - prefix - suffix;
  const newMiddle = count - prefix - suffix;
  for (let extra = oldMiddle - newMiddle; extra > 0; extra -= 1) old[prefix + newMiddle].remove();
  const before = old[prefix + Math.min(oldMiddle, newMiddle)] ?? null;
  for (let missing = newMiddle - oldMiddle; missing > 0; missing -= 1) container.insertBefore(make(), before);
  for (let index = prefix; index < prefix + newMiddle; index += 1) fill(old[index], index);
}

// `same` for children that carry their entry's key in data-key (set it in `fill`).
const keyed = (keys) => (element, index) => element.dataset.key === keys[index];

function pathText(headings) {
  return headings.length === 0 ? "(geen kopjes: de inleiding)" : headings.join(" > ");
}

export class StructureView {
  constructor(root, { runner, values, pythonText, judge }) {
    this.root = root;
    this.runner = runner;
    this.values = values;
    this.pythonText = pythonText;
    this.judge = judge;
    const find = (testId) => root.querySelector(`[data-testid=${testId}]`);
    this.source = find("hs-source");
    this.maxWordsField = find("hs-max-words");
    this.overlapField = find("hs-overlap");
    this.problems = find("hs-problems");
    this.tree = find("hs-headings");
    this.sectionList = find("hs-sections");
    this.sizedList = find("hs-sized");
    this.windowList = find("hs-windows");
    this.selectedRange = find("hs-selected-range");
    this.sourceView = find("hs-source-view");
    this.embedText = find("hs-embed-text");
    this.learnerStatus = find("hs-learner-status");
    this.learnerList = find("hs-learner-list");
    this.learnerButtons = Object.fromEntries(CHECKPOINTS.map((name) => [name, find(`hs-learner-${name}`)]));
    this.result = null;
    this.selectedItem = null;
    this.tabStops = new Map(); // list -> its one item with tabIndex 0
    this.selected = { kind: "section", index: 0 };
    this.frame = 0;
    this.running = false;
    const schedule = () => this.scheduleRedraw();
    for (const field of [this.source, this.maxWordsField, this.overlapField]) {
      field.addEventListener("input", schedule);
    }
    for (const list of [this.sectionList, this.sizedList, this.windowList]) {
      list.addEventListener("click", (event) => {
        const item = event.target.closest("[data-kind]");
        if (item) this.select(item.dataset.kind, [...list.children].indexOf(item));
      });
      list.addEventListener("keydown", (event) => this.onListKey(list, event));
    }
    for (const [name, button] of Object.entries(this.learnerButtons)) {
      button.addEventListener("click", () => this.showLearner(name));
    }
    this.redraw();
  }

  scheduleRedraw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.redraw();
    });
  }

  redraw() {
    if (!this.learnerList.hidden || this.root.hasAttribute("data-learner-state")) {
      // An answer for the old source would now be wrong: say so instead of keeping it.
      this.root.setAttribute("data-learner-state", "stale");
      this.learnerStatus.textContent = "De invoer is veranderd; klik opnieuw op een van de knoppen hierboven.";
      this.learnerList.hidden = true;
      this.learnerList.replaceChildren();
    }
    this.result = analyse(this.source.value, this.maxWordsField.value, this.overlapField.value, this.pythonText);
    this.drawProblems(this.result.problems);
    this.drawTree(this.result.headings);
    this.drawList(this.sectionList, "section", this.result.sections, (chunk) =>
      `s${chunk.chunkNumber} · niveau ${chunk.level} · ${range(chunk.start, chunk.end)} · ${pathText(chunk.headings)}`);
    this.drawList(this.sizedList, "sized", this.result.sized, (chunk) =>
      `c${chunk.chunkNumber} · sectie ${chunk.section} · ${range(chunk.start, chunk.end)} · ${chunk.text}`);
    this.drawList(this.windowList, "window", this.result.fixed, (window) =>
      `woorden ${range(window.wordStart, window.wordEnd)} · ${range(window.start, window.end)} · ${window.text}`);
    const lists = { section: this.result.sections, sized: this.result.sized, window: this.result.fixed };
    const kind = lists[this.selected.kind].length > 0 ? this.selected.kind : "section";
    this.select(kind, Math.min(this.selected.index, Math.max(lists[kind].length - 1, 0)));
  }

  drawProblems(problems) {
    this.problems.hidden = problems.length === 0;
    const list = document.createElement("ul");
    for (const problem of problems) {
      const item = document.createElement("li");
      item.textContent = problem;
      list.append(item);
    }
    const intro = document.createElement("p");
    intro.textContent = "sized_chunks zou deze invoer weigeren; de secties staan er wel, de vensters niet:";
    this.problems.replaceChildren(...(problems.length ? [intro, list] : []));
  }

  drawTree(headings) {
    const keys = headings.map((heading) =>
      `${heading.level}|${heading.line}|${heading.start}|${heading.end}|${JSON.stringify(heading.path)}`);
    reconcile(this.tree, keys.length, keyed(keys), () => {
      const item = document.createElement("li");
      item.dataset.testid = "hs-heading";
      item.className = "sections-view__tree-item";
      return item;
    }, (item, index) => {
      const heading = headings[index];
      item.dataset.key = keys[index];
      item.dataset.level = heading.level;
      item.dataset.line = heading.line;
      item.dataset.start = heading.start;
      item.dataset.end = heading.end;
      item.dataset.path = JSON.stringify(heading.path);
      item.style.setProperty("--level", heading.level);
      const level = document.createElement("span");
      level.className = "sections-view__level";
      level.textContent = "#".repeat(heading.level);
      const crumbs = document.createElement("span");
      crumbs.className = "sections-view__crumbs";
      crumbs.textContent = heading.path.map((title) => title === "" ? "(leeg)" : title).join(" › ");
      item.replaceChildren(level, " ", crumbs, ` · regel ${heading.line}`);
    });
  }

  // Items are reused by key (reconcile): an edit of a 20 000-character source touches the few
  // items it changed, not thousands.
  drawList(list, kind, entries, label) {
    const testid = { section: "hs-section", sized: "hs-sized-chunk", window: "hs-window" }[kind];
    const labels = entries.map(label);
    const keys = entries.map((entry, index) =>
      `${entry.start}|${entry.end}|${entry.headings ? JSON.stringify(entry.headings) : ""}|${entry.section ?? ""}|${labels[index]}`);
    reconcile(list, keys.length, keyed(keys), () => {
      const item = document.createElement("div");
      item.className = "sections-view__item";
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", "false");
      item.tabIndex = -1; // one tab stop per list (updateTabStops); the arrow keys move within it
      item.dataset.testid = testid;
      item.dataset.kind = kind;
      return item;
    }, (item, index) => {
      const entry = entries[index];
      item.dataset.key = keys[index];
      item.dataset.start = entry.start;
      item.dataset.end = entry.end;
      if (entry.headings) item.dataset.headings = JSON.stringify(entry.headings);
      if (kind === "sized") item.dataset.section = entry.section;
      if (kind === "window") {
        const crosses = entry.sections.length > 1;
        item.dataset.crosses = String(crosses);
        item.classList.toggle("sections-view__item--crosses", crosses);
      }
      item.textContent = labels[index];
    });
  }

  // A listbox is one tab stop: the chosen item, or the first when the choice is in another list.
  // Only the item that was the stop and the one that becomes it are touched.
  updateTabStops(list) {
    const current = this.selectedItem?.parentElement === list ? this.selectedItem : list.firstElementChild;
    const previous = this.tabStops.get(list);
    if (previous === current) return;
    if (previous && previous.parentElement === list) previous.tabIndex = -1;
    if (current) current.tabIndex = 0;
    this.tabStops.set(list, current);
  }

  onListKey(list, event) {
    const items = [...list.children];
    if (items.length === 0) return;
    const at = Math.max(items.indexOf(document.activeElement), 0);
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = Math.min(Math.max(next, 0), items.length - 1);
    this.select(items[index].dataset.kind, index);
    items[index].focus();
  }

  select(kind, index) {
    this.selected = { kind, index };
    const lists = { section: this.sectionList, sized: this.sizedList, window: this.windowList };
    if (this.selectedItem) {
      this.selectedItem.setAttribute("aria-selected", "false");
      this.selectedItem.classList.remove("sections-view__item--selected");
    }
    this.selectedItem = lists[kind].children[index] ?? null;
    if (this.selectedItem) {
      this.selectedItem.setAttribute("aria-selected", "true");
      this.selectedItem.classList.add("sections-view__item--selected");
    }
    for (const list of Object.values(lists)) this.updateTabStops(list);
    const entries = { section: this.result.sections, sized: this.result.sized, window: this.result.fixed }[kind];
    const entry = entries[index] ?? null;
    this.selectedRange.textContent = entry === null
      ? "Geen chunk om te kiezen."
      : `Tekens ${range(entry.start, entry.end)} van ${this.result.length}.`;
    this.embedText.textContent = entry === null ? "" : (kind === "window" ? entry.text : (entry.embedText ?? embedTextOf(entry)));
    this.drawSource(entry);
  }

  // The source as segments: each heading line and fence line is a mark (they never overlap and
  // come in text order), the chosen span is cut out of them; one pass, so 20 000 characters with
  // thousands of headings stay fast.
  drawSource(entry) {
    const { utf16, headings, fenceLines, length } = this.result;
    const lines = [
      ...headings.map((heading) => ({ start: heading.start, end: heading.end, names: ["heading"] })),
      ...fenceLines.map((line) => ({ start: line.start, end: line.end, names: line.looksLikeHeading ? ["fence", "not-heading"] : ["fence"] })),
    ].sort((a, b) => a.start - b.start);
    const segments = [];
    let position = 0;
    for (const line of lines) {
      if (line.start > position) segments.push({ start: position, end: line.start, names: [] });
      if (line.end > line.start) segments.push(line);
      position = Math.max(position, line.end);
    }
    if (position < length) segments.push({ start: position, end: length, names: [] });
    const text = this.source.value;
    const pieces = [];
    const add = (start, end, names, selected) => {
      if (start >= end) return;
      const classes = names.map((name) => `sections-view__src--${name}`);
      if (selected) classes.push("sections-view__src--selected");
      pieces.push({ text: text.slice(utf16[start], utf16[end]), className: classes.join(" "), selected });
    };
    const [from, to] = entry === null ? [0, 0] : [entry.start, entry.end];
    for (const segment of segments) {
      // Split each segment where the chosen span begins and ends.
      const cuts = [segment.start, Math.min(Math.max(from, segment.start), segment.end),
        Math.min(Math.max(to, segment.start), segment.end), segment.end];
      for (let index = 0; index < 3; index += 1) {
        add(cuts[index], cuts[index + 1], segment.names, index === 1);
      }
    }
    // Spans are reconciled as the lists' items are, compared by class and text.
    reconcile(this.sourceView, pieces.length,
      (span, index) => span.className === pieces[index].className && span.textContent === pieces[index].text,
      () => document.createElement("span"),
      (span, index) => {
        const piece = pieces[index];
        if (span.className !== piece.className) span.className = piece.className;
        if (span.textContent !== piece.text) span.textContent = piece.text;
        if (piece.selected) span.dataset.testid = "hs-source-selected";
        else if (span.dataset.testid) delete span.dataset.testid;
      });
  }

  // ----- "Mijn chunks" ----------------------------------------------------------------------

  async showLearner(name) {
    if (this.running) return;
    if (this.runner.learnerCode() === null) {
      this.learnerStatus.textContent = `Er is geen editor op deze pagina om ${name} uit te lezen.`;
      return;
    }
    if (!this.runner.definesFunction(name)) {
      this.learnerStatus.textContent = `Je code definieert nog geen functie ${name}; schrijf die eerst in de editor.`;
      return;
    }
    this.running = true;
    this.root.setAttribute("data-learner-state", "running");
    this.learnerStatus.textContent = this.runner.loadingText() ?? `Je ${name} draait…`;
    try {
      const outcome = await this.compareWithReference(name);
      this.root.setAttribute("data-learner-state", outcome.state);
      this.learnerStatus.textContent = outcome.summary;
      this.drawLearnerList(outcome.chunks ?? null, outcome.referenceChunks ?? []);
    } catch (error) {
      this.root.setAttribute("data-learner-state", "no-result");
      this.learnerStatus.textContent = `Python kon je ${name} niet draaien: ${error && (error.message || error)}`;
    } finally {
      this.running = false;
    }
  }

  async compareWithReference(name) {
    const text = this.source.value;
    let args;
    if (name === "markdown_headings") {
      args = [text];
    } else {
      const prepared = await this.runner.callModule(widgetPython, "learner_document", [text]);
      if (prepared.status !== "returned") return { state: "no-result", summary: failure(name, prepared, this.runner) };
      if (prepared.value === null) {
        return { state: "no-result", summary: "Deze tekst heeft een losse surrogaat en dus geen UTF-8-vorm: er is geen snapshot van te maken." };
      }
      args = name === "sized_chunks"
        ? [prepared.value, this.result.maxWords ?? this.maxWordsField.value, this.result.overlap ?? this.overlapField.value]
        : [prepared.value];
    }
    const reference = await this.runner.callReference(name, args);
    const mine = await this.runner.callLearner(name, args);
    if (mine.status === "timeout" || mine.status === "stopped" || mine.status === "error" ||
        mine.status === "load-error" || mine.status === "no-function") {
      return { state: "no-result", summary: failure(name, mine, this.runner) };
    }
    if (reference.status === "raised") {
      return mine.status === "raised" && mine.error.isValueError
        ? { state: "matching", summary: `Net als de referentie weigert je ${name} deze invoer met een ValueError.` }
        : { state: "different", summary: `De referentie weigert deze invoer met een ValueError, maar je ${name} ${mine.status === "raised" ? `gaf ${mine.message}` : "gaf een resultaat"}.` };
    }
    if (mine.status === "raised") return { state: "different", summary: mine.message };
    const difference = firstDifference(mine.value, reference.value, this.values, this.judge);
    const chunks = Array.isArray(mine.value) ? mine.value : null;
    const referenceChunks = Array.isArray(reference.value) ? reference.value : [];
    if (difference === null) {
      return { state: "matching", summary: `Je ${name} geeft precies wat de referentie geeft voor deze bron.`, chunks, referenceChunks };
    }
    return { state: "different", summary: `Eerste verschil: ${difference}`, chunks, referenceChunks };
  }

  drawLearnerList(chunks, referenceChunks) {
    this.learnerList.hidden = chunks === null;
    if (chunks === null) {
      this.learnerList.replaceChildren();
      return;
    }
    const repr = this.values.pythonRepr;
    this.learnerList.replaceChildren(...chunks.map((chunk, index) => {
      const item = document.createElement("li");
      item.dataset.testid = "hs-learner-chunk";
      const same = index < referenceChunks.length && this.judge.same(chunk, referenceChunks[index]);
      item.dataset.status = same ? "matching" : "different";
      const field = (key) => (chunk instanceof Map ? chunk.get(key) : undefined);
      const start = field("start");
      const end = field("end");
      if (start !== undefined) item.dataset.start = repr(start);
      if (end !== undefined) item.dataset.end = repr(end);
      const headings = field("headings");
      item.textContent = `Jouw ${index + 1}e · ${start === undefined ? "?" : repr(start)}–${end === undefined ? "?" : repr(end)}` +
        (Array.isArray(headings) ? ` · ${headings.join(" > ")}` : field("title") !== undefined ? ` · ${field("title")}` : "") +
        ` · ${same ? "klopt" : "anders"}`;
      return item;
    }));
  }
}

function embedTextOf(section) {
  return section.headings.length > 0 ? `${section.headings.join(" > ")}\n\n${section.text}` : section.text;
}

function failure(name, reply, runner) {
  if (reply.status === "timeout") return `Je ${name} liep langer dan ${runner.timeLimitSeconds} seconden en is gestopt.`;
  if (reply.status === "stopped") return `Gestopt voordat je ${name} klaar was.`;
  if (reply.status === "no-function") return `Je code definieert nog geen functie ${name}.`;
  return `Python kon je ${name} niet draaien: ${reply.message}`;
}

/**
 * The widget's entry (site/src/mount-widgets.js calls it for each `:::{widget} heading-sections`).
 * "Bekijk in de visualisatie" on a failing checkpoint runs the learner's function of that checkpoint.
 */
export function mount(element, context) {
  const view = new StructureView(element.querySelector("[data-sections-view]"), context);
  return { view, showCheckpoint: (id) => view.showLearner(CHECKPOINTS.includes(id) ? id : "section_chunks") };
}
