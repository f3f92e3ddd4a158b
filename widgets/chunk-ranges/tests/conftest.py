"""Fixtures of the chunk-ranges widget's own tests (the project's shared fixtures come from the
root conftest.py): this widget's JavaScript in Node, and rag-01's reference solution."""

from pathlib import Path

import pytest

from tests.lesson_pages import load_solution
from tests.node_bridge import node_fixture

chunk_ranges_node = node_fixture(Path(__file__).resolve().parent / "chunk_ranges_ops.mjs", scope="session")


@pytest.fixture(scope="session")
def reference_solution():
    """checkpoints/rag-01/solution.py, loaded as a module of its own."""
    return load_solution("rag-01")
