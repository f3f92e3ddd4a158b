"""The site is swapped in only when the whole build succeeded."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.render_page import Page
from builder.write_site import write_site

PAGES = [Page("index.html", "<p>nieuw</p>\n"), Page("les-01/index.html", "<p>les</p>\n")]


def make_old_site(tmp_path: Path) -> Path:
    site = tmp_path / "_site"
    (site / "oud").mkdir(parents=True)
    (site / "index.html").write_text("<p>oud</p>\n")
    (site / "oud" / "bestand.txt").write_text("oud\n")
    return site


def files_under(directory: Path) -> dict[str, str]:
    return {path.relative_to(directory).as_posix(): path.read_text()
            for path in sorted(directory.rglob("*")) if path.is_file()}


def test_success_replaces_the_old_site_completely(tmp_path):
    site = make_old_site(tmp_path)
    write_site(PAGES, site, steps=[lambda out: (out / "assets").mkdir()])
    assert files_under(site) == {"index.html": "<p>nieuw</p>\n", "les-01/index.html": "<p>les</p>\n"}
    assert (site / "assets").is_dir()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["_site"]


def test_a_failing_step_leaves_the_old_site_exactly_as_it_was(tmp_path):
    site = make_old_site(tmp_path)
    before = files_under(site)

    def failing_assets(out_dir: Path) -> None:
        (out_dir / "assets").mkdir()
        raise RuntimeError("esbuild crashed")

    with pytest.raises(RuntimeError):
        write_site(PAGES, site, steps=[failing_assets])
    assert files_under(site) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["_site"]


def test_first_build_creates_the_output_and_its_parents(tmp_path):
    site = tmp_path / "diep" / "_site"
    write_site(PAGES, site, steps=[])
    assert files_under(site)["index.html"] == "<p>nieuw</p>\n"
    assert oct(site.stat().st_mode & 0o777) == "0o755"
