// What test_python_text.py asks Node (through tests/node_bridge.mjs): the shared kit
// site/src/python-text.js, called as widgets call it.
import * as pythonText from "../../site/src/python-text.js";

export function answer(request) {
  switch (request.op) {
    case "whitespace":
      return pythonText.PYTHON_WHITESPACE;
    case "split": {
      const { words, length, loneSurrogateAt } = pythonText.splitWords(request.text);
      return { words: words.map((w) => [w.index, w.start, w.end, w.text]), length, loneSurrogateAt,
        // the UTF-16 offsets must slice exactly the word
        sliced: words.every((w) => request.text.slice(w.utf16Start, w.utf16End) === w.text) };
    }
    case "spans": {
      const { codePoints, utf16 } = pythonText.indexCodePoints(request.text);
      return { spans: pythonText.wordSpansIn(codePoints, request.start, request.end),
        stripped: pythonText.strippedSpan(codePoints, request.start, request.end),
        length: codePoints.length, utf16Last: utf16[utf16.length - 1] };
    }
    case "windows":
      return pythonText.wordWindows(request.count, request.size, request.overlap);
    case "integer":
      return request.texts.map((text) => [pythonText.integerLiteral(text), pythonText.integerLiteral(text, { negative: false })]);
    default:
      throw new Error(`unknown op ${request.op}`);
  }
}
