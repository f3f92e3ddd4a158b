"""rag-00b's unit table at its size limit: does a 100-code-point text recompute and redraw within
50 ms per edit?

Builds rag-00b alone, opens it in headless Chromium and edits the widget's text field as typing
does (an `input` event), alternating two texts of 100 code points that differ in the middle one.
Timed per edit: from the animation frame in which the table redraws to the end of the forced
style and layout after it (recompute + DOM + layout), 25 edits after 2 warm-up edits. The
baseline, in the same page and run, is assigning the same text to a <pre> with `textContent`,
timed the same way. Scenarios: 100 emoji (400 bytes: the most boundary buttons, 401), 100
two-byte letters and a mix of every width. (An edit drops the learner's comparison columns, which
belong to the old text, so they are never redrawn per keystroke.) Each figure is the median of
--runs runs in the same page (the machine is shared: one run can be unlucky).

    python bench/text_units.py [--rounds 25] [--runs 5] [--site DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.widget_bench import Row, main

LIMIT = 100
SCENARIOS = [
    ("100 emoji (400 bytes, 401 boundaries)", "\U0001F642" * LIMIT, "\U0001F1F3"),
    ("100 two-byte letters (200 bytes)", "é" * LIMIT, "ß"),
    ("100 mixed code points, 1-4 bytes", ("aé€\U0001F642e\u0301" * 60)[:LIMIT], "\U0001F1F1"),
]

MEASURE_JS = """
async ({text, other, rounds}) => {
  const source = document.querySelector("[data-testid=tu-source]");
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const pre = document.createElement("pre");
  document.querySelector("[data-text-units]").after(pre);
  const points = [...text];
  const middle = Math.floor(points.length / 2);
  const changed = [...points.slice(0, middle), other, ...points.slice(middle + 1)].join("");
  const variants = [text, changed];
  function timeFrame(edit) {
    return new Promise((resolve) => {
      let started = 0;
      requestAnimationFrame(() => { started = performance.now(); edit(); });
      requestAnimationFrame(() => {
        void document.body.offsetHeight;
        resolve(performance.now() - started);
      });
    });
  }
  const typeInto = (value) => () => {
    source.value = value;
    source.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const assignPlain = (value) => () => { pre.textContent = value; };
  const table = [], baseline = [];
  for (let round = 0; round < rounds + 2; round += 1) {
    const value = variants[round % 2];
    const redraw = await timeFrame(typeInto(value));
    await frame();
    const plain = await timeFrame(assignPlain(value));
    await frame();
    if (round >= 2) { table.push(redraw); baseline.push(plain); }
  }
  pre.remove();
  const count = (id) => document.querySelectorAll(`[data-testid=${id}]`).length;
  return { table, baseline, rows: count("tu-row"), boundaries: count("tu-boundary") };
}
"""


def measure(page, rounds: int) -> list[Row]:
    rows = []
    for name, text, other in SCENARIOS:
        result = page.evaluate(MEASURE_JS, {"text": text, "other": other, "rounds": rounds})
        rows.append(Row(name, result["table"], result["baseline"],
                        f"{result['rows']} rows {result['boundaries']} bounds"))
    return rows


if __name__ == "__main__":
    sys.exit(main(__doc__, measure, lesson="rag-00b", ready="[data-testid=tu-row]"))
