// What test_python_judge.py asks Node (through tests/node_bridge.mjs): the shared judge
// site/src/python-judge.js on two values as plain JSON text (runner.core.plain.dumps).
import { firstDifference, pythonStrRepr, same } from "../../site/src/python-judge.js";
import { parsePlain } from "../../site/src/python-values.js";

export function answer(request) {
  switch (request.op) {
    case "judge":
      return request.pairs.map(([actual, expected]) => {
        const found = firstDifference(parsePlain(actual), parsePlain(expected));
        return { same: same(parsePlain(actual), parsePlain(expected)),
          difference: found && { path: found.path, kind: found.kind } };
      });
    case "repr":
      return request.texts.map(pythonStrRepr);
    default:
      throw new Error(`unknown op ${request.op}`);
  }
}
