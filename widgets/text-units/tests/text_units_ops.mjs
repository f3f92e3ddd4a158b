// What the differential test asks Node (through tests/node_bridge.mjs, one request per line):
// {"text", "spans": [[byte_start, byte_end], ...]}, answered by the widget's units.js exactly as
// the browser computes it.
import { analyse, offsetRows, spanToChars, utf16Positions } from "../units.js";

export function answer(request) {
  const analysis = analyse(request.text);
  return {
    valid: analysis.valid,
    tooLong: analysis.tooLong,
    offsets: offsetRows(analysis),
    positions: utf16Positions(analysis),
    bytes: analysis.rows.flatMap((row) => row.bytes),
    spans: request.spans.map(([start, end]) => {
      const outcome = spanToChars(analysis, start, end);
      return outcome.kind === "span" ? [outcome.start, outcome.end] : outcome.kind;
    }),
  };
}
