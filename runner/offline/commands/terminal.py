"""What the command line prints of learner text and file names: control characters escaped, one line each."""

from __future__ import annotations

import re
from pathlib import Path

# Control characters (ANSI escapes included) from learner text must not reach the terminal.
# Bidi overrides and isolates too: they reorder what the terminal shows.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def utf8_safe(text: str) -> str:
    """Lone surrogates (from a learner's exception message, a JSON name, a non-UTF-8 file name)
    cannot be written as UTF-8: they become visible \\udXXX escapes instead of a crash."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _escape_one(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    return CONTROL_CHARACTERS.sub(_escape_one, utf8_safe(text))


# In a file name every control character is escaped, newlines and tabs too: one name, one line.
NAME_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def name_text(name: str) -> str:
    """A file name (or path) as the terminal may show it: control characters as \\xNN."""
    return NAME_CONTROL_CHARACTERS.sub(_escape_one, utf8_safe(name))


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def names_of(paths: list[Path], limit: int = 10) -> str:
    """File names for a one-line list, the first `limit` of them."""
    names = ", ".join(name_text(path.name) for path in paths[:limit])
    return names + (f" and {len(paths) - limit} more" if len(paths) > limit else "")
