"""Inputs shared by the rag-00b tests: the lesson's worked examples and seeded text generators.

Loaded by runner.core.bundle with `reference` (this lesson's solution.py) already defined. Everything
here runs in the trusted grading process.
"""

EXAMPLE_TEXT = "café \U0001F642"  # 6 code points, 10 UTF-8 bytes, 7 UTF-16 units
FLAG_TEXT = "e\u0301 \U0001F1F3\U0001F1F1"  # é as e + combining acute, a space, the Dutch flag

# One code point on each side of every edge the lesson names: the UTF-8 widths (U+0080, U+0800,
# U+10000), the surrogate block (U+D800-U+DFFF) and the last code point.
EDGE_CHARS = ["\x00", "\x7f", "\x80", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\uffff",
              "\U00010000", "\U0010ffff"]
EDGE_WIDTHS = [1, 1, 2, 2, 3, 3, 3, 3, 4, 4]

# What a reader sees as one character, built from several code points.
CLUSTERS = [
    "e\u0301",  # é: e + combining acute accent
    "\U0001F1F3\U0001F1F1",  # the Dutch flag: two regional indicators
    "\U0001F44D\U0001F3FD",  # thumbs up with a skin tone
    "\U0001F469\u200d\U0001F4BB",  # woman technologist: woman + zero-width joiner + laptop
    "\u0915\u094d\u0937",  # a Devanagari conjunct
]

# Pieces for random texts: every UTF-8 width, the edges, clusters and plain ASCII.
PIECES = ["a", "Z", " ", "\n", "é", "ß", "Ω", "€", "漢", "\u200b", "\ufeff", "\U0001F642", "𝔘",
          *EDGE_CHARS, *CLUSTERS]

SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]


def random_text(rng, max_pieces=12):
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, max_pieces)))


def byte_boundaries(text):
    """Every valid byte boundary of text, from 0 to the total byte count."""
    return [0] + [end for _, _, end in reference.utf8_offsets(text)]


def inner_bytes(text):
    """Every byte offset that lies inside a code point (not a boundary)."""
    return [position for _, start, end in reference.utf8_offsets(text) for position in range(start + 1, end)]
