"""site/src/python-values.js, in Node: what widgets see of Python's plain values, and what they
send back, must be exactly what runner.core.plain means (a float stays a float, NaN survives)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from runner.core import plain, web, wire

ROOT = Path(__file__).resolve().parents[2]
MODULE = (ROOT / "site" / "src" / "python-values.js").as_uri()

# Reads plain JSON text on stdin; prints how each value decodes, and the values written back.
SCRIPT = f"""
import {{ parsePlain, pythonRepr, pythonTypeName, stringifyPlain }} from "{MODULE}";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const value = parsePlain(input);
process.stdout.write(JSON.stringify({{
  types: value.map(pythonTypeName),
  reprs: value.map(pythonRepr),
  back: stringifyPlain(value.filter((item) => pythonTypeName(item) !== "tuple")),
}}));
"""


def run_node(text: str) -> dict:
    node = shutil.which("node")
    assert node, "node is not installed"
    completed = subprocess.run([node, "--input-type=module", "-e", SCRIPT], input=text,
                               capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def test_plain_values_keep_their_python_types_in_javascript():
    values = [6, 6.0, 1e16, float("nan"), float("-inf"), 2**70, True, None, "a\U0001f600\ud800",
              [1, [2.5]], {"b": 1, "$a": 2}, (1, 2)]
    reply = web.call("f", [], source=f"def f():\n    return {values!r}\n".replace("nan", "float('nan')")
                     .replace("-inf", "float('-inf')"))
    answer = run_node(wire.dumps(reply["value"]))
    assert answer["types"] == ["int", "float", "float", "float", "float", "int", "bool", "NoneType", "str",
                               "list", "dict", "tuple"]
    assert answer["reprs"][:8] == ["6", "6.0", "1e+16", "nan", "-inf", str(2**70), "True", "None"]
    assert answer["reprs"][10] == "{'b': 1, '$a': 2}"
    # Written back, Python reads the very same values (the tuple cannot be sent, so it is left out).
    back = plain.decode(json.loads(answer["back"]))
    assert [repr(item) for item in back] == [repr(item) for item in values[:-1]]
    assert [type(item) for item in back] == [type(item) for item in values[:-1]]
