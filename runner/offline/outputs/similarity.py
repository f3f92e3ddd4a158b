"""Near-identical submissions, and submissions that are (nearly) the untouched starter.

The method is MOSS's (Schleimer, Wilkerson, Aiken, "Winnowing", SIGMOD 2003) on Python tokens,
with Manber's simpler selection of fingerprints:

1. normalise: split the code into tokens, drop comments, indentation and line ends inside
   brackets, replace every name the learner chose (variables, functions, parameters; not
   keywords, builtins or attribute names) by one placeholder, every string by another, so
   renaming and re-laying-out change nothing;
2. fingerprint: hash every run of K tokens and keep the hashes that are 0 modulo SELECT, with the
   source line each starts on (which runs are kept depends on their content alone, so two copies
   keep the same ones wherever the shared part sits);
3. leave out fingerprints of the starter (everyone has those) and those that more than
   COMMON_LIMIT submissions (or more than half the class) share: the lesson's idioms, as MOSS
   ignores passages found in more than 10 programs; then compare pairs of learners by the share
   of their remaining fingerprints they have in common.

A pair is a prompt to look, never a verdict: short tasks have few ways to write them. The shared
part shown is what `difflib` finds common in the two normalised line sequences.

copydetect (PyPI) does the same but was last released in 2024 and pulls in numpy, pygments and
jinja2 for its own HTML; ~150 lines of standard library keep the report self-contained.
"""

from __future__ import annotations

import builtins
import difflib
import functools
import keyword
import re
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass

K = 10  # tokens per fingerprinted run: a line or two of code
SELECT = 4  # about one run in four is kept as a fingerprint
MIN_SHARED = 8  # fingerprints in common before a pair is worth a look
SIMILAR_SHARE = 0.8  # of the smaller submission's own fingerprints
NOT_STARTED_NEW_SHARE = 0.1  # at most this share of a submission's fingerprints may be new
MIN_SHARED_LINES = 3  # shortest common stretch shown
COMMON_LIMIT = 10  # a fingerprint more submissions share is an idiom, not a copy (MOSS's -m 10)

KEPT_NAMES = frozenset(dir(builtins)) | {"self", "cls"}

# Python's own tokenize is exact but many times slower than one regular expression, and a report
# of a thousand submissions reads each once. What matters here is only which tokens follow which:
# strings (with prefixes, triple-quoted, unterminated at the end), comments, names, numbers,
# operators, and line ends outside brackets. Indentation is layout and left out.
TOKEN = re.compile(r"""
    (?P<string>[rRbBuUfF]{0,2}(?:'''[\s\S]*?(?:'''|\Z)|\"\"\"[\s\S]*?(?:\"\"\"|\Z)
                                 |'(?:\\.|[^'\\\n])*'?|"(?:\\.|[^"\\\n])*"?))
  | (?P<comment>\#[^\n]*)
  | (?P<name>[^\W\d]\w*)
  | (?P<number>\d[\w.]*|\.\d\w*)
  | (?P<newline>\n)
  | (?P<continuation>\\\n)
  | (?P<space>[ \t\f\r]+)
  | (?P<operator>\*\*=?|//=?|>>=?|<<=?|->|:=|[-+*/%@&|^=<>!]=|[()\[\]{},:;.~+\-*/%@&|^=<>!])
  | (?P<other>.)
""", re.VERBOSE)
OPENING, CLOSING = "([{", ")]}"


@dataclass(frozen=True)
class NormalCode:
    tokens: tuple[str, ...]
    token_lines: tuple[int, ...]  # source line of each token
    lines: dict[int, str]  # source line -> its normalised tokens joined (for difflib)

    @property
    def empty(self) -> bool:
        return not self.tokens


@functools.lru_cache(maxsize=4096)  # the report asks for the same code twice (not started, similar)
def normalise(code: str) -> NormalCode:
    """Tokens with the learner's own names and strings replaced, ";" for a line end."""
    tokens: list[str] = []
    lines: list[int] = []
    line = 1
    depth = 0  # open brackets: a line end inside them is layout
    previous = ""
    for found in TOKEN.finditer(code):
        kind = found.lastgroup
        text = found.group()
        if kind == "newline" or kind == "continuation":
            if kind == "newline" and depth == 0 and tokens and tokens[-1] != ";":
                tokens.append(";")
                lines.append(line)
            line += 1
            continue
        if kind == "space" or kind == "comment":
            continue
        if kind == "string":
            if not (tokens and tokens[-1] == "S"):  # "a" "b" is one string
                tokens.append("S")
                lines.append(line)
            line += text.count("\n")
            previous = "S"
            continue
        if kind == "name":
            if previous != "." and text not in KEPT_NAMES and not keyword.iskeyword(text) \
                    and not keyword.issoftkeyword(text):
                text = "N"
        elif kind == "operator":
            if text in OPENING:
                depth += 1
            elif text in CLOSING:
                depth = max(0, depth - 1)
        tokens.append(text)
        lines.append(line)
        previous = found.group()
    by_line: dict[int, list[str]] = defaultdict(list)
    for text, number in zip(tokens, lines):
        if text != ";":
            by_line[number].append(text)
    return NormalCode(tuple(tokens), tuple(lines), {number: " ".join(parts) for number, parts in by_line.items()})


def fingerprints(code: NormalCode) -> dict[int, int]:
    """Fingerprint -> the first source line it covers."""
    chosen: dict[int, int] = {}
    tokens, token_lines = code.tokens, code.token_lines
    for start in range(len(tokens) - K + 1):
        value = zlib.crc32(" ".join(tokens[start:start + K]).encode())
        if value % SELECT == 0:
            chosen.setdefault(value, token_lines[start])
    return chosen


@dataclass(frozen=True)
class SharedStretch:
    first_lines: tuple[int, int]  # first and last line, in the first submission
    second_lines: tuple[int, int]


@dataclass(frozen=True)
class SimilarPair:
    first: str  # submission keys (paths), first < second
    second: str
    share: float  # of the smaller one's own fingerprints
    shared: int
    stretches: tuple[SharedStretch, ...]


def similar_pairs(codes: dict[str, str], starter: str | None = None) -> list[SimilarPair]:
    """Pairs of submissions (key -> code; one per learner) whose own code is near-identical."""
    starter_prints = set(fingerprints(normalise(starter))) if starter else set()
    normal = {key: normalise(code) for key, code in codes.items()}
    prints = {key: set(fingerprints(value)) - starter_prints for key, value in normal.items()}
    holders: dict[int, list[str]] = defaultdict(list)
    for key in sorted(prints):
        for value in prints[key]:
            holders[value].append(key)
    common_limit = max(2, min(COMMON_LIMIT, len(prints) // 2))
    pair_counts: Counter = Counter()
    own: dict[str, int] = Counter()
    for value, keys in holders.items():
        if len(keys) > common_limit:
            continue  # the lesson's idiom, not a copy
        for key in keys:
            own[key] += 1
        for index, first in enumerate(keys):
            for second in keys[index + 1:]:
                pair_counts[(first, second)] += 1
    pairs = []
    for (first, second), shared in pair_counts.items():
        smaller = min(own[first], own[second])
        if shared < MIN_SHARED or not smaller:
            continue
        share = shared / smaller
        if share >= SIMILAR_SHARE:
            pairs.append(SimilarPair(first, second, share, shared, shared_stretches(normal[first], normal[second])))
    return sorted(pairs, key=lambda pair: (-pair.share, pair.first, pair.second))


def shared_stretches(first: NormalCode, second: NormalCode) -> tuple[SharedStretch, ...]:
    """Runs of at least MIN_SHARED_LINES lines that read the same once normalised."""
    first_numbers, second_numbers = sorted(first.lines), sorted(second.lines)
    matcher = difflib.SequenceMatcher(None, [first.lines[n] for n in first_numbers],
                                      [second.lines[n] for n in second_numbers], autojunk=False)
    found = []
    for block in matcher.get_matching_blocks():
        if block.size >= MIN_SHARED_LINES:
            found.append(SharedStretch(
                (first_numbers[block.a], first_numbers[block.a + block.size - 1]),
                (second_numbers[block.b], second_numbers[block.b + block.size - 1]),
            ))
    return tuple(found)


def not_started(code: str, starter: str) -> bool:
    """The starter, untouched or nearly so: at most a tenth of the code's fingerprints are new
    (comments, layout and renamed parameters do not count as new)."""
    own = normalise(code)
    base = normalise(starter)
    if own.tokens == base.tokens:
        return True
    prints = set(fingerprints(own))
    if not prints:
        return len(own.tokens) <= len(base.tokens)
    new = prints - set(fingerprints(base))
    return len(new) <= NOT_STARTED_NEW_SHARE * len(prints)
