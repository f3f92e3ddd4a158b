"""Reading submissions: every kind of bad input becomes one clear reason, never an exception."""

from __future__ import annotations

import json
import os

import pytest

from runner.offline.grading.submission import (
    MAX_SUBMISSION_BYTES,
    PathProblem,
    collect_submission_files,
    read_submission,
)


def write(tmp_path, name: str, content: str | bytes):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def submission_json(**fields) -> str:
    document = {"lesson": "rag-01", "learner": "Noor", "code": "def f():\n    return 1\n"}
    document.update(fields)
    return json.dumps({k: v for k, v in document.items() if v is not ...})


def test_python_file_learner_is_the_file_stem(tmp_path):
    submission = read_submission(write(tmp_path, "sanne_de_vries.py", "x = 1\n"), "rag-01")
    assert submission.valid
    assert submission.learner == "sanne_de_vries"
    assert submission.code == "x = 1\n"
    assert submission.path == str(tmp_path / "sanne_de_vries.py")


def test_json_submission_with_optional_fields(tmp_path):
    path = write(tmp_path, "a.json", submission_json(
        created_at="2026-11-30T10:00:00Z", lesson_revision="abc",
        browser_verdicts={"word_chunks": "pass"}))
    submission = read_submission(path, "rag-01")
    assert submission.valid
    assert (submission.learner, submission.created_at, submission.lesson_revision) == (
        "Noor", "2026-11-30T10:00:00Z", "abc")
    assert submission.browser_verdicts == {"word_chunks": "pass"}


def test_byte_order_mark_is_not_code(tmp_path):
    submission = read_submission(write(tmp_path, "bom.py", b"\xef\xbb\xbfx = 1\n"), "rag-01")
    assert submission.code == "x = 1\n"


@pytest.mark.parametrize(("name", "content", "problem"), [
    ("empty.py", "", "empty file"),
    ("blank.py", "  \n\t\n", "file holds only whitespace"),
    ("latin1.py", b"x = '\xe9'\n", "not UTF-8 text (byte 0xe9 at offset 5)"),
    ("notes.txt", "x = 1", "unsupported file type '.txt': expected .py or .json"),
    ("huge.py", "#" * (MAX_SUBMISSION_BYTES + 1), "file is 256 KiB, over the 256 KiB limit"),
    ("truncated.json", '{"lesson": "rag-01", "learner": "Noor", "co',
     "malformed JSON: Unterminated string starting at (line 1, column 41)"),
    ("list.json", "[1, 2]", "malformed submission: the JSON must be an object"),
    ("empty.json", "", "empty file"),
    ("nocode.json", submission_json(code=...), "missing field: code"),
    ("nothing.json", "{}", "missing fields: lesson, learner, code"),
    ("numbercode.json", submission_json(code=12), "field 'code' must be a string"),
    ("nolearner.json", submission_json(learner="  "), "field 'learner' is empty"),
    ("other.json", submission_json(lesson="rag-02"), "submission is for lesson 'rag-02', not 'rag-01'"),
    ("dup.json", '{"lesson": "rag-01", "learner": "a", "learner": "b", "code": "x"}',
     "malformed JSON: duplicate key 'learner'"),
    ("emptycode.json", submission_json(code=""), "field 'code' is empty"),
    ("verdicts.json", submission_json(browser_verdicts={"word_chunks": "geslaagd"}),
     "field 'browser_verdicts' must map checkpoint ids to pass, fail, error or timeout"),
])
def test_bad_input_becomes_a_clear_reason(tmp_path, name, content, problem):
    submission = read_submission(write(tmp_path, name, content), "rag-01")
    assert not submission.valid
    assert submission.problem == problem


def test_unreadable_file_is_invalid_not_a_crash(tmp_path):
    path = write(tmp_path, "secret.py", "x = 1\n")
    os.chmod(path, 0)
    if os.geteuid() == 0:
        path.unlink()
        path.mkdir()  # root reads anything; a directory named .py cannot be read as a file
        expected = "cannot read file: Is a directory"
    else:
        expected = "cannot read file: Permission denied"
    assert read_submission(path, "rag-01").problem == expected


def test_same_code_gives_the_same_code_hash_in_both_formats(tmp_path):
    code = "def f():\n    return '\U0001F600'\n"
    as_python = read_submission(write(tmp_path, "a.py", code), "rag-01")
    as_json = read_submission(write(tmp_path, "b.json", submission_json(code=code)), "rag-01")
    assert as_python.code_sha256 == as_json.code_sha256
    assert as_python.source_sha256 != as_json.source_sha256


def test_collect_walks_folders_and_skips_hidden_and_other_files(tmp_path):
    write(tmp_path, "a.py", "x")
    (tmp_path / "class2").mkdir()
    write(tmp_path / "class2", "b.json", "{}")
    write(tmp_path / "class2", "notes.md", "hi")
    (tmp_path / ".git").mkdir()
    write(tmp_path / ".git", "c.py", "x")
    (tmp_path / "__pycache__").mkdir()
    write(tmp_path / "__pycache__", "d.py", "x")
    found = collect_submission_files([str(tmp_path), str(tmp_path / "a.py")])
    assert [p.name for p in found.submissions] == ["a.py", "b.json"]
    assert [p.name for p in found.skipped] == ["notes.md"]


def test_collect_reports_a_missing_path(tmp_path):
    with pytest.raises(PathProblem, match="^no such file or directory: 'nope'$"):
        collect_submission_files(["nope"])
