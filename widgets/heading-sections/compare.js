// "Mijn chunks": the first place where the learner's value differs from the reference's, in Dutch.
// Values arrive as the runner's plain values (site/src/python-values.js): a dict is a Map, a float
// a PyFloat, a tuple or subclass an Opaque. Pure, so Node can test it.

function where(path) {
  return path === "" ? "het resultaat" : path;
}

/**
 * @param {unknown} mine       the learner's value
 * @param {unknown} reference  the reference's value for the same call
 * @param {{pythonRepr: (value: unknown) => string}} values
 * @returns {string|null}  null when they are equal
 */
export function firstDifference(mine, reference, values, path = "") {
  const repr = values.pythonRepr;
  if (repr(mine) === repr(reference)) return null;
  if (Array.isArray(mine) && Array.isArray(reference)) {
    const common = Math.min(mine.length, reference.length);
    for (let index = 0; index < common; index += 1) {
      const found = firstDifference(mine[index], reference[index], values, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return `In ${where(path)} staan ${mine.length} elementen; de referentie heeft er ${reference.length}.`;
  }
  if (mine instanceof Map && reference instanceof Map) {
    for (const key of reference.keys()) {
      if (!mine.has(key)) return `In ${where(path)} ontbreekt de sleutel ${repr(key)}.`;
    }
    for (const key of mine.keys()) {
      if (!reference.has(key)) return `In ${where(path)} staat een sleutel te veel: ${repr(key)}.`;
    }
    for (const key of reference.keys()) {
      const found = firstDifference(mine.get(key), reference.get(key), values, `${path}[${repr(key)}]`);
      if (found !== null) return found;
    }
  }
  return `Op ${where(path)}: de referentie heeft ${repr(reference)}, jij gaf ${repr(mine)}.`;
}
