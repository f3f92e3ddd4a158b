"""lessons/planned.yaml: the lessons a module will have but that are not written yet.

One `id: title` line per lesson. A prerequisite, related lab or next step may name a planned id
without a warning (the page shows it unlinked, "(nog niet beschikbaar)", as for any lesson that is
not built); an id that is neither a lesson nor planned is still a warning. Once lessons/<id>.md
exists, the build warns that its planned line can go.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from builder.errors import BuildError, BuildWarning, raise_if_any
from builder.lesson_header import LESSON_ID, FieldError, describe, text
from builder.model import PlannedLesson

PLANNED_FILE = "planned.yaml"  # in lessons/, next to the lessons it announces


def read_planned_lessons(path: Path, shown_path: str) -> list[PlannedLesson]:
    """The planned lessons in file order (none without the file); every wrong line is reported."""
    if not path.is_file():
        return []
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BuildError(shown_path, None, f"the file is not UTF-8 text ({error.reason})") from None
    loader = yaml.SafeLoader(source)
    try:
        node = loader.get_single_node()
        if node is None:
            return []  # an empty file, or comments only: nothing planned
        if not isinstance(node, yaml.MappingNode):
            raise BuildError(shown_path, node.start_mark.line + 1,
                             "planned lessons are 'id: title' lines, one per lesson")
        return read_entries(loader, node, shown_path)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        reason = error.problem or error.context or "unreadable YAML"
        raise BuildError(shown_path, mark.line + 1 if mark else 1, f"invalid YAML: {reason}") from None
    finally:
        loader.dispose()


def read_entries(loader: yaml.SafeLoader, node: yaml.MappingNode, shown_path: str) -> list[PlannedLesson]:
    planned: dict[str, PlannedLesson] = {}
    errors: list[BuildError] = []
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        key = loader.construct_object(key_node, deep=True)
        value = loader.construct_object(value_node, deep=True)
        if not isinstance(key, str) or not LESSON_ID.fullmatch(key):
            errors.append(BuildError(shown_path, line, f"{describe(key)} is not a lesson id: "
                                                      "use lowercase letters, digits and '-'"))
            continue
        planned_id = key
        try:
            title = text(value)
        except FieldError:
            errors.append(BuildError(shown_path, line, f"planned lesson '{planned_id}' needs a title after "
                                                      f"'{planned_id}: ', got {describe(value)}"))
            continue
        if planned_id in planned:
            errors.append(BuildError(shown_path, line, f"planned lesson '{planned_id}' is listed twice "
                                                      f"(also on line {planned[planned_id].line})"))
            continue
        planned[planned_id] = PlannedLesson(planned_id, title, shown_path, line)
    raise_if_any(errors)
    return list(planned.values())


def find_written_planned(planned: list[PlannedLesson], existing: dict[str, str]) -> list[BuildWarning]:
    """A planned lesson that now exists (`existing`: lesson id -> its file) is no longer planned."""
    return [BuildWarning(lesson.path, lesson.line, f"lesson '{lesson.id}' exists now ({existing[lesson.id]}): "
                                                   f"remove it from the planned lessons")
            for lesson in planned if lesson.id in existing]
