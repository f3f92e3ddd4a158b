"""What the offline grader reads of its host beyond `runner.core.host.Host`.

The core's `Host` is all `runner.core.grade` needs (and all the browser's host offers). Grading a
class also needs to know the sandbox's limits, whether the sandbox itself failed (then there is no
verdict, and the next run tries again), and which protections held; `ChildProcessHost` offers these,
and so must any host the batch and the quality gate are given.
"""

from __future__ import annotations

from typing import Protocol

from runner.core.host import Host
from runner.offline.sandbox.protocol import SandboxLimits, ZygoteReport


class SandboxedHost(Host, Protocol):
    @property
    def limits(self) -> SandboxLimits:
        """The limits of each submission's child (the check limits among them)."""

    @property
    def sandbox_failure(self) -> str | None:
        """Why the sandbox itself failed during the current submission, or None."""

    @property
    def zygote_report(self) -> ZygoteReport | None:
        """The zygote's start-up report: which protections hold (None before it first started)."""

    @property
    def sandbox_uid(self) -> int | None:
        """The uid learner code runs as; None when it runs as the grader's own user."""

    def finish_submission(self) -> None:
        """Kill the submission's child and everything it started."""
