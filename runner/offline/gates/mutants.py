"""Wrong solutions made mechanically from a lesson's solution.py: the mistakes a learner makes.

Each `Mutant` is the reference with one small change, made on the `ast` and written back into the
source text at the changed node only (comments and layout elsewhere stay, so its diff is one hunk):
comparison and boundary changes, a constant one up or down, `and`/`or`, a condition dropped from a
compound test, a guard or `raise` removed, `type(x) is T` vs `isinstance`, slice and `range` bounds,
a changed or dropped default argument, a dict key or set element dropped, a key read from the
wrong field, an early `return`/`break`. `runner.offline.gates.mutate` grades them.

A mutant's `key` names the change by where it is and what it does, not by line number, so the
reviewed list of equivalent mutants survives edits elsewhere in the reference.
"""

from __future__ import annotations

import ast
import copy
import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass

# Comparison operators a learner confuses, each with the ones it becomes.
COMPARE_SWAPS: dict[type, tuple[type, ...]] = {
    ast.Lt: (ast.LtE,), ast.LtE: (ast.Lt,), ast.Gt: (ast.GtE,), ast.GtE: (ast.Gt,),
    ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,), ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,), ast.NotIn: (ast.In,),
}
BINARY_SWAPS: dict[type, tuple[type, ...]] = {
    ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Div: (ast.FloorDiv,), ast.FloorDiv: (ast.Div,),
}
METHOD_SWAPS = {
    "fullmatch": ("match", "search"), "match": ("fullmatch",),
    "strip": ("lstrip", "rstrip"), "lstrip": ("strip",), "rstrip": ("strip",),
}
FUNCTION_SWAPS = {"min": ("max",), "max": ("min",)}
REGEX_FUNCTIONS = {"compile", "fullmatch", "match", "search", "finditer", "findall", "split", "sub"}
# A counted repetition in a regular expression: {m}, {m,} or {m,n}.
REGEX_QUANTIFIER = re.compile(r"\{(\d+)(?:,(\d*))?\}")


@dataclass(frozen=True)
class Mutant:
    key: str  # "<scope>: <what changed>", unique within one solution
    scope: str  # the top-level function or constant the change is in
    operator: str
    line: int
    source: str  # the whole mutated solution

    def diff(self, original: str, name: str = "solution.py") -> str:
        return "".join(difflib.unified_diff(
            original.splitlines(keepends=True), self.source.splitlines(keepends=True),
            fromfile=name, tofile=f"{name} (mutant)", n=1,
        ))


@dataclass(frozen=True)
class _Edit:
    """Replace the text of source lines [first, last] (1-based) between byte columns."""

    first: int
    first_col: int
    last: int
    last_col: int
    text: str
    operator: str
    description: str


def _short(node: ast.AST, limit: int = 90) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _expression_edit(node: ast.expr, replacement: ast.expr, operator: str, description: str | None = None) -> _Edit:
    text = ast.unparse(replacement)
    return _Edit(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, text, operator,
                 description or f"{_short(node)} -> {_short(replacement)}")


def _statement_replaced(statement: ast.stmt, lines: list[bytes], text: str, operator: str, description: str) -> _Edit:
    """The whole statement (all its lines) becomes `text` at the statement's indentation."""
    indent = lines[statement.lineno - 1][: statement.col_offset].decode("utf-8")
    body = "\n".join(indent + line if index else line for index, line in enumerate(text.splitlines()))
    return _Edit(statement.lineno, statement.col_offset, statement.end_lineno, statement.end_col_offset,
                 body, operator, description)


def _statement_inserted_after(statement: ast.stmt, lines: list[bytes], text: str, operator: str, description: str) -> _Edit:
    indent = lines[statement.lineno - 1][: statement.col_offset].decode("utf-8")
    end = statement.end_lineno
    return _Edit(end, statement.end_col_offset, end, statement.end_col_offset, f"\n{indent}{text}", operator, description)


def _changed(node: ast.expr, **fields: object) -> ast.expr:
    replacement = copy.deepcopy(node)
    for name, value in fields.items():
        setattr(replacement, name, value)
    return replacement


def _plus(expression: ast.expr, step: int) -> ast.expr:
    if isinstance(expression, ast.Constant) and type(expression.value) is int:
        return ast.Constant(expression.value + step)
    return ast.BinOp(copy.deepcopy(expression), ast.Add() if step > 0 else ast.Sub(), ast.Constant(abs(step)))


def _is_type_check(node: ast.expr) -> bool:
    """`type(x) is T` (or `is not`)."""
    return (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot))
            and isinstance(node.left, ast.Call) and isinstance(node.left.func, ast.Name)
            and node.left.func.id == "type" and len(node.left.args) == 1)


def _is_isinstance(node: ast.expr) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
            and len(node.args) == 2 and not node.keywords)


def _expression_mutations(node: ast.expr, scope_keys: dict[str, set[str]], context: str) -> Iterator[_Edit]:
    """`context` says where a small node (a constant, a field read) sits, so that its key tells
    it apart from the same text elsewhere in the function."""
    if isinstance(node, ast.Compare):
        for index, op in enumerate(node.ops):
            for swapped in COMPARE_SWAPS.get(type(op), ()):
                ops = list(node.ops)
                ops[index] = swapped()
                yield _expression_edit(node, _changed(node, ops=ops), "compare")
        if len(node.ops) > 1:
            # A chained test is a compound condition: drop its first or its last comparison.
            yield _expression_edit(node, _changed(node, left=node.comparators[0], ops=node.ops[1:],
                                                  comparators=node.comparators[1:]), "drop-condition")
            yield _expression_edit(node, _changed(node, ops=node.ops[:-1], comparators=node.comparators[:-1]),
                                   "drop-condition")
        if _is_type_check(node):
            check = ast.Call(ast.Name("isinstance"), [node.left.args[0], node.comparators[0]], [])
            if isinstance(node.ops[0], ast.IsNot):
                check = ast.UnaryOp(ast.Not(), check)
            yield _expression_edit(node, check, "type-check")
    elif _is_isinstance(node):
        yield _expression_edit(node, ast.Compare(ast.Call(ast.Name("type"), [node.args[0]], []), [ast.Is()],
                                                 [node.args[1]]), "type-check")
    elif isinstance(node, ast.BoolOp):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield _expression_edit(node, _changed(node, op=other), "and-or")
        for index in range(len(node.values)):
            rest = node.values[:index] + node.values[index + 1:]
            kept = rest[0] if len(rest) == 1 else _changed(node, values=rest)
            yield _expression_edit(node, kept, "drop-condition", f"drop {_short(node.values[index])} from {_short(node)}")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield _expression_edit(node, node.operand, "negation")
    elif isinstance(node, ast.BinOp):
        for swapped in BINARY_SWAPS.get(type(node.op), ()):
            yield _expression_edit(node, _changed(node, op=swapped()), "arithmetic")
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        for step in (-1, 1):
            yield _expression_edit(node, ast.Constant(node.value + step), "constant",
                                   f"{context}{node.value} -> {node.value + step}")
    elif isinstance(node, ast.IfExp):
        yield _expression_edit(node, node.body, "drop-condition", f"{_short(node)} -> always {_short(node.body)}")
        yield _expression_edit(node, node.orelse, "drop-condition", f"{_short(node)} -> always {_short(node.orelse)}")
    elif isinstance(node, ast.Slice):
        for bound in ("lower", "upper"):
            value = getattr(node, bound)
            if value is None:
                continue
            # A slice's text has no node of its own to patch when a bound is dropped: patch the value.
            for step in (-1, 1):
                yield _expression_edit(value, _plus(value, step), "slice-bound",
                                       f"slice {bound} {_short(value)} -> {_short(_plus(value, step))}")
    elif isinstance(node, ast.Call):
        yield from _call_mutations(node)
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and type(node.slice.value) is str:
        # A field read from the wrong key of the same object.
        base = ast.unparse(node.value)
        for key in sorted(scope_keys.get(base, set()) - {node.slice.value}):
            replacement = _changed(node, slice=ast.Constant(key))
            yield _expression_edit(node, replacement, "wrong-key", f"{context}{_short(node)} -> {_short(replacement)}")
    elif isinstance(node, ast.Dict) and len(node.keys) > 1 and None not in node.keys:
        for index, key in enumerate(node.keys):
            rest = ast.Dict(node.keys[:index] + node.keys[index + 1:], node.values[:index] + node.values[index + 1:])
            yield _expression_edit(node, rest, "drop-key", f"drop key {_short(key)} from dict")
    elif isinstance(node, ast.Set) and len(node.elts) > 1:
        for index, element in enumerate(node.elts):
            rest = ast.Set(node.elts[:index] + node.elts[index + 1:])
            yield _expression_edit(node, rest, "drop-key", f"drop {_short(element)} from {_short(node)}")


def _call_mutations(node: ast.Call) -> Iterator[_Edit]:
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in METHOD_SWAPS:
        for swapped in METHOD_SWAPS[func.attr]:
            yield _expression_edit(node, _changed(node, func=_changed(func, attr=swapped)), "method")
    if isinstance(func, ast.Name) and func.id in FUNCTION_SWAPS:
        for swapped in FUNCTION_SWAPS[func.id]:
            yield _expression_edit(node, _changed(node, func=ast.Name(swapped)), "function")
    if isinstance(func, ast.Name) and func.id == "range":
        for index, argument in enumerate(node.args):
            for step in (-1, 1):
                if isinstance(argument, ast.Constant):
                    continue  # the constant rule already moves it
                args = list(node.args)
                args[index] = _plus(argument, step)
                yield _expression_edit(node, _changed(node, args=args), "range-bound")
    regex_call = (isinstance(func, ast.Attribute) and func.attr in REGEX_FUNCTIONS
                  and isinstance(func.value, ast.Name) and func.value.id == "re")
    if regex_call and node.args and isinstance(node.args[0], ast.Constant) and type(node.args[0].value) is str:
        pattern = node.args[0]
        for match in REGEX_QUANTIFIER.finditer(pattern.value):
            for group in (1, 2):
                if not match.group(group):
                    continue
                number = int(match.group(group))
                for step in (-1, 1):
                    if number + step < 0:
                        continue
                    start, end = match.span(group)
                    changed = pattern.value[:start] + str(number + step) + pattern.value[end:]
                    yield _expression_edit(pattern, ast.Constant(changed), "regex-count")


def _statement_mutations(statement: ast.stmt, lines: list[bytes]) -> Iterator[_Edit]:
    if isinstance(statement, ast.If) and not statement.orelse and all(isinstance(s, ast.Raise) for s in statement.body):
        yield _statement_replaced(statement, lines, "pass", "drop-guard", f"remove guard `if {_short(statement.test)}: raise`")
    elif isinstance(statement, ast.Raise):
        yield _statement_replaced(statement, lines, "pass", "drop-guard", f"remove {_short(statement)}")
    elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        yield _statement_replaced(statement, lines, "pass", "drop-call", f"remove {_short(statement)}")
    elif isinstance(statement, ast.AugAssign):
        plain = ast.Assign([statement.target], statement.value, lineno=0)
        yield _statement_replaced(statement, lines, ast.unparse(plain), "accumulate", f"{_short(statement)} -> {_short(plain)}")
    elif isinstance(statement, (ast.For, ast.While)):
        yield _statement_inserted_after(statement.body[-1], lines, "break", "early-exit",
                                        f"break at the end of the loop `{_loop_header(statement)}`")
    elif isinstance(statement, ast.FunctionDef):
        defaults = statement.args.defaults
        # Dropping the first defaults keeps the signature valid (no default before a non-default).
        for dropped in range(1, len(defaults) + 1):
            edit = _defaults_dropped(statement, lines, dropped)
            if edit is not None:
                yield edit


def _defaults_dropped(function: ast.FunctionDef, lines: list[bytes], dropped: int) -> _Edit | None:
    """`def f(a, b=1, c=2)` -> `def f(a, b=1, c)` is invalid; so drop the first `dropped` defaults."""
    args = function.args
    positional = args.posonlyargs + args.args
    # Only a one-line signature of plain positional parameters is rewritten.
    if args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg or function.lineno != positional[-1].end_lineno:
        return None
    first_default = len(positional) - len(args.defaults)
    parts = []
    for index, argument in enumerate(positional):
        default_index = index - first_default
        annotation = f": {ast.unparse(argument.annotation)}" if argument.annotation else ""
        if default_index >= dropped:
            separator = " = " if annotation else "="
            parts.append(f"{argument.arg}{annotation}{separator}{ast.unparse(args.defaults[default_index])}")
        else:
            parts.append(f"{argument.arg}{annotation}")
    names = [positional[first_default + i].arg for i in range(dropped)]
    header = lines[function.lineno - 1].decode("utf-8")
    opening, closing = header.index("("), header.rindex(")")
    new_header = header[: opening + 1] + ", ".join(parts) + header[closing:]
    line_bytes = len(lines[function.lineno - 1].rstrip(b"\n"))
    return _Edit(function.lineno, 0, function.lineno, line_bytes, new_header.rstrip("\n"), "default",
                 f"no default for {', '.join(names)}")


def _loop_returns(block: list[ast.stmt], lines: list[bytes]) -> Iterator[_Edit]:
    """A `for` loop followed by `return x`: the return indented into the loop (returns after one item)."""
    for statement, following in zip(block, block[1:]):
        if isinstance(statement, ast.For) and isinstance(following, ast.Return):
            yield _statement_inserted_after(statement.body[-1], lines, ast.unparse(following), "early-exit",
                                            f"{_short(following)} inside the loop `{_loop_header(statement)}`")


def _loop_header(loop: ast.For | ast.While) -> str:
    if isinstance(loop, ast.For):
        return f"for {_short(loop.target, 30)} in {_short(loop.iter, 40)}"
    return f"while {_short(loop.test, 40)}"


def _blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield block
    for handler in getattr(node, "handlers", ()):
        yield handler.body


def _subscript_keys(scope: ast.AST) -> dict[str, set[str]]:
    """Per object expression, the string keys it is read with in this scope: `document["id"]`."""
    keys: dict[str, set[str]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and type(node.slice.value) is str:
            keys.setdefault(ast.unparse(node.value), set()).add(node.slice.value)
    return keys


def scope_name(statement: ast.stmt) -> str | None:
    """The name a top-level statement defines, if mutating it makes sense."""
    if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
        return statement.name
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
        return statement.targets[0].id
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id
    return None


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            found.add(id(body[0]))
    return found


def _context(node: ast.AST, parents: dict[int, ast.AST], scope: ast.stmt) -> str:
    """Where node sits, as a key prefix: `in <expression>: `, `default of <name>: `, or nothing
    for a top-level constant (`MAX_WINDOW: 256 -> 257` needs no more)."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.Dict):
        key = parent.keys[parent.values.index(node)] if node in parent.values else None
        return f"in the value of {_short(key, 40)}: " if key is not None else f"in {_short(parent, 60)}: "
    if isinstance(parent, ast.arguments):
        defaults = parent.args[len(parent.args) - len(parent.defaults):]
        for argument, default in zip(defaults, parent.defaults):
            if default is node:
                return f"default of {argument.arg}: "
        return ""
    if isinstance(parent, ast.keyword):
        return f"in {parent.arg}= of {_short(parents.get(id(parent)), 60)}: "
    if isinstance(parent, ast.expr):
        return f"in {_short(parent, 60)}: "
    if isinstance(parent, ast.stmt) and parent is not scope:
        return f"in {_short(parent, 60).partition(chr(10))[0]}: "
    return ""


def _scope_edits(statement: ast.stmt, lines: list[bytes], docstrings: set[int]) -> Iterator[_Edit]:
    keys = _subscript_keys(statement)
    parents = {id(child): node for node in ast.walk(statement) for child in ast.iter_child_nodes(node)}
    skip_inside: set[int] = set()
    # The raise of a guard goes with its `if`; removing it alone would be the same mistake again.
    guarded = {id(raised) for node in ast.walk(statement) if isinstance(node, ast.If)
               for raised in node.body if isinstance(raised, ast.Raise)}
    for node in ast.walk(statement):
        if id(node) in docstrings or id(node) in guarded:
            continue
        if isinstance(node, ast.stmt):
            yield from _statement_mutations(node, lines)
        for block in _blocks(node):
            yield from _loop_returns(block, lines)
        if isinstance(node, ast.expr) and id(node) not in skip_inside:
            yield from _expression_mutations(node, keys, _context(node, parents, statement))
        if isinstance(node, ast.Constant) and type(node.value) is str:
            continue
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            skip_inside.add(id(node.operand))  # -1 moves as one constant, not as `-` of 0 and 2
        if isinstance(node, ast.JoinedStr):
            # Parts of an f-string have no source positions of their own before Python 3.12.
            skip_inside.update(id(inner) for inner in ast.walk(node) if inner is not node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type":
            skip_inside.update(id(inner) for inner in ast.walk(node))  # `type(x)` itself is not a test


def _apply(lines: list[bytes], edit: _Edit) -> str:
    before = b"".join(lines[: edit.first - 1]) + lines[edit.first - 1][: edit.first_col]
    after = lines[edit.last - 1][edit.last_col:] + b"".join(lines[edit.last:])
    return (before + edit.text.encode("utf-8") + after).decode("utf-8")


def _normalized(tree: ast.AST) -> str:
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def make_mutants(source: str) -> list[Mutant]:
    """Every mutant of source, in source order; each compiles and differs from source in its AST."""
    tree = ast.parse(source)
    lines = source.encode("utf-8").splitlines(keepends=True)
    original = _normalized(tree)
    docstrings = _docstring_nodes(tree)
    seen_trees = {original}
    mutants: list[Mutant] = []
    used_keys: dict[str, int] = {}
    for statement in tree.body:
        scope = scope_name(statement)
        if scope is None:
            continue
        for edit in _scope_edits(statement, lines, docstrings):
            text = _apply(lines, edit)
            try:
                mutated_tree = ast.parse(text)
                compile(mutated_tree, "solution.py", "exec")
            except SyntaxError:
                continue  # e.g. a constant moved where only a name fits; never graded
            shape = _normalized(mutated_tree)
            if shape in seen_trees:
                continue  # the same program as the reference or an earlier mutant
            seen_trees.add(shape)
            key = f"{scope}: {edit.description}"
            used_keys[key] = used_keys.get(key, 0) + 1
            if used_keys[key] > 1:
                key = f"{key} #{used_keys[key]}"
            mutants.append(Mutant(key, _method_scope(statement, edit.first) or scope, edit.operator, edit.first, text))
    return mutants


def _method_scope(statement: ast.stmt, line: int) -> str | None:
    """`Class.method` when line is inside a method of a top-level class (its reach is that of the
    method, not of every function that uses the class)."""
    if not isinstance(statement, ast.ClassDef):
        return None
    for node in statement.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= node.end_lineno:
            if any(decorator.lineno <= line < node.lineno for decorator in node.decorator_list):
                return None  # a decorator runs when the class is made
            return f"{statement.name}.{node.name}"
    return None


def reached_scopes(source: str) -> dict[str, set[str]]:
    """For each top-level name (and each `Class.method`), the names its code uses, directly or
    through others. A method is reached from code that names its attribute (`self.check(...)`,
    `rules.check`); a class reaches its own body and its dunder methods (run when it is made,
    compared, iterated, ...)."""
    tree = ast.parse(source)
    defined = {name for statement in tree.body if (name := scope_name(statement))}
    methods: dict[str, list[str]] = {}  # attribute name -> the Class.method scopes of that name
    nodes: list[tuple[str, ast.AST, list[ast.AST]]] = []  # scope, node, nodes whose code is its own
    for statement in tree.body:
        name = scope_name(statement)
        if name is None:
            continue
        if isinstance(statement, ast.ClassDef):
            own = []
            for member in statement.body:
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    scope = f"{name}.{member.name}"
                    methods.setdefault(member.name, []).append(scope)
                    nodes.append((scope, member, [member]))
                    own.extend(member.decorator_list)
                else:
                    own.append(member)
            own.extend(statement.bases + statement.decorator_list)
            nodes.append((name, statement, own))
        else:
            nodes.append((name, statement, [statement]))
    direct: dict[str, set[str]] = {}
    for name, statement, own in nodes:
        used = set()
        for part in own:
            for node in ast.walk(part):
                if isinstance(node, ast.Name) and node.id in defined:
                    used.add(node.id)
                elif isinstance(node, ast.Attribute):
                    used.update(methods.get(node.attr, ()))
        if isinstance(statement, ast.ClassDef):
            used.update(f"{name}.{member.name}" for member in statement.body
                        if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and member.name.startswith("__") and member.name.endswith("__"))
        direct.setdefault(name, set()).update(used - {name})
    reached: dict[str, set[str]] = {}
    for name in direct:
        seen, todo = {name}, [name]
        while todo:
            for used in direct.get(todo.pop(), ()):
                if used not in seen:
                    seen.add(used)
                    todo.append(used)
        reached[name] = seen
    return reached


def checkpoints_reached(mutant: Mutant, reached: dict[str, set[str]], checkpoint_ids: list[str]) -> list[str]:
    """The checkpoints whose function runs the mutated code: where this mutant is a wrong answer."""
    return [checkpoint for checkpoint in checkpoint_ids if mutant.scope in reached.get(checkpoint, {checkpoint})]


