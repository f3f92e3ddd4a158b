"""Which earlier examples an example needs, so "Laad in editor" gives code that runs on its own.

Lesson examples build on each other (`doc` from section 1 is chunked in section 2). Loaded into
the editor alone, a later example would stop at a NameError, so each example carries the earlier
examples that define the names it uses, found by reading the code (never by running it).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Sequence

BUILTIN_NAMES = frozenset(dir(builtins))


def defined_names(tree: ast.Module) -> set[str]:
    """Names an example binds at any level: assignments, imports, defs, loop targets."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
    return names


def used_names(tree: ast.Module) -> set[str]:
    return {
        node.id for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    } - BUILTIN_NAMES


def example_contexts(codes: Sequence[str]) -> list[list[int]]:
    """For each example, the indices (in lesson order) of the earlier examples it depends on.

    A name is taken from the latest earlier example that binds it; dependencies are followed
    transitively. Examples that do not parse depend on nothing (verify_examples reports them).
    """
    parsed: list[tuple[set[str], set[str]] | None] = []
    for code in codes:
        try:
            tree = ast.parse(code)
        except SyntaxError:
            parsed.append(None)
            continue
        parsed.append((defined_names(tree), used_names(tree)))

    def direct_needs(index: int) -> set[int]:
        info = parsed[index]
        if info is None:
            return set()
        defined, used = info
        needs: set[int] = set()
        for name in used:
            # A name the example binds itself before use needs nothing earlier; an example
            # that both reads and rebinds a name (`x = x + 1`) still takes the earlier one.
            providers = [
                earlier for earlier in range(index)
                if parsed[earlier] is not None and name in parsed[earlier][0]
            ]
            if providers and (name not in defined or rebinds_after_use(codes[index], name)):
                needs.add(providers[-1])
        return needs

    contexts: list[list[int]] = []
    for index in range(len(codes)):
        seen: set[int] = set()
        pending = list(direct_needs(index))
        while pending:
            needed = pending.pop()
            if needed not in seen:
                seen.add(needed)
                pending.extend(direct_needs(needed))
        contexts.append(sorted(seen))
    return contexts


def rebinds_after_use(code: str, name: str) -> bool:
    """True when `name` is read on or before the line where the example first binds it.

    Lines, not columns: in `count = count + 1` the read comes first although it stands right
    of the target.
    """
    tree = ast.parse(code)
    first_load = min(node.lineno for node in ast.walk(tree)
                     if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load))
    bindings = [node.lineno for node in ast.walk(tree)
                if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)]
    bindings += [node.lineno for node in ast.walk(tree)
                 if isinstance(node, (ast.Import, ast.ImportFrom))
                 and any((alias.asname or alias.name).split(".")[0] == name for alias in node.names)]
    return not bindings or first_load <= min(bindings)
