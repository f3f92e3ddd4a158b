"""docs/architecture.md is the contributor's map: every module of the code is named in it.

A module counts as named when the doc has its file name (`grade.py`, `mount-widgets.js`) or, for Python,
its dotted name (`runner.core.grade`). A widget counts as named by its folder (`widgets/<name>/`).
"""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
CODE_FOLDERS = ("builder", "runner", "site/src", "site/templates")
CODE_SUFFIXES = {".py", ".js", ".mjs", ".css", ".html"}


def tracked_files(folder: str) -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", folder],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / name for name in listed if Path(name).suffix in CODE_SUFFIXES]


def named_in(doc: str, path: Path) -> bool:
    relative = path.relative_to(ROOT)
    if path.name in doc:
        return True
    dotted = ".".join(relative.with_suffix("").parts)
    return path.suffix == ".py" and dotted in doc


def test_every_module_is_named_in_the_architecture_doc():
    doc = DOC.read_text(encoding="utf-8")
    missing = [str(path.relative_to(ROOT)) for folder in CODE_FOLDERS for path in tracked_files(folder)
               if path.name != "__init__.py" and not named_in(doc, path)]
    assert missing == [], f"docs/architecture.md does not name: {', '.join(missing)}"


def test_every_widget_folder_is_named_in_the_architecture_doc():
    doc = DOC.read_text(encoding="utf-8")
    widgets = sorted(path.parent.name for path in (ROOT / "widgets").glob("*/widget.toml"))
    assert widgets, "no widgets found"
    missing = [name for name in widgets if f"widgets/{name}/" not in doc]
    assert missing == [], f"docs/architecture.md does not name the widget folders: {', '.join(missing)}"


def test_every_named_module_file_exists():
    # The other direction: a `*.py` path the doc's layout gives under builder/ or runner/ exists.
    import re
    doc = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![\w/.])((?:builder|runner)/[\w/]+\.py)\b", doc))
    gone = sorted(name for name in named if not (ROOT / name).is_file())
    assert gone == [], f"docs/architecture.md names files that do not exist: {', '.join(gone)}"
