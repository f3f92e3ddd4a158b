"""A golden that changes because a rendering package changed says so, and how to regenerate it."""

from __future__ import annotations

from tests.golden_versions import RECORD, installed_versions, recorded_versions, rendering_note, write_record


def test_a_changed_rendering_package_is_named_with_both_versions_and_the_command(tmp_path):
    record = tmp_path / "golden-rendering.toml"
    write_record(record)
    text = record.read_text(encoding="utf-8")
    pygments = installed_versions()["Pygments"]
    record.write_text(text.replace(f'"Pygments" = "{pygments}"', '"Pygments" = "2.20.0"'), encoding="utf-8")
    assert rendering_note(record) == (
        f"the packages that render it changed since the goldens were made (Pygments 2.20.0 -> {pygments}): "
        "if their new rendering is right, regenerate every golden with "
        "`python tests/lessons/update_golden.py --all` and review the diff")


def test_unchanged_packages_point_at_our_own_change(tmp_path):
    record = tmp_path / "golden-rendering.toml"
    write_record(record)
    assert rendering_note(record) == ("none of the packages that render it changed since the goldens were made, "
                                      "so the change is ours")


def test_the_committed_record_names_every_rendering_package():
    assert set(recorded_versions(RECORD)) == set(installed_versions())
