"""The packages whose rendering ends up in golden files, and the versions the goldens were made with.

A golden page holds Pygments' highlighting, latex2mathml's MathML, markdown-it's HTML and Jinja2's
templates. When one of those packages changes (a reviewed bump of requirements/lock.txt), a golden
can change without any change of ours; the failure then says which package changed and how to
regenerate after review. `python tests/lessons/update_golden.py --all` rewrites the record.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "golden-rendering.toml"
RENDERING_PACKAGES = ("Pygments", "markdown-it-py", "mdit-py-plugins", "latex2mathml", "Jinja2")
UPDATE_COMMAND = "python tests/lessons/update_golden.py --all"


def installed_versions() -> dict[str, str]:
    versions = {}
    for package in RENDERING_PACKAGES:
        try:
            versions[package] = version(package)
        except PackageNotFoundError:
            versions[package] = "not installed"
    return versions


def recorded_versions(record: Path = RECORD) -> dict[str, str]:
    if not record.is_file():
        return {}
    return dict(tomllib.loads(record.read_text(encoding="utf-8")).get("made_with", {}))


def changed_packages(recorded: dict[str, str], installed: dict[str, str]) -> list[str]:
    """'Pygments 2.21.0 -> 2.22.0' for each rendering package whose version differs."""
    return [f"{package} {recorded.get(package, 'unrecorded')} -> {installed[package]}"
            for package in RENDERING_PACKAGES if recorded.get(package) != installed[package]]


def rendering_note(record: Path = RECORD) -> str:
    """The sentence a failing golden adds: whether a dependency's rendering may be the cause."""
    changed = changed_packages(recorded_versions(record), installed_versions())
    if not changed:
        return "none of the packages that render it changed since the goldens were made, so the change is ours"
    return (f"the packages that render it changed since the goldens were made ({'; '.join(changed)}): "
            f"if their new rendering is right, regenerate every golden with `{UPDATE_COMMAND}` and review the diff")


def write_record(record: Path = RECORD) -> None:
    lines = ["# The versions of the rendering packages the golden files were made with (tests/golden_versions.py).",
             "# Written by `python tests/lessons/update_golden.py --all`; do not edit by hand.", "", "[made_with]"]
    lines += [f'"{package}" = "{number}"' for package, number in installed_versions().items()]
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
