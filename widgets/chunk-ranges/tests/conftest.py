"""Fixtures of the chunk-ranges widget's own tests (the project's shared fixtures come from the
root conftest.py): this widget's JavaScript in Node, and rag-01's reference solution."""

import importlib.util
from pathlib import Path

import pytest

from tests.node_bridge import node_fixture

ROOT = Path(__file__).resolve().parents[3]

chunk_ranges_node = node_fixture(Path(__file__).resolve().parent / "chunk_ranges_ops.mjs", scope="session")


@pytest.fixture(scope="session")
def reference_solution():
    """checkpoints/rag-01/solution.py, loaded as a module of its own."""
    path = ROOT / "checkpoints" / "rag-01" / "solution.py"
    spec = importlib.util.spec_from_file_location("rag01_reference_solution", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
