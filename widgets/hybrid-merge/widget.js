// The merge viewer of lesson rag-04. Both search routes run in Python in the page (routes.py over
// data in corpus.json, through the shared runner); the merge, the cap and the context come from the lesson's
// reference solution (runner.callReference), and "Mijn samenvoeging" runs the learner's own three
// functions on the same hits (runner.callLearner). Learner output is shown as text only.
import corpus from "./corpus.json";
import routesPython from "./routes.py";

const FETCHED_PER_ROUTE = 6;
const STATE_LABELS = { taken: "gekozen", refilled: "aangevuld", skipped: "overgeslagen" };
const ROUTE_LABELS = { keyword: "trefwoord", semantic: "semantisch" };

function plainHit(hit) {
  return { id: hit.get("id"), document_id: hit.get("document_id"), chunk_number: hit.get("chunk_number") };
}

function replyProblem(reply, what, timeLimitSeconds) {
  if (reply.status === "returned") return null;
  if (reply.status === "timeout") return `${what} liep langer dan ${timeLimitSeconds} seconden en is gestopt.`;
  if (reply.status === "stopped") return `${what} is gestopt.`;
  return reply.message || `${what} gaf geen antwoord.`;
}

export class MergeViewer {
  constructor(root, { runner, values, pythonText, judge }) {
    this.root = root;
    this.runner = runner;
    this.values = values;
    this.judge = judge;
    // A field's number as Python would get it: digits only (no sign, no decimals).
    this.wholeNumber = (text) => pythonText.integerLiteral(text, { negative: false });
    const find = (testId) => root.querySelector(`[data-testid=${testId}]`);
    this.question = find("hm-question");
    this.slots = find("hm-slots");
    this.budget = find("hm-budget");
    this.semanticDown = find("hm-semantic-down");
    this.status = find("hm-status");
    this.keywordList = find("hm-keyword-list");
    this.semanticList = find("hm-semantic-list");
    this.cap = find("hm-cap");
    this.mergedList = find("hm-merged-list");
    this.route = find("hm-route");
    this.contextList = find("hm-context-list");
    this.learnerButton = find("hm-learner-run");
    this.learnerStatus = find("hm-learner-status");
    this.learnerList = find("hm-learner-list");
    this.inputs = null;  // the hits and numbers the drawn view was made from
    this.drawing = 0;
    for (const control of [this.question, this.slots, this.budget, this.semanticDown]) {
      control.addEventListener(control.tagName === "INPUT" && control.type === "number" ? "input" : "change", () => this.draw());
    }
    this.learnerButton.addEventListener("click", () => this.showLearner());
    this.runner.onCodeChange(() => this.updateLearnerButton());
    this.updateLearnerButton();
    this.draw();
  }

  numbers() {
    const slots = this.wholeNumber(this.slots.value);
    const budget = this.wholeNumber(this.budget.value);
    if (slots === null || slots < 1 || slots > 50) return { problem: "Plaatsen is een geheel getal van 1 tot en met 50." };
    if (budget === null || budget < slots || budget > 50) return { problem: "Het budget is een geheel getal van het aantal plaatsen tot en met 50." };
    return { slots, budget };
  }

  async draw() {
    const turn = ++this.drawing;
    const { slots, budget, problem } = this.numbers();
    if (problem) {
      this.status.textContent = problem;
      this.root.setAttribute("data-state", "invalid");
      return;
    }
    this.root.setAttribute("data-state", "running");
    this.status.textContent = this.runner.loadingText() ?? "De zoekwegen draaien…";
    const view = await this.compute(this.question.value, slots, budget, this.semanticDown.checked);
    if (turn !== this.drawing) return;  // a newer input is being drawn
    if (view.problem) {
      this.status.textContent = view.problem;
      this.root.setAttribute("data-state", "error");
      return;
    }
    this.render(view);
    this.inputs = view.inputs;
    this.root.setAttribute("data-state", "ready");
    this.updateLearnerButton();
  }

  async compute(key, slots, budget, semanticDown) {
    const limit = this.runner.timeLimitSeconds;
    const found = await this.runner.callModule(routesPython, "search", [corpus, key, FETCHED_PER_ROUTE]);
    const searchProblem = replyProblem(found, "De zoekwegen", limit);
    if (searchProblem) return { problem: searchProblem };
    const data = found.value;
    const keyword = data.get("keyword");
    const semantic = data.get("semantic");
    const keywordHits = keyword.map(plainHit);
    const semanticHits = semanticDown ? null : semantic.map(plainHit);
    const counts = data.get("chunk_counts");
    const merged = await this.runner.callReference("merge_routes", [keywordHits, semanticHits ?? []]);
    const context = await this.runner.callReference("hybrid_context", [keywordHits, semanticHits, counts, slots, budget]);
    const mergedProblem = replyProblem(merged, "De samenvoeging", limit) ?? replyProblem(context, "De context", limit);
    if (mergedProblem) return { problem: mergedProblem };
    const passes = await this.runner.callModule(routesPython, "cap_passes", [merged.value, slots]);
    const passesProblem = replyProblem(passes, "Het plafond", limit);
    if (passesProblem) return { problem: passesProblem };
    return {
      question: data.get("question"),
      texts: data.get("texts"),
      keyword,
      semantic,
      semanticDown,
      merged: merged.value,
      passes: passes.value,
      context: context.value,
      inputs: { keywordHits, semanticHits, counts, slots, budget, reference: { merged: merged.value, context: context.value } },
    };
  }

  item(testId, id, parts, attributes = {}) {
    const item = document.createElement("li");
    item.dataset.testid = testId;
    item.dataset.id = id;
    for (const [name, value] of Object.entries(attributes)) item.setAttribute(`data-${name}`, value);
    const label = document.createElement("code");
    label.textContent = id;
    item.append(label, ...parts.map((part) => ` ${part}`));
    return item;
  }

  render(view) {
    const text = (id) => view.texts.get(id) ?? "";
    this.keywordList.replaceChildren(...view.keyword.map((hit) =>
      this.item("hm-keyword-hit", hit.get("id"), [`· ${this.values.pythonRepr(hit.get("score"))}`, `— ${text(hit.get("id"))}`])));
    if (view.keyword.length === 0) this.keywordList.replaceChildren(this.note("Geen enkel fragment bevat een term van de vraag."));
    if (view.semanticDown) {
      this.semanticList.replaceChildren(this.note("Uitgevallen: de embeddingdienst antwoordt niet (None)."));
    } else {
      this.semanticList.replaceChildren(...view.semantic.map((hit) =>
        this.item("hm-semantic-hit", hit.get("id"), [`· ${this.values.pythonRepr(hit.get("score"))}`, `— ${text(hit.get("id"))}`])));
    }
    const first = new Set(view.passes.get("first"));
    const refilled = new Set(view.passes.get("refilled"));
    this.cap.textContent = `(hoogstens ${view.passes.get("cap")} per document)`;
    this.mergedList.replaceChildren(...view.merged.map((candidate) => {
      const id = candidate.get("id");
      const state = first.has(id) ? "taken" : refilled.has(id) ? "refilled" : "skipped";
      const routes = candidate.get("routes");
      return this.item("hm-candidate", id, [`· ${routes.map((route) => ROUTE_LABELS[route]).join(" + ")}`, `· ${STATE_LABELS[state]}`],
        { routes: routes.join(" "), state });
    }));
    const results = new Set(view.context.get("results"));
    this.route.textContent = view.context.get("route");
    this.contextList.replaceChildren(...view.context.get("context").map((id) => {
      const kind = results.has(id) ? "result" : "neighbour";
      return this.item("hm-context-item", id, [kind === "result" ? "· resultaat" : "· buur", `— ${text(id) || "(fragment buiten de lesfragmenten)"}`], { kind });
    }));
    const down = view.semanticDown ? " De semantische zoekweg viel uit: het antwoord rust alleen op de trefwoordtreffers." : "";
    this.status.textContent = `${view.context.get("context").length} fragmenten in de context voor “${view.question}”.${down}`;
  }

  note(message) {
    const item = document.createElement("li");
    item.className = "merge-viewer__note";
    item.textContent = message;
    return item;
  }

  // ----- "Mijn samenvoeging" --------------------------------------------------------------

  learnerReady() {
    return ["merge_routes", "cap_per_document", "hybrid_context"].some((name) => this.runner.definesFunction(name));
  }

  updateLearnerButton() {
    const ready = this.learnerReady();
    this.learnerButton.disabled = !ready || this.inputs === null || this.learnerRunning;
    if (!this.learnerRunning && this.learnerList.hidden) {
      this.learnerStatus.textContent = ready
        ? "Klik op Mijn samenvoeging: je eigen functies draaien op de treffers hierboven."
        : "Zodra je code deze functies heeft, kun je hier je eigen samenvoeging bekijken.";
    }
  }

  async showLearner() {
    if (this.learnerRunning || this.inputs === null) return;
    if (this.runner.learnerCode() === null) {
      this.learnerStatus.textContent = "Er is geen editor op deze pagina om je functies uit te lezen.";
      return;
    }
    const inputs = this.inputs;
    this.learnerRunning = true;
    this.updateLearnerButton();
    this.root.setAttribute("data-learner-state", "running");
    this.learnerStatus.textContent = this.runner.loadingText() ?? "Je functies draaien…";
    const lines = [];
    try {
      lines.push(await this.compareLearner("merge_routes", [inputs.keywordHits, inputs.semanticHits ?? []],
        inputs.reference.merged, (value) => value.map((c) => `${c.get("id")} [${c.get("routes").join(", ")}]`).join(" ")));
      lines.push(await this.compareLearner("cap_per_document", [inputs.reference.merged, inputs.slots],
        null, (value) => value.map((c) => c.get("id")).join(" ")));
      lines.push(await this.compareLearner("hybrid_context",
        [inputs.keywordHits, inputs.semanticHits, inputs.counts, inputs.slots, inputs.budget],
        inputs.reference.context, (value) => `route ${value.get("route")} · context ${value.get("context").join(" ")}`));
    } finally {
      this.learnerRunning = false;
    }
    if (inputs !== this.inputs) {
      this.root.setAttribute("data-learner-state", "stale");
      this.learnerStatus.textContent = "De invoer veranderde terwijl je functies draaiden; klik opnieuw op Mijn samenvoeging.";
      this.updateLearnerButton();
      return;
    }
    this.learnerList.replaceChildren(...lines.map((line) => {
      const item = document.createElement("li");
      item.className = "wp-verdict wp-exact";
      item.dataset.testid = "hm-learner-item";
      item.dataset.function = line.name;
      item.dataset.verdict = line.verdict;
      item.textContent = `${line.name}: ${line.text}`;
      return item;
    }));
    this.learnerList.hidden = false;
    const same = lines.filter((line) => line.verdict === "same").length;
    this.root.setAttribute("data-learner-state", same === lines.length ? "same" : "different");
    this.learnerStatus.textContent = `${same} van de ${lines.length} functies ${same === 1 ? "geeft" : "geven"} hier hetzelfde als de referentie.`;
    this.updateLearnerButton();
  }

  async compareLearner(name, args, expected, describe) {
    if (!this.runner.definesFunction(name)) return { name, verdict: "missing", text: "nog niet geschreven." };
    const reference = expected === null ? await this.runner.callReference(name, args) : { status: "returned", value: expected };
    const reply = await this.runner.callLearner(name, args);
    const problem = replyProblem(reply, `Je ${name}`, this.runner.timeLimitSeconds);
    if (problem) return { name, verdict: "error", text: problem };
    let mine;
    try {
      mine = describe(reply.value);
    } catch {
      return { name, verdict: "different", text: `geeft ${this.values.pythonRepr(reply.value)}, niet de vorm van de opdracht.` };
    }
    const wanted = describe(reference.value);
    const same = this.judge.same(reply.value, reference.value);
    if (same) return { name, verdict: "same", text: `hetzelfde: ${mine}` };
    // The short description may hide what differs (hybrid_context's `results`): then the fields
    // that differ are shown, so a red line never has two identical sides.
    const text = mine === wanted
      ? differingParts(reply.value, reference.value, this.values.pythonRepr, this.judge)
      : `jij: ${mine} · referentie: ${wanted}`;
    return { name, verdict: "different", text };
  }
}

// Where two values differ, in Python notation: per dict key or list position, else whole. Which
// parts differ is the page's one judge's call (context.judge, grading's exact comparison).
export function differingParts(mine, wanted, repr, judge) {
  const parts = [];
  if (mine instanceof Map && wanted instanceof Map) {
    for (const key of new Set([...wanted.keys(), ...mine.keys()])) {
      if (mine.has(key) && wanted.has(key) && judge.same(mine.get(key), wanted.get(key))) continue;
      const a = mine.has(key) ? repr(mine.get(key)) : "(ontbreekt)";
      const b = wanted.has(key) ? repr(wanted.get(key)) : "(hoort er niet bij)";
      parts.push(`${repr(key)}: jij ${a} · referentie ${b}`);
    }
  } else if (Array.isArray(mine) && Array.isArray(wanted)) {
    for (let index = 0; index < Math.max(mine.length, wanted.length); index += 1) {
      if (index < mine.length && index < wanted.length && judge.same(mine[index], wanted[index])) continue;
      const a = index < mine.length ? repr(mine[index]) : "(ontbreekt)";
      const b = index < wanted.length ? repr(wanted[index]) : "(te veel)";
      parts.push(`[${index}]: jij ${a} · referentie ${b}`);
    }
  }
  return parts.length > 0 ? `verschilt in ${parts.join("; ")}` : `jij: ${repr(mine)} · referentie: ${repr(wanted)}`;
}

/**
 * The widget's entry (site/src/mount-widgets.js calls it for each `:::{widget} hybrid-merge`).
 * "Bekijk in de visualisatie" on one of the lesson's checkpoints shows the learner's functions.
 */
export function mount(element, context) {
  const viewer = new MergeViewer(element.querySelector("[data-merge-viewer]"), context);
  return { viewer, showCheckpoint: () => viewer.showLearner() };
}
