// A long-lived Node process for the Python tests: one JSON request per line on stdin, one JSON
// answer per line on stdout, computed by site/src/chunk-ranges.js exactly as the browser does.
// Requests: {"op": "compute", "text", "window", "overlap"} | {"op": "whitespace"}
//           | {"op": "compare", "text", "window", "overlap", "learner"}
//           | {"op": "program", "source", "text", "window", "overlap"}
import { createInterface } from "node:readline";
import { PYTHON_WHITESPACE, computeChunkRanges } from "../../site/src/chunk-ranges.js";
import { comparePassages, learnerPassagesProgram } from "../../site/src/learner-passages.js";

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
      const reference = computeChunkRanges(request.text, request.window, request.overlap);
      return comparePassages(reference, request.learner);
    }
    case "program":
      return learnerPassagesProgram(request);
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
