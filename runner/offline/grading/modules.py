"""Which lessons count toward a module's total (docs/grading.md, "A whole module in one run").

A total can only surprise when the set of lessons under it depends on what learners handed in.
So the set is fixed before any submission is read: the lessons the teacher lists (`--lessons`),
else, per module, the module's own published lessons: each `lessons/<id>.md` whose front matter
names the module and whose `checkpoints/<id>/` exists (a planned lesson has neither). A lesson
without a lesson file (a checkpoints tree of the teacher's own) belongs to the module its id
names (`tekst-02` -> `tekst`). A lesson that submissions name but that is in no counted set is
graded and reported, and never added to anyone's total.

Only the front matter's `module:` line is read, with a pattern, so the runner does not import
the builder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# `module: {id: rag, number: 1, title: RAG}` or a block with an `id:` line under `module:`.
INLINE_MODULE = re.compile(r"^module:\s*\{[^}\n]*?\bid:\s*['\"]?([\w-]+)", re.MULTILINE)
BLOCK_MODULE = re.compile(r"^module:\s*\n(?:[ \t]+.*\n)*?[ \t]+id:\s*['\"]?([\w-]+)", re.MULTILINE)
ID_MODULE = re.compile(r"^(.+?)-\d+[a-z]?$")


@dataclass(frozen=True)
class CountedModule:
    """One module's total: its id, the lessons that count, and why those."""

    module: str
    lessons: tuple[str, ...]
    reason: str  # "teacher" (--lessons), "published" (lesson files), "checkpoints" (ids in the tree)


def module_from_id(lesson: str) -> str:
    found = ID_MODULE.match(lesson)
    return found.group(1) if found else lesson


def front_matter_module(lesson_file: Path) -> str | None:
    """The module id in a lesson file's front matter, or None (no file, no front matter)."""
    try:
        text = lesson_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    front = text[: end + 1] if end != -1 else text
    found = INLINE_MODULE.search(front) or BLOCK_MODULE.search(front)
    return found.group(1) if found else None


def lesson_module_map(tree_lessons: Sequence[str], lessons_dir: Path | None) -> dict[str, tuple[str, bool]]:
    """lesson -> (module, published): from its lesson file when there is one, else from its id."""
    found = {}
    for lesson in tree_lessons:
        module = front_matter_module(lessons_dir / f"{lesson}.md") if lessons_dir is not None else None
        found[lesson] = (module, True) if module is not None else (module_from_id(lesson), False)
    return found


def counted_modules(named: Sequence[str], tree_lessons: Sequence[str], lessons_dir: Path | None,
                    teacher_lessons: Sequence[str] | None) -> list[CountedModule]:
    """The totals of a module run. `named`: the lessons the submissions name (they pick which
    modules are in the run, never which lessons count); `tree_lessons`: the lessons of the
    checkpoints tree; `teacher_lessons`: --lessons, one total over exactly those."""
    if teacher_lessons:
        modules = {module_from_id(lesson) for lesson in teacher_lessons}
        name = modules.pop() if len(modules) == 1 else "+".join(sorted({module_from_id(x) for x in teacher_lessons}))
        return [CountedModule(name, tuple(teacher_lessons), "teacher")]
    mapping = lesson_module_map(tree_lessons, lessons_dir)
    any_published = any(published for _module, published in mapping.values())
    wanted = sorted({mapping[lesson][0] for lesson in named if lesson in mapping})
    found = []
    for module in wanted:
        if any_published:
            members = [lesson for lesson, (owner, published) in mapping.items() if owner == module and published]
            reason = "published"
        else:
            members = [lesson for lesson, (owner, _published) in mapping.items() if owner == module]
            reason = "checkpoints"
        if members:
            found.append(CountedModule(module, tuple(sorted(members)), reason))
    return found


def stray_lessons(named: Sequence[str], modules: Sequence[CountedModule]) -> list[str]:
    """Lessons submissions name that no total counts: graded and reported, never added."""
    counted = {lesson for module in modules for lesson in module.lessons}
    return sorted(set(named) - counted)
