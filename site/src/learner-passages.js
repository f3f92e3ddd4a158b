// "Mijn passages": the Python snippet that runs the learner's word_chunks on the visualizer's
// input, and the comparison of what it returned with the reference passages. Pure: no DOM, no
// worker; visualizer.js sends the snippet through the worker client and draws the comparison.

export const DOCUMENT_ID = "eigen-bron";
export const DOCUMENT_TITLE = "Eigen bron";
const CHUNK_KEYS = [
  "id", "document_id", "revision", "word_start", "word_end", "start", "end", "text",
];
// 20 000 characters hold at most 10 000 words, so a correct answer has at most 10 000
// passages; past chunk_coverage's own limit of 20 000 the rest is cut off.
const MAX_LEARNER_ITEMS = 20001;

// Runs inside Pyodide. The learner's code gets its own namespace, as main.py; whatever it
// returns is reduced to plain JSON data here, so nothing of the learner's objects (custom
// __eq__, __repr__, str subclasses) reaches the page. The revision is computed and json.dumps
// bound before the learner's code runs, so the learner's code cannot change either.
export const LEARNER_SNIPPET = String.raw`
def _werkplaats_learner_passages(request):
    import hashlib
    import json
    import re

    dumps = json.dumps
    max_items = ${MAX_LEARNER_ITEMS}
    chunk_keys = ${JSON.stringify(CHUNK_KEYS)}

    def field_value(raw):
        # The field's text as Python would get it: 6 -> int, 6.5 -> float, empty -> None.
        if raw is None or re.fullmatch(r"-?[0-9]+", raw):
            return None if raw is None else int(raw)
        try:
            return float(raw)
        except ValueError:
            return raw

    def plain(value):
        kind = type(value)
        if kind is int:
            if -2**53 < value < 2**53:
                return value
            return {"type": "int", "repr": "een heel groot getal"}
        if kind is str:
            return value[:20001]
        if kind is float or kind is bool or value is None:
            return {"type": kind.__name__, "repr": repr(value)}
        return {"type": kind.__name__}

    def chunk_summary(item):
        if type(item) is not dict:
            return {"type": type(item).__name__}
        keys = [key if type(key) is str else {"type": type(key).__name__}
                for key in list(item)[:20]]
        fields = {key: plain(dict.__getitem__(item, key))
                  for key in chunk_keys if dict.__contains__(item, key)}
        return {"type": "dict", "keys": keys, "fields": fields}

    def error_summary(error):
        try:
            message = str(error)[:300]
        except Exception:
            message = ""
        return {"error_type": type(error).__name__,
                "is_value_error": isinstance(error, ValueError), "message": message}

    text = request["text"]
    try:
        revision = hashlib.sha256(text.encode("utf-8")).hexdigest()
    except UnicodeEncodeError:
        return dumps({"kind": "no_document"})
    document = {"id": request["document_id"], "title": request["document_title"],
                "text": text, "revision": revision}
    namespace = {"__name__": "__main__"}
    try:
        code = compile(request["source"], "main.py", "exec")
    except SyntaxError as error:
        return dumps({"kind": "load_error", "line": error.lineno, **error_summary(error)})
    try:
        exec(code, namespace)
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        return dumps({"kind": "load_error", "line": None, **error_summary(error)})
    function = namespace.get("word_chunks")
    if not callable(function):
        return dumps({"kind": "no_function"})
    try:
        result = function(document, field_value(request["window"]),
                          field_value(request["overlap"]))
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        return dumps({"kind": "raised", **error_summary(error)})
    answer = {"kind": "returned", "type": type(result).__name__,
              "document": {"id": document["id"], "revision": revision}}
    if type(result) is list:
        answer["items"] = [chunk_summary(item) for item in result[:max_items]]
        answer["truncated"] = len(result) > max_items
    return dumps(answer)
`;

/**
 * The request for the worker client's `evaluate(code, {args})`: the snippet reads the global
 * `args` (JSON data, so astral characters and even lone surrogates arrive intact) and
 * evaluates to its JSON answer, a str.
 * @param {{source: string, text: string, window: string, overlap: string}} input
 *   the editor's code, and the visualizer's text and field values as typed
 * @returns {{code: string, args: object}}
 */
export function learnerPassagesProgram(input) {
  const field = (value) => (value.trim() === "" ? null : value.trim());
  return {
    code: `${LEARNER_SNIPPET}\n_werkplaats_learner_passages(args)\n`,
    args: {
      source: input.source,
      text: input.text,
      window: field(input.window),
      overlap: field(input.overlap),
      document_id: DOCUMENT_ID,
      document_title: DOCUMENT_TITLE,
    },
  };
}

/** Whether the editor's code defines a top-level word_chunks function. */
export function definesWordChunks(source) {
  return /^(async\s+)?def\s+word_chunks\s*\(/m.test(source);
}

function describeValue(value) {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return quote(value);
  if (value && value.repr) return `${value.repr} (een ${value.type})`;
  return `een ${value && value.type}`;
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

/** Why a learner's item differs from the expected passage, or null when it is the same. */
function itemDifference(item, expected) {
  if (item.type !== "dict") return `het is geen dict maar een ${item.type}`;
  const keys = item.keys.map((key) => (typeof key === "string" ? key : `<${key.type}>`));
  const missing = CHUNK_KEYS.filter((key) => !keys.includes(key));
  if (missing.length === 1) return `de sleutel ${missing[0]} ontbreekt`;
  if (missing.length > 1) return `de sleutels ${missing.join(", ")} ontbreken`;
  const extra = keys.filter((key) => !CHUNK_KEYS.includes(key));
  if (extra.length) return `er is een sleutel te veel: ${extra.join(", ")}`;
  for (const key of FIELD_ORDER) {
    const actual = item.fields[key];
    const wanted = expected[key];
    // Strict equality: 6.0 (sent as a float marker) or True never equals the int 6 or 1.
    if (actual !== wanted) {
      return `${key} is ${describeValue(actual)}, verwacht ${describeValue(wanted)}`;
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
 * Compare the learner's outcome (the snippet's JSON) with the reference passages.
 * @param {import("./chunk-ranges.js").ChunkRanges} reference
 * @param {object} outcome
 * @returns {PassageComparison}
 */
export function comparePassages(reference, outcome) {
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
  return compareLists(reference, outcome);
}

function drawnItem(item, position) {
  const fields = item.type === "dict" ? item.fields : {};
  const exactInt = (value) => (typeof value === "number" ? value : null);
  return {
    position,
    wordStart: exactInt(fields.word_start),
    wordEnd: exactInt(fields.word_end),
    start: exactInt(fields.start),
    end: exactInt(fields.end),
    text: typeof fields.text === "string" ? fields.text : null,
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
function compareLists(reference, outcome) {
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
    if (free(index) && itemDifference(outcome.items[drawn.position], expected[index]) === null) {
      pair(drawn, index, null);
    }
  }
  for (const drawn of learner) {
    if (drawn.status !== "extra") continue;
    let index = byWordStart.get(drawn.wordStart);
    if (!free(index)) index = firstFreeOverlapping(passages, drawn, free);
    if (index !== undefined) {
      pair(drawn, index, itemDifference(outcome.items[drawn.position], expected[index]));
    }
  }
  const summary = firstDifference(reference, outcome, expected);
  return {
    verdict: summary === null ? "same" : "different",
    summary: summary ?? `Je passages zijn gelijk aan de referentie: ${expected.length} ` +
      `passage${expected.length === 1 ? "" : "s"}, dezelfde woorden, tekenbereiken en tekst.`,
    learner,
    referenceStatus,
  };
}

/** The first place, in list order, where the learner's list and the reference differ. */
function firstDifference(reference, outcome, expected) {
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
    const problem = itemDifference(items[position], expected[position]);
    if (problem !== null) return `Passage ${number}: ${problem}.`;
  }
  if (outcome.truncated) return `Je lijst heeft meer dan ${MAX_LEARNER_ITEMS - 1} passages.`;
  return null;
}
