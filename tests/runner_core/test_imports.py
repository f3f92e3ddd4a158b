"""The grading core runs unchanged in Pyodide: standard library only, and never the builder."""

import ast
import sys

import pytest

from tests.lessons.lesson_tests import LESSONS, ROOT

CORE_DIR = ROOT / "runner" / "core"
CORE_FILES = [ROOT / "runner" / "__init__.py", *sorted(CORE_DIR.glob("*.py"))]
# What every lesson ships into the browser next to the core.
SHIPPED_TESTS = [path for lesson in LESSONS for path in
                 [*sorted((lesson.checkpoints_dir / "tests").glob("*.py")), lesson.checkpoints_dir / "solution.py"]
                 if path.is_file()]


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
        return module in ("runner", "runner.core") or (CORE_DIR / f"{module.removeprefix('runner.core.')}.py").is_file() \
            and module.startswith("runner.core.")
    return top in sys.stdlib_module_names


@pytest.mark.parametrize("path", CORE_FILES + SHIPPED_TESTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_only_the_standard_library_and_the_core(path):
    assert sorted(m for m in imported_modules(path) if not allowed(m)) == []
