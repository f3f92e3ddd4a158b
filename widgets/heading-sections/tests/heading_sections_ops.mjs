// What the differential test asks Node (through tests/node_bridge.mjs, one request per line):
// {"op": "compare", "mine", "reference"} for "Mijn chunks", else {"text", "max_words", "overlap"}, answered by the heading-sections widget's structure.js
// exactly as the browser computes it (with site/src/python-text.js, the widget context's pythonText).
import * as judge from "../../../site/src/python-judge.js";
import * as pythonText from "../../../site/src/python-text.js";
import * as values from "../../../site/src/python-values.js";
import { firstDifference } from "../compare.js";
import { analyse } from "../structure.js";

export function answer(request) {
  if (request.op === "compare") {
    // "Mijn chunks": the learner's and the reference's values as plain JSON text.
    return firstDifference(values.parsePlain(request.mine), values.parsePlain(request.reference), values, judge);
  }
  const result = analyse(request.text, request.max_words, request.overlap, pythonText);
  return {
    valid: result.valid,
    headings: result.headings.map(({ level, title, line: number, start, end }) => ({ level, title, line: number, start, end })),
    sections: result.sections.map((s) => [s.chunkNumber, s.level, s.headings, s.start, s.end, s.text]),
    sized: result.sized.map((c) => [c.chunkNumber, c.section, c.headings, c.start, c.end, c.text, c.embedText]),
    fixed: result.fixed.map((w) => [w.wordStart, w.wordEnd, w.start, w.end, w.text]),
  };
}
