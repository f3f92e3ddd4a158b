"""The example lessons in docs/authoring.md build exactly as printed there: the complete example
(tekst-01) and the worked example of "Writing hidden tests" (woorden-01), whose gate must hold
and whose documented gate output must be what the build prints."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from runner.core import web
from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost
from runner.offline.gates.quality_gate import known_solutions

ROOT = Path(__file__).resolve().parents[2]
# `<!-- file: path -->` followed by a fenced block (``` or ````) holding that file.
EXAMPLE_FILE = re.compile(r"<!-- file: (?P<path>\S+) -->\n(?P<fence>`{3,})[^\n]*\n(?P<body>.*?)\n(?P=fence)\n", re.S)
GATE_OUTPUT = re.compile(r"<!-- gate output -->\n```\n(?P<body>.*?)\n```\n", re.S)
DOC = ROOT / "docs" / "authoring.md"


def example_files(lesson_id: str) -> dict[str, str]:
    """The files of one example lesson, as the doc prints them."""
    doc = DOC.read_text(encoding="utf-8")
    return {match["path"]: match["body"] + "\n" for match in EXAMPLE_FILE.finditer(doc)
            if f"{lesson_id}/" in match["path"] or match["path"] == f"lessons/{lesson_id}.md"}


def write_files(project: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_text(text, encoding="utf-8")


def build(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "--root", str(project), "--out", str(project / "_site")],
        capture_output=True, text=True, timeout=300,
    )


def test_documented_example_lesson_builds_next_to_rag_01(tmp_path):
    files = example_files("tekst-01")
    assert set(files) == {"lessons/tekst-01.md", "checkpoints/tekst-01/checkpoints.toml",
                          "checkpoints/tekst-01/solution.py", "checkpoints/tekst-01/starter.py"}
    project = tmp_path / "project"
    write_files(project, files)
    # The example links to rag-01, so build it beside the real lesson.
    shutil.copy(ROOT / "lessons" / "rag-01.md", project / "lessons")
    shutil.copytree(ROOT / "checkpoints" / "rag-01", project / "checkpoints" / "rag-01")
    shutil.copytree(ROOT / "widgets", project / "widgets")  # rag-01 uses the chunk-ranges widget

    completed = build(project)
    assert completed.returncode == 0, completed.stderr
    assert "tekst-01" not in completed.stderr  # no warnings about the example itself
    page = (project / "_site" / "tekst-01" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../rag-01/">Knip bronnen op zonder hun herkomst kwijt te raken</a>' in page
    assert page.count("data-load-example") == 4  # three examples and the solution


HIDDEN_TESTS_EXAMPLE = {
    "lessons/woorden-01.md", "checkpoints/woorden-01/checkpoints.toml", "checkpoints/woorden-01/solution.py",
    "checkpoints/woorden-01/starter.py", "checkpoints/woorden-01/tests/words.py",
    "checkpoints/woorden-01/tests/word_counts.py", "checkpoints/woorden-01/tests_offline/long_text.py",
    "checkpoints/woorden-01/correct/with_counter.py", "checkpoints/woorden-01/wrong/words__keeps_capitals.py",
    "checkpoints/woorden-01/wrong/word_counts__returns_counter.py",
    "checkpoints/woorden-01/wrong/word_counts__counts_from_zero.py",
}


def test_the_worked_example_of_writing_hidden_tests_builds_and_its_gate_holds(tmp_path):
    files = example_files("woorden-01")
    assert set(files) == HIDDEN_TESTS_EXAMPLE
    project = tmp_path / "project"
    write_files(project, files)
    completed = build(project)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    # The offline-only test never reaches the site.
    assert not [path for path in (project / "_site").rglob("*") if "long_text" in path.name]

    lesson_dir = project / "checkpoints" / "woorden-01"
    gate = subprocess.run([sys.executable, "-m", "runner", "gate", "--lesson", "woorden-01",
                           "--checkpoints-dir", str(project / "checkpoints"), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    shipped = load_bundle(lesson_dir, include_offline=False)
    assert json.loads(gate.stdout) == {"lesson": "woorden-01", "known_solutions": 5, "failures": [], "load_error": None,
                                       "crash": None, "verified": {"bundle_sha256": shipped.bundle_sha256,
                                                                   "files": list(shipped.files)}}

    # As the chapter says: the mistake in words fails word_counts too, and the learner is told why.
    keeps_capitals = next(known.source for known in known_solutions(lesson_dir)
                          if known.path.name == "words__keeps_capitals.py")
    report = grade(load_bundle(lesson_dir, include_offline=False), InProcessHost(call_timeout=2), keeps_capitals)
    assert report.statuses() == {"words": "fail", "word_counts": "fail"}
    (counts,) = web.check(keeps_capitals, str(lesson_dir), only=["word_counts"])["checkpoints"]
    assert counts["note"] == "Checkpoint words, die deze checkpoint gebruikt, slaagt nog niet: los die eerst op."


def test_the_documented_gate_output_is_what_the_build_prints(tmp_path):
    project = tmp_path / "project"
    write_files(project, example_files("woorden-01"))
    lesson_dir = project / "checkpoints" / "woorden-01"
    # The three ways the chapter breaks the gate.
    (lesson_dir / "correct" / "forgets_lower.py").write_text(
        "# after: solution.py\n\ndef words(text):\n    return text.split()\n", encoding="utf-8")
    (lesson_dir / "wrong" / "word_counts__breaks_words_too.py").write_text(
        "# after: solution.py\n# caught by: voorbeeld: de kat en de hond\n\ndef words(text):\n    return text.split(\" \")\n\n\n"
        "def word_counts(text):\n    return {word: 1 for word in words(text)}\n", encoding="utf-8")
    (lesson_dir / "wrong" / "words__keeps_capitals.py").write_text("# after: solution.py\n", encoding="utf-8")
    completed = build(project)
    assert completed.returncode == 1
    documented = GATE_OUTPUT.search(DOC.read_text(encoding="utf-8"))["body"]
    assert completed.stderr == documented + "\n"
