// A long-lived Node process for the differential test: one JSON request per line on stdin
// ({"text", "spans": [[byte_start, byte_end], ...]}), one JSON answer per line on stdout, computed
// by the widget's units.js exactly as the browser does. Output is ASCII (\u escapes), so lone
// surrogates and astral characters cross the pipe unchanged.
import { createInterface } from "node:readline";
import { analyse, offsetRows, spanToChars, utf16Positions } from "../units.js";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let reply;
  try {
    const request = JSON.parse(line);
    const analysis = analyse(request.text);
    reply = {
      ok: true,
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
  } catch (error) {
    reply = { ok: false, error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(
    JSON.stringify(reply).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) + "\n",
  );
}
