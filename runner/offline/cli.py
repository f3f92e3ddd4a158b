"""`python -m runner`: check one file as a learner, or grade a class's submissions as a teacher.

    python -m runner check main.py --lesson woorden-01
    python -m runner grade --lesson woorden-01 submissions/ --out graded/ [--jobs N] [--feedback]
    python -m runner grade module-exports/ --out graded/        # every lesson the exports name
    python -m runner grade ... --shard 2/4 --out shard-2/ ; python -m runner merge shard-*/ --out graded/
    python -m runner gate --lesson woorden-01 [--json]
    python -m runner mutate --lesson woorden-01

Exit codes: 0 all checkpoints pass (check) / the batch completed (grade) / every known solution
gets its known verdict (gate) / every mutant is killed or listed as equivalent (mutate); 1 some
checkpoint did not pass (check) / the grader itself failed (grade) / the gate found a problem
(gate, mutate); 2 usage errors, always with one line
`error: ...` on stderr. The learner's view (`check`) is in Dutch. The command line, here and in
`runner/offline/commands/` (one module per command, `arguments` for the parser), is the only part
of the runner that may use a third-party library (rich).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from runner.core.bundle import BundleError
from runner.offline.commands.arguments import UsageError, build_parser
from runner.offline.commands.check import run_check
from runner.offline.commands.gates import run_gate, run_mutate
from runner.offline.commands.grade import run_grade
from runner.offline.commands.merge import run_merge
from runner.offline.commands.terminal import name_text
from runner.offline.grading.corrections import CorrectionsError
from runner.offline.grading.records import ResultsFileError
from runner.offline.lms import LmsError
from runner.offline.sandbox.protocol import SandboxError


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command == "check":
            return run_check(args)
        if args.command == "gate":
            return run_gate(args)
        if args.command == "mutate":
            return run_mutate(args)
        if args.command == "merge":
            return run_merge(args)
        return run_grade(args)
    # Every error line may quote a file name or a value from a learner's file (a path in a
    # shard's results.jsonl, say): control characters are shown as \xNN, never sent raw.
    except UsageError as error:
        print(f"error: {name_text(str(error))}", file=sys.stderr)
        return 2
    except BundleError as error:
        print(f"error: the tests of this lesson cannot be loaded: {name_text(str(error))}", file=sys.stderr)
        return 1
    except SandboxError as error:
        print(f"error: the sandbox could not be set up: {name_text(str(error))}", file=sys.stderr)
        return 1
    except (CorrectionsError, LmsError) as error:
        print(f"error: {name_text(str(error))}", file=sys.stderr)
        return 2
    except ResultsFileError as error:
        print(f"error: {name_text(str(error))} (a line this runner did not write: mend or delete it, "
              "or grade everything again with --regrade)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; run the same command again to resume", file=sys.stderr)
        return 130
