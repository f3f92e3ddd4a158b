"""Widgets: interactive parts of a lesson page, each one folder `widgets/<name>/`.

A widget folder holds everything the widget is:

    widget.toml      its options (type, bounds, default, required) and a one-line title
    template.html    Jinja markup, rendered once per `:::{widget} <name>` in a lesson
    widget.js        the front-end module; it exports `mount(element, context)`
    widget.css       its styles (optional)
    validate.py      optional `validate(options)` for rules across options; raises ValueError
    *.py, *.js       anything else it imports (Python as text, to run in the worker)

The builder finds widgets in `<root>/widgets/`, so a project (or a test project) brings its own.
Nothing in the builder or the shared front end names a widget.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2
from markupsafe import Markup

from builder.errors import BuildError, raise_if_any

WIDGETS_DIR = "widgets"
TOML_NAME = "widget.toml"
TEMPLATE_NAME = "template.html"
SCRIPT_NAME = "widget.js"
STYLE_NAME = "widget.css"
VALIDATOR_NAME = "validate.py"
WIDGET_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
OPTION_NAME = re.compile(r"[a-z][a-z0-9_]*")
OPTION_TYPES = ("int", "float", "str", "bool", "choice")
# Every widget accepts this option: the lesson's checkpoints whose results it can show.
CHECKPOINTS_OPTION = "checkpoints"
OPTION_KEYS = {"type", "default", "required", "min", "max", "choices", "description"}
TOML_KEYS = {"title", "options"}


class OptionError(Exception):
    """A wrong option value; the caller knows the option's line."""


@dataclass(frozen=True)
class WidgetOption:
    name: str
    type: str  # one of OPTION_TYPES
    default: Any = None  # None: no default
    required: bool = False
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def convert(self, text: str) -> Any:
        """The typed value of `text` as written after `name:`, or OptionError."""
        if self.type == "str":
            if not text:
                raise OptionError(f"option '{self.name}' must not be empty")
            return text
        if self.type == "bool":
            if text not in ("true", "false"):
                raise OptionError(f"option '{self.name}' must be true or false, got '{text}'")
            return text == "true"
        if self.type == "choice":
            if text not in self.choices:
                allowed = ", ".join(f"'{choice}'" for choice in self.choices)
                raise OptionError(f"option '{self.name}' must be one of {allowed}, got '{text}'")
            return text
        if self.type == "int":
            if not re.fullmatch(r"-?[0-9]+", text):
                raise OptionError(f"option '{self.name}' must be a whole number, got '{text}'")
            value: float = int(text)
        else:
            try:
                value = float(text)
            except ValueError:
                raise OptionError(f"option '{self.name}' must be a number, got '{text}'") from None
            if value != value or value in (float("inf"), float("-inf")):
                raise OptionError(f"option '{self.name}' must be a number, got '{text}'")
        self.check_bounds(value, text)
        return value

    def check_bounds(self, value: float, text: str) -> None:
        low, high = self.minimum, self.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            if low is not None and high is not None:
                bounds = f"from {number_text(low)} to {number_text(high)}"
            elif low is not None:
                bounds = f"at least {number_text(low)}"
            else:
                assert high is not None  # a bound failed, so one of them is set
                bounds = f"at most {number_text(high)}"
            raise OptionError(f"option '{self.name}' must be {bounds}, got {text}")


@dataclass(frozen=True)
class Widget:
    name: str
    directory: Path
    shown_dir: str  # as messages name it, e.g. "widgets/word-cloud"
    title: str
    options: dict[str, WidgetOption]
    has_style: bool
    validator: Callable[[dict[str, Any]], None] | None  # validate.py's validate(options), if any
    templates: jinja2.Environment = field(compare=False, repr=False)  # loads from `directory`

    def render(self, instance: WidgetInstance) -> str:
        """The widget's markup inside the root element that the front end mounts."""
        context = {"id": instance.id, "options": instance.options, "checkpoints": list(instance.checkpoints)}
        try:
            inner = self.templates.get_template(TEMPLATE_NAME).render(context)
        except jinja2.TemplateError as error:
            line = getattr(error, "lineno", None) or template_line(error, self.directory / TEMPLATE_NAME)
            raise BuildError(f"{self.shown_dir}/{TEMPLATE_NAME}", line,
                             f"template error: {error.message or error}") from None
        attributes = {
            "class": "widget",
            "id": instance.id,
            "data-widget": self.name,
            "data-widget-options": json.dumps(instance.options, ensure_ascii=False, sort_keys=True),
        }
        if instance.checkpoints:
            attributes["data-widget-checkpoints"] = " ".join(instance.checkpoints)
        opening = " ".join(f'{name}="{Markup.escape(value)}"' for name, value in attributes.items())
        return f"<div {opening}>\n{inner.strip()}\n</div>\n"


@dataclass(frozen=True)
class WidgetInstance:
    """One `:::{widget}` in a lesson: its validated options and its page-unique id prefix."""

    widget: Widget
    id: str  # e.g. "counter-2": the template prefixes its element ids with it
    options: dict[str, Any]
    checkpoints: tuple[str, ...]


def template_line(error: BaseException, template: Path) -> int | None:
    """The template line a render error came from: Jinja puts the template's own lines into the
    traceback (an undefined name has no `lineno` of its own)."""
    line = None
    traceback = error.__traceback__
    while traceback is not None:
        if traceback.tb_frame.f_code.co_filename == str(template):
            line = traceback.tb_lineno
        traceback = traceback.tb_next
    return line


def number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def discover_widgets(root: Path) -> dict[str, Widget]:
    """Every widget in `<root>/widgets/`, by name; all mistakes in their files reported together."""
    widgets_dir = root / WIDGETS_DIR
    if not widgets_dir.is_dir():
        return {}
    widgets: dict[str, Widget] = {}
    errors: list[BuildError] = []
    for directory in sorted(path for path in widgets_dir.iterdir() if path.is_dir()):
        if directory.name.startswith((".", "_")):
            continue
        try:
            widgets[directory.name] = read_widget(directory, f"{WIDGETS_DIR}/{directory.name}")
        except BuildError as error:
            errors.append(error)
    raise_if_any(errors)
    return widgets


def read_widget(directory: Path, shown_dir: str) -> Widget:
    name = directory.name
    if not WIDGET_NAME.fullmatch(name):
        raise BuildError(shown_dir, None, "a widget folder name is lowercase letters, digits and '-'")
    for required in (TOML_NAME, TEMPLATE_NAME, SCRIPT_NAME):
        if not (directory / required).is_file():
            raise BuildError(shown_dir, None, f"a widget folder needs {required}")
    shown_toml = f"{shown_dir}/{TOML_NAME}"
    try:
        data = tomllib.loads((directory / TOML_NAME).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise BuildError(shown_toml, None, f"not valid TOML: {error}") from None
    unknown = sorted(set(data) - TOML_KEYS)
    if unknown:
        raise BuildError(shown_toml, None, f"unknown key '{unknown[0]}' (a widget.toml has title and [options.<name>])")
    title = data.get("title", name)
    if not isinstance(title, str) or not title.strip():
        raise BuildError(shown_toml, None, "title must be a non-empty text")
    raw_options = data.get("options", {})
    if not isinstance(raw_options, dict):
        raise BuildError(shown_toml, None, "options must be tables: [options.<name>]")
    options = {option_name: read_option(shown_toml, option_name, spec)
               for option_name, spec in raw_options.items()}
    templates = jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory),
        autoescape=True,
        undefined=jinja2.StrictUndefined,  # a misspelt option name fails the build, not the page
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    validator = None
    if (directory / VALIDATOR_NAME).is_file():
        validator = load_validator(directory / VALIDATOR_NAME, f"{shown_dir}/{VALIDATOR_NAME}", name)
    return Widget(name, directory, shown_dir, title.strip(), options,
                  (directory / STYLE_NAME).is_file(), validator, templates)


def read_option(shown_toml: str, name: str, spec: Any) -> WidgetOption:
    def fail(message: str) -> BuildError:
        return BuildError(shown_toml, None, f"option '{name}' {message}")

    if not OPTION_NAME.fullmatch(name):
        raise fail("is not a name: lowercase letters, digits and '_'")
    if name == CHECKPOINTS_OPTION:
        raise fail("is given to every widget already: declare it under another name")
    if not isinstance(spec, dict):
        raise fail("must be a table: [options.<name>] with a type")
    unknown = sorted(set(spec) - OPTION_KEYS)
    if unknown:
        raise fail(f"has unknown key '{unknown[0]}'")
    kind = spec.get("type")
    if kind not in OPTION_TYPES:
        raise fail(f"needs a type: one of {', '.join(OPTION_TYPES)}")
    required = spec.get("required", False)
    if type(required) is not bool:
        raise fail("required must be true or false")
    choices = spec.get("choices", [])
    if kind == "choice" and (not isinstance(choices, list) or not choices
                             or not all(isinstance(choice, str) for choice in choices)):
        raise fail("of type choice needs choices = [\"...\", ...]")
    if kind != "choice" and "choices" in spec:
        raise fail("has choices but is not of type choice")
    bounds = {}
    for key in ("min", "max"):
        if key in spec:
            if kind not in ("int", "float") or type(spec[key]) not in (int, float):
                raise fail(f"{key} must be a number, and only int and float options have one")
            bounds[key] = spec[key]
    option = WidgetOption(name, kind, None, required, bounds.get("min"), bounds.get("max"), tuple(choices))
    if "default" in spec:
        if required:
            raise fail("is required, so it has no default")
        try:
            default = option.convert(default_text(spec["default"]))
        except OptionError as error:
            raise BuildError(shown_toml, None, f"default of {error}") from None
        option = WidgetOption(name, kind, default, False, option.minimum, option.maximum, option.choices)
    return option


def default_text(value: Any) -> str:
    """A TOML default as it would be written in a lesson, so it is checked the same way."""
    if type(value) is bool:
        return "true" if value else "false"
    return str(value)


def load_validator(path: Path, shown: str, widget_name: str) -> Callable[[dict[str, Any]], None]:
    spec = importlib.util.spec_from_file_location(f"werkplaats_widget_{widget_name.replace('-', '_')}", path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise BuildError(shown, None, f"cannot be loaded: {type(error).__name__}: {error}") from None
    validate = getattr(module, "validate", None)
    if not callable(validate):
        raise BuildError(shown, None, "must define validate(options)")
    checked: Callable[[dict[str, Any]], None] = validate
    return checked
