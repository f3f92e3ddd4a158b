// The structure view's computation: headings, section chunks, sized chunks and rag-01's fixed word
// windows, exactly as checkpoints/rag-02/solution.py (and rag-01's word_chunks) compute them in
// Python. Pure functions without DOM access, so Node runs this file unchanged in the differential
// test (tests/widgets_heading_sections/). Offsets are Unicode code points, like Python's str
// indices; utf16 offsets exist only to slice JavaScript strings and to highlight the DOM.
export const MAX_TEXT_LENGTH = 20000;
export const MAX_WORDS_LIMIT = 256;

// What Python's str.split() splits on (every c with chr(c).isspace()), as code points. Kept in
// this folder so the widget is everything it is; the differential test holds it to Python's.
const WHITESPACE = new Set([
  0x0009, 0x000a, 0x000b, 0x000c, 0x000d, 0x001c, 0x001d, 0x001e, 0x001f, 0x0020, 0x0085,
  0x00a0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
  0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);
// The "s" flag: Python's "." matches everything but "\n" (which never occurs inside a line), while
// JavaScript's "." would also stop at "\r", U+2028 and U+2029.
const FENCE_OPENER = /^ {0,3}(`{3,}|~{3,})(.*)$/s;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t](.*))?$/s;
const CLOSING_SEQUENCE = /[ \t]+#+$/;

function isSpace(codePoint) {
  return WHITESPACE.has(codePoint);
}

function stripSpacesAndTabs(text) {
  return text.replace(/^[ \t]+/, "").replace(/[ \t]+$/, "");
}

function codePointLength(text) {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

/** The heading's title: spaces and tabs off, then an optional closing run of "#" removed. */
export function headingTitle(rest) {
  const title = stripSpacesAndTabs(rest);
  if (/^#*$/.test(title)) return "";
  return title.replace(CLOSING_SEQUENCE, "");
}

function closesFence(line, marker) {
  const stripped = line.replace(/^ +/, "");
  if (line.length - stripped.length > 3) return false;
  let run = 0;
  while (run < stripped.length && stripped[run] === marker[0]) run += 1;
  return run >= marker.length && stripSpacesAndTabs(stripped.slice(run)) === "";
}

/**
 * Code points of `text` with their UTF-16 offsets: codePoints[i] is the i-th code point's value,
 * utf16[i] where it starts in the JavaScript string (utf16[length] = text.length).
 */
export function indexText(text) {
  const codePoints = [];
  const utf16 = [];
  for (let unit = 0; unit < text.length; ) {
    const value = text.codePointAt(unit);
    // A lone surrogate is one code point for Python as well.
    const width = value > 0xffff ? 2 : 1;
    codePoints.push(value);
    utf16.push(unit);
    unit += width;
  }
  utf16.push(text.length);
  return { codePoints, utf16 };
}

/**
 * markdown_headings(text), plus the lines that belong to fences (for shading).
 * @returns {{headings: object[], fenceLines: {line: number, start: number, end: number, looksLikeHeading: boolean}[]}}
 */
export function findHeadings(text) {
  const headings = [];
  const fenceLines = [];
  let fence = null;
  let offset = 0;
  const rawLines = text.split("\n");
  for (let number = 0; number < rawLines.length; number += 1) {
    const raw = rawLines[number];
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const start = offset;
    const end = start + codePointLength(line);
    offset += codePointLength(raw) + 1;
    if (fence !== null) {
      fenceLines.push({ line: number, start, end, looksLikeHeading: ATX_HEADING.test(line) });
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    const opener = FENCE_OPENER.exec(line);
    if (opener && !(opener[1][0] === "`" && opener[2].includes("`"))) {
      fence = opener[1];
      fenceLines.push({ line: number, start, end, looksLikeHeading: false });
      continue;
    }
    const match = ATX_HEADING.exec(line);
    if (match) {
      headings.push({ level: match[1].length, title: headingTitle(match[2] ?? ""), line: number, start, end });
    }
  }
  return { headings, fenceLines };
}

function trimmedSpan(codePoints, start, end) {
  while (start < end && isSpace(codePoints[start])) start += 1;
  while (end > start && isSpace(codePoints[end - 1])) end -= 1;
  return [start, end];
}

function wordSpans(codePoints, start, end) {
  const spans = [];
  let wordStart = -1;
  for (let index = start; index < end; index += 1) {
    if (isSpace(codePoints[index])) {
      if (wordStart >= 0) spans.push([wordStart, index]);
      wordStart = -1;
    } else if (wordStart < 0) {
      wordStart = index;
    }
  }
  if (wordStart >= 0) spans.push([wordStart, end]);
  return spans;
}

// rag-01's window rule over spans[0..n): [0, min(w, n)), then every w - o words, stop at the end.
function windows(count, maxWords, overlap) {
  const result = [];
  if (count === 0) return result;
  for (let first = 0; ; first += maxWords - overlap) {
    const last = Math.min(first + maxWords, count);
    result.push([first, last]);
    if (last === count) return result;
  }
}

/** The value a number field holds as Python gets it: only an integer literal is an int. */
export function readWholeNumber(raw) {
  const trimmed = String(raw).trim();
  return /^-?[0-9]+$/.test(trimmed) ? Number.parseInt(trimmed, 10) : null;
}

/** Why sized_chunks would refuse this input, in Dutch; empty when it is valid. */
export function explainProblems(text, length, maxWords, overlap) {
  const problems = [];
  if ([...text].every((c) => isSpace(c.codePointAt(0)))) {
    problems.push("De tekst is leeg of alleen witruimte: een snapshot weigert dat.");
  }
  if (length > MAX_TEXT_LENGTH) problems.push(`De tekst telt ${length} tekens; meer dan 20000 weigert een snapshot.`);
  if (maxWords === null || maxWords < 1 || maxWords > MAX_WORDS_LIMIT) {
    problems.push("max_words is een geheel getal van 1 tot en met 256.");
  }
  if (overlap === null || overlap < 0 || (maxWords !== null && overlap >= maxWords)) {
    problems.push("overlap is een geheel getal van 0 tot max_words.");
  }
  return problems;
}

/**
 * Everything the structure view draws, for a source text and the two number fields.
 * @param {string} text
 * @param {string|number} maxWordsField
 * @param {string|number} overlapField
 */
export function analyse(text, maxWordsField, overlapField) {
  const { codePoints, utf16 } = indexText(text);
  const maxWords = readWholeNumber(maxWordsField);
  const overlap = readWholeNumber(overlapField);
  const problems = explainProblems(text, codePoints.length, maxWords, overlap);
  const slice = (start, end) => text.slice(utf16[start], utf16[end]);
  const { headings, fenceLines } = findHeadings(text);
  const firstStart = headings.length > 0 ? headings[0].start : codePoints.length;
  const raw = [{ level: 0, path: [], begin: 0, end: firstStart }];
  let open = [];
  headings.forEach((heading, index) => {
    open = open.filter((pair) => pair.level < heading.level);
    open.push({ level: heading.level, title: heading.title });
    heading.path = open.map((pair) => pair.title);
    const end = index + 1 < headings.length ? headings[index + 1].start : codePoints.length;
    raw.push({ level: heading.level, path: heading.path, begin: heading.end, end });
  });
  const sections = [];
  for (const candidate of raw) {
    const [start, end] = trimmedSpan(codePoints, candidate.begin, candidate.end);
    if (start < end) {
      sections.push({
        chunkNumber: sections.length, level: candidate.level, headings: [...candidate.path],
        start, end, text: slice(start, end),
      });
    }
  }
  const valid = problems.length === 0;
  const sized = [];
  const fixed = [];
  if (valid) {
    for (const section of sections) {
      const spans = wordSpans(codePoints, section.start, section.end);
      for (const [first, last] of windows(spans.length, maxWords, overlap)) {
        const start = spans[first][0];
        const end = spans[last - 1][1];
        const body = slice(start, end);
        sized.push({
          chunkNumber: sized.length, section: section.chunkNumber, headings: [...section.headings],
          start, end, text: body,
          embedText: section.headings.length > 0 ? `${section.headings.join(" > ")}\n\n${body}` : body,
        });
      }
    }
    const spans = wordSpans(codePoints, 0, codePoints.length);
    for (const [first, last] of windows(spans.length, maxWords, overlap)) {
      const start = spans[first][0];
      const end = spans[last - 1][1];
      // The sections this window touches: more than one means it cuts across a section boundary.
      const touched = sections.filter((section) => section.start < end && start < section.end);
      fixed.push({ wordStart: first, wordEnd: last, start, end, text: slice(start, end), sections: touched.map((s) => s.chunkNumber) });
    }
  }
  return { valid, problems, length: codePoints.length, utf16, headings, fenceLines, sections, sized, fixed, maxWords, overlap };
}
