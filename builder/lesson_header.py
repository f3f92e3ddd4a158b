"""Validate front-matter fields into typed values, with one clear line per mistake."""

from __future__ import annotations

import datetime
import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from builder.errors import BuildError, raise_if_any
from builder.front_matter import FrontMatter, YamlValue
from builder.model import Module, NextStep, Prerequisite, RelatedLab, Source
from runner.core.lesson_config import suggestion  # the one did-you-mean, the runner's too

LESSON_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MODULE_ID = LESSON_ID
CHECKPOINT_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # the id is the function name
URL = re.compile(r"https?://\S+")


class FieldError(Exception):
    """A wrong value; the caller knows the field's line."""


@dataclass
class LessonHeader:
    id: str
    module: Module
    number: int
    title: str
    subtitle: str
    duration: int
    goals: list[str]
    takeaways: list[str]
    reviewed: datetime.date
    prerequisites: list[Prerequisite]
    related: RelatedLab | None
    next_step: NextStep | None
    sources: list[Source]
    checkpoint_ids: list[str]
    field_lines: dict[str, int]
    show_solution: bool = True


# -- value checks: each returns the typed value or raises FieldError --------------------------

def describe(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return repr(value)


def text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FieldError(f"must be a non-empty text, got {describe(value)}")
    return value.strip()


def whole_number(value: Any) -> int:
    # YAML's `true` is a bool, and bool is an int subclass: reject it explicitly.
    if type(value) is not int or value < 1:
        raise FieldError(f"must be a whole number of at least 1, got {describe(value)}")
    return value


def lesson_number(value: Any) -> int:
    # 0 is the module's prior knowledge: the lesson before its first, shown as "LES 00".
    if type(value) is not int or value < 0:
        raise FieldError(f"must be a whole number of at least 0, got {describe(value)}")
    return value


def matching(pattern: re.Pattern[str], explanation: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise FieldError(f"must be {explanation}, got {describe(value)}")
        return value
    return check


lesson_id = matching(LESSON_ID, "a lesson id of lowercase letters, digits and '-'")


def date(value: Any) -> datetime.date:
    if type(value) is not datetime.date:
        raise FieldError(f"must be a date written as YYYY-MM-DD, got {describe(value)}")
    return value


def text_list(low: int, high: int) -> Callable[[Any], list[str]]:
    def check(value: Any) -> list[str]:
        if not isinstance(value, list):
            raise FieldError(f"must be a list of {low} to {high} texts, got {describe(value)}")
        if not low <= len(value) <= high:
            raise FieldError(f"must be a list of {low} to {high} texts, got {len(value)}")
        return [list_text(position, item) for position, item in enumerate(value, start=1)]
    return check


def list_text(position: int, item: Any) -> str:
    if isinstance(item, dict):
        # `- Let op: je geeft ...` is valid YAML for a one-key mapping, not the text it looks like.
        raise FieldError(f"item {position} contains ': ', so YAML reads it as 'key: value': "
                         "put the whole text between quotes")
    try:
        return text(item)
    except FieldError as error:
        raise FieldError(f"item {position} {error}") from None


def mapping(required: dict[str, Callable[[Any], Any]],
            optional: dict[str, Callable[[Any], Any]] | None = None) -> Callable[[Any], dict[str, Any]]:
    """A YAML mapping with known keys; unknown or missing keys are named in the message."""
    optional = optional or {}

    def check(value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            keys = ", ".join([*required, *optional])
            raise FieldError(f"must be a mapping with {keys}, got {describe(value)}")
        result = {}
        for key in value:
            if key not in required and key not in optional:
                raise FieldError(f"has unknown key '{key}'{suggestion(key, [*required, *optional])}")
        for key in required:
            if key not in value:
                raise FieldError(f"needs '{key}'")
        for key, convert in [*required.items(), *optional.items()]:
            if key in value:
                try:
                    result[key] = convert(value[key])
                except FieldError as error:
                    raise FieldError(f"key '{key}' {error}") from None
        return result
    return check


def list_of(convert: Callable[[Any], Any], allow_empty: bool = True) -> Callable[[Any], list[Any]]:
    def check(value: Any) -> list[Any]:
        if not isinstance(value, list) or (not value and not allow_empty):
            raise FieldError(f"must be a list, got {describe(value)}")
        items = []
        for position, item in enumerate(value, start=1):
            try:
                items.append(convert(item))
            except FieldError as error:
                raise FieldError(f"item {position} {error}") from None
        return items
    return check


def url(value: Any) -> str:
    if not isinstance(value, str) or not URL.fullmatch(value):
        raise FieldError(f"must be a web address starting with https://, got {describe(value)}")
    return value


def closest(name: str, known: list[str]) -> str | None:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return close[0] if close else None




# -- the schema --------------------------------------------------------------------------------

module_fields = mapping({
    "id": matching(MODULE_ID, "a module id of lowercase letters, digits and '-'"),
    "number": whole_number,
    "title": text,
})
prerequisite_fields = mapping({"title": text}, {"id": lesson_id})
related_fields = mapping({"text": text, "link_text": text}, {"id": lesson_id})
next_fields = mapping({"title": text, "teaser": text}, {"id": lesson_id})
source_fields = mapping({"title": text, "url": url})
checkpoint_ids = list_of(matching(CHECKPOINT_ID, "a checkpoint id (the function's name)"))

REQUIRED: dict[str, Callable[[Any], Any]] = {
    "id": lesson_id,
    "module": module_fields,
    "lesson": lesson_number,
    "title": text,
    "subtitle": text,
    "duration": whole_number,
    "goals": text_list(2, 4),
    "takeaways": text_list(1, 5),
    "reviewed": date,
    "checkpoints": checkpoint_ids,
}
OPTIONAL: dict[str, Callable[[Any], Any]] = {
    "prerequisites": list_of(prerequisite_fields),
    "related": related_fields,
    "next": next_fields,
    "sources": list_of(source_fields),
    "solution": matching(re.compile("shown|hidden"), "'shown' or 'hidden'"),
}
KNOWN = [*REQUIRED, *OPTIONAL]


def read_lesson_header(path: str, front_matter: FrontMatter) -> LessonHeader:
    """The validated header; every wrong field is reported at once (as BuildErrors)."""
    fields = front_matter.fields
    errors: list[BuildError] = []
    meant: set[str] = set()  # a mistyped `titel` explains the "missing title" that follows from it
    for name, field in fields.items():
        if name not in REQUIRED and name not in OPTIONAL:
            errors.append(BuildError(path, field.line, f"unknown field '{name}'{suggestion(name, KNOWN)}"))
            meant.add(closest(name, KNOWN) or "")
    for name in REQUIRED:
        if name not in fields and name not in meant:
            errors.append(BuildError(path, front_matter.first_line, f"missing field '{name}' in the front matter"))

    values: dict[str, Any] = {}
    for name, convert in [*REQUIRED.items(), *OPTIONAL.items()]:
        if name in fields:
            try:
                values[name] = convert_field(path, name, fields[name], convert)
            except BuildError as error:
                errors.append(error)

    duplicates = {cid for cid in values.get("checkpoints", []) if values["checkpoints"].count(cid) > 1}
    if duplicates:
        errors.append(BuildError(path, fields["checkpoints"].line,
                                 f"checkpoint '{sorted(duplicates)[0]}' is listed twice"))
    raise_if_any(errors)
    module = values["module"]
    related = values.get("related")
    next_step = values.get("next")
    return LessonHeader(
        id=values["id"],
        module=Module(module["id"], module["number"], module["title"]),
        number=values["lesson"],
        title=values["title"],
        subtitle=values["subtitle"],
        duration=values["duration"],
        goals=values["goals"],
        takeaways=values["takeaways"],
        reviewed=values["reviewed"],
        prerequisites=[Prerequisite(item["title"], item.get("id"))
                       for item in values.get("prerequisites", [])],
        related=RelatedLab(related["text"], related["link_text"], related.get("id")) if related else None,
        next_step=NextStep(next_step.get("id"), next_step["title"], next_step["teaser"]) if next_step else None,
        sources=[Source(item["title"], item["url"]) for item in values.get("sources", [])],
        checkpoint_ids=values["checkpoints"],
        field_lines={name: field.line for name, field in fields.items()},
        show_solution=values.get("solution", "shown") == "shown",
    )


def read_lesson_identity(front_matter: FrontMatter) -> tuple[str, list[str]] | None:
    """The lesson id and checkpoint ids alone, when both are valid: with those the body can be
    checked even while other fields are wrong."""
    fields = front_matter.fields
    try:
        return lesson_id(fields["id"].value), checkpoint_ids(fields["checkpoints"].value)
    except (KeyError, FieldError):
        return None


def convert_field(path: str, name: str, field: YamlValue, convert: Callable[[Any], Any]) -> Any:
    try:
        return convert(field.value)
    except FieldError as error:
        raise BuildError(path, field.line, f"field '{name}' {error}") from None
