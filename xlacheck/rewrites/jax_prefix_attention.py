"""A prefix of traced length read through attention (XLA207) -> the whole array, its rows past the
prefix zeroed, and the softmax over those rows masked with ``where=``.

``keys = cache[:pos]`` (also ``cache.at[:pos, :, :].get()``) under ``jax.jit`` has ``pos`` rows, a
traced length that jax.jit rejects. The decode step of a KV cache reads such a prefix only through
operations that keep its rows apart until a contraction removes them: ``jnp.repeat`` along another
axis, ``jnp.einsum`` keeping the row label (``"hd,thd->ht"``), products and quotients by values that
do not depend on the prefix, ``jax.nn.softmax`` over the row axis, and at last an einsum that sums
the row label away (``"ht,thd->hd"``) or ``jnp.sum`` over it. Then the prefix can be the whole
array with its later rows zeroed (``jnp.where(positions < pos, cache, 0)``) as long as

* every value that still has the row axis holds 0 at the rows past the prefix (zeroed rows times
  anything finite, summed over another label, are 0; a quotient by a value that is not 0 too);
* the softmax over the row axis leaves those rows out (``where=positions < pos``; it gives 0 there,
  and 0 for every entry of an empty prefix, whose sum over no rows the original returns as 0);
* the row axis is summed away (an einsum without its label, ``jnp.sum`` over it) before anything
  else reads it, adding only zeros.

The value flow is followed statement by statement through the function that slices (top-level
assignments and its ``return``); when that function returns a value with the row axis, through
every caller in the file (each binds the call to a name, alone on its line), where the prefix's
bound is what the call passes for the parameter (a name the caller never rebinds, or a number).
A bound that is a local of the slicing function (``n = jnp.sum(m)``, bound once by a top-level
assignment) is read there only, so the flow must end in that function. Every prefix by the same
bound in the function is read the same way (``keys = k[:pos]`` and ``values = v[:pos]``). Any
other call or operator may read values whose row axis was summed away, never one that has it.
Any other read of a value with the row axis (its shape, an index, a branch, another function) and
the rewrite is declined.

UNSAFE: a bound that is negative counts from the end in the slice, not in the mask; a caller
outside the file would get the whole array where it got the prefix; the zeros assume the arrays are
finite (an inf past the prefix, times 0, is NaN); the float sums run over more terms (the last bits
may differ).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace as with_

from xlacheck.diagnostics import Edit, Fix
from xlacheck.rewrites._callers import callers, passed_for
from xlacheck.rewrites._expr import int_literal
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source, jax_alias
from xlacheck.rewrites.jax_masks import NEGATIVE_BOUND, _jnp, _rows
from xlacheck.rewrites.jax_static import canonical

OUTSIDE = "a caller outside this file gets the whole array, its rows past the prefix zeroed, where it got the prefix"
FINITE = ("the rows past the prefix are zeroed and multiplied by the other operands: an inf or NaN in those "
          "operands gives NaN where the original never read them")
MORE_TERMS = "the sums over the row axis add the zeroed rows too (a float sum's last bits may differ)"
_SOFTMAX = "jax.nn.softmax"
_MAX_CALLERS = 8


@dataclass(frozen=True)
class _Rows:
    """A value that still has the prefix's row axis: where it is (from the front, or from the end
    when negative), the value's rank when known, and the bound as the current function reads it."""

    axis: int
    rank: int | None
    bound: str
    zero: bool  # 0 at every row past the prefix


class _Decline(Exception):
    pass


def _front(rows: _Rows) -> int | None:
    if rows.axis >= 0:
        return rows.axis
    return rows.rank + rows.axis if rows.rank is not None else None


def _same_axis(rows: _Rows, axis: int) -> bool:
    """Whether the literal ``axis`` of a call names the row axis."""
    if axis == rows.axis:
        return True
    front = _front(rows)
    return front is not None and rows.rank is not None and (axis if axis >= 0 else rows.rank + axis) == front


class _Flow:
    """The values with the row axis in one function, and the edits that keep them exact."""

    def __init__(self, src: Source, jnp: str, jax: str, slices: dict[int, tuple[ast.expr, str]], rows: _Rows):
        self.src, self.jnp, self.jax = src, jnp, jax
        self.slices, self.slice_rows = slices, rows  # every prefix by the bound: the node, its masked text
        self.edits: list[Edit] = []
        self.results: dict[int, _Rows] = {}  # calls whose result has the row axis (a helper's)

    def function(self, fn: ast.FunctionDef, names: dict[str, _Rows]) -> _Rows | None:
        """Run ``fn``'s top-level statements; the rows of what it returns (None: no row axis)."""
        names = dict(names)
        for stmt in fn.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                value = self.value(stmt.value, names)
                if value is None:
                    names.pop(stmt.targets[0].id, None)
                else:
                    names[stmt.targets[0].id] = value
            elif isinstance(stmt, ast.Return):
                if stmt is not fn.body[-1]:
                    raise _Decline
                return self.value(stmt.value, names) if stmt.value is not None else None
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring
            elif self._reads(stmt, names) or any(
                    isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id in names
                    for n in ast.walk(stmt)):
                raise _Decline
        raise _Decline  # no return at the end: whatever it returns, the rows never reach it

    def _reads(self, node: ast.AST, names: dict[str, _Rows]) -> bool:
        return any(id(n) in self.slices or id(n) in self.results or isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Load) and n.id in names for n in ast.walk(node))

    def value(self, node: ast.expr, names: dict[str, _Rows]) -> _Rows | None:
        if id(node) in self.slices:
            self.edits.append(replace(self.src, node, self.slices[id(node)][1]))
            return self.slice_rows
        if id(node) in self.results:
            return self.results[id(node)]
        if not self._reads(node, names):
            return None
        if isinstance(node, ast.Name):
            return names[node.id]
        if isinstance(node, ast.BinOp):
            left, right = self.value(node.left, names), self.value(node.right, names)
            if left is None and right is None:
                return None  # the rows were summed away on both sides
            if not isinstance(node.op, (ast.Mult, ast.Div)):
                raise _Decline
            if left is not None and right is None:
                return left
            if isinstance(node.op, ast.Mult) and left is None and right is not None:
                return right
            raise _Decline
        if isinstance(node, ast.Call) and not any(isinstance(a, ast.Starred) for a in node.args) \
                and all(k.arg is not None for k in node.keywords):
            name = canonical(self.src, node.func)
            if name == "jax.numpy.repeat":
                return self._repeat(node, names)
            if name == "jax.numpy.einsum":
                return self._einsum(node, names)
            if name == _SOFTMAX:
                return self._softmax(node, names)
            if name == "jax.numpy.sum":
                return self._sum(node, names)
        # anything else may read what no longer has the row axis (a method of a summed value), never
        # a value that has it
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.keyword):
                child = child.value
            if isinstance(child, ast.expr) and self.value(child, names) is not None \
                    or not isinstance(child, ast.expr) and self._reads(child, names):
                raise _Decline
        return None

    def _literal_axis(self, node: ast.Call, position: int, default: int | None) -> int | None:
        given = node.args[position] if len(node.args) > position else next(
            (k.value for k in node.keywords if k.arg == "axis"), None)
        if given is None:
            return default
        if isinstance(given, ast.UnaryOp) and isinstance(given.op, ast.USub):
            value = int_literal(given.operand)
            return -value if value is not None else None
        return int_literal(given)

    def _repeat(self, node: ast.Call, names: dict[str, _Rows]) -> _Rows:
        if len(node.args) < 2 or {k.arg for k in node.keywords} - {"axis"}:
            raise _Decline
        rows = self.value(node.args[0], names)
        axis = self._literal_axis(node, 2, None)
        if rows is None or axis is None or any(self._reads(a, names) for a in node.args[1:]) \
                or _same_axis(rows, axis) or (axis < 0) != (rows.axis < 0) and rows.rank is None:
            raise _Decline
        return rows

    def _einsum(self, node: ast.Call, names: dict[str, _Rows]) -> _Rows | None:
        if node.keywords or len(node.args) < 2 or not isinstance(node.args[0], ast.Constant) \
                or not isinstance(node.args[0].value, str):
            raise _Decline
        spec = node.args[0].value.replace(" ", "")
        if "." in spec or "->" not in spec:
            raise _Decline
        inputs, output = spec.split("->")
        labels = inputs.split(",")
        operands = node.args[1:]
        if len(labels) != len(operands):
            raise _Decline
        found = [(self.value(o, names), lab) for o, lab in zip(operands, labels)]
        masked = [(r, lab) for r, lab in found if r is not None]
        if not masked:
            return None  # the row axis was summed away inside the operands
        label = None
        for rows, lab in masked:
            axis = rows.axis if rows.axis >= 0 else len(lab) + rows.axis
            if rows.rank not in (None, len(lab)) or not 0 <= axis < len(lab) or label not in (None, lab[axis]):
                raise _Decline
            label = lab[axis]
        assert label is not None and masked
        if any(r is None and label in lab for r, lab in found):
            raise _Decline  # an operand of the prefix's length that this flow does not know
        zero = any(r.zero for r, _ in masked)
        if label not in output:  # summed away: exact when every row past the prefix adds 0
            if not zero:
                raise _Decline
            return None
        return _Rows(output.index(label), len(output), masked[0][0].bound, zero)

    def _softmax(self, node: ast.Call, names: dict[str, _Rows]) -> _Rows:
        if not node.args or {k.arg for k in node.keywords} - {"axis"} or len(node.args) > 2:
            raise _Decline
        operand = node.args[0]
        rows = self.value(operand, names)
        axis = self._literal_axis(node, 1, -1)
        if rows is None or axis is None or not isinstance(operand, ast.Name) or not _same_axis(rows, axis):
            raise _Decline
        front = _front(rows)
        where = f"{self.jax}.lax.broadcasted_iota({self.jnp}.int32, {operand.id}.shape, " \
                f"{front if front is not None else f'{operand.id}.ndim - {-rows.axis}'}) < {rows.bound}"
        text = self.src.segment(node)
        if not text.endswith(")") or text[:-1].rstrip().endswith(","):
            raise _Decline
        self.edits.append(replace(self.src, node, f"{text[:-1]}, where={where})"))
        return with_(rows, zero=True)

    def _sum(self, node: ast.Call, names: dict[str, _Rows]) -> _Rows | None:
        if not node.args or {k.arg for k in node.keywords} - {"axis"} or len(node.args) > 2:
            raise _Decline
        rows = self.value(node.args[0], names)
        axis = self._literal_axis(node, 1, None)
        if rows is None or axis is None or not rows.zero or not _same_axis(rows, axis):
            raise _Decline
        return None


def _prefix(src: Source, jnp: str, node: ast.AST) -> tuple[ast.expr, ast.expr, ast.Subscript] | None:
    """(the node to replace, the bound, the subscript ``x[:b, ...]``) of ``x[:b]``/``x[:b, :, :]`` or
    ``x.at[:b, :, :].get()``: a prefix of axis 0, every other index a full slice."""
    at = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and not node.args and not node.keywords and isinstance(node.func.value, ast.Subscript) \
            and isinstance(node.func.value.value, ast.Attribute) and node.func.value.value.attr == "at":
        at = node.func.value
        subscript = ast.Subscript(value=at.value.value, slice=at.slice, ctx=ast.Load())  # type: ignore[attr-defined]
    elif isinstance(node, ast.Subscript):
        subscript = node
    else:
        return None
    parts = subscript.slice.elts if isinstance(subscript.slice, ast.Tuple) else [subscript.slice]
    first = parts[0]
    if not (isinstance(first, ast.Slice) and first.lower is None and first.step is None and first.upper is not None
            and all(isinstance(p, ast.Slice) and p.lower is None and p.upper is None and p.step is None
                    for p in parts[1:])):
        return None
    return node, first.upper, subscript  # type: ignore[return-value]


def _bound_in(src: Source, caller: ast.FunctionDef, bound: ast.expr | None) -> str | None:
    """The text of what a call passes for the bound, if the caller reads it the same everywhere: a
    number, or a parameter of the caller that it never rebinds."""
    if bound is None:
        return None
    if int_literal(bound) is not None:
        return src.segment(bound)
    params = {a.arg for a in (*caller.args.posonlyargs, *caller.args.args, *caller.args.kwonlyargs)}
    if isinstance(bound, ast.Name) and bound.id in params and bound.id not in src.stores_in(caller):
        return bound.id
    return None


@rewriter(ast.Call, ast.Subscript)
def rewrite_jax_prefix_attention(src: Source, node: ast.AST) -> Fix | None:
    jnp, jax = _jnp(src), jax_alias(src.tree)
    found = _prefix(src, jnp, node) if jnp is not None and jax is not None else None
    if found is None:
        return None
    target, bound, subscript = found
    assert jnp is not None and jax is not None
    fn = src.scope_of(target)
    if not isinstance(fn, ast.FunctionDef) or not (isinstance(bound, ast.Name) or int_literal(bound) is not None):
        return None
    # the bound reads the same wherever the flow reads it: a number, a parameter nothing rebinds, or a
    # local bound once by a top-level assignment (then the flow must end in this function)
    stored = src.stores_in(fn).get(bound.id, []) if isinstance(bound, ast.Name) else []
    local = bool(stored)
    if stored and not (len(stored) == 1 and isinstance(src.parents.get(stored[0]), ast.Assign)
                       and src.parents.get(stored[0]) in fn.body):
        return None
    slices = {}
    for other in ast.walk(fn):
        again = _prefix(src, jnp, other) if src.scope_of(other) is fn else None
        if again is not None and ast.dump(again[1]) == ast.dump(bound):
            rows = _rows(src, jnp, again[2])
            if rows is None:
                return None
            slices[id(other)] = (other, f"{jnp}.where({rows[1]}, {rows[0]}, 0)")
    if id(target) not in slices:
        return None
    flow = _Flow(src, jnp, jax, slices, _Rows(0, None, src.segment(bound), True))
    reasons = [FINITE, MORE_TERMS] + ([NEGATIVE_BOUND] if int_literal(bound) is None else [])
    try:
        returned = flow.function(fn, {})
        if returned is not None:
            if local or src.scope_of(fn) is not src.tree or fn.decorator_list:
                return None
            found_callers = callers(src, fn)
            if not found_callers or len(found_callers) > _MAX_CALLERS:
                return None
            for caller, calls in found_callers:
                for call in calls:
                    assign = src.parents.get(call)
                    passed = _bound_in(src, caller, passed_for(fn, call, bound.id)) \
                        if isinstance(bound, ast.Name) else src.segment(bound)
                    if passed is None or not (isinstance(assign, ast.Assign) and assign.value is call
                                              and assign in caller.body):
                        return None
                    flow.results[id(call)] = with_(returned, bound=passed)
                if not isinstance(caller, ast.FunctionDef) or flow.function(caller, {}) is not None:
                    return None
            reasons.insert(0, OUTSIDE)
    except _Decline:
        return None
    if not any(", where=" in e.content for e in flow.edits):
        return None  # no softmax: the masked reductions of jax_masks cover sums
    return make_fix(f"Read the whole of `{src.segment(subscript.value)}` with its rows from "
                    f"`{src.segment(bound)}` on zeroed, and leave them out of the softmax with `where=`: the "
                    "attention over the prefix, at a static shape", flow.edits, reasons)

