// The unit table's arithmetic, in JavaScript so the table follows every keystroke before Python
// has started. It counts exactly as checkpoints/rag-00b/solution.py does (widgets/text-units/tests
// prove it against that file): one row per code point, UTF-8 widths 1-4 by code point, UTF-16
// units 1 or 2, and a lone surrogate (possible in a JavaScript string) marked as having no UTF-8.

export const MAX_CODE_POINTS = 100;

function isSurrogate(codePoint) {
  return codePoint >= 0xd800 && codePoint <= 0xdfff;
}

export function utf8Bytes(codePoint) {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)];
  if (codePoint < 0x10000) {
    return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
  }
  return [0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 0x3f), 0x80 | ((codePoint >> 6) & 0x3f),
    0x80 | (codePoint & 0x3f)];
}

/** Every code point of text with its bytes and units; valid is false when a lone surrogate is in it. */
export function analyse(text) {
  const rows = [];
  let byteStart = 0;
  let utf16Start = 0;
  let valid = true;
  // for...of walks code points; a lone surrogate comes out as a one-unit string of its own.
  for (const char of text) {
    const codePoint = char.codePointAt(0);
    const lone = isSurrogate(codePoint);
    if (lone) valid = false;
    // A lone surrogate gets the 3 bytes of "surrogatepass" so later offsets still line up.
    const bytes = utf8Bytes(codePoint);
    const units = [];
    for (let at = 0; at < char.length; at += 1) units.push(char.charCodeAt(at));
    rows.push({
      index: rows.length, char, codePoint, lone, bytes, units,
      byteStart, byteEnd: byteStart + bytes.length, utf16Start,
    });
    byteStart += bytes.length;
    utf16Start += units.length;
  }
  return { rows, valid, totalBytes: byteStart, totalUnits: utf16Start, tooLong: rows.length > MAX_CODE_POINTS };
}

/** The rows as utf8_offsets returns them: [index, byte_start, byte_end]. */
export function offsetRows(analysis) {
  return analysis.rows.map((row) => [row.index, row.byteStart, row.byteEnd]);
}

/** char_to_utf16 for index 0..len(text): the JavaScript position before each code point. */
export function utf16Positions(analysis) {
  return [...analysis.rows.map((row) => row.utf16Start), analysis.totalUnits];
}

/**
 * What byte_span_to_chars does with [byteStart, byteEnd): {kind: "span", start, end}, or why it
 * raises: "not-int", "outside", "cut" (with the row it cuts), "reversed".
 */
export function spanToChars(analysis, byteStart, byteEnd) {
  if (!Number.isInteger(byteStart) || !Number.isInteger(byteEnd)) return { kind: "not-int" };
  const charAt = new Map([[0, 0]]);
  for (const row of analysis.rows) charAt.set(row.byteEnd, row.index + 1);
  for (const edge of [byteStart, byteEnd]) {
    if (edge < 0 || edge > analysis.totalBytes) return { kind: "outside", edge };
    if (!charAt.has(edge)) {
      const row = analysis.rows.find((candidate) => candidate.byteStart < edge && edge < candidate.byteEnd);
      return { kind: "cut", edge, row };
    }
  }
  if (byteStart > byteEnd) return { kind: "reversed" };
  return { kind: "span", start: charAt.get(byteStart), end: charAt.get(byteEnd) };
}

export function hex(value, width) {
  return value.toString(16).toUpperCase().padStart(width, "0");
}

/** "U+00E9": at least four hex digits, as Unicode writes code points. */
export function codePointLabel(codePoint) {
  return `U+${hex(codePoint, 4)}`;
}

const NAMED = new Map([[" ", "spatie"], ["\n", "regeleinde"], ["\r", "terugloop"], ["\t", "tab"],
  ["\u00a0", "harde spatie"], ["\u200b", "spatie zonder breedte"], ["\u200d", "verbinder (ZWJ)"],
  ["\ufeff", "BOM"]]);

/** What the table shows in the character column: never an invisible or a bare combining mark. */
export function visibleChar(row) {
  if (row.lone) return "(losse surrogaat)";
  if (NAMED.has(row.char)) return `(${NAMED.get(row.char)})`;
  if (/\p{M}/u.test(row.char)) return `\u25cc${row.char}`;  // on a dotted circle, as Unicode charts do
  if (/[\p{C}\p{Z}]/u.test(row.char)) return "(onzichtbaar)";
  return row.char;
}
