"""Widget folders (builder/widgets.py) and the directive inside a real lesson build.

The test project tests/fixtures/widget-project/ has widgets of its own; a copy is broken in one
place per test. The directive's own messages are in tests/fixtures/widget.md."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder.errors import BuildError, each_error
from builder.load_lessons import load_lessons
from builder.widgets import discover_widgets

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "tests" / "fixtures" / "widget-project"
LESSON = "lessons/teller-01.md"
COUNTER_TOML = "widgets/counter/widget.toml"


@pytest.fixture
def project(tmp_path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(PROJECT, copy)
    return copy


def replace(project: Path, relative: str, old: str, new: str) -> None:
    path = project / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {relative}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(project: Path, relative: str, needle: str) -> int:
    lines = (project / relative).read_text(encoding="utf-8").splitlines()
    [number] = [number for number, line in enumerate(lines, start=1) if needle in line]
    return number


def load_messages(project: Path) -> list[str]:
    with pytest.raises(BuildError) as raised:
        load_lessons(project / "lessons", project / "checkpoints", root=project)
    return [str(error) for error in each_error(raised.value)]


def test_the_test_projects_widgets_are_found_with_their_options():
    widgets = discover_widgets(PROJECT)
    assert sorted(widgets) == ["broken", "counter", "echo"]
    counter = widgets["counter"]
    assert counter.title == "Teller" and counter.has_style
    assert {name: (option.type, option.default, option.required) for name, option in counter.options.items()} == {
        "function": ("str", None, True), "start": ("int", 0, False), "step": ("float", 1.0, False),
        "label": ("str", "Tel", False), "show_expected": ("bool", True, False), "style": ("choice", "plain", False),
    }


def test_a_lesson_lists_the_widgets_it_uses_once():
    [lesson] = load_lessons(PROJECT / "lessons", PROJECT / "checkpoints", root=PROJECT)
    assert [widget.name for widget in lesson.widgets] == ["counter", "broken"]


def test_the_checkpoints_option_names_the_lessons_own_checkpoints(project):
    replace(project, LESSON, "checkpoints: double\n", "checkpoints: doubel\n")
    line = line_of(project, LESSON, "checkpoints: doubel")
    assert load_messages(project) == [
        f"{LESSON}:{line}: unknown checkpoint 'doubel' in widget option 'checkpoints' (did you mean 'double'?)"]


@pytest.mark.parametrize(("old", "new", "message"), [
    ('type = "int"\ndefault = 0', 'type = "integer"\ndefault = 0',
     "option 'start' needs a type: one of int, float, str, bool, choice"),
    ('type = "str"\nrequired = true', 'type = "str"\nrequired = true\ndefault = "f"',
     "option 'function' is required, so it has no default"),
    ("default = 0\n", "default = 5000\n", "default of option 'start' must be from 0 to 1000, got 5000"),
    ('choices = ["plain", "boxed"]\ndefault = "plain"', 'choices = ["plain", "boxed"]\ndefault = "fancy"',
     "default of option 'style' must be one of 'plain', 'boxed', got 'fancy'"),
    ("[options.label]", "[options.checkpoints]",
     "option 'checkpoints' is given to every widget already: declare it under another name"),
    ("min = 0\n", "minimum = 0\n", "option 'start' has unknown key 'minimum'"),
])
def test_mistakes_in_widget_toml_name_the_file(project, old, new, message):
    replace(project, COUNTER_TOML, old, new)
    assert load_messages(project) == [f"{COUNTER_TOML}: {message}"]


def test_a_widget_folder_without_its_module_is_named(project):
    (project / "widgets" / "echo" / "widget.js").unlink()
    assert load_messages(project) == ["widgets/echo: a widget folder needs widget.js"]


def test_invalid_toml_is_named(project):
    replace(project, COUNTER_TOML, 'title = "Teller"', 'title = "Teller')
    [message] = load_messages(project)
    assert message.startswith(f"{COUNTER_TOML}: not valid TOML: ")


def test_a_template_error_names_the_template_and_line(project, tmp_path):
    replace(project, "widgets/counter/template.html", "{{ options.function }}</code>",
            "{{ options.functoin }}</code>")
    completed = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "--root", str(project), "--out", str(tmp_path / "_site")],
        capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 1
    assert completed.stderr == ("widgets/counter/template.html:3: template error: "
                                "'dict object' has no attribute 'functoin'\n")


def test_a_widget_mistake_stops_the_build_with_one_line(project, tmp_path):
    replace(project, LESSON, "start: 10\n", "start: tien\n")
    line = line_of(project, LESSON, "start: tien")
    completed = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "--root", str(project), "--out", str(tmp_path / "_site")],
        capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 1
    assert completed.stderr == f"{LESSON}:{line}: widget option 'start' must be a whole number, got 'tien'\n"
    assert not (tmp_path / "_site").exists()


def test_the_authoring_guide_lists_every_option_of_the_projects_widgets():
    doc = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Widgets"):doc.index("### Writing a widget")]
    for name, widget in discover_widgets(ROOT).items():
        assert f"| `{name}` |" in section
        for option in widget.options:
            assert f"| `{option}` |" in section, f"{name}: option {option} is not in docs/authoring.md"


def test_each_used_widget_is_bundled_on_its_own_with_its_python_as_text(tmp_path):
    from builder.assets import build_widget_assets

    widgets = discover_widgets(PROJECT)
    build_widget_assets([widgets["counter"], widgets["broken"]], tmp_path)
    out = tmp_path / "assets" / "widgets"
    assert sorted(str(path.relative_to(out)) for path in out.rglob("*") if path.is_file()) == [
        "broken/widget.js", "counter/widget.css", "counter/widget.js"]
    counter = (out / "counter" / "widget.js").read_text(encoding="utf-8")
    assert "def advance(count, step)" in counter  # widget.py ships inside the widget's bundle
    assert "this widget is broken on purpose" not in counter
