"""Similar pairs and untouched starters: renamed copies are found, independent solutions are not."""

from __future__ import annotations

import re

from offline_support import ROOT

from runner.offline.grading.records import CheckpointRecord, ResultRecord, TestRecord
from runner.offline.outputs.report import CheckpointInfo, ReportInputs, render_report
from runner.offline.outputs.similarity import not_started, similar_pairs

RAG = ROOT / "checkpoints" / "rag-01"
STARTER = (RAG / "starter.py").read_text()
SOLUTION = (RAG / "solution.py").read_text()
INDEPENDENT = {path.stem: path.read_text() for path in sorted((RAG / "correct").glob("*.py"))}


def renamed_copy(code: str) -> str:
    """What a learner does to hide a copy: other names, other layout, no comments."""
    for old, new in (("words", "woorden"), ("text", "tekst"), ("records", "invoer"), ("chunk", "stuk")):
        code = re.sub(rf"\b{old}\b", new, code)
    lines = [line.replace("    ", "  ") for line in code.splitlines() if not line.strip().startswith("#")]
    return "\n\n".join(lines) + "\n"


def test_a_renamed_copy_is_found_and_independent_solutions_are_not():
    codes = {"solution": SOLUTION, "copy": renamed_copy(SOLUTION), **INDEPENDENT}
    pairs = similar_pairs(codes, STARTER)
    assert [(pair.first, pair.second) for pair in pairs] == [("copy", "solution")]
    assert pairs[0].share > 0.9
    stretch = max(pairs[0].stretches, key=lambda s: s.first_lines[1] - s.first_lines[0])
    assert stretch.first_lines[1] - stretch.first_lines[0] > 50  # most of the file, shown as shared


def test_the_shared_starter_alone_makes_no_pair():
    untouched = {f"leerling{index}": STARTER + f"\n# naam {index}\n" for index in range(5)}
    assert similar_pairs(untouched, STARTER) == []


def test_an_untouched_or_nearly_untouched_starter_is_not_started():
    assert not_started(STARTER, STARTER)
    assert not_started("# mijn naam\n" + STARTER.replace("    ", "  "), STARTER)
    assert not not_started(SOLUTION, STARTER)
    assert not not_started(INDEPENDENT["class_based"], STARTER)


def learner(name: str, code: str, status: str = "fail") -> ResultRecord:
    ids = ("document_snapshots", "word_chunks", "chunk_coverage")
    checkpoints = tuple(CheckpointRecord(cid, status, (TestRecord("voorbeeld", status, "NotImplementedError", 1.0),))
                        for cid in ids)
    return ResultRecord(
        submission=f"/klas/{name}.py", learner=name, lesson="rag-01", status="graded",
        score=3 if status == "pass" else 0, max_score=3, code_sha256=None, source_sha256="",
        checkpoints=checkpoints, code=code, runner_version="0.1.0", bundle_sha256="ab" * 32,
        graded_at="2026-11-30T10:00:00+00:00",
    )


def test_the_dutch_report_groups_untouched_starters_and_shows_similar_pairs_with_their_code():
    results = [learner(f"leerling{index}", STARTER) for index in range(11)]
    results += [learner("<b>anna</b>", SOLUTION, "pass"), learner("bram", renamed_copy(SOLUTION), "pass"),
                learner("cas", INDEPENDENT["numpy_arrays"], "pass")]
    page = render_report(results, "rag-01", [CheckpointInfo(c, c) for c in ("document_snapshots", "word_chunks",
                                                                               "chunk_coverage")],
                         "0.1.0", "ab" * 32, "2026-11-30T10:00:00+00:00", ReportInputs(starter=STARTER))
    assert '<html lang="nl">' in page and "<h1>Nakijkrapport: rag-01</h1>" in page
    not_started_part = page.split("<h2>Niet begonnen</h2>")[1].split("<h2>")[0]
    assert all(f"leerling{index}" in not_started_part for index in range(11))
    mistakes = page.split("<h2>Meest gemaakte fouten</h2>")[1].split("<h2>")[0]
    assert "Geen enkele test faalde." in mistakes  # the untouched starters are not eleven "mistakes"
    similar = page.split("<h2>Inzendingen die sterk op elkaar lijken</h2>")[1].split("<h2>")[0]
    assert similar.count("<tr><td>") == 1
    assert "&lt;b&gt;anna&lt;/b&gt;" in similar and "bram" in similar and "cas" not in similar
    assert "<b>anna</b>" not in page
    assert 'class="ln">1</td>' in similar  # the shared part, with line numbers
