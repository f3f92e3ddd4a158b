"""Warnings for lesson text that some learners cannot use, where the builder can tell (issue 17).

- An image without alt text: a screen reader says only "afbeelding" (or the file name).
- A heading that skips a level: screen-reader users move through a page by heading level, and a
  `####` after a `##` hides a level they expect. The lesson title is the page's level 1, so the
  body's sections start at `##`.

What the builder cannot tell (meaning carried by colour alone, alt text that does not describe
the image) is in docs/authoring.md, "Accessible content".
"""

from __future__ import annotations

from collections.abc import Iterable

from markdown_it.token import Token

from builder.errors import BuildWarning

TITLE_LEVEL = 1  # the lesson title, written by the template


def accessibility_warnings(path: str, tokens: list[Token], line_offset: int) -> list[BuildWarning]:
    """The body's warnings in the order of the file."""
    warnings = [*skipped_heading_levels(path, tokens, line_offset), *images_without_alt(path, tokens, line_offset)]
    return sorted(warnings, key=lambda warning: warning.line)


def line_of(token: Token, line_offset: int) -> int:
    return line_offset + (token.map[0] if token.map else 0) + 1


def skipped_heading_levels(path: str, tokens: list[Token], line_offset: int) -> Iterable[BuildWarning]:
    previous = TITLE_LEVEL
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        level = int(token.tag[1])
        if level == TITLE_LEVEL:
            continue  # a second level-1 heading is an error of its own (load_lessons.check_headings)
        text = tokens[index + 1].content if index + 1 < len(tokens) else ""
        heading = f"{'#' * level} {text}"
        if level > previous + 1:
            after = ("is the lesson's first heading; sections start at '## '" if previous == TITLE_LEVEL
                     else f"comes after a level-{previous} heading; use '{'#' * (previous + 1)} '")
            yield BuildWarning(path, line_of(token, line_offset), f"heading level skipped: '{heading}' {after}")
        previous = level


def images_without_alt(path: str, tokens: list[Token], line_offset: int) -> Iterable[BuildWarning]:
    for token in tokens:
        for child in token.children or ():
            if child.type == "image" and not child.content.strip():
                source = child.attrGet("src") or ""
                yield BuildWarning(path, line_of(token, line_offset),
                                   f"image '{source}' has no alt text: say what it shows, ![...]({source})")
