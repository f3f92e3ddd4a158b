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
part shown is the runs of normalised lines the two have in common, found left to right in time
linear in their length (difflib's longest-match search is quadratic: two near-identical files of
256 KiB kept it busy for minutes).

Every submission is hostile: any `str` is accepted (a JSON export's code may hold lone
surrogates), the work per pair is bounded (`MAX_STRETCH_LINES`, `MAX_CANDIDATES`), and a
submission or pair that fails anyway is left out and named in a problem line (`find_similar`),
never stopping the report.

copydetect (PyPI) does the same but was last released in 2024 and pulls in numpy, pygments and
jinja2 for its own HTML; ~150 lines of standard library keep the report self-contained.
"""

from __future__ import annotations

import bisect
import builtins
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
# Honest solutions are a few KiB; a file up to the 256 KiB submission limit is compared by its
# start only, so the check's time per submission stays small however large the class's files are.
MAX_COMPARED_CHARS = 64 * 1024
# Bounds on showing the shared stretches of a pair: honest solutions are a few hundred lines.
MAX_STRETCH_LINES = 5000  # lines of each submission compared (the rest is not shown as shared)
MAX_CANDIDATES = 16  # places in the other submission tried per line

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
    """Tokens with the learner's own names and strings replaced, ";" for a line end (of the first
    MAX_COMPARED_CHARS characters)."""
    code = code[:MAX_COMPARED_CHARS]
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
        # surrogatepass: a JSON export's code may hold lone surrogates (legal JSON).
        value = zlib.crc32(" ".join(tokens[start:start + K]).encode("utf-8", "surrogatepass"))
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
    return find_similar(codes, starter)[0]


def find_similar(codes: dict[str, str], starter: str | None = None) -> tuple[list[SimilarPair], list[str]]:
    """`similar_pairs`, and one line per submission or pair the check had to leave out (it never
    raises for what a submission holds)."""
    problems: list[str] = []
    try:
        starter_prints = set(fingerprints(normalise(starter))) if starter else set()
    except Exception as error:
        starter_prints = set()
        problems.append(f"similarity check: the starter could not be read ({type(error).__name__})")
    normal: dict[str, NormalCode] = {}
    prints: dict[str, set[int]] = {}
    for key, code in codes.items():
        try:
            normal[key] = normalise(code)
            prints[key] = set(fingerprints(normal[key])) - starter_prints
        except Exception as error:
            problems.append(f"similarity check left out {key}: {type(error).__name__}")
    holders: dict[int, list[str]] = defaultdict(list)
    for key in sorted(prints):
        for value in prints[key]:
            holders[value].append(key)
    common_limit = max(2, min(COMMON_LIMIT, len(prints) // 2))
    pair_counts: Counter = Counter()
    own: dict[str, int] = Counter()
    for keys in holders.values():
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
            try:
                stretches = shared_stretches(normal[first], normal[second])
            except Exception as error:
                stretches = ()
                problems.append(f"similarity check could not show the shared lines of {first} and {second}: "
                                f"{type(error).__name__}")
            pairs.append(SimilarPair(first, second, share, shared, stretches))
    return sorted(pairs, key=lambda pair: (-pair.share, pair.first, pair.second)), problems


def shared_stretches(first: NormalCode, second: NormalCode) -> tuple[SharedStretch, ...]:
    """Runs of at least MIN_SHARED_LINES lines that read the same once normalised, in order."""
    first_numbers = sorted(first.lines)[:MAX_STRETCH_LINES]
    second_numbers = sorted(second.lines)[:MAX_STRETCH_LINES]
    found = []
    for start_a, start_b, size in common_runs([first.lines[n] for n in first_numbers],
                                              [second.lines[n] for n in second_numbers]):
        found.append(SharedStretch(
            (first_numbers[start_a], first_numbers[start_a + size - 1]),
            (second_numbers[start_b], second_numbers[start_b + size - 1]),
        ))
    return tuple(found)


def common_runs(a: list[str], b: list[str], shortest: int = MIN_SHARED_LINES) -> list[tuple[int, int, int]]:
    """(start in a, start in b, length) of runs of equal lines, at least `shortest` long, both
    starts increasing. Left to right: at each line of a, the longest run from one of the first
    MAX_CANDIDATES equal lines of b after the previous run; a run taken is skipped whole. Each
    extension either stays below `shortest` or is skipped afterwards, so the work is
    O((len(a) + len(b)) * MAX_CANDIDATES) however the lines repeat."""
    where: dict[str, list[int]] = defaultdict(list)
    for index, line in enumerate(b):
        where[line].append(index)
    runs = []
    i = lowest_b = 0
    while i < len(a):
        places = where.get(a[i], ())
        start = bisect.bisect_left(places, lowest_b)
        best_size = best_j = 0
        for j in places[start:start + MAX_CANDIDATES]:
            size = 0
            while i + size < len(a) and j + size < len(b) and a[i + size] == b[j + size]:
                size += 1
            if size > best_size:
                best_size, best_j = size, j
        if best_size >= shortest:
            runs.append((i, best_j, best_size))
            i += best_size
            lowest_b = best_j + best_size
        else:
            i += 1
    return runs


def not_started(code: str, starter: str) -> bool:
    """The starter, untouched or nearly so: at most a tenth of the code's fingerprints are new
    (comments, layout and renamed parameters do not count as new)."""
    try:
        own = normalise(code)
        base = normalise(starter)
        if own.tokens == base.tokens:
            return True
        prints = set(fingerprints(own))
        if not prints:
            return len(own.tokens) <= len(base.tokens)
        new = prints - set(fingerprints(base))
    except Exception:
        return False
    return len(new) <= NOT_STARTED_NEW_SHARE * len(prints)
