"""One long-lived Node process running the chunk-ranges widget's modules, spoken to in JSON lines."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

SERVER = Path(__file__).resolve().parent / "chunk_ranges_server.mjs"


class NodeBridgeError(RuntimeError):
    pass


class ChunkRangesNode:
    """Sends a request, waits for its answer: one line out, one line back, in order."""

    def __init__(self) -> None:
        node = shutil.which("node")
        if node is None:
            raise NodeBridgeError("node is not installed")
        self._process = subprocess.Popen(
            # The source files are ES modules without "type": "module"; Node detects that and
            # would warn about it on every start.
            [node, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(SERVER)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="ascii",
        )

    def ask(self, request: dict):
        # ensure_ascii: astral characters travel as escaped surrogate pairs, which JSON.parse
        # joins back into one character; nothing depends on the pipe's encoding.
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
