"""Which part of main.py a checkpoint's verdict depends on, as a short fingerprint.

A checkpoint grades one function (its id). Its verdict depends on that function's own source and
on every module-level definition the function reaches: helpers it calls, constants and classes it
uses, the imports that bind the names it uses, and what those reach in turn. Nothing else: another
checkpoint's function, an example appended below, blank lines and comments between definitions do
not change it. The page keeps a pass while this fingerprint is the one the pass was made with
(site/src/code-fingerprints.js), the index page and both exports the same; the builder computes it
for a lesson's starter code (builder/lesson_progress.py).

Standard library only: it ships to the browser (Pyodide) and runs in CPython for the builder, so
it hashes source text, never `ast.dump` (whose output differs between Python versions).
"""

from __future__ import annotations

import ast
import hashlib
import symtable
from collections.abc import Iterable, Iterator

# Bumped when what a fingerprint covers changes: results of older fingerprints then need a re-check.
FINGERPRINT_VERSION = "f1"
# Code that does not parse: no checkpoint could pass on it, and no part of it can be told apart.
UNPARSABLE = "unparsable"


def present(nodes: list[ast.expr | None]) -> list[ast.expr]:
    """A keyword-only argument without a default is None in `kw_defaults`."""
    return [node for node in nodes if node is not None]


def _scoped(node: ast.AST) -> bool:
    """Nodes whose body is a scope of its own: names bound inside do not bind at module level."""
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
                             ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))


def _module_level_nodes(statement: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of a top-level statement that run in module scope (not inside a def, class,
    lambda or comprehension, whose names stay their own), the statement itself included."""
    waiting: list[ast.AST] = [statement]
    while waiting:
        node = waiting.pop()
        yield node
        if node is not statement and _scoped(node):
            continue
        if node is statement and _scoped(node):
            # A def's decorators, defaults and bases run at module level; its body does not.
            if isinstance(node, ast.ClassDef):
                waiting.extend([*node.decorator_list, *node.bases, *node.keywords])
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                waiting.extend([*node.decorator_list, *node.args.defaults, *present(node.args.kw_defaults)])
            continue
        waiting.extend(ast.iter_child_nodes(node))


def bound_names(statement: ast.stmt) -> set[str]:
    """Module-level names a top-level statement binds ("*" for `from x import *`)."""
    names: set[str] = set()
    for node in _module_level_nodes(statement):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return names


def _module_scope_uses(statement: ast.stmt) -> set[str]:
    """Names a top-level statement reads in module scope itself: all of it, except the bodies of
    functions, lambdas and classes (symtable tells what those use). Comprehensions count as
    module scope (Python 3.12 inlines them): at worst a name too many, never one too few."""
    names: set[str] = set()
    waiting: list[ast.AST] = [statement]
    while waiting:
        node = waiting.pop()
        if isinstance(node, ast.Name):
            names.add(node.id)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            waiting.extend([*node.decorator_list, *arguments.defaults, *present(arguments.kw_defaults)])
            waiting.extend(arg.annotation for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                                      arguments.vararg, arguments.kwarg] if arg and arg.annotation)
            if node.returns:
                waiting.append(node.returns)
        elif isinstance(node, ast.ClassDef):
            waiting.extend([*node.decorator_list, *node.bases, *node.keywords])
        elif isinstance(node, ast.Lambda):
            waiting.extend([*node.args.defaults, *present(node.args.kw_defaults)])
        else:
            waiting.extend(ast.iter_child_nodes(node))
    return {name for name in names if name is not None}


def _scope_globals(source: str) -> list[tuple[int, set[str]]]:
    """(first line, module-level names it uses) of every function, lambda, class body and
    comprehension scope: symtable resolves what is local there (a parameter `records` is no use
    of a global `records`) and what is global."""
    scopes: list[tuple[int, set[str]]] = []
    waiting = [symtable.symtable(source, "main.py", "exec")]
    while waiting:
        table = waiting.pop()
        for child in table.get_children():
            names = {symbol.get_name() for symbol in child.get_symbols() if symbol.is_global()}
            scopes.append((child.get_lineno(), names))
            waiting.append(child)
    return scopes


def used_names(statement: ast.stmt, scopes: list[tuple[int, set[str]]]) -> set[str]:
    """Every module-level name a statement may read: in module scope and in every scope inside it."""
    names = _module_scope_uses(statement)
    decorators = getattr(statement, "decorator_list", [])
    first = min([statement.lineno, *(decorator.lineno for decorator in decorators)])
    last = statement.end_lineno or statement.lineno
    for line, scope_names in scopes:
        if first <= line <= last:
            names |= scope_names
    return names


def _source_of(lines: list[str], statement: ast.stmt) -> str:
    """The statement's own text, decorators included; trailing spaces and blank lines dropped,
    so whitespace changes that change nothing keep the fingerprint."""
    decorators = getattr(statement, "decorator_list", [])
    first = min([statement.lineno, *(decorator.lineno for decorator in decorators)])
    last = statement.end_lineno or statement.lineno
    if first == last == statement.lineno:
        text: str = lines[first - 1][statement.col_offset:statement.end_col_offset]
        return text.rstrip()
    chunk = lines[first - 1:last]
    if last == statement.end_lineno and statement.end_col_offset is not None:
        chunk[-1] = chunk[-1][:statement.end_col_offset]
    return "\n".join(line.rstrip() for line in chunk if line.strip())


def _digest(parts: Iterable[str]) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode("utf-8", "surrogatepass"))
        hasher.update(b"\x00")
    return hasher.hexdigest()[:20]


def checkpoint_fingerprints(source: str, functions: Iterable[str]) -> dict[str, str]:
    """{function name: fingerprint} of `source` (the learner's main.py) for each function.

    The fingerprint covers the top-level statements that bind the function's name and, in turn,
    every module-level name they use, in source order. A name bound by several statements
    (redefined, or assigned in an `if`) takes all of them; `from x import *` is always included.
    Imports count as a set: the same import line twice, or moved, is the same code.
    """
    wanted = list(functions)
    normalized = source.replace("\r\n", "\n").replace("\r", "\n")
    try:
        tree = ast.parse(normalized)
        # Also what only the compiler refuses (a misplaced `global`): such code does not load.
        scopes = _scope_globals(normalized)
    except (SyntaxError, ValueError):
        whole = _digest([FINGERPRINT_VERSION, UNPARSABLE, normalized])
        return {name: f"{FINGERPRINT_VERSION}:{UNPARSABLE}:{whole}" for name in wanted}
    lines = normalized.split("\n")
    statements = tree.body
    binders: dict[str, list[int]] = {}
    always: set[int] = set()
    for index, statement in enumerate(statements):
        for name in bound_names(statement):
            if name == "*":
                always.add(index)
            else:
                binders.setdefault(name, []).append(index)
    uses = [used_names(statement, scopes) for statement in statements]
    texts = [_source_of(lines, statement) for statement in statements]

    result = {}
    for function in wanted:
        included = set(always)
        waiting = [function, *(name for index in always for name in uses[index])]
        seen = set()
        while waiting:
            name = waiting.pop()
            if name in seen:
                continue
            seen.add(name)
            for index in binders.get(name, ()):
                if index not in included:
                    included.add(index)
                    waiting.extend(uses[index])
        # An import counts once, wherever it stands: an example below that imports hashlib again
        # binds the same module (the texts, sorted, so their place does not matter).
        imports = sorted({texts[index] for index in included if isinstance(statements[index], (ast.Import, ast.ImportFrom))})
        others = [texts[index] for index in sorted(included)
                  if not isinstance(statements[index], (ast.Import, ast.ImportFrom))]
        parts = [FINGERPRINT_VERSION, function, *imports, "", *others]
        result[function] = f"{FINGERPRINT_VERSION}:{_digest(parts)}"
    return result
