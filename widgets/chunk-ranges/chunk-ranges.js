// The chunk-range computation of the visualizer: words, passages and coverage figures exactly as
// the reference `word_chunks` and `chunk_coverage` of lesson rag-01 compute them in Python.
// Pure functions without DOM access, so Node runs this file unchanged in the differential test
// (tests/ in this folder). Python's text semantics (whitespace, words, windows, int fields) come
// from the shared kit site/src/python-text.js, which the widget gets as `context.pythonText` and
// hands in here as `pythonText`. All offsets are Unicode code points, like Python's str indices;
// the UTF-16 offsets next to them exist only to slice JavaScript strings and highlight the DOM.

export const MAX_TEXT_LENGTH = 20000;
export const MAX_WINDOW = 256;

/**
 * @typedef {import("../../site/src/python-text.js").Word} Word
 */

/**
 * @typedef {object} ScannedText
 * @property {Word[]} words
 * @property {number} length            the text's length in code points (Python's len())
 * @property {number} loneSurrogateAt   code-point offset of the first lone surrogate, or -1
 */

/**
 * The value a number field holds, as Python would receive it: only an integer literal is an
 * exact int. A number that is not an integer, or text such as "6.5" or "1e2", stays what it is
 * and is rejected later, as `word_chunks` rejects 6.5 and 100.0.
 * @param {string|number} raw  the field's value, or a number
 * @param {typeof import("../../site/src/python-text.js")} pythonText
 * @returns {{present: boolean, integer: number|null, raw: string}}
 */
export function readWholeNumber(raw, pythonText) {
  if (typeof raw === "number") {
    return { present: true, integer: Number.isInteger(raw) ? raw : null, raw: String(raw) };
  }
  const trimmed = String(raw).trim();
  return { present: trimmed !== "", integer: pythonText.integerLiteral(trimmed), raw: trimmed };
}

/**
 * Why `word_chunks` would refuse this input, in Dutch, one sentence per reason; empty when valid.
 * @param {ScannedText} scanned
 * @param {{present: boolean, integer: number|null, raw: string}} window
 * @param {{present: boolean, integer: number|null, raw: string}} overlap
 * @returns {string[]}
 */
export function explainProblems(scanned, window, overlap) {
  const problems = [];
  if (scanned.words.length === 0) {
    problems.push(
      "De brontekst is leeg of bevat alleen witruimte. word_chunks weigert zo'n document: " +
        "er is geen woord om in passages te knippen.",
    );
  }
  if (scanned.length > MAX_TEXT_LENGTH) {
    problems.push(
      `De brontekst telt ${scanned.length} tekens; word_chunks accepteert hoogstens ` +
        `${MAX_TEXT_LENGTH} tekens (Python telt met len() Unicode-tekens, geen bytes).`,
    );
  }
  if (scanned.loneSurrogateAt >= 0) {
    problems.push(
      `De brontekst bevat op teken ${scanned.loneSurrogateAt} een los surrogaat-teken. ` +
        "Dat is geen geldig Unicode en heeft geen UTF-8-vorm, dus ook geen revision.",
    );
  }
  const windowSize = window.integer;
  if (!window.present) {
    problems.push("Vul een venster in: een geheel aantal woorden van 1 tot en met 256.");
  } else if (windowSize === null) {
    problems.push(
      `Het venster moet een geheel getal zijn; „${window.raw}” is dat niet ` +
        "(word_chunks eist een exacte int).",
    );
  } else if (windowSize < 1 || windowSize > MAX_WINDOW) {
    problems.push(
      `Het venster is ${windowSize} woorden, maar moet van 1 tot en met ${MAX_WINDOW} lopen.`,
    );
  }
  const overlapSize = overlap.integer;
  if (!overlap.present) {
    problems.push("Vul een overlap in: een geheel aantal woorden, 0 of meer.");
  } else if (overlapSize === null) {
    problems.push(
      `De overlap moet een geheel getal zijn; „${overlap.raw}” is dat niet ` +
        "(word_chunks eist een exacte int).",
    );
  } else if (overlapSize < 0) {
    problems.push(
      `Een overlap van ${overlapSize} kan niet: een negatieve overlap zou woorden overslaan. ` +
        "Kies 0 of meer.",
    );
  } else if (windowSize !== null && windowSize >= 1 && overlapSize >= windowSize) {
    problems.push(
      `De overlap (${overlapSize}) moet kleiner zijn dan het venster (${windowSize}): anders ` +
        "schuift de volgende passage niet verder en komt er nooit een einde.",
    );
  }
  return problems;
}

/**
 * @typedef {object} Passage
 * @property {number} wordStart   first word index
 * @property {number} wordEnd     word index just after the last word
 * @property {number} start       code-point offsets in the source, end exclusive
 * @property {number} end
 * @property {number} utf16Start
 * @property {number} utf16End
 * @property {string} text        the exact source slice
 */

/**
 * The word intervals of `word_chunks`: [0, min(window, n)), then every `window - overlap`
 * words a new one, stopping right after the passage that reaches the last word.
 * @param {string} text
 * @param {Word[]} words  at least one word
 * @param {number} window
 * @param {number} overlap
 * @returns {Passage[]}
 */
export function cutPassages(text, words, window, overlap, pythonText) {
  return pythonText.wordWindows(words.length, window, overlap)
    .map(([wordStart, wordEnd]) => makePassage(text, words, wordStart, wordEnd));
}

export function makePassage(text, words, wordStart, wordEnd) {
  const first = words[wordStart];
  const last = words[wordEnd - 1];
  return {
    wordStart,
    wordEnd,
    start: first.start,
    end: last.end,
    utf16Start: first.utf16Start,
    utf16End: last.utf16End,
    text: text.slice(first.utf16Start, last.utf16End),
  };
}

/**
 * @typedef {object} Coverage   the dict of `chunk_coverage`, with camelCase names
 * @property {number} totalWords            N
 * @property {number} coveredWords          U: distinct word indices in at least one passage
 * @property {number} coverage              U / N
 * @property {number} wordOccurrences       S: the sum of the passages' word counts
 * @property {number|null} duplicationFactor  S / U, null when U is 0
 * @property {number[]} missingWordIndices
 * @property {Uint32Array} timesStored      per word: in how many passages it is
 */

/**
 * @param {number} totalWords
 * @param {{wordStart: number, wordEnd: number}[]} passages  valid word intervals, any order
 * @returns {Coverage}
 */
export function measureCoverage(totalWords, passages) {
  // A difference array keeps this linear even with 10 000 one-word passages.
  const delta = new Int32Array(totalWords + 1);
  let wordOccurrences = 0;
  for (const passage of passages) {
    delta[passage.wordStart] += 1;
    delta[passage.wordEnd] -= 1;
    wordOccurrences += passage.wordEnd - passage.wordStart;
  }
  const timesStored = new Uint32Array(totalWords);
  const missingWordIndices = [];
  let running = 0;
  for (let index = 0; index < totalWords; index += 1) {
    running += delta[index];
    timesStored[index] = running;
    if (running === 0) missingWordIndices.push(index);
  }
  const coveredWords = totalWords - missingWordIndices.length;
  return {
    totalWords,
    coveredWords,
    coverage: coveredWords / totalWords,
    wordOccurrences,
    duplicationFactor: coveredWords === 0 ? null : wordOccurrences / coveredWords,
    missingWordIndices,
    timesStored,
  };
}

/**
 * @typedef {object} ChunkRanges
 * @property {boolean} valid       whether `word_chunks` accepts this text, window and overlap
 * @property {string[]} problems   Dutch explanations when it does not
 * @property {Word[]} words        always computed, even when invalid
 * @property {number} length       the text's length in code points
 * @property {number|null} window
 * @property {number|null} overlap
 * @property {Passage[]} passages  empty when invalid
 * @property {Coverage|null} coverage  null when invalid
 */

/**
 * Everything the visualizer shows, for the text and the two fields' values.
 * @param {string} text
 * @param {string|number} windowValue
 * @param {string|number} overlapValue
 * @param {typeof import("../../site/src/python-text.js")} pythonText  context.pythonText
 * @returns {ChunkRanges}
 */
export function computeChunkRanges(text, windowValue, overlapValue, pythonText) {
  const scanned = pythonText.splitWords(text);
  const window = readWholeNumber(windowValue, pythonText);
  const overlap = readWholeNumber(overlapValue, pythonText);
  const problems = explainProblems(scanned, window, overlap);
  const valid = problems.length === 0;
  const passages = valid ? cutPassages(text, scanned.words, window.integer, overlap.integer, pythonText) : [];
  return {
    valid,
    problems,
    words: scanned.words,
    length: scanned.length,
    window: window.integer,
    overlap: overlap.integer,
    passages,
    coverage: valid ? measureCoverage(scanned.words.length, passages) : null,
  };
}

/**
 * A ratio with two decimals in Dutch notation: 1.2857 -> "1,29".
 * @param {number} value
 */
export function formatDutchDecimal(value) {
  return value.toFixed(2).replace(".", ",");
}
