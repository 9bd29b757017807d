"""What the rules need to know before they look at a node, computed once per file.

- :mod:`imports`: one alias table that turns local names into canonical ``tf.xxx`` names;
- :mod:`contexts`: which functions XLA compiles, and whether AutoGraph converts them;
- :mod:`values`: which expressions hold tensor values and which hold static facts.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

# Fields that never hold child nodes (identifiers, literals, expression contexts). Skipping them,
# `ctx` above all (every Name/Attribute/Subscript has one), makes walks about twice as fast as
# ast.iter_child_nodes.
_LEAF_FIELDS = frozenset({"ctx", "id", "attr", "name", "arg", "asname", "module", "level", "kind",
                          "type_comment", "is_async", "conversion", "n", "s", "names"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: ()}


def child_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The direct child nodes of ``node`` (like ast.iter_child_nodes, without contexts)."""
    t = type(node)
    fields = _CHILD_FIELDS.get(t)
    if fields is None:
        fields = _CHILD_FIELDS[t] = tuple(f for f in t._fields if f not in _LEAF_FIELDS)
    for f in fields:
        value = getattr(node, f, None)
        if value is None:
            continue
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.AST):
                    yield item
        elif isinstance(value, ast.AST):
            yield value
