"""runner.offline.sandbox.import_guard: learner imports outside the lesson's modules get a Dutch refusal;
the grader's own imports, and those an allowed module makes for itself, are looked up as usual."""

from __future__ import annotations

import sys

import pytest

from runner.offline.sandbox.import_guard import LessonImportGuard

# Standard-library modules the grader never needs; the fixture unloads them first.
NOT_LOADED = ("tabnanny", "pyclbr")


@pytest.fixture
def guard():
    for name in NOT_LOADED:
        sys.modules.pop(name, None)
    installed = LessonImportGuard({"json"})
    sys.meta_path.insert(0, installed)
    yield installed
    sys.meta_path.remove(installed)


def run_as(filename: str, code: str) -> dict:
    namespace: dict = {}
    exec(compile(code, filename, "exec"), namespace)
    return namespace


def test_main_py_may_not_import_a_module_outside_the_list(guard):
    with pytest.raises(ModuleNotFoundError) as raised:
        run_as("main.py", "import tabnanny")
    assert str(raised.value) == "de module 'tabnanny' is niet beschikbaar in deze les"
    assert raised.value.name == "tabnanny"
    with pytest.raises(ModuleNotFoundError, match="de module 'pyclbr' is niet beschikbaar in deze les"):
        run_as("main.py", "import importlib\nimportlib.import_module('pyclbr')")


def test_allowed_and_loaded_modules_import(guard):
    run_as("main.py", "import json\nimport os\nimport sys")  # on the list, or already loaded


def test_imports_of_other_code_are_not_refused(guard):
    namespace = run_as("helper.py", "import tabnanny")  # not learner code: the usual finders answer
    assert namespace["tabnanny"].__name__ == "tabnanny"
