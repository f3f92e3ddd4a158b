import importlib.util
from pathlib import Path

import pytest
from node_bridge import ChunkRangesNode

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def chunk_ranges_node():
    bridge = ChunkRangesNode()
    yield bridge
    bridge.close()


@pytest.fixture(scope="session")
def reference_solution():
    """checkpoints/rag-01/solution.py, loaded as a module of its own."""
    path = ROOT / "checkpoints" / "rag-01" / "solution.py"
    spec = importlib.util.spec_from_file_location("rag01_reference_solution", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
