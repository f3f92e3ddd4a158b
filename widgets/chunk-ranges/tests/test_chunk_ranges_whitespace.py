"""chunk-ranges splits words where Python splits them (the kit site/src/python-text.js, whose table
tests/widget_kit/ holds to Python's own `str.isspace()`), not where JavaScript's \\s would."""


def test_words_split_where_python_splits_not_where_javascript_would(chunk_ranges_node):
    # U+FEFF and U+200B are \s-like in JavaScript's eyes (FEFF) or invisible, but not Python
    # whitespace; U+001C..U+001F and U+0085 are Python whitespace but not JavaScript's \s.
    text = "a\ufeffb c\u200bd e\x1cf\x1dg\x1eh\x1fi\x85j\xa0k"
    answer = chunk_ranges_node.ask({"op": "compute", "text": text, "window": 6, "overlap": 2})
    assert [word[2] for word in answer["words"]] == text.split()
    assert [word[2] for word in answer["words"]] == [
        "a\ufeffb", "c\u200bd", "e", "f", "g", "h", "i", "j", "k",
    ]
