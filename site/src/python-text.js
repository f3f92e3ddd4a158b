// Python's text semantics for widgets that redraw in JavaScript what a lesson's Python computes:
// what str.split() and str.isspace() call whitespace, the words of a text as Python's code-point
// offsets, fixed word windows with an overlap, and which field values Python would get as an int.
// Pure: no DOM, no worker, so Node runs it in the widgets' tests. Widgets get this module as
// `context.pythonText` (mount-widgets.js) and hand it to their pure modules.
//
// Offsets are Unicode code points, like Python's str indices (a lone surrogate is one code point,
// as in Python); the UTF-16 offsets beside them only slice JavaScript strings and the DOM.

// Every code point for which Python's `str.isspace()` is true; `str.split()`, `str.strip()` and
// re's `\s` use the same set. Generated with [c for c in range(0x110000) if chr(c).isspace()];
// tests/widget_kit/ checks it against the running Python. JavaScript's `\s` differs: it matches
// U+FEFF and misses U+001C-U+001F and U+0085.
export const PYTHON_WHITESPACE = Object.freeze([
  0x0009, 0x000a, 0x000b, 0x000c, 0x000d, 0x001c, 0x001d, 0x001e, 0x001f, 0x0020, 0x0085,
  0x00a0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
  0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

// All of it lies in the BMP: one byte per code point up to the largest is a lookup that stays fast
// on a text of tens of thousands of characters.
const WHITESPACE_TABLE = new Uint8Array(PYTHON_WHITESPACE[PYTHON_WHITESPACE.length - 1] + 1);
for (const codePoint of PYTHON_WHITESPACE) WHITESPACE_TABLE[codePoint] = 1;

/** Whether Python's str.isspace() is true for this code point (or UTF-16 unit). */
export function isPythonSpace(codePoint) {
  return codePoint < WHITESPACE_TABLE.length && WHITESPACE_TABLE[codePoint] === 1;
}

/**
 * @typedef {object} Word
 * @property {number} index       word index (0-based)
 * @property {number} start       code-point offset of the first character
 * @property {number} end         code-point offset just after the last character
 * @property {number} utf16Start  the same positions in UTF-16 units, for JavaScript strings
 * @property {number} utf16End
 * @property {string} text
 */

/**
 * The words of `text` as Python's `text.split()` (or `re.finditer(r"\S+", text)`) finds them.
 * @param {string} text
 * @returns {{words: Word[], length: number, loneSurrogateAt: number}} length: the text's len() in
 *   Python; loneSurrogateAt: code-point offset of the first lone surrogate, or -1
 */
export function splitWords(text) {
  const words = [];
  let codePoint = 0;
  let loneSurrogateAt = -1;
  let wordStart = -1;
  let wordUtf16Start = -1;
  const closeWord = (utf16End) => {
    words.push({
      index: words.length,
      start: wordStart,
      end: codePoint,
      utf16Start: wordUtf16Start,
      utf16End,
      text: text.slice(wordUtf16Start, utf16End),
    });
    wordStart = -1;
  };
  for (let unit = 0; unit < text.length; ) {
    const first = text.charCodeAt(unit);
    let width = 1;
    if (first >= 0xd800 && first <= 0xdbff && unit + 1 < text.length) {
      const second = text.charCodeAt(unit + 1);
      if (second >= 0xdc00 && second <= 0xdfff) width = 2;
    }
    if (width === 1 && first >= 0xd800 && first <= 0xdfff && loneSurrogateAt < 0) {
      loneSurrogateAt = codePoint;
    }
    if (isPythonSpace(first)) {
      if (wordStart >= 0) closeWord(unit);
    } else if (wordStart < 0) {
      wordStart = codePoint;
      wordUtf16Start = unit;
    }
    unit += width;
    codePoint += 1;
  }
  if (wordStart >= 0) closeWord(text.length);
  return { words, length: codePoint, loneSurrogateAt };
}

/**
 * [start, end) of every word in codePoints[start..end): split() of that slice, as offsets.
 * @param {number[]} codePoints  a text's code points (see indexCodePoints)
 */
export function wordSpansIn(codePoints, start = 0, end = codePoints.length) {
  const spans = [];
  let wordStart = -1;
  for (let index = start; index < end; index += 1) {
    if (isPythonSpace(codePoints[index])) {
      if (wordStart >= 0) spans.push([wordStart, index]);
      wordStart = -1;
    } else if (wordStart < 0) {
      wordStart = index;
    }
  }
  if (wordStart >= 0) spans.push([wordStart, end]);
  return spans;
}

/** [start, end) of codePoints[start..end) without Python whitespace at either end (strip()). */
export function strippedSpan(codePoints, start = 0, end = codePoints.length) {
  while (start < end && isPythonSpace(codePoints[start])) start += 1;
  while (end > start && isPythonSpace(codePoints[end - 1])) end -= 1;
  return [start, end];
}

/**
 * The code points of `text` with their UTF-16 offsets: codePoints[i] is the i-th code point's
 * value, utf16[i] where it starts in the JavaScript string, utf16[length] = text.length.
 */
export function indexCodePoints(text) {
  const codePoints = [];
  const utf16 = [];
  for (let unit = 0; unit < text.length; ) {
    const value = text.codePointAt(unit);
    codePoints.push(value);
    utf16.push(unit);
    unit += value > 0xffff ? 2 : 1;
  }
  utf16.push(text.length);
  return { codePoints, utf16 };
}

/**
 * Fixed word windows over `count` words: [0, min(size, count)), then one every `size - overlap`
 * words, stopping right after the window that reaches the last word. None for no words.
 * Expects valid sizes (1 <= size, 0 <= overlap < size): a caller checks them first.
 * @returns {Array<[number, number]>} [wordStart, wordEnd) per window
 */
export function wordWindows(count, size, overlap) {
  const windows = [];
  if (count === 0) return windows;
  for (let first = 0; ; first += size - overlap) {
    const last = Math.min(first + size, count);
    windows.push([first, last]);
    if (last === count) return windows;
  }
}

/**
 * The int a field's text holds as Python would get it, or null: only an integer literal (digits,
 * optionally a leading "-" when `negative`) counts, with spaces around it; "6.5", "1e2", "6.0"
 * and "" are no int, as word_chunks-style functions refuse 6.5 and 100.0.
 * @param {string} text
 */
export function integerLiteral(text, { negative = true } = {}) {
  const trimmed = String(text).trim();
  const pattern = negative ? /^-?[0-9]+$/ : /^[0-9]+$/;
  return pattern.test(trimmed) ? Number.parseInt(trimmed, 10) : null;
}
