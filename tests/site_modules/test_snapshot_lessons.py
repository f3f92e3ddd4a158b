"""The start that makes the Python memory snapshot also loads the tests of the build's other lessons
(site/src/snapshot-lessons.js): each other lesson of checkpoints/lessons.json is unpacked and its
tests loaded, in the build's order; a lesson that needs packages, or whose files cannot be read or
unpacked, is left out and said so on the console, and the others are still loaded. The same in a
real browser and build: test_python_snapshot.py."""

from __future__ import annotations

from pathlib import Path

from tests.node_bridge import node_fixture

bridge = node_fixture(Path(__file__).with_name("snapshot_lessons_ops.mjs"))


def meta(lesson: str, packages: tuple[str, ...] = ()) -> dict:
    return {"lesson": lesson, "archive": f"runner-{lesson}.zip", "lesson_dir": f"checkpoints/{lesson}",
            "settings": {"browser_packages": list(packages)}}


def files(*lessons: dict, index: list[str] | None = None) -> dict:
    found = {f"/checkpoints/{entry['lesson']}/meta.json": entry for entry in lessons}
    found["/checkpoints/lessons.json"] = {"metas": index or [f"{entry['lesson']}/meta.json" for entry in lessons]}
    return found


def loaded(answer: dict) -> list[str]:
    return [step[1] for step in answer["sent"] if step[0] == "evaluate"]


def test_every_other_lesson_is_unpacked_then_loaded_in_the_builds_order(bridge):
    answer = bridge.ask(own="b", files=files(meta("a"), meta("b"), meta("c")))
    assert answer["sent"] == [
        ["call", "unpack", "http://les.test/checkpoints/a/runner-a.zip"],
        ["evaluate", "/werkplaats/checkpoints/a"],
        ["call", "unpack", "http://les.test/checkpoints/c/runner-c.zip"],
        ["evaluate", "/werkplaats/checkpoints/c"],
    ]
    assert answer["said"] == [] and answer["error"] is None


def test_a_lesson_with_packages_is_left_out_silently(bridge):
    answer = bridge.ask(own="a", files=files(meta("a"), meta("numpy-les", ("numpy",)), meta("c")))
    assert loaded(answer) == ["/werkplaats/checkpoints/c"]
    assert answer["said"] == []


def test_a_lesson_that_cannot_be_read_or_unpacked_is_left_out_and_said(bridge):
    built = files(meta("a"), meta("b"), meta("c"), index=["a/meta.json", "gone/meta.json", "b/meta.json", "c/meta.json"])
    answer = bridge.ask(own="a", files=built, failUnpack="runner-b.zip")
    assert loaded(answer) == ["/werkplaats/checkpoints/c"]
    assert answer["said"] == [
        "left out of the Python snapshot: /checkpoints/gone/meta.json (HTTP 404)",
        "left out of the Python snapshot: /checkpoints/b/meta.json (unpack failed)",
    ]


def test_a_build_without_the_list_loads_nothing_more_and_says_why(bridge):
    built = files(meta("a"))
    del built["/checkpoints/lessons.json"]
    answer = bridge.ask(own="a", files=built)
    assert answer["sent"] == []
    assert answer["error"] == "/checkpoints/lessons.json: HTTP 404"
