"""Which modules learner code may import when graded offline, and a clear Dutch "no" for the rest.

Installed in each submission's child (runner.offline.sandbox.child) before learner code runs. A module is
importable when its top-level package is on the lesson's list (runner.offline.sandbox.host's
LEARNER_MODULES plus the lesson's `offline_modules` from checkpoints.toml, all preloaded by the
zygote) or already loaded by the grader itself. Anything else that main.py imports fails with
`ModuleNotFoundError: de module 'sqlite3' is niet beschikbaar in deze les`, whether the grader runs
as root or not, instead of a "No module named" that depends on what the sandbox uid can read.

Only imports written in main.py are refused: a module that an allowed one loads lazily (from its
own code) is looked up as usual. This is about clear and equal verdicts, not security; the
sandbox (runner.offline.sandbox.host, runner.offline.sandbox.child) is what contains learner code.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from importlib.abc import MetaPathFinder
from types import FrameType

LEARNER_FILE = "main.py"  # the file name runner.core.invoke.load_module compiles learner code with
IMPORT_MACHINERY = ("importlib", "_frozen_importlib", "_frozen_importlib_external", __name__)


def not_available(module: str) -> str:
    return f"de module '{module}' is niet beschikbaar in deze les"


def _imported_by_learner() -> bool:
    """Whether the nearest frame outside the import machinery is learner code."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not any(name == part or name.startswith(f"{part}.") for part in IMPORT_MACHINERY):
            return frame.f_code.co_filename == LEARNER_FILE
        frame = frame.f_back
    return False


class LessonImportGuard(MetaPathFinder):
    """First on sys.meta_path; it only ever refuses (or passes on to the usual finders)."""

    def __init__(self, allowed: Iterable[str]) -> None:
        self.allowed = frozenset(allowed)

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        top = fullname.partition(".")[0]
        # Private modules (_strptime, ...) are what the standard library loads for itself.
        if top in self.allowed or top in sys.modules or top.startswith("_") or not _imported_by_learner():
            return None
        raise ModuleNotFoundError(not_available(top), name=fullname)


def install(allowed: Iterable[str]) -> LessonImportGuard:
    guard = LessonImportGuard(allowed)
    sys.meta_path.insert(0, guard)
    return guard
