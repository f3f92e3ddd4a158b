"""The whitespace list embedded in chunk-ranges.js is Python's own `str.isspace()` set."""

import re
import sys


def test_embedded_whitespace_is_this_pythons_isspace(chunk_ranges_node):
    python_whitespace = [c for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert chunk_ranges_node.ask({"op": "whitespace"}) == python_whitespace


def test_re_backslash_s_splits_on_the_same_set_as_isspace():
    # The reference splits with re's \S+; the list is taken from isspace(). Same set in Python.
    matched = [c for c in range(sys.maxunicode + 1) if re.fullmatch(r"\s", chr(c))]
    assert matched == [c for c in range(sys.maxunicode + 1) if chr(c).isspace()]


def test_words_split_where_python_splits_not_where_javascript_would(chunk_ranges_node):
    # U+FEFF and U+200B are \s-like in JavaScript's eyes (FEFF) or invisible, but not Python
    # whitespace; U+001C..U+001F and U+0085 are Python whitespace but not JavaScript's \s.
    text = "a\ufeffb c\u200bd e\x1cf\x1dg\x1eh\x1fi\x85j\xa0k"
    answer = chunk_ranges_node.ask({"op": "compute", "text": text, "window": 6, "overlap": 2})
    assert [word[2] for word in answer["words"]] == text.split()
    assert [word[2] for word in answer["words"]] == [
        "a\ufeffb", "c\u200bd", "e", "f", "g", "h", "i", "j", "k",
    ]
