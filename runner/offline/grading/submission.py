"""Reading submissions for offline grading: `.py` files and the browser's `.json` export.

A submission that cannot be graded is still a `Submission`, with `problem` set to a one-line
reason for the teacher; the batch records it as `invalid` and goes on. Nothing here runs or
compiles learner code: syntax errors are found in the sandboxed child (see runner.offline.grading.batch).

JSON format (docs/grading.md): an object with required `lesson`, `learner`, `code` (strings) and
optional `lesson_revision`, `created_at` (strings) and `browser_verdicts` (an object mapping a
checkpoint id to "pass" | "fail" | "error" | "timeout", what the browser showed the learner).
A module export holds `learner`, optional `module` and `created_at`, and `lessons`: a list of such
objects without `learner`; `read_submissions` makes one submission per lesson of it, whose path is
the file's with `#<lesson>` after it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypedDict

from runner.core.model import STATUSES
from runner.core.wire import reject_duplicate_keys

# Larger than any honest solution of a lesson by two orders of magnitude.
MAX_SUBMISSION_BYTES = 256 * 1024
MAX_LEARNER_CHARS = 100
SUBMISSION_SUFFIXES = (".py", ".json")
REQUIRED_FIELDS = ("lesson", "learner", "code")
OPTIONAL_STRING_FIELDS = ("lesson_revision", "created_at")


@dataclass(frozen=True)
class Submission:
    path: str  # absolute path of the file; with the hashes, the key for resuming a batch
    learner: str
    source_sha256: str  # of the file's bytes ("" when unreadable)
    code: str | None = None
    code_sha256: str | None = None
    lesson: str | None = None
    lesson_revision: str | None = None
    created_at: str | None = None
    browser_verdicts: dict[str, str] = field(default_factory=dict)
    problem: str | None = None  # why it cannot be graded; None when it can

    @property
    def valid(self) -> bool:
        return self.problem is None


class _KnownFields(TypedDict):
    """What a submission file told about itself, kept on a submission that is refused after all."""

    code: str
    code_sha256: str
    lesson: str
    lesson_revision: str | None
    created_at: str | None
    browser_verdicts: dict[str, str]


def code_hash(code: str) -> str:
    # surrogatepass: JSON can carry lone surrogates, which plain UTF-8 refuses to encode.
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()


def _size_text(size: int) -> str:
    return f"{size / 1024:.0f} KiB" if size >= 1024 else f"{size} bytes"


# What a path in the class folder may be instead of a regular file, for the one-line reason.
FILE_KINDS = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
              (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
LINK_PROBLEM = "a symbolic link, which the grader does not follow: hand in the file itself"


def _read_bytes(path: Path) -> tuple[bytes | None, str | None]:
    """The file's bytes, or a reason why they cannot be used. Only a regular file is read, and
    never through a symbolic link (a link in the class folder, or one restored from a learner's
    zip or tar, may point at anything root can read); O_NONBLOCK: a named pipe must not hang us."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return None, LINK_PROBLEM
        return None, f"cannot read file: {error.strerror or error}"
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            return None, f"cannot read file: {os.strerror(errno.EISDIR)}"
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in FILE_KINDS if test(info.st_mode)), "not a regular file")
            return None, f"{kind}, not a regular file: only files are graded"
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(MAX_SUBMISSION_BYTES + 1)
    except OSError as error:
        return None, f"cannot read file: {error.strerror or error}"
    finally:
        os.close(descriptor)
    if len(data) > MAX_SUBMISSION_BYTES:
        return data, (
            f"file is {_size_text(max(info.st_size, len(data)))}, over the {_size_text(MAX_SUBMISSION_BYTES)} limit"
        )
    return data, None


def _decode_utf8(data: bytes) -> tuple[str | None, str | None]:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return None, f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})"


def read_submission(path: str | Path, lesson: str | None) -> Submission:
    """Read one submission file for `lesson` (None: the lesson the JSON names); never raises for
    bad content."""
    path = Path(path)
    absolute = os.path.abspath(path)
    data, problem = _read_bytes(path)
    source_sha256 = hashlib.sha256(data).hexdigest() if data is not None else ""
    stem_learner = path.stem
    if problem is not None:
        return Submission(absolute, stem_learner, source_sha256, problem=problem)
    assert data is not None
    if path.suffix == ".py":
        return _from_python(absolute, stem_learner, source_sha256, data, lesson)
    if path.suffix == ".json":
        return _from_json(absolute, stem_learner, source_sha256, data, lesson)
    return Submission(
        absolute, stem_learner, source_sha256,
        problem=f"unsupported file type {path.suffix or '(none)'!r}: expected .py or .json",
    )


def _code_problem(code: str) -> str | None:
    if not code.strip():
        return "empty file" if code == "" else "file holds only whitespace"
    return None


def _from_python(path: str, learner: str, source_sha256: str, data: bytes, lesson: str | None) -> Submission:
    text, problem = _decode_utf8(data)
    if text is not None and text.startswith("\ufeff"):
        text = text[1:]  # a byte order mark from a Windows editor is not code
    if text is not None:
        problem = _code_problem(text)
    if lesson is None and problem is None:
        problem = "a .py file does not say which lesson it is for: grade it with --lesson"
    return Submission(
        path, learner, source_sha256,
        code=text,
        code_sha256=code_hash(text) if text is not None else None,
        lesson=lesson,
        problem=problem,
    )


def _parse_json(data: bytes) -> tuple[object, str | None]:
    """The JSON document of a submission file, or why there is none."""
    text, problem = _decode_utf8(data)
    if text is None:
        return None, problem or "not UTF-8 text"
    if not text.strip():
        return None, "empty file"
    try:
        document = json.loads(text, object_pairs_hook=reject_duplicate_keys)
    except json.JSONDecodeError as error:
        return None, f"malformed JSON: {error.msg} (line {error.lineno}, column {error.colno})"
    except (ValueError, RecursionError) as error:
        return None, f"malformed JSON: {error}"
    if type(document) is not dict:
        return None, "malformed submission: the JSON must be an object"
    return document, None


def _from_json(path: str, fallback_learner: str, source_sha256: str, data: bytes, lesson: str | None,
               document: dict[str, Any] | None = None) -> Submission:
    def invalid(message: str, learner: str = fallback_learner, known: _KnownFields | None = None) -> Submission:
        if known is None:
            return Submission(path, learner, source_sha256, problem=message)
        return Submission(path, learner, source_sha256, problem=message, **known)

    if document is None:
        parsed, problem = _parse_json(data)
        if problem is not None:
            return invalid(problem)
        assert isinstance(parsed, dict)
        document = parsed
    missing = [name for name in REQUIRED_FIELDS if name not in document]
    if missing:
        return invalid(f"missing field{'s' if len(missing) > 1 else ''}: {', '.join(missing)}")
    for name in REQUIRED_FIELDS + OPTIONAL_STRING_FIELDS:
        if name in document and document[name] is not None and type(document[name]) is not str:
            return invalid(f"field {name!r} must be a string")
    learner = document["learner"].strip()
    if not learner:
        return invalid("field 'learner' is empty")
    if len(learner) > MAX_LEARNER_CHARS:
        return invalid(f"field 'learner' is longer than {MAX_LEARNER_CHARS} characters")
    verdicts, verdict_problem = _browser_verdicts(document.get("browser_verdicts"))
    code = document["code"]
    known: _KnownFields = {
        "code": code,
        "code_sha256": code_hash(code),
        "lesson": document["lesson"],
        "lesson_revision": document.get("lesson_revision"),
        "created_at": document.get("created_at"),
        "browser_verdicts": verdicts,
    }
    if lesson is not None and document["lesson"] != lesson:
        return invalid(f"submission is for lesson {document['lesson']!r}, not {lesson!r}", learner, known)
    if verdict_problem:
        return invalid(verdict_problem, learner, known)
    if len(code.encode("utf-8", "surrogatepass")) > MAX_SUBMISSION_BYTES:
        return invalid(f"code is over the {_size_text(MAX_SUBMISSION_BYTES)} limit", learner, known)
    code_problem = _code_problem(code)
    if code_problem:
        return invalid("field 'code' is empty" if code == "" else "field 'code' holds only whitespace", learner, known)
    return Submission(path, learner, source_sha256, **known)


def read_submissions(path: str | Path, lesson: str | None) -> list[Submission]:
    """The submissions in one file: one, or one per lesson of a module export (only `lesson`'s
    when given). Never raises for bad content: a broken file is one invalid submission."""
    path = Path(path)
    if path.suffix != ".json":
        return [read_submission(path, lesson)]
    data, problem = _read_bytes(path)
    if problem is not None or data is None:
        return [read_submission(path, lesson)]
    document, problem = _parse_json(data)
    if not (isinstance(document, dict) and "lessons" in document and "code" not in document):
        return [read_submission(path, lesson)]
    absolute = os.path.abspath(path)
    source_sha256 = hashlib.sha256(data).hexdigest()
    learner = document.get("learner")
    entries = document["lessons"]
    problem = None
    if type(learner) is not str or not learner.strip():
        problem = "module export: field 'learner' must be a non-empty string"
    elif type(entries) is not list or not all(type(entry) is dict for entry in entries):
        problem = "module export: field 'lessons' must be a list of objects"
    elif type(document.get("created_at", "")) is not str or type(document.get("module", "")) is not str:
        problem = "module export: fields 'module' and 'created_at' must be strings"
    else:
        names = [entry.get("lesson") for entry in entries]
        if not all(type(name) is str and name for name in names):
            problem = "module export: every entry of 'lessons' needs a field 'lesson' (a string)"
        elif len(set(names)) != len(names):
            twice = next(name for name in names if names.count(name) > 1)
            problem = f"module export: lesson {twice!r} appears twice"
    if problem is not None or not isinstance(learner, str):  # the second is said by the first
        return [Submission(absolute, path.stem, source_sha256, lesson=lesson, problem=problem)]
    found = []
    for entry in entries:
        if lesson is not None and entry["lesson"] != lesson:
            continue
        one = {key: value for key, value in entry.items() if key != "learner"}
        one["learner"] = learner
        if "created_at" in document and "created_at" not in one:
            one["created_at"] = document["created_at"]
        submission = _from_json(absolute, path.stem, source_sha256, data, lesson, one)
        found.append(replace(submission, path=f"{absolute}#{entry['lesson']}", lesson=entry["lesson"]))
    if not found:
        return [Submission(f"{absolute}#{lesson}", learner.strip(), source_sha256, lesson=lesson,
                           problem=f"module export holds no work for lesson {lesson!r}")]
    return found


def _browser_verdicts(raw: object) -> tuple[dict[str, str], str | None]:
    if raw is None:
        return {}, None
    if type(raw) is not dict or not all(type(v) is str and v in STATUSES for v in raw.values()):
        return {}, "field 'browser_verdicts' must map checkpoint ids to pass, fail, error or timeout"
    return dict(raw), None


class PathProblem(Exception):
    """A PATH argument that does not exist (a usage error, not an invalid submission)."""


@dataclass(frozen=True)
class CollectedFiles:
    submissions: list[Path]  # sorted, each once
    skipped: list[Path]  # other files found in the folders (notes, PDFs): told, not graded


def collect_submission_files(paths: list[str]) -> CollectedFiles:
    """Files named directly (any suffix: a wrong one becomes an invalid submission) and the .py and
    .json files under directories (recursively, skipping hidden entries and __pycache__)."""
    found: dict[str, Path] = {}
    skipped: dict[str, Path] = {}
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for candidate in sorted(path.rglob("*")):
                relative = candidate.relative_to(path).parts
                if any(part.startswith(".") or part == "__pycache__" for part in relative):
                    continue
                # A link (to a file or a folder) or another special file is listed with the
                # submissions when its name says it is one, so it is refused with its reason.
                if candidate.is_symlink() or not candidate.is_file():
                    if candidate.is_dir() and not candidate.is_symlink():
                        continue
                    if candidate.suffix not in SUBMISSION_SUFFIXES:
                        skipped.setdefault(os.path.abspath(candidate), candidate)
                        continue
                if candidate.suffix in SUBMISSION_SUFFIXES:
                    found.setdefault(os.path.abspath(candidate), candidate)
                else:
                    skipped.setdefault(os.path.abspath(candidate), candidate)
        elif path.exists() or path.is_symlink():
            found.setdefault(os.path.abspath(path), path)
        else:
            raise PathProblem(f"no such file or directory: {raw!r}")
    return CollectedFiles([found[key] for key in sorted(found)], [skipped[key] for key in sorted(skipped)])
