// What the chunk-ranges tests ask Node (through tests/node_bridge.mjs, one request per line),
// computed by this widget's modules exactly as the browser does, with the page's
// site/src/python-values.js, site/src/python-text.js and site/src/python-judge.js (the widget
// context's values, pythonText and judge).
// Requests: {"op": "compute", "text", "window", "overlap"}
//           | {"op": "compare", "text", "window", "overlap", "arguments", "reply"}
//             (arguments, reply: the JSON text runner.core.web.call's replies travel as)
import * as judge from "../../../site/src/python-judge.js";
import * as values from "../../../site/src/python-values.js";
import * as pythonText from "../../../site/src/python-text.js";
import { computeChunkRanges } from "../chunk-ranges.js";
import { comparePassages, learnerOutcome } from "../learner-passages.js";

function compute({ text, window, overlap }) {
  const result = computeChunkRanges(text, window, overlap, pythonText);
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

export function answer(request) {
  switch (request.op) {
    case "compute":
      return compute(request);
    case "compare": {
      // As widget.js does it: learner_arguments's reply gives the document, word_chunks's the rest.
      const reference = computeChunkRanges(request.text, request.window, request.overlap, pythonText);
      const prepared = values.parsePlain(request.arguments).get("value");
      const document = prepared === null ? null : prepared[0];
      const reply = request.reply === null ? {} : values.callReply(request.reply);
      return comparePassages(reference, learnerOutcome(reply, document, values), values, judge);
    }
    default:
      throw new Error(`unknown op ${request.op}`);
  }
}
