"""What the rules need to know before they look at a node, computed once per file.

- :mod:`imports`: one alias table that turns local names into canonical ``tf.xxx`` names;
- :mod:`contexts`: which functions XLA compiles, and whether AutoGraph converts them;
- :mod:`values`: which expressions hold tensor values and which hold static facts.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TypeGuard

# Fields that hold no node worth visiting: identifiers and literals (never nodes), expression
# contexts and operator singletons (shared objects, not places in the file). Skipping them, `ctx`
# above all (every Name/Attribute/Subscript has one), makes walks about twice as fast as
# ast.iter_child_nodes.
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "name", "arg", "asname", "module", "level", "kind",
                          "type_comment", "is_async", "conversion"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: ()}

# `try:` statements: `try ... except*` (ast.TryStar) exists from Python 3.11 on; the package supports 3.10.
TRY_STATEMENTS: tuple[type[ast.Try] | type[ast.TryStar], ...] = (
    ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))


def child_fields(t: type) -> tuple[str, ...]:
    """The fields of node type ``t`` that can hold child nodes worth visiting (cached)."""
    fields = _CHILD_FIELDS.get(t)
    if fields is None:
        fields = _CHILD_FIELDS[t] = tuple(f for f in t._fields if f not in _LEAF_FIELDS)  # type: ignore[attr-defined]
    return fields


def child_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The direct child nodes of ``node`` (like ast.iter_child_nodes, without contexts and operators)."""
    for f in child_fields(type(node)):
        value = getattr(node, f, None)
        if value is None:
            continue
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.AST):
                    yield item
        elif isinstance(value, ast.AST):
            yield value


def index_values(node: ast.Subscript) -> list[ast.expr]:
    """The expressions that index ``node``: each element of a tuple index, and a slice's given
    bounds and step (``t[i, a:b]`` -> ``i, a, b``)."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    return [b for part in parts
            for b in ([part.lower, part.upper, part.step] if isinstance(part, ast.Slice) else [part])
            if b is not None]


def argument(e: ast.Call, index: int, keyword: str) -> ast.expr | None:
    """The argument of ``e`` at positional ``index`` or passed as ``keyword`` (None: not given or
    after a ``*args``). The one reader of a call's arguments that rules and rewrites share."""
    for kw in e.keywords:
        if kw.arg == keyword:
            return kw.value
    if index < len(e.args) and not any(isinstance(a, ast.Starred) for a in e.args[:index + 1]):
        return e.args[index]
    return None


def is_none(e: ast.AST | None) -> bool:
    """The literal ``None``. The one test of it that rules and the object model share."""
    return isinstance(e, ast.Constant) and e.value is None


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None: the one reader of dotted names."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def chain_root(e: ast.AST) -> str | None:
    """The name an access chain starts from: ``self`` for ``self._cache[key].v`` and ``self.get(k)``,
    ``tf`` for ``tf.keras.layers.Dense(2)``; None when it starts from anything else (a literal, a call
    result's subscript of a non-name)."""
    while True:
        if isinstance(e, (ast.Attribute, ast.Subscript)):
            e = e.value
        elif isinstance(e, ast.Call):
            e = e.func
        else:
            return e.id if isinstance(e, ast.Name) else None


def longest_length_of(e: ast.expr) -> ast.expr | None:
    """The sequence whose longest item's length ``e`` computes: ``S`` for ``max(len(x) for x in S)``,
    ``max([len(s) for s in S])`` and ``max(map(len, S))``; None for anything else. The one reading of a
    batch padded to its longest sequence (XLA453 in a collate function, XLA450 in a step)."""
    if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "max" and len(e.args) == 1):
        return None
    arg = e.args[0]
    if isinstance(arg, (ast.GeneratorExp, ast.ListComp)):
        if isinstance(arg.elt, ast.Call) and isinstance(arg.elt.func, ast.Name) and arg.elt.func.id == "len":
            return arg.generators[0].iter
        return None
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "map" and len(arg.args) == 2 \
            and isinstance(arg.args[0], ast.Name) and arg.args[0].id == "len":
        return arg.args[1]
    return None


def is_main_guard(node: ast.AST) -> TypeGuard[ast.If]:
    """``if __name__ == "__main__":`` (either operand order): the block a file runs when it is
    executed as a script. The one AST reading of it; the project scan, which reads files as text
    without parsing them, has its text twin (``project._MAIN_GUARD``)."""
    if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and len(node.test.ops) == 1
            and isinstance(node.test.ops[0], ast.Eq)):
        return False
    sides = (node.test.left, node.test.comparators[0])
    return any(isinstance(a, ast.Name) and a.id == "__name__" and isinstance(b, ast.Constant) and b.value == "__main__"
               for a, b in (sides, sides[::-1]))


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node``, itself included, in ``ast.walk``'s breadth-first order, without
    contexts and operator singletons (about twice as fast as ``ast.walk``)."""
    todo = [node]
    for current in todo:  # the list grows while it is read: breadth-first
        todo.extend(child_nodes(current))
        yield current
