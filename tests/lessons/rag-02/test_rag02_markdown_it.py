"""rag-02: markdown_headings agrees with markdown-it-py (CommonMark) on the documented subset.

CPython only: markdown-it-py is a dependency of the builder, not part of Pyodide, so this property
runs here instead of in the shipped or offline tests. The subset (no setext underlines, lists,
block quotes, HTML, backslashes, Unicode whitespace at a title's edges or lone \\r) is what
`random_markdown(rng, n, safe=True)` of the lesson's tests/_shared.py generates; on it the
reference's headings must be exactly the top-level headings markdown-it-py finds, by level, title
and line.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest
from markdown_it import MarkdownIt

LESSON = Path(__file__).resolve().parents[3] / "checkpoints" / "rag-02"
SEEDS = range(1500)


def _module(path: Path, name: str, **injected: object) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(injected)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reference() -> ModuleType:
    return _module(LESSON / "solution.py", "rag02_solution")


@pytest.fixture(scope="module")
def shared(reference: ModuleType) -> ModuleType:
    return _module(LESSON / "tests" / "_shared.py", "rag02_shared", reference=reference)


def commonmark_headings(text: str) -> list[tuple[int, str, int]]:
    tokens = MarkdownIt("commonmark").parse(text)
    return [
        (int(token.tag[1]), tokens[index + 1].content, token.map[0])
        for index, token in enumerate(tokens)
        if token.type == "heading_open" and token.level == 0 and token.map is not None
    ]


def test_generator_reaches_every_kind_of_line(shared: ModuleType) -> None:
    # The property is only worth something if the texts hold fences and the heading edge cases.
    texts = [shared.random_markdown(random.Random(seed), 20, safe=True) for seed in range(200)]
    joined = "\n".join(texts)
    for piece in ("```", "~~~", "####### ", "    #", " ###", "\t##\t", "```a`b", "~~~~"):
        assert piece in joined, piece


def test_markdown_headings_agrees_with_markdown_it(reference: ModuleType, shared: ModuleType) -> None:
    disagreements = []
    for seed in SEEDS:
        rng = random.Random(seed)
        text = shared.random_markdown(rng, rng.randint(1, 25), safe=True)
        ours = [(h["level"], h["title"], h["line"]) for h in reference.markdown_headings(text)]
        if ours != commonmark_headings(text):
            disagreements.append(seed)
    assert disagreements == []


@pytest.mark.parametrize("text", [
    "# a\n```python\n# geen kopje\n```\n# b",
    "## Storingen ##\n# C#\n### ### ###\n#\n# #",
    "    # vier spaties\n   # drie spaties\n####### zeven\n#5",
    "~~~~\n~~~\n# code\n~~~~~\n# wel",
    "``` a`b\n# wel\n~~~ a`b\n# code",
    "# a\r\n```\r\n# code\r\n```\r\n## b ##\r\n",
])
def test_lesson_traps_agree_with_markdown_it(reference: ModuleType, text: str) -> None:
    ours = [(h["level"], h["title"], h["line"]) for h in reference.markdown_headings(text)]
    assert ours == commonmark_headings(text)
