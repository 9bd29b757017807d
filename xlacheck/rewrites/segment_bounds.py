"""The segment count a segment reduction must have where its result meets an array of known leading
size (one home for the JAX rewrite, :mod:`~xlacheck.rewrites.jax_segments`, and TensorFlow's,
:mod:`~xlacheck.rewrites.counting`).

Without ``num_segments`` the count is ``max(segment_ids) + 1``, a value of the data. Where the code
combines the result ``R`` with an array ``A`` in a way that needs their leading sizes to agree (a
concatenation along a literal axis other than 0; elementwise arithmetic, either order), every call on
which the original returns has that count equal to ``A``'s leading size, which is static under the
compiler. See :func:`partner` for what is followed and :data:`LAST_AXIS`/:data:`BROADCAST` for what
the code does not show.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from xlacheck.rewrites._expr import int_literal, is_number
from xlacheck.rewrites._source import Source

class _Names:
    """How one framework spells what :func:`_partner` follows."""

    def __init__(self, name_of: Callable[[ast.expr], str | None], concatenate: str,
                 elementwise: Mapping[str, int]) -> None:
        self.name_of, self.concatenate, self.elementwise = name_of, concatenate, elementwise


_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.Mod)
LAST_AXIS = "`axis=-1` is read as an axis after the first: for 1-D data it is axis 0 and the sizes need not agree"
BROADCAST = ("the array it is combined with is taken to have the result's leading size: one of leading size 1 "
             "broadcasts in the original, and a scalar operand (`scale * segment_sum(...)`) has no leading size")


def _partner(src: Source, node: ast.expr, names: _Names, depth: int = 0) -> tuple[ast.expr, str | None] | None:
    """(the array whose leading size the value ``node`` must have, the reason the fix is unsafe for
    it), through elementwise functions of one operand and arithmetic with numbers; None when no
    consumer fixes the size."""
    parent = src.parents.get(node)
    if depth > 4 or parent is None:
        return None
    if isinstance(parent, ast.Call) and parent.args == [node] and not parent.keywords \
            and names.elementwise.get(names.name_of(parent.func) or "") == 1:
        return _partner(src, parent, names, depth + 1)
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, _ARITH):
        other = parent.right if parent.left is node else parent.left
        if is_number(other):
            return _partner(src, parent, names, depth + 1)
        return (other, BROADCAST) if _plain(other) else None
    if isinstance(parent, (ast.List, ast.Tuple)):
        call = src.parents.get(parent)
        if not (isinstance(call, ast.Call) and names.name_of(call.func) == names.concatenate
                and call.args and call.args[0] is parent):
            return None
        axis = [k.value for k in call.keywords if k.arg == "axis"] or call.args[1:2]
        k = _axis(axis[0]) if len(axis) == 1 else None
        if k is None or k == 0:
            return None
        other = next((e for e in parent.elts if e is not node and _plain(e)), None)
        return None if other is None else (other, LAST_AXIS if k < 0 else None)
    return None


def _axis(node: ast.expr) -> int | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        k = int_literal(node.operand)
        return None if k is None else -k
    return int_literal(node)


def _plain(node: ast.expr) -> bool:
    """A name, an attribute of one or an item of one at a literal key (``params["bias"]``)."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name)


def _root(node: ast.expr) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id  # type: ignore[attr-defined]


def partner(src: Source, node: ast.Call, name_of: Callable[[ast.expr], str | None], concatenate: str,
            elementwise: Mapping[str, int]) -> tuple[ast.expr, str | None] | None:
    """(the array whose leading size the segment call ``node``'s result must have, the reason the fix
    is unsafe for it): the call itself or a name bound once to it, read through elementwise functions
    of one operand (``elementwise``, by ``name_of``'s canonical names) and arithmetic with numbers, by
    a statement that runs whenever the call does, combined with a name (an attribute or literal item
    of one) whose value is settled where the call runs; None otherwise."""
    names = _Names(name_of, concatenate, elementwise)
    statement = src.statement_of(node)
    assign = src.parents.get(node)
    if isinstance(assign, ast.Assign) and assign.value is node and len(assign.targets) == 1 \
            and isinstance(assign.targets[0], ast.Name):
        name = assign.targets[0].id
        scope = src.scope_of(assign)
        if len(src.stores_in(scope).get(name, [])) != 1:
            return None
        reads: list[ast.expr] = list(src.loads_of(name, scope))
    else:
        name, reads = "", [node]
    if statement is None:
        return None
    # the size constraint holds where the original returns only if the consumer runs whenever the segment
    # call does (not in a branch of its own, not after a return the call may take)
    reached = [r for r in reads if src.runs_after(statement, src.statement_of(r) or statement)]
    found = next((p for p in (_partner(src, r, names) for r in reached) if p is not None), None)
    if found is None:
        return None
    other, reason = found
    root = _root(other)
    # the partner's value where the segment call runs: stored only before that statement, or by the
    # statement itself after its value is computed (`nodes = jnp.concatenate([nodes, segment_sum(...)])`)
    own = {id(t) for t in ast.walk(statement) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)} \
        if isinstance(statement, ast.Assign) and not name else set()
    if root in ("self", name) or not src.settled_before(statement, {root}, own):
        return None
    return found
