"""Authoring mistakes and warnings, reported as one line: `path:line: reason`."""

from __future__ import annotations

from dataclasses import dataclass


class BuildError(Exception):
    """A mistake that stops the build. `str()` is the one line the teacher sees.

    `path` and `line` are optional because some failures (a missing `npm ci`) belong to no file.
    """

    def __init__(self, path: str | None, line: int | None, message: str):
        super().__init__(message)
        self.path = path
        self.line = line
        self.message = message

    def __str__(self) -> str:
        return format_location(self.path, self.line, self.message)


@dataclass(frozen=True)
class BuildWarning:
    """Something suspicious that still builds; `--strict` turns it into a BuildError."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return format_location(self.path, self.line, f"warning: {self.message}")

    def as_error(self) -> BuildError:
        return BuildError(self.path, self.line, self.message)


def format_location(path: str | None, line: int | None, message: str) -> str:
    # Newlines would break the one-line contract (and editors' file:line jumping).
    message = " ".join(message.splitlines())
    if path is None:
        return message
    if line is None:
        return f"{path}: {message}"
    return f"{path}:{line}: {message}"
