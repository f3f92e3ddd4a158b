"""Stage 1 of the build, load: read every lessons/*.md, validate it completely and return the typed
lessons, with lessons/planned.yaml.

Nothing runs or is written here (the examples and the quality gate are stage 2,
builder/verify_lessons.py); every authoring mistake becomes a BuildError with file and line, and all
of them are reported together (BuildErrors). A check that cannot run meaningfully after an earlier
failure is skipped: no body without a readable front matter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from builder.accessible_content import accessibility_warnings
from builder.checkpoint_files import read_checkpoint_files
from builder.errors import BuildError, BuildWarning, combined, each_error, raise_if_any
from builder.front_matter import split_front_matter
from builder.lesson_header import FieldError, LessonHeader, lesson_id, read_lesson_header, read_lesson_identity
from builder.lesson_markdown import create_markdown
from builder.model import Lesson, PlannedLesson
from builder.planned_lessons import PLANNED_FILE, read_planned_lessons
from builder.plugins.parse_state import ParseState, parse_env
from builder.widgets import Widget, discover_widgets
from runner.core.lesson_config import suggestion


@dataclass
class LoadedLessons:
    """What the load stage found: the lessons that loaded and the mistakes of those that did not.

    The verify stage still checks the lessons that loaded, so that one build reports every mistake.
    """

    lessons: list[Lesson]  # sorted by module number and lesson number
    errors: list[BuildError]
    planned: list[PlannedLesson] = field(default_factory=list)
    # Lessons that exist but are left out of this build (`build.py --only`): id -> file as shown.
    other_lessons: dict[str, str] = field(default_factory=dict)


def load_lessons(lessons_dir: Path, checkpoints_dir: Path, root: Path | None = None,
                 markdown: MarkdownIt | None = None, only: str | None = None) -> list[Lesson]:
    """All lessons (or only the one with id `only`), sorted by module and lesson number; raises
    every mistake at once. See `load_content` for the arguments."""
    loaded = load_content(lessons_dir, checkpoints_dir, root, markdown, only)
    raise_if_any(loaded.errors)
    return loaded.lessons


def load_content(lessons_dir: Path, checkpoints_dir: Path, root: Path | None = None,
                 markdown: MarkdownIt | None = None, only: str | None = None) -> LoadedLessons:
    """The load stage: every lesson of `lessons_dir` (only the one with id `only`, when given),
    and the planned lessons.

    `root` is the directory paths in messages are relative to (default: lessons_dir's parent).
    `markdown` is the build's one parser (default: a new one, shared by these lessons).
    Raises BuildError only when `only` names no lesson; other mistakes are in the result.
    """
    root = root or lessons_dir.parent
    markdown = create_markdown() if markdown is None else markdown
    paths = sorted(lessons_dir.glob("*.md"))
    other_lessons: dict[str, str] = {}
    if only is not None:
        paths, other_lessons = select_lesson(paths, only, root)
    lessons: list[Lesson] = []
    errors: list[BuildError] = []
    try:
        widgets = discover_widgets(root)
    except BuildError as error:
        # A mistake in a widget's own files: the lessons using it would only fail again.
        return LoadedLessons([], each_error(error), other_lessons=other_lessons)
    for path in paths:
        try:
            lessons.append(load_lesson(path, checkpoints_dir, root, markdown, widgets))
        except BuildError as error:
            errors.extend(each_error(error))
    errors.extend(find_duplicates(lessons))
    planned_path = lessons_dir / PLANNED_FILE
    planned: list[PlannedLesson] = []
    try:
        planned = read_planned_lessons(planned_path, shown(planned_path, root))
    except BuildError as error:
        errors.extend(each_error(error))
    return LoadedLessons(sorted(lessons, key=lambda lesson: (lesson.module.number, lesson.number)),
                         errors, planned, other_lessons)


def select_lesson(paths: list[Path], only: str, root: Path) -> tuple[list[Path], dict[str, str]]:
    """The file(s) of lesson `only`, and every other lesson's id and file.

    Only front matters are read to find it (no body, no checkpoints), so selecting stays fast. A
    file whose id cannot be read is taken by its name, so its own mistakes still get reported.
    """
    selected: list[Path] = []
    others: dict[str, str] = {}
    for path in paths:
        declared = declared_lesson_id(path)
        if declared == only or (declared is None and path.stem == only):
            selected.append(path)
        elif declared is not None:
            others[declared] = shown(path, root)
    if not selected:
        raise BuildError(None, None, f"--only: there is no lesson with the id '{only}'{meant_lesson(only, others)}")
    return selected, others


def meant_lesson(only: str, others: dict[str, str]) -> str:
    """A did-you-mean for `--only`; a file named after the id that declares another one says so."""
    named_so = [(lesson_id, path) for lesson_id, path in others.items() if Path(path).stem == only]
    if named_so:
        lesson_id, path = named_so[0]
        return f" ({path} has the id '{lesson_id}')"
    return suggestion(only, sorted(others))


def declared_lesson_id(path: Path) -> str | None:
    """The front matter's `id`, or None when the file has no readable, valid one."""
    try:
        front_matter = split_front_matter(str(path), path.read_text(encoding="utf-8"))
        return lesson_id(front_matter.fields["id"].value)
    except (BuildError, UnicodeDecodeError, KeyError, FieldError):
        return None


def shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def load_lesson(path: Path, checkpoints_dir: Path, root: Path, markdown: MarkdownIt,
                widgets: dict[str, Widget] | None = None) -> Lesson:
    shown_path = shown(path, root)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BuildError(shown_path, None, f"the file is not UTF-8 text ({error.reason})") from None
    front_matter = split_front_matter(shown_path, text)
    errors: list[BuildError] = []
    header: LessonHeader | None = None
    try:
        header = read_lesson_header(shown_path, front_matter)
    except BuildError as error:
        errors.extend(each_error(error))
    identity = (header.id, header.checkpoint_ids) if header else read_lesson_identity(front_matter)
    if identity is None:
        raise combined(errors)  # without its id and checkpoints, the body cannot be checked
    lesson_id, checkpoint_ids = identity
    checkpoints_line = front_matter.fields["checkpoints"].line
    lesson_checkpoints_dir = checkpoints_dir / lesson_id
    shown_checkpoints_dir = shown(lesson_checkpoints_dir, root)
    try:
        files = read_checkpoint_files(lesson_checkpoints_dir, shown_checkpoints_dir, shown_path,
                                      checkpoint_ids, checkpoints_line)
    except BuildError as error:
        raise combined([*errors, *each_error(error)]) from None  # the markers need the checkpoints
    parse = ParseState(  # everything one parse learns stays here: the parser is shared by every lesson
        path=shown_path,
        line_offset=front_matter.body_line_offset,
        checkpoints={checkpoint.id: checkpoint for checkpoint in files.checkpoints},
        widgets=widgets or {},  # the project's widgets/, for `:::{widget} <name>`
        errors=errors,  # the plugins add every mistake of the body here
        warnings=[],
    )
    body_tokens = markdown.parse(front_matter.body, parse_env(parse))
    errors.extend(check_headings(shown_path, body_tokens, front_matter.body_line_offset))
    raise_if_any(sorted(errors, key=lambda error: error.line or 0))  # in the order of the file
    assert header is not None  # a header mistake is in `errors`
    warnings: list[BuildWarning] = [
        *(parse.warnings or []),
        *missing_markers(shown_path, checkpoints_line, checkpoint_ids, parse.placed_checkpoints),
        *accessibility_warnings(shown_path, body_tokens, front_matter.body_line_offset),
    ]
    return Lesson(
        id=header.id,
        path=shown_path,
        source=path,
        module=header.module,
        number=header.number,
        title=header.title,
        subtitle=header.subtitle,
        duration=header.duration,
        goals=header.goals,
        takeaways=header.takeaways,
        reviewed=header.reviewed,
        prerequisites=header.prerequisites,
        related=header.related,
        next_step=header.next_step,
        sources=header.sources,
        checkpoints=files.checkpoints,
        checkpoints_dir=lesson_checkpoints_dir,
        checkpoints_shown_dir=shown_checkpoints_dir,
        solution_code=files.solution_code,
        show_solution=header.show_solution,
        starter_code=files.starter_code,
        body_tokens=body_tokens,
        examples=parse.examples,
        settings=files.settings,
        field_lines=header.field_lines,
        warnings=warnings,
        widgets=parse.used_widgets,
    )


def missing_markers(path: str, line: int, checkpoint_ids: list[str], placed: set[str]) -> list[BuildWarning]:
    # The panel still lists such a checkpoint, but the text never tells the learner when to do it.
    return [BuildWarning(path, line, f"checkpoint '{checkpoint_id}' has no marker in the text: "
                                     f"add ':::{{checkpoint}} {checkpoint_id}' after the section that teaches it")
            for checkpoint_id in checkpoint_ids if checkpoint_id not in placed]


def check_headings(path: str, tokens: list[Any], line_offset: int) -> list[BuildError]:
    # The page title is the page's one <h1>; a second one would break the heading outline.
    return [BuildError(path, line_offset + token.map[0] + 1 if token.map else None,
                       "use '## ' for sections: the lesson title is the only level-1 heading")
            for token in tokens if token.type == "heading_open" and token.tag == "h1"]


def find_duplicates(lessons: list[Lesson]) -> list[BuildError]:
    """Lesson ids are unique; a module has one title and number; lesson numbers don't collide."""
    errors: list[BuildError] = []
    by_id: dict[str, Lesson] = {}
    modules: dict[str, Lesson] = {}
    positions: dict[tuple[str, int], Lesson] = {}
    for lesson in lessons:
        if lesson.id in by_id:
            errors.append(BuildError(lesson.path, lesson.field_lines["id"],
                                     f"duplicate lesson id '{lesson.id}' (also used by {by_id[lesson.id].path})"))
            continue
        by_id[lesson.id] = lesson
        first = modules.setdefault(lesson.module.id, lesson)
        if first.module != lesson.module:
            errors.append(BuildError(lesson.path, lesson.field_lines["module"],
                                     f"module '{lesson.module.id}' is number {first.module.number} titled "
                                     f"'{first.module.title}' in {first.path}; use the same here"))
        position = (lesson.module.id, lesson.number)
        if position in positions:
            errors.append(BuildError(lesson.path, lesson.field_lines["lesson"],
                                     f"lesson {lesson.number} of module '{lesson.module.id}' already exists: "
                                     f"{positions[position].path}"))
        positions[position] = lesson
    return errors
