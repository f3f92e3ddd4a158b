"""Fixtures for the text-units widget's own tests: the project's Chromium fixtures come from
tests/shared_fixtures.py (the root conftest.py); here the site of rag-00b alone, built once, which is all this widget needs."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def rag00b_server(tmp_path_factory):
    from builder.serve import start_server

    out = tmp_path_factory.mktemp("rag00b") / "_site"
    completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--only", "rag-00b", "--out", str(out)],
                               cwd=ROOT, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    server = start_server(out, isolated=True)
    yield server
    server.close()
