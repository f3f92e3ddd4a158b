"""The complete example lesson in docs/authoring.md builds exactly as printed there."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# `<!-- file: path -->` followed by a fenced block (``` or ````) holding that file.
EXAMPLE_FILE = re.compile(r"<!-- file: (?P<path>\S+) -->\n(?P<fence>`{3,})[^\n]*\n(?P<body>.*?)\n(?P=fence)\n", re.S)


def test_documented_example_lesson_builds_next_to_rag_01(tmp_path):
    doc = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    files = {match["path"]: match["body"] + "\n" for match in EXAMPLE_FILE.finditer(doc)}
    assert set(files) == {"lessons/tekst-01.md", "checkpoints/tekst-01/checkpoints.toml",
                          "checkpoints/tekst-01/solution.py", "checkpoints/tekst-01/starter.py"}
    project = tmp_path / "project"
    for relative, text in files.items():
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_text(text, encoding="utf-8")
    # The example links to rag-01, so build it beside the real lesson.
    shutil.copy(ROOT / "lessons" / "rag-01.md", project / "lessons")
    shutil.copytree(ROOT / "checkpoints" / "rag-01", project / "checkpoints" / "rag-01")
    shutil.copytree(ROOT / "widgets", project / "widgets")  # rag-01 uses the chunk-ranges widget

    completed = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "--root", str(project), "--out", str(project / "_site")],
        capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    assert "tekst-01" not in completed.stderr  # no warnings about the example itself
    page = (project / "_site" / "tekst-01" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../rag-01/">Knip bronnen op zonder hun herkomst kwijt te raken</a>' in page
    assert page.count("data-load-example") == 4  # three examples and the solution
