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


class BuildErrors(BuildError):
    """Several mistakes found together (at most one pass over the lessons); `str()` is one line each.

    It is a BuildError too, standing for its first mistake, so callers that stop at one still work.
    """

    def __init__(self, errors: list[BuildError]):
        first = errors[0]
        super().__init__(first.path, first.line, first.message)
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


def each_error(error: BuildError) -> list[BuildError]:
    return error.errors if isinstance(error, BuildErrors) else [error]


def combined(errors: list[BuildError]) -> BuildError:
    """One mistake as itself, several as BuildErrors (`errors` is not empty)."""
    return errors[0] if len(errors) == 1 else BuildErrors(errors)


def raise_if_any(errors: list[BuildError]) -> None:
    if errors:
        raise combined(errors)


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
