"""Pass 1: read every lessons/*.md, validate it completely and return the typed lessons.

Nothing is written here; every authoring mistake becomes a BuildError with file and line.
"""

from __future__ import annotations

from pathlib import Path

from markdown_it import MarkdownIt

from builder.checkpoint_files import read_checkpoint_files
from builder.errors import BuildError
from builder.front_matter import split_front_matter
from builder.lesson_header import read_lesson_header
from builder.lesson_markdown import create_markdown
from builder.model import Lesson
from builder.verify_checkpoints import PassedGates, verify_checkpoints
from builder.verify_examples import verify_examples


def load_lessons(lessons_dir: Path, checkpoints_dir: Path, root: Path | None = None,
                 markdown: MarkdownIt | None = None, passed_gates: PassedGates | None = None) -> list[Lesson]:
    """All lessons, sorted by module number and lesson number.

    `root` is the directory paths in messages are relative to (default: lessons_dir's parent).
    `markdown` is the build's one parser (default: a new one, shared by these lessons);
    `passed_gates` lets a dev server skip the quality gate of lessons that passed it unchanged.
    """
    root = root or lessons_dir.parent
    markdown = create_markdown() if markdown is None else markdown
    lessons: list[Lesson] = []
    for path in sorted(lessons_dir.glob("*.md")):
        lessons.append(load_lesson(path, checkpoints_dir, root, markdown))
    check_unique(lessons)
    for lesson in lessons:
        verify_examples(lesson)
        verify_checkpoints(lesson, passed_gates)
    return sorted(lessons, key=lambda lesson: (lesson.module.number, lesson.number))


def shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def load_lesson(path: Path, checkpoints_dir: Path, root: Path, markdown: MarkdownIt) -> Lesson:
    shown_path = shown(path, root)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BuildError(shown_path, None, f"the file is not UTF-8 text ({error.reason})") from None
    front_matter = split_front_matter(shown_path, text)
    header = read_lesson_header(shown_path, front_matter)
    lesson_checkpoints_dir = checkpoints_dir / header.id
    shown_checkpoints_dir = shown(lesson_checkpoints_dir, root)
    files = read_checkpoint_files(lesson_checkpoints_dir, shown_checkpoints_dir, shown_path,
                                  header.checkpoint_ids, header.field_lines["checkpoints"])
    env = {  # everything one parse learns stays here: the parser is shared by every lesson
        "path": shown_path,
        "line_offset": front_matter.body_line_offset,
        "checkpoints": {checkpoint.id: checkpoint for checkpoint in files.checkpoints},
    }
    body_tokens = markdown.parse(front_matter.body, env)
    check_headings(shown_path, body_tokens, front_matter.body_line_offset)
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
        starter_code=files.starter_code,
        body_tokens=body_tokens,
        examples=env.get("examples", []),
        field_lines=header.field_lines,
    )


def check_headings(path: str, tokens: list, line_offset: int) -> None:
    # The page title is the page's one <h1>; a second one would break the heading outline.
    for token in tokens:
        if token.type == "heading_open" and token.tag == "h1":
            line = line_offset + token.map[0] + 1 if token.map else None
            raise BuildError(path, line, "use '## ' for sections: the lesson title is the only level-1 heading")


def check_unique(lessons: list[Lesson]) -> None:
    """Lesson ids are unique; a module has one title and number; lesson numbers don't collide."""
    by_id: dict[str, Lesson] = {}
    modules: dict[str, Lesson] = {}
    positions: dict[tuple[str, int], Lesson] = {}
    for lesson in lessons:
        if lesson.id in by_id:
            raise BuildError(lesson.path, lesson.field_lines["id"], f"duplicate lesson id '{lesson.id}' (also used by {by_id[lesson.id].path})")
        by_id[lesson.id] = lesson
        first = modules.setdefault(lesson.module.id, lesson)
        if first.module != lesson.module:
            raise BuildError(lesson.path, lesson.field_lines["module"],
                             f"module '{lesson.module.id}' is number {first.module.number} titled "
                             f"'{first.module.title}' in {first.path}; use the same here")
        position = (lesson.module.id, lesson.number)
        if position in positions:
            raise BuildError(lesson.path, lesson.field_lines["lesson"],
                             f"lesson {lesson.number} of module '{lesson.module.id}' already exists: {positions[position].path}")
        positions[position] = lesson
