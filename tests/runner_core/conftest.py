"""Shared fixtures for the grading-core tests."""

from pathlib import Path

import pytest

from runner.core.bundle import load_bundle

ROOT = Path(__file__).resolve().parents[2]
LESSON_DIR = ROOT / "checkpoints" / "rag-01"


@pytest.fixture(scope="session")
def bundle():
    return load_bundle(LESSON_DIR, include_offline=False)


@pytest.fixture(scope="session")
def reference_source():
    return (LESSON_DIR / "solution.py").read_text(encoding="utf-8")
