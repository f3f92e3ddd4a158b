// "Mijn evaluatie": what the learner's evaluate returned (through the shared runner, values as
// site/src/python-values.js decodes them) set against the reference figures. Pure: no DOM.

const KEYS = ["questions", "k", "single_hit_at_k", "union_hit_at_k", "single_mrr_at_k"];
const FLOAT_KEYS = new Set(["single_hit_at_k", "union_hit_at_k", "single_mrr_at_k"]);

/** The reference figures as evaluate returns them: ints stay numbers, measures are floats. */
export function expectedResult(evaluation) {
  return {
    questions: evaluation.questions,
    k: evaluation.k,
    single_hit_at_k: evaluation.single,
    union_hit_at_k: evaluation.union,
    single_mrr_at_k: evaluation.mrr,
  };
}

function shown(value, values) {
  if (value === undefined) return "ontbreekt";
  return values.pythonRepr(value);
}

// The counts are judged as grading judges them (the page's one judge, context.judge: exact, so
// True or 2.0 is not 2). A mean may differ in its last bits when it is summed in another order:
// that is no mistake, so the three measures must be floats within a relative 1e-12.
function sameValue(key, actual, expected, values, judge) {
  if (FLOAT_KEYS.has(key)) {
    if (!(actual instanceof values.PyFloat)) return false;
    return Math.abs(actual.value - expected) <= 1e-12 * Math.max(1, Math.abs(expected));
  }
  return judge.same(actual, expected);
}

/**
 * {verdict: "same" | "different" | "raised" | "no-result", summary, rows}: rows hold per key the
 * reference value, the learner's, and whether they agree (types included: 1 is not 1.0).
 */
export function compareEvaluation(reply, expected, values, judge) {
  if (reply.status === "no-function") {
    return { verdict: "no-result", summary: "Je code heeft nog geen functie evaluate.", rows: [] };
  }
  if (reply.status === "raised") {
    const error = reply.error ?? {};
    const kind = error.isValueError ? "een ValueError" : `een ${error.type}`;
    return { verdict: "raised", summary: `Je evaluate gooide ${kind} op een geldige zoekronde: ${error.message}`, rows: [] };
  }
  if (reply.status !== "returned") {
    return { verdict: "no-result", summary: reply.message || "Je evaluate gaf geen uitkomst.", rows: [] };
  }
  const value = reply.value;
  if (!(value instanceof Map)) {
    return { verdict: "different", summary: `Je evaluate gaf een ${values.pythonTypeName(value)} terug; verwacht een dict.`, rows: [] };
  }
  const rows = KEYS.map((key) => {
    const actual = value.has(key) ? value.get(key) : undefined;
    const wanted = FLOAT_KEYS.has(key) ? new values.PyFloat(expected[key]) : expected[key];
    return { key, expected: values.pythonRepr(wanted), actual: shown(actual, values),
      same: actual !== undefined && sameValue(key, actual, expected[key], values, judge) };
  });
  const extra = [...value.keys()].filter((key) => !KEYS.includes(key));
  for (const key of extra) {
    rows.push({ key: String(key), expected: "ontbreekt", actual: shown(value.get(key), values), same: false });
  }
  const wrong = rows.filter((row) => !row.same);
  const summary = wrong.length === 0
    ? "Je evaluate geeft op deze zoekronde precies de uitkomst van de referentie."
    : `Je evaluate wijkt af bij ${wrong.map((row) => row.key).join(", ")}.`;
  return { verdict: wrong.length === 0 ? "same" : "different", summary, rows };
}
