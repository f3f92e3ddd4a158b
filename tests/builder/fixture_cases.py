"""A tiny reader for mdit-py-plugins style fixture files.

Each case is a title line, then `.`, the Markdown input, `.`, the expected HTML, `.`; cases are
separated by blank lines. An expected output starting with `error: ` means the input must fail
the build with exactly that one-line message (the fixture's path is shown as `fixture.md`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SEPARATOR = "."


@dataclass(frozen=True)
class FixtureCase:
    title: str
    line: int  # of the title, for finding the case in the file
    source: str
    expected: str


def read_fixture_cases(path: Path) -> list[FixtureCase]:
    lines = path.read_text(encoding="utf-8").splitlines()
    cases: list[FixtureCase] = []
    index = 0
    while index < len(lines):
        if not lines[index].strip():
            index += 1
            continue
        title_line = index
        if index + 1 >= len(lines) or lines[index + 1] != SEPARATOR:
            raise ValueError(f"{path}:{index + 1}: expected '.' after the case title")
        source, index = read_until_separator(path, lines, index + 2)
        expected, index = read_until_separator(path, lines, index)
        cases.append(FixtureCase(lines[title_line], title_line + 1, source, expected))
    return cases


def rewrite_expected(path: Path, case: FixtureCase, expected: str) -> None:
    """Put `expected` in place of the case's expected block (the golden update, after review)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    _, after_source = read_until_separator(path, [line.rstrip("\n") for line in lines], case.line + 1)
    _, after_expected = read_until_separator(path, [line.rstrip("\n") for line in lines], after_source)
    lines[after_source:after_expected - 1] = expected.splitlines(keepends=True)
    path.write_text("".join(lines), encoding="utf-8")


def read_until_separator(path: Path, lines: list[str], start: int) -> tuple[str, int]:
    for index in range(start, len(lines)):
        if lines[index] == SEPARATOR:
            return "".join(line + "\n" for line in lines[start:index]), index + 1
    raise ValueError(f"{path}:{start + 1}: a fixture block is not closed with '.'")
