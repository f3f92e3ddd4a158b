"""Split a lesson file into YAML front matter and body, keeping every field's line number."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from builder.errors import BuildError

DELIMITER = "---"


@dataclass
class YamlValue:
    """A parsed YAML value together with the file line it starts on (1-based)."""

    value: Any
    line: int


@dataclass
class FrontMatter:
    fields: dict[str, YamlValue]
    first_line: int  # line of the opening ---
    body: str
    body_line_offset: int  # lines before the body: body line n is file line n + offset


def split_front_matter(path: str, text: str) -> FrontMatter:
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != DELIMITER:
        raise BuildError(path, 1, "a lesson starts with YAML front matter between two '---' lines")
    for index in range(1, len(lines)):
        if lines[index].strip() == DELIMITER:
            closing = index
            break
    else:
        raise BuildError(path, 1, "the front matter has no closing '---' line")
    yaml_text = "".join(lines[1:closing])
    fields = parse_yaml_mapping(path, yaml_text, line_offset=1)
    return FrontMatter(
        fields=fields,
        first_line=1,
        body="".join(lines[closing + 1:]),
        body_line_offset=closing + 1,
    )


def unclosed_quote_line(yaml_text: str, last_line: int) -> int | None:
    """The first line up to `last_line` with an odd number of unescaped double quotes.

    YAML lets a quoted text run on over the next lines, so a missing closing quote surfaces as a
    puzzling error lines later, where the next quote happens to be.
    """
    for number, line in enumerate(yaml_text.splitlines()[:last_line], start=1):
        if line.replace('\\"', "").count('"') % 2:
            return number
    return None


def parse_yaml_mapping(path: str, yaml_text: str, line_offset: int) -> dict[str, YamlValue]:
    """Top-level keys of a YAML mapping, each with its value and line."""
    loader = yaml.SafeLoader(yaml_text)
    try:
        node = loader.get_single_node()
        if node is None:
            return {}
        if not isinstance(node, yaml.MappingNode):
            raise BuildError(path, line_offset + node.start_mark.line + 1,
                             "the front matter must be 'field: value' lines")
        fields: dict[str, YamlValue] = {}
        for key_node, value_node in node.value:
            line = line_offset + key_node.start_mark.line + 1
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                raise BuildError(path, line, f"front matter field names are words, got {key!r}")
            if key in fields:
                raise BuildError(path, line, f"field '{key}' appears twice in the front matter")
            value = loader.construct_object(value_node, deep=True)
            fields[key] = YamlValue(value, line)
        return fields
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        unclosed = unclosed_quote_line(yaml_text, line)
        if unclosed is not None:
            raise BuildError(path, line_offset + unclosed,
                             "invalid YAML in the front matter: the '\"' on this line has no closing '\"'") from None
        reason = error.problem or error.context or "unreadable YAML"
        raise BuildError(path, line_offset + line, f"invalid YAML in the front matter: {reason}") from None
    finally:
        loader.dispose()
