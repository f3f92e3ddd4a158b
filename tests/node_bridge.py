"""The one Node bridge of the widget tests: a long-lived Node process (tests/node_bridge.mjs) that
runs a widget's JavaScript exactly as the page does, spoken to in JSON lines.

A widget's tests hold a `<name>_ops.mjs` that exports `answer(request)`; `NodeBridge(ops_path)`
starts Node on it, `ask(request)` sends one request and returns the `value` of its answer. A test
module makes it a fixture with `node_fixture(ops_path)`. Without Node installed the tests that use
it are skipped, as they were before the bridge was shared.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

BRIDGE = Path(__file__).resolve().parent / "node_bridge.mjs"


class NodeBridgeError(RuntimeError):
    pass


class NodeBridge:
    """Sends a request, waits for its answer: one line out, one line back, in order."""

    def __init__(self, ops: Path) -> None:
        node = shutil.which("node")
        if node is None:
            raise NodeBridgeError("node is not installed")
        self._process = subprocess.Popen(
            # The source files are ES modules without "type": "module"; Node detects that and
            # would warn about it on every start.
            [node, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(BRIDGE), str(ops)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="ascii",
        )

    def ask(self, request: dict | None = None, /, **fields):
        """`ask({"op": "x", ...})` or `ask(op="x", ...)`: the answer's value."""
        request = {**(request or {}), **fields}
        # ensure_ascii: astral characters travel as escaped surrogate pairs, which JSON.parse
        # joins back into one character, and a lone surrogate stays lone.
        self._process.stdin.write(json.dumps(request, ensure_ascii=True) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            raise NodeBridgeError("the node process stopped")
        reply = json.loads(line)
        if not reply["ok"]:
            raise NodeBridgeError(reply["error"])
        return reply["value"]

    def close(self) -> None:
        self._process.stdin.close()
        self._process.wait(timeout=10)


def node_fixture(ops: Path, scope: str = "module"):
    """A pytest fixture giving a NodeBridge on `ops`, started once per `scope`."""

    @pytest.fixture(scope=scope)
    def bridge():
        if shutil.which("node") is None:
            pytest.skip("node is not installed")
        started = NodeBridge(ops)
        yield started
        started.close()

    return bridge
