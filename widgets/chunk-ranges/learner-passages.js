// "Mijn passages": the comparison of what the learner's word_chunks returned (through the shared
// runner, widget-runner.js) with the reference passages. Whether a field is the reference's is
// the page's one judge's call (site/src/python-judge.js, the widget context's `judge`: grading's
// exact comparison); this file picks the fields and says the difference in Dutch. Pure: no DOM,
// no worker; widget.js makes the call and draws the comparison.

const CHUNK_KEYS = [
  "id", "document_id", "revision", "word_start", "word_end", "start", "end", "text",
];
// 20 000 characters hold at most 10 000 words, so a correct answer has at most 10 000
// passages; past chunk_coverage's own limit of 20 000 the rest is cut off.
const MAX_LEARNER_ITEMS = 20001;

/**
 * The comparison's view of "Mijn passages": the runner's reply for the learner's word_chunks
 * (widget-runner.js, values as python-values.js decodes them) with what is compared and drawn:
 * the learner's items as they are (at most MAX_LEARNER_ITEMS). `document` is the document the
 * call got (a Map), or null when the text has none; `values` is the page's python-values.js (the
 * widget context's `values`). Timeouts and stops never get here: the widget reports them itself.
 */
export function learnerOutcome(reply, document, values) {
  const { Opaque, pythonTypeName } = values;
  if (document === null) return { kind: "no_document" };
  const error = reply.error ?? {};
  switch (reply.status) {
    case "load-error":
      return { kind: "load_error", error_type: error.type, line: error.line, message: error.message };
    case "no-function":
      return { kind: "no_function" };
    case "raised":
      return { kind: "raised", error_type: error.type, is_value_error: error.isValueError, message: error.message };
    case "returned":
      break;
    default:
      return { kind: "unreadable" };
  }
  const value = reply.value;
  const answer = {
    kind: "returned",
    type: pythonTypeName(value),
    document: { id: document.get("id"), revision: document.get("revision") },
  };
  if (value instanceof Opaque && value.reason) {
    return { ...answer, kind: "opaque", reason: value.reason };
  }
  if (Array.isArray(value)) {
    answer.items = value.slice(0, MAX_LEARNER_ITEMS);
    answer.truncated = value.length > MAX_LEARNER_ITEMS;
  }
  return answer;
}

// A field's value in a Dutch sentence: an int or str as it is, a float, bool or None with its
// type (6.0 is not the int 6), anything else by its type only.
function describeValue(value, { PyFloat, pythonRepr, pythonTypeName }) {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return quote(value);
  const type = pythonTypeName(value);
  if (typeof value === "bigint") return `een heel groot getal (een ${type})`;
  if (value instanceof PyFloat || typeof value === "boolean" || value === null) {
    return `${pythonRepr(value)} (een ${type})`;
  }
  return `een ${type}`;
}

function quote(text) {
  const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return `„${shown.replace(/\n/g, "\\n").replace(/\t/g, "\\t")}”`;
}

function expectedFields(passage, document) {
  return {
    id: `${document.id}:${passage.wordStart}`,
    document_id: document.id,
    revision: document.revision,
    word_start: passage.wordStart,
    word_end: passage.wordEnd,
    start: passage.start,
    end: passage.end,
    text: passage.text,
  };
}

// The checks in the order a learner can fix them: the word interval first, then the offsets
// that follow from it, then the text and the labels.
const FIELD_ORDER = [
  "word_start", "word_end", "start", "end", "text", "id", "document_id", "revision",
];

/**
 * Why a learner's item differs from the expected passage, or null when it is the same.
 * @param {{values: object, judge: {same: Function}}} page  the widget context's values and judge
 */
function itemDifference(item, expected, { values, judge }) {
  if (item instanceof values.Opaque && item.reason) return `het is geen gewone ${item.typeName} (${item.reason})`;
  if (!(item instanceof Map)) return `het is geen dict maar een ${values.pythonTypeName(item)}`;
  const keys = [...item.keys()].slice(0, 20);  // a decoded dict's keys are strs
  const missing = CHUNK_KEYS.filter((key) => !keys.includes(key));
  if (missing.length === 1) return `de sleutel ${missing[0]} ontbreekt`;
  if (missing.length > 1) return `de sleutels ${missing.join(", ")} ontbreken`;
  const extra = keys.filter((key) => !CHUNK_KEYS.includes(key));
  if (extra.length) return `er is een sleutel te veel: ${extra.join(", ")}`;
  for (const key of FIELD_ORDER) {
    const actual = item.get(key);
    const wanted = expected[key];
    // Exact, as grading is: 6.0 (a float) or True never equals the int 6 or 1.
    if (!judge.same(actual, wanted)) {
      return `${key} is ${describeValue(actual, values)}, verwacht ${describeValue(wanted, values)}`;
    }
  }
  return null;
}

function wordRange(passage) {
  return `woorden [${passage.wordStart}, ${passage.wordEnd}), tekenbereik ` +
    `[${passage.start}, ${passage.end})`;
}

/**
 * @typedef {object} LearnerItem   one item of the learner's list, as drawn
 * @property {number} position     0-based position in the learner's list
 * @property {"matching"|"misplaced"|"extra"} status
 * @property {number|null} wordStart  the learner's values when they are exact ints
 * @property {number|null} wordEnd
 * @property {number|null} start
 * @property {number|null} end
 * @property {string|null} text
 * @property {string|null} problem  Dutch, for misplaced items
 */

/**
 * @typedef {object} PassageComparison
 * @property {"same"|"different"|"no-result"} verdict
 * @property {string} summary          one Dutch sentence: the first difference, or agreement
 * @property {LearnerItem[]} learner
 * @property {("matching"|"misplaced"|"missing")[]} referenceStatus  per reference passage
 */

/**
 * Compare the learner's outcome (learnerOutcome's) with the reference passages.
 * @param {import("./chunk-ranges.js").ChunkRanges} reference
 * @param {object} outcome
 * @param {object} values  the widget context's values (site/src/python-values.js)
 * @param {{same: Function}} judge  the widget context's judge (site/src/python-judge.js)
 * @returns {PassageComparison}
 */
export function comparePassages(reference, outcome, values, judge) {
  const noResult = (summary) => ({
    verdict: "no-result", summary, learner: [], referenceStatus: [],
  });
  switch (outcome.kind) {
    case "no_document":
      return noResult("Deze brontekst kan geen document worden: hij heeft geen UTF-8-vorm.");
    case "load_error":
      return noResult(
        `Je code start niet: ${outcome.error_type}` +
          (outcome.line ? ` op regel ${outcome.line}` : "") +
          (outcome.message ? `: ${outcome.message}` : "."),
      );
    case "no_function":
      return noResult("Je code definieert geen functie word_chunks.");
    case "raised":
      if (!reference.valid) {
        return outcome.is_value_error
          ? { ...noResult(`Goed: je word_chunks weigert deze invoer met een ` +
              `${outcome.error_type}, net als de referentie.`), verdict: "same" }
          : { ...noResult(`De referentie weigert deze invoer met een ValueError; jouw word_chunks ` +
              `gaf een ${outcome.error_type}${outcome.message ? `: ${outcome.message}` : ""}.`),
            verdict: "different" };
      }
      return {
        ...noResult(`Je word_chunks gaf een ${outcome.error_type}` +
          `${outcome.message ? ` (${outcome.message})` : ""}, maar de referentie maakt hier ` +
          `${reference.passages.length} passage${reference.passages.length === 1 ? "" : "s"}.`),
        verdict: "different",
        referenceStatus: reference.passages.map(() => "missing"),
      };
    case "opaque":
      return {
        ...noResult(`Je word_chunks gaf een ${outcome.type} terug die niet te vergelijken is ` +
          `(${outcome.reason}).`),
        verdict: "different",
        referenceStatus: reference.valid ? reference.passages.map(() => "missing") : [],
      };
    case "returned":
      break;
    default:
      return noResult("Het antwoord van Python was onleesbaar.");
  }
  if (!reference.valid) {
    return {
      ...noResult("De referentie weigert deze invoer met een ValueError " +
        `(${reference.problems[0]}), maar jouw word_chunks gaf een ${outcome.type} terug.`),
      verdict: "different",
    };
  }
  if (outcome.type !== "list") {
    return {
      ...noResult(`word_chunks moet een list teruggeven; jouw functie gaf een ${outcome.type}.`),
      verdict: "different",
      referenceStatus: reference.passages.map(() => "missing"),
    };
  }
  return compareLists(reference, outcome, { values, judge });
}

function drawnItem(item, position) {
  const field = (key) => (item instanceof Map ? item.get(key) : undefined);
  const exactInt = (value) => (typeof value === "number" ? value : null);
  const text = field("text");
  return {
    position,
    wordStart: exactInt(field("word_start")),
    wordEnd: exactInt(field("word_end")),
    start: exactInt(field("start")),
    end: exactInt(field("end")),
    text: typeof text === "string" ? text.slice(0, 20001) : null,
    status: "extra",
    problem: null,
  };
}

// Reference passages are sorted by both word_start and word_end: binary-search the first one
// that ends after the learner's start, then look at the few that also begin before its end.
const OVERLAP_CANDIDATES = 300;

function firstFreeOverlapping(passages, drawn, free) {
  if (drawn.wordStart === null || drawn.wordEnd === null) return undefined;
  let low = 0;
  let high = passages.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (passages[middle].wordEnd > drawn.wordStart) high = middle;
    else low = middle + 1;
  }
  const last = Math.min(passages.length, low + OVERLAP_CANDIDATES);
  for (let index = low; index < last && passages[index].wordStart < drawn.wordEnd; index += 1) {
    if (free(index)) return index;
  }
  return undefined;
}

// Statuses: a learner passage equal to a reference passage "matches"; one that stands in for a
// reference passage (same first word, or else overlapping words) but differs is "misplaced";
// other learner passages are "extra"; reference passages nobody stands in for are "missing".
function compareLists(reference, outcome, page) {
  const expected = reference.passages.map((passage) => expectedFields(passage, outcome.document));
  const referenceStatus = reference.passages.map(() => "missing");
  const learner = outcome.items.map(drawnItem);
  const pair = (drawn, referenceIndex, problem) => {
    drawn.status = problem === null ? "matching" : "misplaced";
    drawn.problem = problem;
    referenceStatus[referenceIndex] = drawn.status;
  };
  const passages = reference.passages;
  const byWordStart = new Map(passages.map((passage, index) => [passage.wordStart, index]));
  const free = (index) => index !== undefined && referenceStatus[index] === "missing";
  // Exact matches first (they share the first word), so a shifted neighbour cannot take them.
  for (const drawn of learner) {
    const index = byWordStart.get(drawn.wordStart);
    if (free(index) && itemDifference(outcome.items[drawn.position], expected[index], page) === null) {
      pair(drawn, index, null);
    }
  }
  for (const drawn of learner) {
    if (drawn.status !== "extra") continue;
    let index = byWordStart.get(drawn.wordStart);
    if (!free(index)) index = firstFreeOverlapping(passages, drawn, free);
    if (index !== undefined) {
      pair(drawn, index, itemDifference(outcome.items[drawn.position], expected[index], page));
    }
  }
  const summary = firstDifference(reference, outcome, expected, page);
  return {
    verdict: summary === null ? "same" : "different",
    summary: summary ?? `Je passages zijn gelijk aan de referentie: ${expected.length} ` +
      `passage${expected.length === 1 ? "" : "s"}, dezelfde woorden, tekenbereiken en tekst.`,
    learner,
    referenceStatus,
  };
}

/** The first place, in list order, where the learner's list and the reference differ. */
function firstDifference(reference, outcome, expected, page) {
  const items = outcome.items;
  const count = Math.max(items.length, expected.length);
  for (let position = 0; position < count; position += 1) {
    const number = position + 1;
    if (position >= items.length) {
      return `Passage ${number} ontbreekt: de referentie gaat door met ` +
        `${wordRange(reference.passages[position])}, maar jouw lijst stopt na ` +
        `${items.length} passage${items.length === 1 ? "" : "s"}.`;
    }
    if (position >= expected.length) {
      const total = reference.words.length;
      return `Passage ${number} is te veel: de referentie stopt na passage ${expected.length}, ` +
        `want die eindigt al bij het laatste woord (word_end ${total}).`;
    }
    const problem = itemDifference(items[position], expected[position], page);
    if (problem !== null) return `Passage ${number}: ${problem}.`;
  }
  if (outcome.truncated) return `Je lijst heeft meer dan ${MAX_LEARNER_ITEMS - 1} passages.`;
  return null;
}
