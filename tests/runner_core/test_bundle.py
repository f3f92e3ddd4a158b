"""runner.core.bundle: checkpoint meta, test discovery and the bundle hash."""

import shutil
from pathlib import Path

import pytest

from runner.core.bundle import BundleError, load_bundle
from runner.core.lesson_config import DEFAULT_SETTINGS

LESSON_DIR = Path(__file__).resolve().parents[2] / "checkpoints" / "rag-01"


def test_checkpoints_follow_the_lesson_order_with_titles():
    bundle = load_bundle(LESSON_DIR, include_offline=False)
    assert bundle.lesson == "rag-01"
    assert bundle.function_names == ("document_snapshots", "word_chunks", "chunk_coverage")
    assert all(spec.title and spec.tests and spec.signature for spec in bundle.checkpoints)


def test_every_checkpoint_starts_with_its_visible_worked_example():
    bundle = load_bundle(LESSON_DIR, include_offline=False)
    for spec in bundle.checkpoints:
        assert spec.tests[0].visible
        assert sum(t.visible for t in spec.tests) <= 2


def test_offline_tests_come_after_shipped_ones_and_change_the_hash():
    shipped = load_bundle(LESSON_DIR, include_offline=False)
    offline = load_bundle(LESSON_DIR, include_offline=True)
    assert shipped.bundle_sha256 != offline.bundle_sha256
    assert not any(name.startswith("tests_offline/") for name in shipped.files)
    assert any(name.startswith("tests_offline/") for name in offline.files)
    for small, large in zip(shipped.checkpoints, offline.checkpoints):
        assert large.tests[: len(small.tests)] == small.tests


def test_hash_is_stable_and_follows_the_test_files(tmp_path):
    copy = tmp_path / "rag-01"
    shutil.copytree(LESSON_DIR, copy, ignore=shutil.ignore_patterns("wrong", "correct", "__pycache__"))
    first = load_bundle(copy).bundle_sha256
    assert load_bundle(copy).bundle_sha256 == first
    # The lesson text in checkpoints.toml does not change what is tested.
    toml = copy / "checkpoints.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("Schrijf", "Maak", 1), encoding="utf-8")
    assert load_bundle(copy).bundle_sha256 == first
    test_file = copy / "tests" / "word_chunks.py"
    test_file.write_text(test_file.read_text(encoding="utf-8") + "\n# gewijzigd\n", encoding="utf-8")
    assert load_bundle(copy).bundle_sha256 != first


def test_test_naming_an_unknown_checkpoint_is_a_bundle_error(tmp_path):
    copy = tmp_path / "rag-01"
    shutil.copytree(LESSON_DIR, copy, ignore=shutil.ignore_patterns("wrong", "correct", "__pycache__"))
    (copy / "tests_offline" / "typo.py").write_text(
        "from runner.core.testkit import test\n\n@test('word_chunk', 'x')\ndef t(learner):\n    pass\n", encoding="utf-8"
    )
    with pytest.raises(BundleError, match="unknown checkpoint 'word_chunk'"):
        load_bundle(copy)


def test_missing_checkpoints_toml_is_a_bundle_error(tmp_path):
    with pytest.raises(BundleError, match="checkpoints.toml: not found"):
        load_bundle(tmp_path)


def test_checkpoints_carry_the_lessons_config():
    """uses, check limits and settings come from runner.core.lesson_config, the builder's reader too."""
    shipped = load_bundle(LESSON_DIR, include_offline=False)
    offline = load_bundle(LESSON_DIR, include_offline=True)
    assert shipped.settings == offline.settings == DEFAULT_SETTINGS
    assert shipped.check_limits() == {spec.id: 5 for spec in shipped.checkpoints}
    assert offline.check_limits(2.5) == {spec.id: 2.5 for spec in shipped.checkpoints}
    for small, large in zip(shipped.checkpoints, offline.checkpoints):
        assert small.uses == large.uses == ()
        # The page runs exactly the shipped tests: the ones the check limit covers offline.
        assert small.shipped_test_count == large.shipped_test_count == len(small.tests) < len(large.tests)


def test_a_mistake_in_checkpoints_toml_is_a_bundle_error_with_its_line(tmp_path):
    copy = tmp_path / "rag-01"
    shutil.copytree(LESSON_DIR, copy, ignore=shutil.ignore_patterns("wrong", "correct", "__pycache__"))
    toml = copy / "checkpoints.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('id = "word_chunks"', 'id = "word_chunks"\nusez = []'),
                    encoding="utf-8")
    line = toml.read_text(encoding="utf-8").splitlines().index("usez = []") + 1
    with pytest.raises(BundleError) as raised:
        load_bundle(copy)
    assert str(raised.value) == f"{toml}:{line}: checkpoint 2 has unknown key 'usez' (did you mean 'uses'?)"
