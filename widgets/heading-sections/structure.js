// The structure view's computation: headings, section chunks, sized chunks and rag-01's fixed word
// windows, exactly as checkpoints/rag-02/solution.py (and rag-01's word_chunks) compute them in
// Python. Pure functions without DOM access, so Node runs this file unchanged in the differential
// test (tests/widgets_heading_sections/). Offsets are Unicode code points, like Python's str
// indices; utf16 offsets exist only to slice JavaScript strings and to highlight the DOM.
export const MAX_TEXT_LENGTH = 20000;
export const MAX_WORDS_LIMIT = 256;

// The "s" flag: Python's "." matches everything but "\n" (which never occurs inside a line), while
// JavaScript's "." would also stop at "\r", U+2028 and U+2029.
const FENCE_OPENER = /^ {0,3}(`{3,}|~{3,})(.*)$/s;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t](.*))?$/s;
const CLOSING_SEQUENCE = /[ \t]+#+$/;

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

/** Why sized_chunks would refuse this input, in Dutch; empty when it is valid. */
export function explainProblems(text, length, maxWords, overlap, pythonText) {
  const problems = [];
  if ([...text].every((c) => pythonText.isPythonSpace(c.codePointAt(0)))) {
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
 * @param {typeof import("../../site/src/python-text.js")} pythonText  context.pythonText
 */
export function analyse(text, maxWordsField, overlapField, pythonText) {
  const { codePoints, utf16 } = pythonText.indexCodePoints(text);
  const maxWords = pythonText.integerLiteral(maxWordsField);
  const overlap = pythonText.integerLiteral(overlapField);
  const problems = explainProblems(text, codePoints.length, maxWords, overlap, pythonText);
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
    const [start, end] = pythonText.strippedSpan(codePoints, candidate.begin, candidate.end);
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
      const spans = pythonText.wordSpansIn(codePoints, section.start, section.end);
      for (const [first, last] of pythonText.wordWindows(spans.length, maxWords, overlap)) {
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
    const spans = pythonText.wordSpansIn(codePoints);
    for (const [first, last] of pythonText.wordWindows(spans.length, maxWords, overlap)) {
      const start = spans[first][0];
      const end = spans[last - 1][1];
      // The sections this window touches: more than one means it cuts across a section boundary.
      const touched = sections.filter((section) => section.start < end && start < section.end);
      fixed.push({ wordStart: first, wordEnd: last, start, end, text: slice(start, end), sections: touched.map((s) => s.chunkNumber) });
    }
  }
  return { valid, problems, length: codePoints.length, utf16, headings, fenceLines, sections, sized, fixed, maxWords, overlap };
}
