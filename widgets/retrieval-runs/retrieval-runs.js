// The retrieval-run viewer's computation (no DOM): rag-01's word windows, the lesson's word-overlap
// scorer, and question_hits / evaluate of rag-03 exactly as checkpoints/rag-03/solution.py defines
// them. Positions are Python code points, never UTF-16 units. Proven against the reference
// solutions by tests/test_retrieval_runs_differential.py in this folder.

/**
 * word_chunks of rag-01 on one text: {wordStart, wordEnd, start, end} per passage, from the words
 * and windows of the shared kit (site/src/python-text.js, the widget context's `pythonText`).
 */
export function wordWindows(text, window, overlap, pythonText) {
  const { words } = pythonText.splitWords(text);
  return pythonText.wordWindows(words.length, window, overlap).map(([wordStart, wordEnd]) =>
    ({ wordStart, wordEnd, start: words[wordStart].start, end: words[wordEnd - 1].end }));
}

/** A code-point slice of text (the string's own slice counts UTF-16 units). */
export function sliceCodePoints(text, start, end) {
  return Array.from(text).slice(start, end).join("");
}

// The lesson's scorer: the words of the question of at least MIN_WORD letters, lower-cased,
// and how many different ones of them a passage holds.
export const MIN_WORD = 4;
const WORD = /[\p{L}\p{N}]+/gu;

export function scoreWords(text) {
  const words = new Set();
  for (const match of text.matchAll(WORD)) {
    if (Array.from(match[0]).length >= MIN_WORD) words.add(match[0].toLowerCase());
  }
  return words;
}

/**
 * Rankings for one chunking configuration: every passage of every version scored against each
 * question; passages with a score above 0, best first, ties by corpus order and then position;
 * at most `limit` per question. Returns {passages, storedWords, rankings}. `pythonText`: the kit.
 */
export function configurationRuns(corpus, questions, window, overlap, pythonText, limit = 20) {
  const passages = [];
  let storedWords = 0;
  Object.entries(corpus).forEach(([version, text], order) => {
    for (const passage of wordWindows(text, window, overlap, pythonText)) {
      storedWords += passage.wordEnd - passage.wordStart;
      passages.push({ version, order, start: passage.start, end: passage.end,
        words: scoreWords(sliceCodePoints(text, passage.start, passage.end)),
        length: passage.wordEnd - passage.wordStart });
    }
  });
  const rankings = {};
  for (const question of questions) {
    const wanted = scoreWords(question.question);
    const scored = [];
    for (const passage of passages) {
      let score = 0;
      for (const word of wanted) if (passage.words.has(word)) score += 1;
      if (score > 0) scored.push({ score, passage });
    }
    scored.sort((a, b) => b.score - a.score || a.passage.order - b.passage.order || a.passage.start - b.passage.start);
    rankings[question.id] = scored.slice(0, limit).map(({ passage }) => [passage.version, passage.start, passage.end]);
  }
  return { passages: passages.length, storedWords, rankings,
    wordsOf: new Map(passages.map((p) => [`${p.version}|${p.start}|${p.end}`, p.length])) };
}

/** question_hits of the lesson for an already valid evidence span and ranking. */
export function questionHits(evidence, ranking, k) {
  const [version, start, end] = evidence;
  const top = ranking.slice(0, k);
  let singleRank = null;
  const pieces = [];
  top.forEach(([spanVersion, spanStart, spanEnd], index) => {
    if (spanVersion !== version) return;
    if (singleRank === null && spanStart <= start && end <= spanEnd) singleRank = index + 1;
    pieces.push([spanStart, spanEnd]);
  });
  pieces.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let covered = 0;
  let cursor = start;
  const coveredPieces = [];
  for (const [spanStart, spanEnd] of pieces) {
    const low = Math.max(spanStart, cursor);
    const high = Math.min(spanEnd, end);
    if (low < high) {
      covered += high - low;
      coveredPieces.push([low, high]);
      cursor = high;
    }
  }
  return { singleRank, unionHit: covered === end - start, coveredChars: covered, coveredPieces: mergePieces(coveredPieces) };
}

function mergePieces(pieces) {
  const merged = [];
  for (const [low, high] of pieces) {
    const last = merged[merged.length - 1];
    if (last && last[1] === low) last[1] = high;
    else merged.push([low, high]);
  }
  return merged;
}

/** evaluate of the lesson over valid questions and rankings: the three measures and per question hits. */
export function evaluateRuns(questions, rankings, k) {
  let single = 0;
  let union = 0;
  let reciprocal = 0;
  const perQuestion = questions.map((question) => {
    const hits = questionHits(question.evidence, rankings[question.id], k);
    if (hits.singleRank !== null) {
      single += 1;
      reciprocal += 1 / hits.singleRank;
    }
    if (hits.unionHit) union += 1;
    return hits;
  });
  const n = questions.length;
  return { questions: n, k, single: single / n, union: union / n, mrr: reciprocal / n, perQuestion };
}

/** Words the top k passages of each question hold, on average: the context a run sends on. */
export function meanContextWords(questions, run, k) {
  let total = 0;
  for (const question of questions) {
    for (const [version, start, end] of run.rankings[question.id].slice(0, k)) {
      total += run.wordsOf.get(`${version}|${start}|${end}`);
    }
  }
  return total / questions.length;
}

/** 0.375 -> "0,375"; 2/3 -> "0,667": at most three decimals, Dutch comma. */
export function formatMeasure(value) {
  return String(Math.round(value * 1000) / 1000).replace(".", ",");
}
