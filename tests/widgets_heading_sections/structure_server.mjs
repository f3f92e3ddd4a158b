// A long-lived Node process for the differential test: one JSON request per line on stdin
// ({"text", "max_words", "overlap"}), one JSON answer per line on stdout, computed by the
// heading-sections widget's structure.js exactly as the browser does.
import { createInterface } from "node:readline";
import { analyse } from "../../widgets/heading-sections/structure.js";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let reply;
  try {
    const request = JSON.parse(line);
    const result = analyse(request.text, request.max_words, request.overlap);
    reply = {
      ok: true,
      value: {
        valid: result.valid,
        headings: result.headings.map(({ level, title, line: number, start, end }) => ({ level, title, line: number, start, end })),
        sections: result.sections.map((s) => [s.chunkNumber, s.level, s.headings, s.start, s.end, s.text]),
        sized: result.sized.map((c) => [c.chunkNumber, c.section, c.headings, c.start, c.end, c.text, c.embedText]),
        fixed: result.fixed.map((w) => [w.wordStart, w.wordEnd, w.start, w.end, w.text]),
      },
    };
  } catch (error) {
    reply = { ok: false, error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(
    JSON.stringify(reply).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) + "\n",
  );
}
