"""Data-dependent selections feeding a reduction, scan or index -> the same computation on the
full tensor with the mask applied by ``tf.where``.

A *selection* is ``x[m]`` (``m`` boolean), ``tf.boolean_mask(x, m)``, ``tf.gather_nd(x,
tf.where(m))`` (the same entries in the same order), ``tf.gather(x, tf.where(m)[:, 0])`` or
``tf.gather(x, tf.range(n))`` (the mask ``tf.sequence_mask(n, len(x))``).
Its size depends on the data, so XLA:CPU gives it a bounded dynamic shape, and several ops
applied *after* it miscompute (``valid[-1]``, ``cumsum``, slices of the tail) or crash; a
loop-carried ``tf.range(n)`` does not compile at all. Consumers rewritten here:

* reductions ``tf.reduce_sum/mean/max/min(f(s1, s2, ...))`` where every leaf is a selection by
  the same mask and ``f`` works position by position (arithmetic, elementwise ops, per-example
  losses): ``reduce_sum(tf.where(m, f(x1, ...), 0))``; the mean divides by ``reduce_sum(cast(m))``.
  All-false masks: the original ``reduce_mean`` of an empty tensor is 0/0 = NaN and so is the
  rewrite (``tf.math.divide_no_nan`` would return 0: not equivalent, so it is not used); sums give
  0, max/min give -inf/+inf, as the original does. The first ``n`` rows: see
  ``_first_rows_reduction``.
* scans ``tf.cumsum/cumprod(s)`` and ``s[i]``, ``s[a:b]`` with literal bounds: on the selection
  flattened over the mask's axes (``_flatten``), for every mask rank; see ``_scan``, ``_index``.

Masked-out positions contribute exact zeros, so values agree up to the rounding of a reordered
floating-point sum (XLA reorders reductions anyway). ``tf.where(m, x, 0)`` is used instead of
``x * m``: masked-out entries may hold NaN/inf (0 * inf is NaN). Labels of per-example losses are replaced by 0 where the mask is false so that ignore
ids (-100) never reach the loss op.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from xlacheck.analysis.tables import ELEMENTWISE_BOOL_FUNCS as BOOL_FUNCS
from xlacheck.diagnostics import Edit, Fix
from xlacheck.rewrites._expr import (
    ELEMENTWISE_UNARY,
    SMOOTH_UNARY,
    arg,
    call_name,
    has_kw,
    is_number,
    kw,
    number_value,
)
from xlacheck.rewrites._fix import make_fix, replace, replace_lines, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import certain_dtype, is_floating
from xlacheck.rewrites.static_shapes import data_dependent

REDUCTIONS = {f"tf.{p}reduce_{op}": op for p in ("", "math.") for op in ("sum", "mean", "max", "min")}
SCANS = {"tf.cumsum": "0", "tf.math.cumsum": "0", "tf.math.cumprod": "1", "tf.cumprod": "1"}
# Per-example losses whose labels have the mask's shape (sparse labels): (labels position, keyword).
# Losses that reduce the last axis of same-shape inputs (MSE, binary cross-entropy) are not
# per-position over a selection (x[m] is 1-D: they would average the selected entries), so they
# are not listed.
PER_EXAMPLE_LOSSES = {
    "tf.nn.sparse_softmax_cross_entropy_with_logits": (0, "labels"),
    "tf.keras.losses.sparse_categorical_crossentropy": (0, "y_true"),
}
# Keras loss classes with the same property; their `call` gives the per-example values.
KERAS_LOSS_CLASSES = frozenset({"SparseCategoricalCrossentropy"})
ASSUME_RANK = "assumes the mask has the shape of the per-position values (a lower-rank mask would broadcast " \
              "against the wrong axes)"
ROWS_AS_MASK = "computes tf.gather(x, tf.where(m)[:, 0]) as x masked by m, which assumes a 1-D mask as long as x"
FILL_TIES = "gradients only: a selected value equal to the fill of the masked-out positions (-inf for a max, " \
            "+inf for a min) ties with them, and the reduction splits its gradient among the ties"
NAN_EXTREMES = "a NaN among the selected values: eagerly tf.reduce_max/min return NaN, compiled by XLA they skip it"
INT_MEAN = "cannot prove the values are floating-point: for integers the mean becomes a float64 (int / int in " \
           "TensorFlow) where the original's stays an integer"
INT_FILL = "cannot prove the values are floating-point: for integers the -inf/+inf fill raises where the original returns"
NEGATIVE_STOP = ("a negative slice stop counts from the end (x[:-1] drops the last row); the mask keeps no row there")
UNSMOOTH = "the per-position values are also computed where the mask is false; a non-finite derivative there " \
           "turns the gradient NaN"


@dataclass(frozen=True)
class Selection:
    data: ast.expr  # the tensor selected from
    mask: str  # source text of the boolean mask
    mask_node: ast.expr | None
    chain: tuple[ast.Assign, ...]  # assignments the selection was resolved through
    ragged: bool = False  # tf.ragged.boolean_mask: rows keep their place, the last mask axis is ragged
    rows: bool = False  # tf.gather(x, tf.where(m)[:, 0]): the ROW of every true entry of m, in row-major order
    one_d: bool = False  # ... spelled with tf.squeeze/tf.reshape: those rows only for a 1-D mask
    first_axis: bool = False  # tf.gather(x, tf.range(n)): a 1-D mask over data's first axis, by construction
    stop: bool = False  # x[:n] with n from data: the first n rows too, but a negative n counts from the end


def _boolish(src: Source, node: ast.AST, depth: int = 0) -> bool:
    if isinstance(node, ast.Compare) and not any(isinstance(o, (ast.In, ast.NotIn, ast.Is, ast.IsNot))
                                                 for o in node.ops):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
        return _boolish(src, node.left, depth + 1) and _boolish(src, node.right, depth + 1)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return _boolish(src, node.operand, depth + 1)
    if isinstance(node, ast.Call):
        name = call_name(src, node)
        if name in BOOL_FUNCS:
            return True
        if name == "tf.cast" and len(node.args) == 2:
            return src.segment(node.args[1]).endswith(".bool")
    if isinstance(node, ast.Name) and depth < 6:
        value = src.local_binding(node.id, node)
        return value is not None and _boolish(src, value, depth + 1)
    return False


def _binding(src: Source, use: ast.Name) -> ast.expr | None:
    """The value assigned to ``use``'s name, if the names that value reads still hold the same
    values at ``use`` (so the expression can be re-evaluated there): ``x = tf.boolean_mask(x, m)``
    rebinds ``x``, and the rewritten code must not read the new ``x`` as the old one."""
    value = src.local_binding(use.id, use)
    if value is None:
        return None
    assign = src.parents[value]
    start, end = (assign.lineno, assign.col_offset), (use.lineno, use.col_offset)
    reads = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    scope = src.scope_of(use)
    for sub in ast.walk(scope):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and sub.id in reads:
            if start <= (sub.lineno, sub.col_offset) < end and src.scope_of(sub) is scope:
                return None
    return value


def _resolve(src: Source, node: ast.expr, chain: tuple[ast.Assign, ...]) -> tuple[ast.expr, tuple[ast.Assign, ...]]:
    """Follow a name to the single assignment that gives it its value."""
    while isinstance(node, ast.Name):
        value = _binding(src, node)
        if value is None:
            break
        chain += (src.parents[value],)  # type: ignore[assignment]
        node = value
    return node, chain


def _mask_text(src: Source, mask: ast.expr) -> str:
    """The mask as a boolean tensor: ``tf.boolean_mask`` and one-argument ``tf.where`` also take
    numbers (nonzero = true, NaN included), which ``tf.cast(m, tf.bool)`` reproduces and
    ``tf.where(m, ...)`` with three arguments would reject."""
    return arg(src, mask) if _boolish(src, mask) else f"{src.tf}.cast({src.segment(mask)}, {src.tf}.bool)"


def selection(src: Source, node: ast.expr) -> Selection | None:
    node, chain = _resolve(src, node, ())
    tf = src.tf
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and node.slice.lower is None \
            and node.slice.step is None and node.slice.upper is not None and data_dependent(src, node.slice.upper):
        # x[:n], n computed from data: the first n rows (all of them for n past the end), as
        # tf.gather(x, tf.range(n)) below; a negative n counts from the end (NEGATIVE_STOP)
        length = f"{tf}.shape({arg(src, node.value)}, out_type={tf}.int64)[0]"
        limit = f"{tf}.sequence_mask({arg(src, node.slice.upper)}, {length})"
        return Selection(node.value, limit, None, chain, first_axis=True, stop=True)
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, (ast.Slice, ast.Tuple, ast.Constant)):
        if _boolish(src, node.slice):
            return Selection(node.value, arg(src, node.slice), node.slice, chain)
        return None
    if not isinstance(node, ast.Call) or len(node.args) != 2 or node.keywords:
        return None
    name = call_name(src, node)
    data, index = node.args
    if name in ("tf.boolean_mask", "tf.compat.v1.boolean_mask"):
        return Selection(data, _mask_text(src, index), index, chain)
    if name == "tf.ragged.boolean_mask":
        return Selection(data, arg(src, index), index, chain, ragged=True)
    if name == "tf.gather_nd":
        # gather_nd(x, tf.where(m)): the entries of x at the true positions of m, in row-major
        # order, which is boolean_mask(x, m) (tf.where lists coordinates of every axis of m).
        where, chain = _resolve(src, index, chain)
        if isinstance(where, ast.Call) and call_name(src, where) == "tf.where" and len(where.args) == 1 \
                and not where.keywords:
            return Selection(data, _mask_text(src, where.args[0]), where.args[0], chain)
        return None
    if name != "tf.gather":
        return None
    index, chain = _resolve(src, index, chain)
    if isinstance(index, ast.Call) and call_name(src, index) == "tf.range" and len(index.args) == 1 \
            and not index.keywords:
        # gather(x, range(n)) is the first n rows (range raises for n < 0, gather for n > len(x)).
        # The limit is compared in int64 so that an int64 n is neither rejected nor truncated.
        limit = f"{tf}.sequence_mask({arg(src, index.args[0])}, {tf}.shape({arg(src, data)}, out_type={tf}.int64)[0])"
        return Selection(data, limit, None, chain, first_axis=True)
    # tf.where(m)[:, 0]: the row of every true entry of m. tf.squeeze(tf.where(m), ...) and
    # tf.reshape(tf.where(m), [-1]) are those rows only for a 1-D mask.
    inner, rows = None, False
    if isinstance(index, ast.Subscript) and isinstance(index.slice, ast.Tuple) and len(index.slice.elts) == 2:
        first, second = index.slice.elts
        if isinstance(first, ast.Slice) and first.lower is None and first.upper is None and number_value(second) == 0:
            inner, rows = index.value, True
    elif isinstance(index, ast.Call) and call_name(src, index) in ("tf.squeeze", "tf.reshape") and index.args:
        inner = index.args[0]
    if inner is not None:
        inner, chain = _resolve(src, inner, chain)
        if isinstance(inner, ast.Call) and call_name(src, inner) == "tf.where" and len(inner.args) == 1:
            return Selection(data, _mask_text(src, inner.args[0]), inner.args[0], chain, rows=True, one_d=not rows)
    return None


@dataclass(frozen=True)
class Rewritten:
    """One consumer's replacement, the lines to put before its statement, and why it is unsafe."""

    edit: Edit
    prelude: tuple[str, ...]  # source lines (without indentation or newline)
    reasons: tuple[str, ...]
    chain: tuple[ast.Assign, ...]


@dataclass
class _Masked:
    """An expression over selections, rewritten onto the full tensors."""

    mask: str | None = None
    mask_node: ast.expr | None = None
    mask_name: str | None = None  # a temporary holding the mask, once one is introduced
    data: str | None = None  # the (first) tensor selected from
    data_node: ast.expr | None = None
    ragged: bool = False
    chain: tuple[ast.Assign, ...] = ()
    smooth: bool = True
    leaves_like_mask: bool = True
    ok: bool = True
    sanitize: bool = False
    sanitize_all: bool = False  # replace every selected value by 0 where the mask is false
    rows: bool = False
    first_axis: bool = False
    stop: bool = False
    labels_in_mask: bool = False  # the labels of a per-example loss have the mask's shape


_ELEMENTWISE_MASK_NODES = (ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Name, ast.Attribute, ast.Constant,
                           ast.Load, ast.cmpop, ast.boolop, ast.operator, ast.unaryop, ast.Call, ast.keyword)


def _mask_operands(src: Source, mask: ast.expr | None) -> set[str]:
    """Source texts of the tensors a mask is computed from elementwise (through the mask's own
    assignment): each has the mask's shape, since ``x[m]`` needs ``m`` shaped like (a prefix of)
    ``x`` and an elementwise result of ``x`` has at least ``x``'s shape. Empty when the mask
    involves anything else (indexing, reductions along an axis, unknown calls)."""
    if mask is None:
        return set()
    if isinstance(mask, ast.Name):
        bound = src.local_binding(mask.id, mask)
        mask = bound if bound is not None else mask
    for sub in ast.walk(mask):
        if not isinstance(sub, _ELEMENTWISE_MASK_NODES):
            return set()
        if isinstance(sub, ast.Call):
            name = call_name(src, sub)
            if not (name in BOOL_FUNCS or name in ELEMENTWISE_UNARY or name == "tf.cast"):
                return set()
    return {src.segment(n) for n in ast.walk(mask) if isinstance(n, (ast.Name, ast.Attribute))
            and not isinstance(src.parents.get(n), ast.Attribute)}


_CONSTANT_LIKE = frozenset({"tf.ones_like", "tf.zeros_like"})


def _lift(src: Source, node: ast.expr, state: _Masked, role: str = "value") -> str:
    """The text of ``node`` with every selection replaced by its full tensor. ``role`` is
    "labels" for the labels of a per-example loss (replaced by 0 where the mask is false) and
    "logits" for its predictions (whose rank may exceed the mask's: the loss reduces it).
    With ``state.sanitize``, a value the mask is computed from is replaced by 0 where the
    mask is false too, so that NaN/inf there cannot reach the gradient (0 * inf = NaN)."""
    sel = selection(src, node)
    if sel is not None:
        if state.mask is None:
            state.mask, state.mask_node = sel.mask, sel.mask_node
        elif state.mask != sel.mask:
            state.ok = False
        state.chain += sel.chain
        data = arg(src, sel.data)
        state.data = state.data or data
        state.data_node = state.data_node or sel.data
        state.ragged |= sel.ragged
        state.rows |= sel.rows
        state.first_axis |= sel.first_axis
        state.stop |= sel.stop
        in_mask = src.segment(sel.data) in _mask_operands(src, sel.mask_node)
        if role != "logits" and not in_mask:
            state.leaves_like_mask = False
        if role == "labels":
            state.labels_in_mask = in_mask
        if role == "labels" or (role == "value" and (state.sanitize_all or (state.sanitize and in_mask))):
            return f"{src.tf}.where({state.mask_name or sel.mask}, {data}, 0)"
        return data
    if isinstance(node, ast.Name):  # an intermediate value: inline its expression
        bound = _binding(src, node)
        if bound is None:
            state.ok = False
            return node.id
        state.chain += (src.parents[bound],)  # type: ignore[operator]
        return _lift(src, bound, state, role)
    if is_number(node):
        return src.segment(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        if isinstance(node.op, ast.Div) and not is_number(node.right):
            state.smooth = False
        return f"{_atom_lift(src, node.left, state)} {_OPS[type(node.op)]} {_atom_lift(src, node.right, state)}"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return f"-{_atom_lift(src, node.operand, state)}"
    if isinstance(node, ast.Call):
        name = call_name(src, node)
        if name in ELEMENTWISE_UNARY and len(node.args) == 1 and not node.keywords:
            state.smooth &= name in SMOOTH_UNARY
            return f"{src.segment(node.func)}({_lift(src, node.args[0], state)})"
        if name in _CONSTANT_LIKE and len(node.args) == 1 and all(k.arg == "dtype" for k in node.keywords):
            # one value per entry, whatever the entry holds: a count of the selection is a count of the mask
            # (XLA itself gives tf.ones_like of a selection the padded bound's shape: tf_bounded_dynamic.json)
            dtype = "".join(f", dtype={src.segment(k.value)}" for k in node.keywords)
            return f"{src.segment(node.func)}({_lift(src, node.args[0], state)}{dtype})"
        if name in PER_EXAMPLE_LOSSES:
            position, keyword = PER_EXAMPLE_LOSSES[name]
            prediction = "y_pred" if keyword == "y_true" else "logits"
            roles = [(i == position, i == position + 1) for i in range(len(node.args))]
            roles += [(k.arg == keyword, k.arg == prediction) for k in node.keywords]
            values = [*node.args, *(k.value for k in node.keywords)]
            if any(k.arg is None for k in node.keywords) or sum(r[0] for r in roles) != 1 or sum(r[1] for r in roles) != 1:
                state.ok = False
                return src.segment(node)
            labels_at = next(i for i, r in enumerate(roles) if r[0])
            logits_at = next(i for i, r in enumerate(roles) if r[1])
            texts = [src.segment(v) for v in values]
            texts[labels_at], texts[logits_at] = _per_example(src, values[labels_at], values[logits_at], state)
            names = [""] * len(node.args) + [f"{k.arg}=" for k in node.keywords]
            return f"{src.segment(node.func)}({', '.join(n + t for n, t in zip(names, texts))})"
    state.ok = False
    return src.segment(node)


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def _per_example(src: Source, labels: ast.expr, logits: ast.expr, state: _Masked) -> tuple[str, str]:
    """Labels and logits of a sparse per-example loss, lifted onto the full tensors.

    Labels are replaced by 0 where the mask is false (a valid id). When the labels provably have
    the mask's shape (the mask is computed from them), the logits, one axis longer, are replaced
    by 0 there too: the loss is then computed on finite, valid inputs everywhere, so its
    derivative at masked-out positions is finite and the outer tf.where zeroes it exactly (with
    -inf logits left there, 0 * NaN would poison the gradient)."""
    labels_text = _lift(src, labels, state, "labels")
    logits_text = _lift(src, logits, state, "logits")
    if state.labels_in_mask and state.ok:
        mask = state.mask_name or state.mask
        return labels_text, f"{src.tf}.where({src.tf}.expand_dims({mask}, -1), {logits_text}, 0)"
    state.smooth = False
    return labels_text, logits_text


def _atom_lift(src: Source, node: ast.expr, state: _Masked) -> str:
    text = _lift(src, node, state)
    return text if isinstance(node, (ast.Name, ast.Call, ast.Subscript, ast.Attribute, ast.Constant)) else f"({text})"


def _selection_mask(src: Source, node: ast.expr) -> tuple[str, ast.expr] | None:
    """(the selected tensor's source text, its mask expression) when ``node`` is ``x[m]`` (or
    ``tf.boolean_mask(x, m)``), with a mask held in a name followed to its value."""
    sel = selection(src, node)
    mask = sel.mask_node if sel is not None else None
    if isinstance(mask, ast.Name):
        mask = src.local_binding(mask.id, mask)
    return None if mask is None else (src.segment(sel.data), mask)  # type: ignore[union-attr]


def _compared_with_literal(src: Source, mask: ast.expr, data: str) -> tuple[type, ast.expr] | None:
    """(the comparison, the literal) when ``mask`` compares ``data`` with a number literal,
    written with ``data`` on the left (``c < x`` is ``x > c``)."""
    if not (isinstance(mask, ast.Compare) and len(mask.ops) == 1):
        return None
    left, right, cmp = mask.left, mask.comparators[0], type(mask.ops[0])
    if is_number(left):
        left, right = right, left
        cmp = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}.get(cmp, cmp)
    return (cmp, right) if src.segment(left) == data and is_number(right) else None


def _floating_values(src: Source, node: ast.expr) -> bool:
    """The reduced values are floating-point wherever the original returns: their dtype reads as
    floating, or they are ``x[m]`` with a mask comparing ``x`` itself with a float literal
    (``x > 0.0`` raises TypeError for integer and bool tensors)."""
    if is_floating(certain_dtype(src, node)):
        return True
    found = _selection_mask(src, node)
    compared = _compared_with_literal(src, found[1], found[0]) if found else None
    return compared is not None and isinstance(number_value(compared[1]), float)


def _excludes_fill(src: Source, node: ast.expr, op: str) -> bool:
    """``node`` is ``x[m]`` (or ``tf.boolean_mask(x, m)``) whose mask admits neither NaN nor the
    fill of a max (min): ``x > c`` / ``x >= c`` (``x < c`` / ``x <= c``) with a literal ``c``, or
    ``tf.math.is_finite(x)``. Then no selected value ties with the fill (which would share the
    gradient) and none is NaN (which eager reductions propagate and XLA's skip)."""
    found = _selection_mask(src, node)
    if found is None:
        return False
    data, mask = found
    if isinstance(mask, ast.Call) and call_name(src, mask) in ("tf.math.is_finite", "tf.is_finite"):
        return len(mask.args) == 1 and src.segment(mask.args[0]) == data
    compared = _compared_with_literal(src, mask, data)
    return compared is not None and compared[0] in ((ast.Gt, ast.GtE) if op == "max" else (ast.Lt, ast.LtE))


def _reduction(src: Source, call: ast.Call) -> Rewritten | None:
    op = REDUCTIONS.get(call_name(src, call) or "")
    axis = kw(call, "axis")
    if op is None or len(call.args) != 1 or any(k.arg != "axis" for k in call.keywords):
        return None
    # The mask selects the values themselves when the argument is a selection; otherwise values
    # the mask is computed from are also zeroed where it is false, before any op touches them.
    sanitize = selection(src, call.args[0]) is None
    state = _Masked(sanitize=sanitize)
    values = _lift(src, call.args[0], state)
    if not state.ok or state.mask is None or state.ragged != (axis is not None):
        return None  # a ragged selection is reduced along its ragged axis; a flat one over everything
    if state.ragged and (op not in ("sum", "mean") or not isinstance(number_value(axis), int)):
        return None  # empty ragged rows reduce to dtype.min/max, not to -inf/+inf
    tf, reasons = src.tf, []
    if not state.smooth:
        reasons.append(UNSMOOTH)
    if state.first_axis:
        return _first_rows_reduction(src, call, op, axis, state)
    if state.rows:
        reasons.append(ROWS_AS_MASK)
    if state.ragged:
        reasons.append("assumes the axis reduced is the ragged one (the mask's last axis)")
    elif not state.leaves_like_mask:
        reasons.append(ASSUME_RANK)
    if op in ("max", "min") and not _excludes_fill(src, call.args[0], op):
        reasons += [FILL_TIES, NAN_EXTREMES]
    if op in ("mean", "max", "min") and not _floating_values(src, call.args[0]):
        reasons.append(INT_MEAN if op == "mean" else INT_FILL)
    fill = {"sum": "0", "mean": "0", "max": 'float("-inf")', "min": 'float("inf")'}[op]
    axis_text = f", axis={src.segment(axis)}" if axis is not None else ""
    if op != "mean" and not state.ragged:
        text = f"{tf}.reduce_{op}({tf}.where({state.mask}, {values}, {fill}))"
        return Rewritten(replace(src, call, text), (), tuple(reasons), state.chain)
    # The mask is used twice and the values' dtype is needed: name them on lines before the statement.
    if isinstance(src.scope_of(call), ast.Lambda):
        return None
    lines = []
    mask = state.mask
    if not state.mask.isidentifier() or state.ragged:
        mask = src.fresh_name("mask")
        lines.append(f"{mask} = {state.mask}")
    if state.ragged:  # the mask covers the leading axes of the data: give it the data's rank
        lines.append(f"{mask} = {mask}[(...,) + ({tf}.newaxis,) * (len({state.data}.shape) - len({mask}.shape))]")
    if mask != state.mask:
        state = _Masked(mask_name=mask, sanitize=sanitize)
        values = _lift(src, call.args[0], state)
    masked = src.fresh_name("masked_values")
    lines.append(f"{masked} = {tf}.where({mask}, {values}, 0)")
    text = f"{tf}.reduce_sum({masked}{axis_text})"
    if op == "mean":
        text += f" / {tf}.reduce_sum({tf}.cast({mask}, {masked}.dtype){axis_text})"
    return Rewritten(replace(src, call, text), tuple(lines), tuple(reasons), state.chain)


def _first_rows_reduction(src: Source, call: ast.Call, op: str, axis: ast.expr | None,
                          state: _Masked) -> Rewritten | None:
    """``tf.reduce_sum(f(tf.gather(x, tf.range(n))))`` -> the reduction of ``f(x)`` with the rows
    from ``n`` on masked out.

    ``tf.gather(x, tf.range(n))`` is the first ``n`` rows of ``x`` (``tf.range`` raises for
    ``n < 0``, ``tf.gather`` for ``n > len(x)``), whatever ``x``'s rank: the mask ``tf.sequence_mask(n, len(x))`` is 1-D over
    ``x``'s first axis by construction and is given ``x``'s rank, so it never broadcasts against
    another axis. Every selected value is replaced by 0 where the mask is false before ``f`` sees
    it and ``f``'s result again after (``f`` only combines these values and literals, position
    by position, so it has ``x``'s shape): the values equal the original's at the first ``n``
    rows and are the fill elsewhere, so the sum (mean: over the count of the broadcast mask,
    max/min: with -inf/+inf fills) equals the original's up to the rounding of a reordered sum.
    Gradients: the outer ``tf.where`` sends 0 to ``f`` at masked-out rows, and the inner one sends
    ``x`` exactly 0 there whatever ``f``'s derivative at 0 (``log``, a division: 0 * inf = NaN is
    dropped by the select), as the original, which never reads those rows, does. The limit is
    compared in int64, so an int64 ``n`` is neither rejected nor truncated."""
    if axis is not None or isinstance(src.scope_of(call), ast.Lambda) or state.mask is None:
        return None
    tf, data, reasons = src.tf, state.data, [NEGATIVE_STOP] if state.stop else []
    mask, masked = src.fresh_name("mask"), src.fresh_name("masked_values")
    lines = [f"{mask} = {state.mask}[(...,) + ({tf}.newaxis,) * ({data}.shape.rank - 1)]"]
    state = _Masked(mask_name=mask, sanitize_all=True)
    values = _lift(src, call.args[0], state)
    fill = {"sum": "0", "mean": "0", "max": 'float("-inf")', "min": 'float("inf")'}[op]
    lines.append(f"{masked} = {tf}.where({mask}, {values}, {fill})")
    text = f"{tf}.reduce_{'sum' if op == 'mean' else op}({masked})"
    if op == "mean":
        text += f" / {tf}.reduce_sum({tf}.cast({tf}.broadcast_to({mask}, {tf}.shape({masked})), {masked}.dtype))"
    if op in ("mean", "max", "min") and not _floating_values(src, call.args[0]):
        reasons.append(INT_MEAN if op == "mean" else INT_FILL)
    if op in ("max", "min"):
        reasons += [FILL_TIES, NAN_EXTREMES]
    if not isinstance(state.data_node, (ast.Name, ast.Attribute)):
        reasons.append("the expression selected from is evaluated twice (for the mask and for the values)")
    return Rewritten(replace(src, call, text), tuple(lines), tuple(reasons), state.chain)


def _keras_loss_reduction(src: Source, func: ast.expr) -> str | None:
    """"mean" or "sum" when ``func`` names a Keras loss object built in this file from one of
    KERAS_LOSS_CLASSES (``self.loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(...)``)."""
    target = src.segment(func)
    for node in src.nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
            continue
        if src.segment(node.targets[0]) != target:
            continue
        name = call_name(src, node.value) or ""
        if not name.startswith("tf.keras.losses.") or name.rsplit(".", 1)[1] not in KERAS_LOSS_CLASSES:
            return None
        if any(k.arg not in ("from_logits", "reduction", "name") for k in node.value.keywords):
            return None  # ignore_class, axis, dtype: __call__ does more than averaging call()
        reduction = kw(node.value, "reduction")
        text = "" if reduction is None else src.segment(reduction).lower()
        if text == "" or "sum_over_batch_size" in text or text.endswith(("auto", "auto'", 'auto"')):
            return "mean"
        if text.endswith(("sum", "sum'", 'sum"')):
            return "sum"
        return None
    return None


def _keras_loss(src: Source, call: ast.Call) -> Rewritten | None:
    """``loss_fn(y_true[m], y_pred[m])`` -> masked mean (or sum) of ``loss_fn.call(...)``, the
    per-example losses Keras reduces in ``__call__`` (no sample weight: it would rescale)."""
    if len(call.args) != 2 or call.keywords or isinstance(src.scope_of(call), ast.Lambda):
        return None
    reduction = _keras_loss_reduction(src, call.func)
    if reduction is None:
        return None
    state = _Masked()
    _lift(src, call.args[0], state, "labels")
    if not state.ok or state.mask is None or state.ragged:
        return None
    mask, lines = state.mask, []
    if not isinstance(state.mask_node, ast.Name):
        mask = src.fresh_name("mask")
        lines.append(f"{mask} = {state.mask}")
    state = _Masked(mask_name=mask)
    y_true, y_pred = _per_example(src, call.args[0], call.args[1], state)
    if not state.ok:
        return None
    tf, masked = src.tf, src.fresh_name("masked_values")
    lines.append(f"{masked} = {tf}.where({mask}, {src.segment(call.func)}.call({y_true}, {y_pred}), 0)")
    text = f"{tf}.reduce_sum({masked})"
    if reduction == "mean":
        text += f" / {tf}.reduce_sum({tf}.cast({mask}, {masked}.dtype))"
    reasons = ["calls the loss's `call` directly; Keras' `__call__` also converts the inputs to the loss's "
               "dtype (different under mixed precision)",
               "with nothing selected Keras 3 returns an empty tensor, the fix NaN (0/0)"]
    if not (state.smooth and state.leaves_like_mask):
        reasons.append(UNSMOOTH)
    return Rewritten(replace(src, call, text), tuple(lines), tuple(reasons), state.chain)


# Prelude lines already emitted for a statement: (statement, mask, data, fill) -> (flat mask, flat values),
# so that two consumers of one selection in one statement (`s[0], s[-1]`) share them.
Shared = dict[tuple[int, str, str, str], tuple[str, str]]


def _flatten(src: Source, sel: Selection, fill: str, at: ast.AST, shared: Shared,
             lines: list[str]) -> tuple[str, str]:
    """Names ``(flat_mask, flat_values)``, defined by lines appended to ``lines``, such that
    ``tf.boolean_mask(flat_values, flat_mask)`` is the selection: ``flat_mask`` has one entry per
    entry of the mask, ``flat_values`` the data row that entry selects (``fill`` where it is false).

    ``x[m]`` / ``tf.boolean_mask(x, m)`` with a rank-k mask lists the selected entries of ``x``'s
    first k axes in row-major order, so ``flat_values`` is ``x`` reshaped to ``[-1] + shape(x)[k:]``
    (masked-out rows set to ``fill`` with ``tf.where``, which never lets their NaN/inf through;
    an empty ``fill`` keeps them, for consumers that read selected rows only).
    The first line repeats the shape check ``tf.boolean_mask`` makes (the same
    ``assert_is_compatible_with``), so a mask of the wrong shape still raises instead of broadcasting.

    ``tf.gather(x, tf.where(m)[:, 0])`` lists, for every true entry of m in row-major order, the
    ROW of ``x`` at that entry's first coordinate: position p of the flat mask lies in row
    ``p // prod(shape(m)[1:])``. ``x`` need not have m's shape (the original only needs every
    selected row to exist), so ``flat_values`` gathers those rows, and masked-out positions read an
    extra row of ``fill`` appended to ``x``: reading ``x`` there could raise where the original
    (which reads only selected rows) returns, e.g. for an ``x`` with no rows and nothing selected.
    The gradient of the extra row is dropped, so whatever is computed from it never reaches ``x``
    (``tf.pad``, not ``tf.concat``: its gradient is dense, and XLA cannot densify the sparse
    gradient ``tf.concat`` passes on to an ``x`` with no rows)."""
    tf = src.tf
    stmt = src.statement_of(at)
    key = (id(stmt), sel.mask, src.segment(sel.data), fill)
    if key in shared:
        return shared[key]
    mask, data = sel.mask, src.segment(sel.data)
    if not mask.isidentifier():
        mask = src.fresh_name("mask")
        lines.append(f"{mask} = {sel.mask}")
    if not data.isidentifier():
        data = src.fresh_name("values")
        lines.append(f"{data} = {src.segment(sel.data)}")
    flat_mask, flat_values = src.fresh_name("flat_mask"), src.fresh_name("flat_values")
    if sel.rows:
        rows = src.fresh_name("rows")
        fill = fill or "0"
        ones = ", constant_values=1" if fill == "1" else ""
        lines += [
            f"{flat_mask} = {tf}.reshape({mask}, [-1])",
            f"# the row each mask entry reads; masked-out entries read an extra row of {fill}s",
            f"{rows} = {tf}.where({flat_mask}, {tf}.range({tf}.size({mask})) // {tf}.maximum({tf}.reduce_prod("
            f"{tf}.shape({mask})[1:]), 1), {tf}.shape({data})[0])",
            f"{flat_values} = {tf}.gather({tf}.pad({data}, [[0, 1]] + [[0, 0]] * ({data}.shape.rank - 1){ones}), {rows})",
        ]
    else:
        full = data if fill == "" else (f"{tf}.where({mask}[(...,) + ({tf}.newaxis,) * ({data}.shape.rank - "
                                         f"{mask}.shape.rank)], {data}, {fill})")
        lines += [
            f"{data}.shape[:{mask}.shape.rank].assert_is_compatible_with({mask}.shape.with_rank_at_least(1))",
            f"{flat_mask} = {tf}.reshape({mask}, [-1])",
            f"{flat_values} = {tf}.reshape({full}, {tf}.concat([[-1], {tf}.shape({data})[{mask}.shape.rank:]], 0))",
        ]
    shared[key] = (flat_mask, flat_values)
    return flat_mask, flat_values


SQUEEZED_ROWS = "tf.squeeze/tf.reshape of tf.where(m) list the rows of m's true entries only for a 1-D mask " \
                "(tf.squeeze without an axis not even then, for a single true entry)"


def _scan(src: Source, call: ast.Call, shared: Shared) -> Rewritten | None:
    """``tf.cumsum(x[m])`` -> scan the full tensor with the masked-out entries set to the scan's
    identity, flattened over the mask's axes (see ``_flatten``), then select.

    The scan (along axis 0, the only axis the selection has of data-dependent length) of
    ``flat_values``, whose masked-out rows are 0 (1 for products), holds at every selected row the
    sum (product) of the selected rows up to it: adding exact zeros and multiplying by exact ones
    changes nothing, ``reverse`` and ``exclusive`` included, and masked-out NaN/inf never enter. A
    sum's gradient is linear and sends exact zeros to the masked-out entries, so values and
    gradients are those of the original for every mask rank and input (checked on every
    inf/NaN/0 combination), up to the rounding of the order XLA scans in; a selection as the last
    op compiles and matches eager. ``cumprod`` is UNSAFE for gradients only: TensorFlow
    differentiates it as ``cumsum(out * grad, reverse) / x`` over the whole scan, so an inf
    product at a masked-out row gives 0 * inf = NaN where the original has none."""
    identity = SCANS.get(call_name(src, call) or "")
    if identity is None or len(call.args) != 1:
        return None
    if any(k.arg not in ("exclusive", "reverse") for k in call.keywords) or has_kw(call, "axis"):
        return None
    sel = selection(src, call.args[0])
    if sel is None or sel.ragged or isinstance(src.scope_of(call), ast.Lambda):
        return None
    tf, lines = src.tf, []
    flat_mask, flat_values = _flatten(src, sel, identity, call, shared, lines)
    extra = "".join(f", {k.arg}={src.segment(k.value)}" for k in call.keywords)
    text = f"{tf}.boolean_mask({src.segment(call.func)}({flat_values}{extra}), {flat_mask})"
    reasons = [SQUEEZED_ROWS] if sel.one_d else []
    if identity == "1":
        reasons.append("gradients only (values are exact): TensorFlow's cumprod gradient sums products over the "
                       "whole scan and divides by the entries, so an inf or NaN next to a masked-out row turns it "
                       "NaN (0 * inf)")
    return Rewritten(replace(src, call, text), tuple(lines), tuple(reasons), sel.chain)


def _index(src: Source, sub: ast.Subscript, shared: Shared) -> Rewritten | None:
    """``s[i]`` and ``s[a:b]`` (literal ints) of a selection -> the same rows picked from
    ``flat_values`` (see ``_flatten``) by their position among the true entries of ``flat_mask``:
    ``cumsum(flat_mask)`` counts them from the front, ``cumsum(flat_mask, reverse=True)`` from
    the back. ``s[i]`` is the one row whose count is ``i + 1`` (``-i`` from the back), gathered
    at the largest position that qualifies (for ``s[-1]``, the last true entry); the dtype and
    the shape (``shape(x)[k:]``) are those of the original. ``s[a:b]`` keeps the rows whose
    count is in range (a negative or too large bound clamps exactly as Python's slice does) and
    selects them as the last op, which compiles and matches eager. Gradients: ``tf.gather`` and
    ``tf.boolean_mask`` send each picked row its gradient and exact zeros elsewhere, as the
    original does. Where the original raises (fewer selected entries than ``s[i]`` needs, a
    negative index with nothing selected) no position qualifies and the fix gathers at -1:
    eagerly on CPU that raises too (``indices = -1 is not in [0, n)``) unless the rows are
    empty; under XLA the gather clamps and returns the first row of ``flat_values`` (zeros
    when there is none)."""
    if isinstance(src.scope_of(sub), ast.Lambda) or not isinstance(sub.ctx, ast.Load):
        return None
    sel = selection(src, sub.value)
    if sel is None or sel.ragged:
        return None
    index = number_value(sub.slice)
    if not isinstance(index, int):
        if not isinstance(sub.slice, ast.Slice) or sub.slice.step is not None:
            return None
        bounds = [number_value(b) if b is not None else None for b in (sub.slice.lower, sub.slice.upper)]
        if any(b is not None and not isinstance(b, int) for b in bounds) or \
                any(b is None and n is not None for b, n in zip(bounds, (sub.slice.lower, sub.slice.upper))):
            return None
    tf, lines = src.tf, []
    flat_mask, flat_values = _flatten(src, sel, "", sub, shared, lines)
    front = f"{tf}.cumsum({tf}.cast({flat_mask}, {tf}.int32))"
    back = f"{tf}.cumsum({tf}.cast({flat_mask}, {tf}.int32), reverse=True)"
    reasons = [SQUEEZED_ROWS] if sel.one_d else []
    if isinstance(index, int):
        keep = flat_mask if index == -1 else f"{tf}.logical_and({flat_mask}, " + (
            f"{front} == {index + 1})" if index >= 0 else f"{back} == {-index})")
        position = f"{tf}.reduce_max({tf}.where({keep}, {tf}.range({tf}.size({flat_mask})), -1))"
        return Rewritten(replace(src, sub, f"{tf}.gather({flat_values}, {position})"), tuple(lines),
                         tuple(reasons), sel.chain)
    lower, upper = bounds
    keep = flat_mask
    if lower is not None:
        keep = f"{tf}.logical_and({keep}, {f'{front} > {lower}' if lower >= 0 else f'{back} <= {-lower}'})"
    if upper is not None:
        keep = f"{tf}.logical_and({keep}, {f'{front} <= {upper}' if upper >= 0 else f'{back} > {-upper}'})"
    return Rewritten(replace(src, sub, f"{tf}.boolean_mask({flat_values}, {keep})"), tuple(lines), tuple(reasons),
                     sel.chain)


def _consumer(src: Source, node: ast.AST, shared: Shared | None = None) -> Rewritten | None:
    shared = {} if shared is None else shared
    if isinstance(node, ast.Call):
        return _reduction(src, node) or _scan(src, node, shared) or _keras_loss(src, node)
    if isinstance(node, ast.Subscript):
        return _index(src, node, shared)
    return None


@rewriter(ast.Call, ast.Subscript, ast.Assign)
def rewrite_masked(src: Source, node: ast.AST) -> Fix | None:
    """Rewrite the consumer at ``node``, or, when ``node`` assigns a selection (or the index
    tensor of one), every consumer of that name. Assignments left unused are deleted."""
    if src.tf is None:
        return None
    if isinstance(node, (ast.Call, ast.Subscript)):
        result = _consumer(src, node)
        if result is None:
            return None
        # A selection held in a name: rewrite all its consumers at once when possible, so that
        # the assignment can go; otherwise just this one.
        chain = result.chain
        consumers = (_consumers_of(src, chain[0]) if chain else None) or [node]
    else:
        assign = node if isinstance(node, ast.Assign) else src.parents.get(node)
        consumers = _consumers_of(src, assign) if isinstance(assign, ast.Assign) else None
        if not consumers:
            return None
    src.forget_fresh_names()  # probing the consumers above named temporaries it did not keep
    edits: list[Edit] = []
    reasons: list[str] = []
    chain: list[ast.Assign] = []
    preludes: dict[int, list[str]] = {}  # statement line -> lines to insert before it
    shared: Shared = {}
    for consumer in consumers:
        result = _consumer(src, consumer, shared)
        stmt = src.statement_of(consumer)
        if result is None or stmt is None:
            return None
        # Comments inside the replaced expression move to the lines above its statement.
        before = [*src.comments_within(consumer), *result.prelude]
        if before:
            if not _starts_line(src, stmt):
                return None
            preludes.setdefault(stmt.lineno, []).extend(f"{src.indent_of(stmt)}{line}\n" for line in before)
        edits.append(result.edit)
        reasons += result.reasons
        chain += [a for a in result.chain if a not in chain]
    edits += [Edit(src.line_start(line), src.line_start(line), "".join(text)) for line, text in preludes.items()]
    edits += _dead_assignments(src, consumers, chain)
    return make_fix("Apply the mask with tf.where on the full tensor instead of selecting a data-dependent "
                    "number of entries", edits, reasons)


def _starts_line(src: Source, stmt: ast.stmt) -> bool:
    """Text can be inserted before the statement (it does not follow a `;` or a colon)."""
    return src.lines[stmt.lineno - 1][: stmt.col_offset].strip() == "" and stmt.col_offset > 0


def _consumers_of(src: Source, assign: ast.Assign, depth: int = 2) -> list[ast.AST] | None:
    """Every consumer of the name ``assign`` binds, if each read of it is in a rewritable one. A
    read that is the data or index of a selection bound to another name (``idx = tf.squeeze(
    tf.where(m))``; ``rows = tf.gather(x, idx)``) is consumed where that name is: ``_consumer``
    resolves the selection through both assignments (at most ``depth`` names deep)."""
    if not (len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name)):
        return None
    consumers: list[ast.AST] = []
    for load in src.loads_of(assign.targets[0].id, src.scope_of(assign)):
        found = next((a for a in [load, *src.ancestors(load)] if _consumer(src, a) is not None), None)
        if found is None:
            outer = src.statement_of(load)
            if depth == 0 or not isinstance(outer, ast.Assign) or outer is assign:
                return None
            more = _consumers_of(src, outer, depth - 1)
            if not more:
                return None
            consumers += [c for c in more if c not in consumers]
            continue
        if found not in consumers:
            consumers.append(found)
    return consumers


def _dead_assignments(src: Source, consumers: list[ast.AST], chain: list[ast.Assign]) -> list[Edit]:
    """Delete the selection's assignments whose names are read only inside the rewritten code."""
    replaced = [(src.start(c), src.end(c)) for c in consumers]
    dead: list[ast.Assign] = []
    for assign in chain:
        target = assign.targets[0]
        if not isinstance(target, ast.Name):
            continue
        loads = src.loads_of(target.id, src.scope_of(assign))
        inside = [any(s <= src.start(ld) and src.end(ld) <= e for s, e in replaced) or
                  any(d.value is not None and _contains(d, ld) for d in dead) for ld in loads]
        if all(inside) and src.alone_on_lines(assign, assign):
            dead.append(assign)
    # A comment on a deleted line stays, on a line of its own.
    return [replace_lines(a.lineno, a.end_lineno or a.lineno,
                          "".join(f"{src.indent_of(a)}{c}\n" for c in src.comments_in(a.lineno, a.end_lineno or a.lineno)))
            for a in dead]


def _contains(outer: ast.AST, inner: ast.AST) -> bool:
    return any(n is inner for n in ast.walk(outer))
