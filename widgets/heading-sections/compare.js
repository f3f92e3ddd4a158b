// "Mijn chunks": the first place where the learner's value differs from the reference's, in Dutch.
// Values arrive as the runner's plain values (site/src/python-values.js): a dict is a Map, a float
// a PyFloat, a tuple or subclass an Opaque. Where they differ is decided by the page's one judge
// (site/src/python-judge.js, the widget context's `judge`: grading's first_difference); this file
// only says it in words. Pure, so Node can test it.

function where(path) {
  return path === "" ? "het resultaat" : path;
}

/**
 * @param {unknown} mine       the learner's value
 * @param {unknown} reference  the reference's value for the same call
 * @param {{pythonRepr: (value: unknown) => string}} values
 * @param {{firstDifference: Function}} judge
 * @returns {string|null}  null when they are equal
 */
export function firstDifference(mine, reference, values, judge) {
  const found = judge.firstDifference(mine, reference);
  if (found === null) return null;
  const repr = values.pythonRepr;
  const { path, kind, actual, expected } = found;
  if (kind === "missing" || kind === "extra") {
    const list = path.slice(0, path.lastIndexOf("["));
    return `In ${where(list)} staan ${actual.length} elementen; de referentie heeft er ${expected.length}.`;
  }
  if (kind === "missing_key") return `In ${where(path)} ontbreekt de sleutel ${repr(expected)}.`;
  if (kind === "extra_key") return `In ${where(path)} staat een sleutel te veel: ${repr(actual)}.`;
  return `Op ${where(path)}: de referentie heeft ${repr(expected)}, jij gaf ${repr(actual)}.`;
}
