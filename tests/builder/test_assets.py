"""builder/assets.py: the bundles, the vendored Pyodide and the lock file a built site ships."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from builder import assets
from builder.errors import BuildError

NPM_LOCK = json.loads((assets.NODE_MODULES / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
PYODIDE_VERSION = json.loads((assets.NODE_MODULES / "pyodide" / "package.json").read_text(encoding="utf-8"))["version"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("assets")
    assets.build_assets(out)
    return out


@pytest.fixture(scope="module")
def lock(site) -> dict:
    return json.loads((site / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))


def test_bundles_the_lesson_script_styles_and_worker(site):
    lesson_js = (site / "assets" / "lesson.js").read_text(encoding="utf-8")
    worker_js = (site / "assets" / "pyodide-worker.js").read_text(encoding="utf-8")
    lesson_css = (site / "assets" / "lesson.css").read_text(encoding="utf-8")
    assert "import " not in lesson_js.split("\n", 1)[0], "lesson.js must be self-contained"
    assert "Probeer het zelf" not in lesson_js  # the panel's heading lives in the template, not the bundle
    assert "run_learner_code" in worker_js  # the Python runtime is bundled as text
    assert ".output-stderr" in lesson_css
    assert "@import" not in lesson_css


def test_copies_the_pyodide_runtime_files_unchanged(site):
    for name in assets.PYODIDE_RUNTIME_FILES:
        shipped = (site / "pyodide" / name).read_bytes()
        assert shipped == (assets.NODE_MODULES / "pyodide" / name).read_bytes(), name
    assert not list((site / "pyodide").glob("*.map"))


@pytest.mark.parametrize("package", ["micropip", "packaging"])
def test_vendored_wheels_are_local_with_their_real_hash(site, lock, package):
    entry = lock["packages"][package]
    wheel = site / "pyodide" / entry["file_name"]
    assert "/" not in entry["file_name"]
    assert wheel.is_file()
    assert entry["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()


def test_every_other_package_points_at_the_cdn_of_this_exact_version(lock):
    remote = {name: entry for name, entry in lock["packages"].items() if name not in assets.VENDORED_PACKAGES}
    assert len(remote) == len(NPM_LOCK["packages"]) - len(assets.VENDORED_PACKAGES)
    numpy = remote["numpy"]
    assert numpy["file_name"].startswith("https://")
    assert f"/v{PYODIDE_VERSION}/full/" in numpy["file_name"]
    assert numpy["file_name"].endswith("/" + NPM_LOCK["packages"]["numpy"]["file_name"])
    assert numpy["sha256"] == NPM_LOCK["packages"]["numpy"]["sha256"]
    assert all(entry["file_name"].startswith("https://") for entry in remote.values())
    assert lock["info"] == NPM_LOCK["info"]


def test_missing_node_modules_asks_for_npm_ci(tmp_path, monkeypatch):
    monkeypatch.setattr(assets, "NODE_MODULES", tmp_path / "node_modules")
    with pytest.raises(BuildError) as raised:
        assets.build_assets(tmp_path / "out")
    assert str(raised.value) == "front-end dependencies are missing in node_modules/: run npm ci"


def test_a_broken_front_end_source_is_one_line_naming_the_file(tmp_path, monkeypatch):
    source = tmp_path / "src"
    source.mkdir()
    for entry in assets.BUNDLE_ENTRIES:
        (source / entry).write_text("", encoding="utf-8")
    (source / "lesson.js").write_text("import { nothing } from './missing.js';\n", encoding="utf-8")
    monkeypatch.setattr(assets, "SITE_SRC", source)
    with pytest.raises(BuildError) as raised:
        assets.build_assets(tmp_path / "out")
    message = str(raised.value)
    assert message.startswith("bundling site/src with esbuild failed: ")
    assert "missing.js" in message
    assert "\n" not in message


def test_a_missing_vendored_wheel_is_reported(tmp_path, monkeypatch):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "packaging-26.1-py3-none-any.whl").write_bytes(b"not really a wheel")
    monkeypatch.setattr(assets, "WHEELS_DIR", wheels)
    with pytest.raises(BuildError) as raised:
        assets.build_assets(tmp_path / "out")
    assert str(raised.value) == "expected exactly one micropip wheel in site/wheels/, found 0"
