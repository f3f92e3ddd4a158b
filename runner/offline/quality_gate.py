"""The quality gate on a lesson's tests: known solutions must get the verdicts they are known to deserve.

`checkpoints/<lesson>/` holds, besides the tests, solutions whose verdict is known:
- `solution.py` and `correct/*.py` must pass every test, offline-only tests included;
- `wrong/<checkpoint>__<mistake>.py` must fail its named checkpoint with the shipped tests
  alone (the ones the browser runs), and pass the other checkpoints.

A known solution is either a whole module, or a variation of the reference: a file whose first
line is `# after: solution.py` holds only what differs (redefined functions, `del name` for a
function the learner forgot); it is graded as solution.py followed by that file, so a mistake is
written down once and a fix to the reference reaches every variation.

Used by the builder (a build fails on a broken gate), by `python -m runner gate`, and by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost

AFTER_SOLUTION_MARKER = "# after: solution.py"
# Per call of a learner function; known-wrong solutions may loop forever on purpose.
GATE_CALL_SECONDS = 2.0


@dataclass(frozen=True)
class KnownSolution:
    path: Path
    expected: str  # "pass" for the reference and correct/, else the checkpoint it must fail
    source: str  # what is graded: the whole module, composed for variations of the reference

    @property
    def must_pass(self) -> bool:
        return self.expected == "pass"


@dataclass(frozen=True)
class GateFailure:
    path: Path
    reason: str


def compose_source(text: str, solution_text: str) -> str:
    """A variation of the reference is graded as the reference followed by the variation."""
    if text.startswith(AFTER_SOLUTION_MARKER):
        return solution_text.rstrip("\n") + "\n\n\n" + text
    return text


def known_solutions(lesson_dir: Path) -> list[KnownSolution]:
    lesson_dir = Path(lesson_dir)
    reference = lesson_dir / "solution.py"
    solution_text = reference.read_text(encoding="utf-8")
    found = [KnownSolution(reference, "pass", solution_text)]
    for path in sorted((lesson_dir / "correct").glob("*.py")):
        found.append(KnownSolution(path, "pass", compose_source(path.read_text(encoding="utf-8"), solution_text)))
    for path in sorted((lesson_dir / "wrong").glob("*.py")):
        checkpoint = path.stem.partition("__")[0]
        found.append(KnownSolution(path, checkpoint, compose_source(path.read_text(encoding="utf-8"), solution_text)))
    return found


def check_quality_gate(lesson_dir: Path, call_seconds: float = GATE_CALL_SECONDS) -> list[GateFailure]:
    """Grade every known solution in-process; an empty list means the tests hold."""
    lesson_dir = Path(lesson_dir)
    full = load_bundle(lesson_dir, include_offline=True)
    shipped = load_bundle(lesson_dir, include_offline=False)
    failures: list[GateFailure] = []
    for known in known_solutions(lesson_dir):
        if not known.must_pass and known.expected not in shipped.function_names:
            failures.append(GateFailure(known.path, f"names no checkpoint of this lesson: '{known.expected}'"))
            continue
        bundle = full if known.must_pass else shipped
        report = grade(bundle, InProcessHost(call_timeout=call_seconds), known.source)
        statuses = report.statuses()
        if known.must_pass:
            for checkpoint in report.checkpoints:
                failing = checkpoint.first_failure
                if failing is not None:
                    failures.append(GateFailure(
                        known.path, f"should pass but fails {checkpoint.id}: {failing.name} ({failing.status})"))
                    break
        elif statuses.get(known.expected) == "pass":
            failures.append(GateFailure(known.path, f"known to be wrong, but passes checkpoint {known.expected}"))
        else:
            others = sorted(cid for cid, status in statuses.items() if cid != known.expected and status != "pass")
            if others:
                failures.append(GateFailure(
                    known.path, f"should fail only {known.expected}, but also fails {', '.join(others)}"))
    return failures
