// A long-lived Node process for the Python tests: one JSON request per line on stdin, one JSON
// answer per line on stdout, computed by the chunk-ranges widget's modules exactly as the browser
// does (widgets/chunk-ranges/, with the page's site/src/python-values.js).
// Requests: {"op": "compute", "text", "window", "overlap"} | {"op": "whitespace"}
//           | {"op": "compare", "text", "window", "overlap", "arguments", "reply"}
//             (arguments, reply: the JSON text runner.core.web.call's replies travel as)
import { createInterface } from "node:readline";
import * as values from "../../site/src/python-values.js";
import { PYTHON_WHITESPACE, computeChunkRanges } from "../../widgets/chunk-ranges/chunk-ranges.js";
import { comparePassages, learnerOutcome } from "../../widgets/chunk-ranges/learner-passages.js";

function compute({ text, window, overlap }) {
  const result = computeChunkRanges(text, window, overlap);
  const coverage = result.coverage && {
    total_words: result.coverage.totalWords,
    covered_words: result.coverage.coveredWords,
    coverage: result.coverage.coverage,
    word_occurrences: result.coverage.wordOccurrences,
    duplication_factor: result.coverage.duplicationFactor,
    missing_word_indices: result.coverage.missingWordIndices,
  };
  return {
    valid: result.valid,
    problems: result.problems,
    words: result.words.map((word) => [word.start, word.end, word.text]),
    passages: result.passages.map((passage) => [
      passage.wordStart, passage.wordEnd, passage.start, passage.end, passage.text,
    ]),
    coverage,
  };
}

function answer(request) {
  switch (request.op) {
    case "compute":
      return compute(request);
    case "whitespace":
      return PYTHON_WHITESPACE;
    case "compare": {
      // As widget.js does it: learner_arguments's reply gives the document, word_chunks's the rest.
      const reference = computeChunkRanges(request.text, request.window, request.overlap);
      const prepared = values.parsePlain(request.arguments).get("value");
      const document = prepared === null ? null : prepared[0];
      const reply = request.reply === null ? {} : values.callReply(request.reply);
      return comparePassages(reference, learnerOutcome(reply, document, values));
    }
    default:
      throw new Error(`unknown op ${request.op}`);
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let reply;
  try {
    reply = { ok: true, value: answer(JSON.parse(line)) };
  } catch (error) {
    reply = { ok: false, error: String(error && error.stack ? error.stack : error) };
  }
  // Non-ASCII escaped, so the pipe's encoding cannot change a character on the way back.
  process.stdout.write(
    JSON.stringify(reply).replace(/[\u007f-\uffff]/g, (c) =>
      `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) + "\n",
  );
}
