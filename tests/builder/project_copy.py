"""A throwaway copy of tests/fixtures/project/ to break in one place, and build.py run on it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_PROJECT = ROOT / "tests" / "fixtures" / "project"
LESSON = "lessons/tekst-01.md"
OLD_SITE_MARKER = "<p>the previous, good build</p>\n"


@dataclass
class BuildRun:
    returncode: int
    stdout: str
    stderr: str


class ProjectCopy:
    def __init__(self, tmp_path: Path):
        self.root = tmp_path / "project"
        shutil.copytree(FIXTURE_PROJECT, self.root)
        self.site = self.root / "_site"

    def replace(self, relative: str, old: str, new: str) -> None:
        path = self.root / relative
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} must occur once in {relative}"
        path.write_text(text.replace(old, new), encoding="utf-8")

    def line_of(self, relative: str, needle: str) -> int:
        lines = (self.root / relative).read_text(encoding="utf-8").splitlines()
        matches = [number for number, line in enumerate(lines, start=1) if needle in line]
        assert len(matches) == 1, f"{needle!r} must be on exactly one line of {relative}"
        return matches[0]

    def place_old_site(self) -> None:
        self.site.mkdir()
        (self.site / "index.html").write_text(OLD_SITE_MARKER, encoding="utf-8")

    def old_site_untouched(self) -> bool:
        """The previous site is exactly as it was, and no temporary directory is left over."""
        entries = sorted(path.name for path in self.site.iterdir())
        leftovers = [path.name for path in self.root.iterdir() if path.name.startswith("_site.")]
        return (entries == ["index.html"]
                and (self.site / "index.html").read_text(encoding="utf-8") == OLD_SITE_MARKER
                and not leftovers)

    def build(self, *options: str) -> BuildRun:
        completed = subprocess.run(
            [sys.executable, str(ROOT / "build.py"), "--root", str(self.root), "--out", str(self.site), *options],
            cwd=self.root, capture_output=True, text=True, timeout=300,
        )
        return BuildRun(completed.returncode, completed.stdout, completed.stderr)
