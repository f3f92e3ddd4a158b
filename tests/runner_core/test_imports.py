"""The grading core runs unchanged in Pyodide: standard library only, and never the builder."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE_MODULES = ["__init__", "plain", "invoke", "model", "host", "grade", "bundle", "testkit", "messages"]
SHIPPED_TESTS = sorted((ROOT / "checkpoints" / "rag-01" / "tests").glob("*.py")) + [ROOT / "checkpoints" / "rag-01" / "solution.py"]


def imported_modules(path):
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            names.add(node.module)
    return names


def allowed(module):
    top = module.split(".")[0]
    if top == "runner":
        return module == "runner" or module.split(".")[1] in CORE_MODULES
    return top in sys.stdlib_module_names


@pytest.mark.parametrize("path", [ROOT / "runner" / f"{name}.py" for name in CORE_MODULES] + SHIPPED_TESTS, ids=lambda p: p.name)
def test_imports_only_the_standard_library_and_the_core(path):
    assert sorted(m for m in imported_modules(path) if not allowed(m)) == []
