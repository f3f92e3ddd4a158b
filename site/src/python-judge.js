// The one judge of "is the learner's value the reference's" for widgets: runner/core/testkit.py's
// `same` and `first_difference`, ported to the values widgets get (site/src/python-values.js:
// a dict is a Map, a float a PyFloat, a tuple or subclass an Opaque). Exact as grading is: types
// count (True is not 1, 1.0 is not 1), NaN equals NaN, an Opaque equals nothing. The path of a
// difference is written as the testkit writes it ("[1]['start']"); the widget says it in its own
// words. tests/widget_kit/test_python_judge.py holds it to the Python on the same cases.
// Widgets get this module as `context.judge` (mount-widgets.js). Pure: Node runs it in tests.
import { Opaque, PyFloat, pythonTypeName } from "./python-values.js";

/**
 * @typedef {object} Difference
 * @property {string} path  Python index path to the difference, "" for the whole value
 * @property {"missing"|"extra"|"missing_key"|"extra_key"|"type"|"value"} kind
 * @property {*} actual     missing/extra: the learner's list; missing_key: the key; else the value
 * @property {*} expected   missing/extra: the reference's list; missing_key: the key; extra_key: null
 */

function isInt(value) {
  return typeof value === "number" || typeof value === "bigint";
}

/** Exact equality of two decoded plain values, as testkit.same decides it. */
export function same(actual, expected) {
  if (actual instanceof Opaque || expected instanceof Opaque) return false;
  if (pythonTypeName(actual) !== pythonTypeName(expected)) return false;
  if (Array.isArray(actual)) {
    return actual.length === expected.length && actual.every((item, index) => same(item, expected[index]));
  }
  if (actual instanceof Map) {
    if (actual.size !== expected.size) return false;
    for (const [key, item] of actual) {
      if (!expected.has(key) || !same(item, expected.get(key))) return false;
    }
    return true;
  }
  if (actual instanceof PyFloat) {
    if (Number.isNaN(actual.value)) return Number.isNaN(expected.value);
    return actual.value === expected.value;
  }
  if (isInt(actual)) return BigInt(actual) === BigInt(expected);
  return actual === expected;
}

/** Python's repr of a str, as a path like ['start'] shows a dict key. */
export function pythonStrRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let body = "";
  for (const character of text) {
    const code = character.codePointAt(0);
    if (character === "\\") body += "\\\\";
    else if (character === quote) body += `\\${quote}`;
    else if (character === "\n") body += "\\n";
    else if (character === "\r") body += "\\r";
    else if (character === "\t") body += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) body += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code >= 0xd800 && code <= 0xdfff) body += `\\u${code.toString(16).padStart(4, "0")}`;
    else body += character;
  }
  return `${quote}${body}${quote}`;
}

/**
 * The first place (depth first, in order) where `actual` is not exactly `expected`, or null.
 * @returns {Difference|null}
 */
export function firstDifference(actual, expected, path = "") {
  if (Array.isArray(actual) && Array.isArray(expected)) {
    const common = Math.min(actual.length, expected.length);
    for (let index = 0; index < common; index += 1) {
      const found = firstDifference(actual[index], expected[index], `${path}[${index}]`);
      if (found !== null) return found;
    }
    if (actual.length !== expected.length) {
      const kind = actual.length < expected.length ? "missing" : "extra";
      return { path: `${path}[${common}]`, kind, actual, expected };
    }
    return null;
  }
  if (actual instanceof Map && expected instanceof Map) {
    for (const [key, item] of expected) {
      if (!actual.has(key)) return { path, kind: "missing_key", actual: key, expected: key };
      const found = firstDifference(actual.get(key), item, `${path}[${pythonStrRepr(String(key))}]`);
      if (found !== null) return found;
    }
    for (const key of actual.keys()) {
      if (!expected.has(key)) return { path, kind: "extra_key", actual: key, expected: null };
    }
    return null;
  }
  if (same(actual, expected)) return null;
  const kind = pythonTypeName(actual) === pythonTypeName(expected) ? "value" : "type";
  return { path, kind, actual, expected };
}
