"""``jax.ops.segment_sum/max/min/prod`` without ``num_segments=`` under ``jax.jit`` (XLA207) ->
``num_segments=`` the leading size of the array the code combines the result with.

Without ``num_segments`` the segment count is ``max(segment_ids) + 1``, a traced value, so tracing
fails (ConcretizationTypeError). Where the code then combines the result ``R`` with an array ``A``
in a way that needs their leading sizes to agree, every call on which the original returns has
``max(segment_ids) + 1 == A.shape[0]``, and ``A.shape[0]`` is static under ``jax.jit``:

* ``jnp.concatenate([..., R, ...], axis=k)`` with a literal ``k != 0``: every axis but ``k`` must
  agree, axis 0 among them;
* ``A + R`` (any of ``+ - * / ** %``, either order): elementwise, the sizes agree unless one
  broadcasts.

``R`` may be the call itself or a name bound once to it, read through elementwise ``jax.numpy``
functions of one operand and arithmetic with numbers, by a statement that runs whenever the
segment call does (the same block, after it, with no jump between: a consumer in a branch of
its own leaves the other paths free to return the original's count). ``A`` is a name (an attribute or a literal
item of one: ``params["bias"]``) whose value is settled where the segment call runs (nothing stores
it after; :meth:`~xlacheck.rewrites._source.Source.settled_before`), so its shape can be read there.
Segment ids past ``num_segments`` are dropped by both; with ``num_segments`` equal to the original's
count the result is the same array, values and gradients.

UNSAFE for what the code does not show: ``axis=-1`` is axis 0 for 1-D data (no constraint on the
count there); an elementwise partner of leading size 1 broadcasts (the original's count may be
larger), and one that is a scalar (``nodes + scale * segment_sum(...)`` reads ``scale``, the
nearest operand) has no leading size, so the fixed call raises.
"""

from __future__ import annotations

import ast

from xlacheck.analysis.tables import JAX_ELEMENTWISE
from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import atom, int_literal, is_number
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.jax_static import canonical

_SEGMENTS = frozenset({"jax.ops.segment_sum", "jax.ops.segment_max", "jax.ops.segment_min", "jax.ops.segment_prod"})
_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.Mod)
LAST_AXIS = "`axis=-1` is read as an axis after the first: for 1-D data it is axis 0 and the sizes need not agree"
BROADCAST = ("the array it is combined with is taken to have the result's leading size: one of leading size 1 "
             "broadcasts in the original, and a scalar operand (`scale * segment_sum(...)`) has no leading size")


def _partner(src: Source, node: ast.expr, depth: int = 0) -> tuple[ast.expr, str | None] | None:
    """(the array whose leading size the value ``node`` must have, the reason the fix is unsafe for
    it), through elementwise functions of one operand and arithmetic with numbers; None when no
    consumer fixes the size."""
    parent = src.parents.get(node)
    if depth > 4 or parent is None:
        return None
    if isinstance(parent, ast.Call) and parent.args == [node] and not parent.keywords \
            and JAX_ELEMENTWISE.get(canonical(src, parent.func) or "") == 1:
        return _partner(src, parent, depth + 1)
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, _ARITH):
        other = parent.right if parent.left is node else parent.left
        if is_number(other):
            return _partner(src, parent, depth + 1)
        return (other, BROADCAST) if _plain(other) else None
    if isinstance(parent, (ast.List, ast.Tuple)):
        call = src.parents.get(parent)
        if not (isinstance(call, ast.Call) and canonical(src, call.func) == "jax.numpy.concatenate"
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


@rewriter(ast.Call, pointed=True)
def rewrite_jax_segment_count(src: Source, node: ast.AST) -> Fix | None:
    if not (isinstance(node, ast.Call) and canonical(src, node.func) in _SEGMENTS and len(node.args) == 2
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and not any(k.arg in ("num_segments", None) for k in node.keywords)):
        return None
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
    found = next((p for p in (_partner(src, r) for r in reached) if p is not None), None)
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
    segment = src.segment(node)
    text = f"{segment[:-1].rstrip().rstrip(',')}, num_segments={atom(src, other)}.shape[0])"
    return make_fix("pass num_segments= the leading size of the array the result is combined with (a static shape; "
                    "where the original returns, its segment count is that size)", [replace(src, node, text)],
                    unsafe=[reason] if reason else [])
