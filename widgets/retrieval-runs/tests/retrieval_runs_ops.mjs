// What test_retrieval_runs_differential.py asks Node (through tests/node_bridge.mjs, one request
// per line), computed by the retrieval-runs widget's own modules exactly as the page does.
// Requests: {"op": "windows", "text", "window", "overlap"} | {"op": "hits", "evidence", "ranking", "k"}
//           | {"op": "evaluate", "questions", "rankings", "k"} | {"op": "lesson", "k"}
//           | {"op": "compare", "reply", "expected"}  (reply: the JSON text runner.core.web.call answers)
import * as judge from "../../../site/src/python-judge.js";
import * as pythonText from "../../../site/src/python-text.js";
import * as values from "../../../site/src/python-values.js";
import { compareEvaluation } from "../learner-evaluation.js";
import { CONFIGURATIONS, LAMP_EXAMPLE, TEST_SET } from "../lesson-runs.js";
import {
  configurationRuns, evaluateRuns, meanContextWords, questionHits, wordWindows,
} from "../retrieval-runs.js";

function hitsAsPython(hits) {
  return { single_rank: hits.singleRank, union_hit: hits.unionHit, covered_chars: hits.coveredChars, pieces: hits.coveredPieces };
}

function evaluationAsPython(evaluation) {
  return { questions: evaluation.questions, k: evaluation.k, single_hit_at_k: evaluation.single,
    union_hit_at_k: evaluation.union, single_mrr_at_k: evaluation.mrr };
}

export function answer(request) {
  switch (request.op) {
    case "windows":
      return wordWindows(request.text, request.window, request.overlap, pythonText).map((p) => [p.wordStart, p.wordEnd, p.start, p.end]);
    case "hits":
      return hitsAsPython(questionHits(request.evidence, request.ranking, request.k));
    case "evaluate":
      return evaluationAsPython(evaluateRuns(request.questions, request.rankings, request.k));
    case "lesson":
      return {
        example: LAMP_EXAMPLE,
        test_set: TEST_SET,
        configurations: CONFIGURATIONS.map(([window, overlap]) => {
          const run = configurationRuns(TEST_SET.corpus, TEST_SET.questions, window, overlap, pythonText);
          return { window, overlap, passages: run.passages, stored_words: run.storedWords, rankings: run.rankings,
            evaluation: evaluationAsPython(evaluateRuns(TEST_SET.questions, run.rankings, request.k)),
            context_words: meanContextWords(TEST_SET.questions, run, request.k) };
        }),
      };
    case "compare": {
      const comparison = compareEvaluation(values.callReply(request.reply), request.expected, values, judge);
      return { verdict: comparison.verdict, summary: comparison.summary, same: comparison.rows.map((row) => [row.key, row.same]) };
    }
    default:
      throw new Error(`unknown op ${request.op}`);
  }
}
