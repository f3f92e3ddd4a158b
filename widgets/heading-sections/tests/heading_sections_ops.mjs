// What the differential test asks Node (through tests/node_bridge.mjs, one request per line):
// {"text", "max_words", "overlap"}, answered by the heading-sections widget's structure.js
// exactly as the browser computes it (with site/src/python-text.js, the widget context's pythonText).
import * as pythonText from "../../../site/src/python-text.js";
import { analyse } from "../structure.js";

export function answer(request) {
  const result = analyse(request.text, request.max_words, request.overlap, pythonText);
  return {
    valid: result.valid,
    headings: result.headings.map(({ level, title, line: number, start, end }) => ({ level, title, line: number, start, end })),
    sections: result.sections.map((s) => [s.chunkNumber, s.level, s.headings, s.start, s.end, s.text]),
    sized: result.sized.map((c) => [c.chunkNumber, c.section, c.headings, c.start, c.end, c.text, c.embedText]),
    fixed: result.fixed.map((w) => [w.wordStart, w.wordEnd, w.start, w.end, w.text]),
  };
}
