"""Near-identical submissions, and submissions that are (nearly) the untouched starter.

The method is MOSS's (Schleimer, Wilkerson, Aiken, "Winnowing", SIGMOD 2003) on Python tokens:

1. normalise: `tokenize` the code, drop comments and blank lines, replace every name the learner
   chose (variables, functions, parameters; not keywords, builtins or attribute names) by one
   placeholder, every string by another, so renaming and re-laying-out change nothing;
2. fingerprint: hash every run of K tokens and keep the smallest hash of each window of W
   (winnowing), with the source line it starts on;
3. leave out fingerprints of the starter (everyone has those) and those that more than half the
   class shares (the lesson's idioms), then compare pairs of learners by the share of their
   remaining fingerprints they have in common.

A pair is a prompt to look, never a verdict: short tasks have few ways to write them. The shared
part shown is what `difflib` finds common in the two normalised line sequences.

copydetect (PyPI) does the same but was last released in 2024 and pulls in numpy, pygments and
jinja2 for its own HTML; ~150 lines of standard library keep the report self-contained.
"""

from __future__ import annotations

import builtins
import difflib
import io
import keyword
import token
import tokenize
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass

K = 10  # tokens per fingerprinted run: a line or two of code
W = 6  # winnowing window: any shared run of W + K - 1 tokens is always found
MIN_SHARED = 8  # fingerprints in common before a pair is worth a look
SIMILAR_SHARE = 0.8  # of the smaller submission's own fingerprints
NOT_STARTED_NEW_SHARE = 0.1  # at most this share of a submission's fingerprints may be new
MIN_SHARED_LINES = 3  # shortest common stretch shown

KEPT_NAMES = frozenset(dir(builtins)) | {"self", "cls"}
DROPPED = {token.COMMENT, token.NL, token.ENCODING, token.ENDMARKER, tokenize.TYPE_COMMENT}


@dataclass(frozen=True)
class NormalCode:
    tokens: tuple[str, ...]
    token_lines: tuple[int, ...]  # source line of each token
    lines: dict[int, str]  # source line -> its normalised tokens joined (for difflib)

    @property
    def empty(self) -> bool:
        return not self.tokens


def normalise(code: str) -> NormalCode:
    """Tokens with the learner's own names and strings replaced; empty when code does not tokenize."""
    tokens: list[str] = []
    lines: list[int] = []
    previous = ""
    try:
        for item in tokenize.generate_tokens(io.StringIO(code).readline):
            if item.type in DROPPED:
                continue
            text = item.string
            if item.type == token.NAME and not keyword.iskeyword(text) and not keyword.issoftkeyword(text):
                if previous != "." and text not in KEPT_NAMES:
                    text = "N"
            elif item.type == token.STRING or item.type in _FSTRING_TYPES:
                text = "S"
            elif item.type == token.NEWLINE:
                text = ";"
            elif item.type == token.INDENT:
                text = ">"
            elif item.type == token.DEDENT:
                text = "<"
            tokens.append(text)
            lines.append(item.start[0])
            previous = item.string
    except (tokenize.TokenError, IndentationError, SyntaxError, ValueError):
        return NormalCode((), (), {})
    by_line: dict[int, list[str]] = defaultdict(list)
    for text, line in zip(tokens, lines):
        if text not in (";", ">", "<"):
            by_line[line].append(text)
    return NormalCode(tuple(tokens), tuple(lines), {line: " ".join(parts) for line, parts in by_line.items()})


_FSTRING_TYPES = {getattr(token, name) for name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
                  if hasattr(token, name)}


def fingerprints(code: NormalCode) -> dict[int, int]:
    """Winnowed fingerprint -> the first source line it covers."""
    runs = [(zlib.crc32(" ".join(code.tokens[i:i + K]).encode()), code.token_lines[i])
            for i in range(len(code.tokens) - K + 1)]
    if len(runs) <= W:
        return {value: line for value, line in reversed(runs)}
    chosen: dict[int, int] = {}
    for start in range(len(runs) - W + 1):
        value, line = min(runs[start:start + W], key=lambda run: run[0])
        chosen.setdefault(value, line)
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
    common_limit = max(2, len(prints) // 2)
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
