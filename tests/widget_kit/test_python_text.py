"""site/src/python-text.js, in Node, against the running Python: the whitespace of str.isspace(),
the words of str.split() with Python's code-point offsets (astral characters, lone surrogates,
the separators JavaScript's \\s disagrees on), strip(), fixed word windows and int fields. Every
widget that redraws Python's text in JavaScript gets this kit as context.pythonText."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from tests.node_bridge import node_fixture

kit = node_fixture(Path(__file__).resolve().parent / "python_text_ops.mjs")

PYTHON_WHITESPACE = [c for c in range(sys.maxunicode + 1) if chr(c).isspace()]
# Characters JavaScript's \s and Python's isspace() disagree on, astral ones, a combining mark.
ALPHABET = ["a", "é", " ", "\t", "\n", "\x0b", "\x1c", "\x1f", "\x85", "\xa0", "\u2028", "\u3000",
            "\ufeff", "\u200b", "\u180e", "\U0001F642", "\u0301", "7"]


def random_text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(length))


def test_the_whitespace_table_is_this_pythons_isspace(kit):
    assert kit.ask(op="whitespace") == PYTHON_WHITESPACE


def test_re_backslash_s_splits_on_the_same_set_as_isspace():
    # Lessons split with str.split() or re's \S+; the table is taken from isspace(). Same set.
    assert [c for c in range(sys.maxunicode + 1) if re.fullmatch(r"\s", chr(c))] == PYTHON_WHITESPACE


def test_words_are_str_split_with_python_offsets(kit):
    for seed in range(200):
        text = random_text(random.Random(seed), random.Random(seed).randint(0, 40))
        answer = kit.ask(op="split", text=text)
        expected = [[index, match.start(), match.end(), match.group()] for index, match in enumerate(re.finditer(r"\S+", text))]
        assert answer["words"] == expected, text
        assert [word[3] for word in answer["words"]] == text.split()
        assert answer["length"] == len(text) and answer["loneSurrogateAt"] == -1 and answer["sliced"]


def test_a_lone_surrogate_is_one_code_point_and_is_found(kit):
    answer = kit.ask(op="split", text="ab \udc00x \U0001F642\ud800")
    assert answer["words"] == [[0, 0, 2, "ab"], [1, 3, 5, "\udc00x"], [2, 6, 8, "\U0001F642\ud800"]]
    assert answer["length"] == 8 and answer["loneSurrogateAt"] == 3


def test_spans_and_strip_of_a_slice_are_pythons(kit):
    rng = random.Random(7)
    for _ in range(200):
        text = random_text(rng, rng.randint(0, 30))
        start = rng.randint(0, len(text))
        end = rng.randint(start, len(text))
        answer = kit.ask(op="spans", text=text, start=start, end=end)
        piece = text[start:end]
        assert answer["spans"] == [[start + m.start(), start + m.end()] for m in re.finditer(r"\S+", piece)], (text, start, end)
        stripped = piece.strip()
        first = start + (len(piece) - len(piece.lstrip()))
        assert answer["stripped"] == ([first, first + len(stripped)] if stripped else [answer["stripped"][0]] * 2)
        assert text[answer["stripped"][0]:answer["stripped"][1]] == stripped
        assert answer["length"] == len(text)


def python_windows(count: int, size: int, overlap: int) -> list[list[int]]:
    windows, first = [], 0
    while count:
        last = min(first + size, count)
        windows.append([first, last])
        if last == count:
            break
        first += size - overlap
    return windows


def test_word_windows_step_by_size_minus_overlap_and_stop_at_the_end(kit):
    assert kit.ask(op="windows", count=14, size=6, overlap=2) == [[0, 6], [4, 10], [8, 14]]
    assert kit.ask(op="windows", count=0, size=3, overlap=1) == []
    assert kit.ask(op="windows", count=2, size=5, overlap=4) == [[0, 2]]
    for count in range(0, 12):
        for size in range(1, 6):
            for overlap in range(size):
                assert kit.ask(op="windows", count=count, size=size, overlap=overlap) == python_windows(count, size, overlap)


def test_only_an_integer_literal_is_an_int(kit):
    texts = ["6", " 12 ", "007", "-3", "6.5", "6.0", "1e2", "", " ", "+4", "1_000", "٣", "0x10", "- 3", "\u00a05"]
    answer = kit.ask(op="integer", texts=texts)
    assert dict(zip(texts, answer)) == {
        "6": [6, 6], " 12 ": [12, 12], "007": [7, 7], "-3": [-3, None], "6.5": [None, None],
        "6.0": [None, None], "1e2": [None, None], "": [None, None], " ": [None, None], "+4": [None, None],
        "1_000": [None, None], "٣": [None, None], "0x10": [None, None], "- 3": [None, None], "\u00a05": [5, 5],
    }
