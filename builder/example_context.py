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
    trees: list[ast.Module | None] = []
    for code in codes:
        try:
            trees.append(ast.parse(code))
        except SyntaxError:
            trees.append(None)
    bound = [defined_names(tree) if tree else set() for tree in trees]

    contexts: list[list[int]] = []
    for index, tree in enumerate(trees):
        needs: set[int] = set()
        for name in used_names(tree) if tree else ():
            providers = [earlier for earlier in range(index) if name in bound[earlier]]
            # A name the example binds itself before use needs nothing earlier; an example
            # that both reads and rebinds a name (`x = x + 1`) still takes the earlier one.
            if providers and (name not in bound[index] or (tree is not None and rebinds_after_use(tree, name))):
                provider = providers[-1]
                # Earlier contexts are complete already, so the closure is one union.
                needs.add(provider)
                needs.update(contexts[provider])
        contexts.append(sorted(needs))
    return contexts


def rebinds_after_use(tree: ast.Module, name: str) -> bool:
    """True when `name` is read on or before the line where the example first binds it.

    Lines, not columns: in `count = count + 1` the read comes first although it stands right
    of the target.
    """
    first_load = min(node.lineno for node in ast.walk(tree)
                     if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load))
    bindings = [node.lineno for node in ast.walk(tree)
                if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)]
    bindings += [node.lineno for node in ast.walk(tree)
                 if isinstance(node, (ast.Import, ast.ImportFrom))
                 and any((alias.asname or alias.name).split(".")[0] == name for alias in node.names)]
    return not bindings or first_load <= min(bindings)
