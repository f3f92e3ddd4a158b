"""The --out folder of grade and merge: never a link, nor written through one."""

from __future__ import annotations

from pathlib import Path

from runner.offline.commands.arguments import UsageError
from runner.offline.commands.terminal import name_text
from runner.offline.grading import batch


def refuse_linked_out(out_dir: Path) -> None:
    """--out itself must not be a link: root would write into (and remove pages from) whatever it
    points at. The folders above it are the teacher's own path and are not checked."""
    if out_dir.is_symlink():
        raise UsageError(f"--out is a link, which the grader does not follow: {name_text(str(out_dir))} "
                         "(give the folder itself, or another --out)")


def refuse_links_in(out_dir: Path) -> None:
    """The outputs are never written through a link: one already in --out stops the run."""
    refuse_linked_out(out_dir)
    link = batch.link_among_outputs(out_dir)
    if link is not None:
        raise UsageError(f"--out holds a link, which the grader does not follow: {name_text(str(link))} "
                         "(remove it, or choose another --out)")
