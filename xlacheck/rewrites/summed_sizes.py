"""A data-dependent size that only feeds a sum over the axis it sizes -> that sum, without the axis.

``y = tf.one_hot(ids, depth)`` and ``y = tf.math.unsorted_segment_sum(x, ids, n)`` with ``depth`` or
``n`` computed from tensor values (XLA205) have an extent along one axis that depends on the data:
XLA compiles once per value, or not at all (from a reduction, a variable, a loop). When ``y`` is
read once, afterwards, by ``tf.reduce_sum(y, axis=A)`` and ``A`` provably covers that axis, the
extent never reaches the result: summing over the axis first leaves a size-1 axis that the
reduction sums again, so the result has the original's shape, and its values:

* ``tf.one_hot(ids, depth[, dtype=D])`` (on 1, off 0, the new axis last): along the new axis one
  entry is 1 where ``0 <= ids < depth`` and none otherwise, so its sum is that indicator,
  ``tf.cast((ids >= 0) & (ids < depth), D)[..., None]`` (compared in int64: ``ids`` may be any
  integer dtype, ``depth`` is int32). The new axis is the last, so ``A`` covers it when it holds
  ``-1`` (or is absent: every axis); a non-negative entry ``k`` covers it when ``k`` is the rank of
  ``ids``, which the fixed code tests while tracing (``... if len(ids.shape) in (1, 2) else
  tf.one_hot(ids, depth)``): where it is not, the original stays.
* ``tf.math.unsorted_segment_sum(x, ids, n)``: row ``s`` of the result sums the entries of ``x``
  whose id is ``s``, ids outside ``[0, n)`` dropped (negative ids) or raising (``>= n``, eagerly);
  the sum over the segment axis 0 is the sum of ``x`` where ``0 <= ids < n``:
  ``tf.reduce_sum(tf.where(m, x, tf.zeros_like(x)), axis=list(range(len(ids.shape))))[None]``
  with ``m`` the indicator broadcast over ``x``'s trailing axes. The gradient with respect to
  ``x`` is 1 on those entries and 0 elsewhere, as the original's; ``A`` covers axis 0 when it
  holds ``0`` (or is absent).

``depth``/``n`` are still computed, but only compared with ids: no shape depends on them.
SAFE for integer sums (certainly int32/int64: integer addition is exact modulo 2**k in any order);
for floats UNSAFE, and the message says why: the fix sums in another order (float sums may differ
in the last bits; a sum of more than 2**24 float32 ones is rounded). The assignment of ``y``
becomes the summed tensor's, in place and under the same name (it reads what the original call
reads, where it read it); ``y`` must have no other reader.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, call_name, kw, number_value
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import argument, certain_dtype, dtype_name

SUMS = frozenset({"tf.reduce_sum", "tf.math.reduce_sum"})
ONE_HOT = frozenset({"tf.one_hot", "tf.compat.v1.one_hot"})
SEGMENT_SUMS = frozenset({"tf.math.unsorted_segment_sum", "tf.unsorted_segment_sum",
                          "tf.compat.v1.unsorted_segment_sum", "tf.compat.v1.math.unsorted_segment_sum"})
EXACT_INTS = frozenset({"int32", "int64"})
ORDER = ("the fix sums in another order: float sums may differ in the last bits (a float32 sum of more than "
         "2**24 ones is rounded)")


def _single_reader(src: Source, node: ast.Call) -> tuple[ast.Assign, ast.Call] | None:
    """``y = <node>`` alone on its lines, ``y`` read once, as the first argument of a ``tf.reduce_sum``
    with only ``axis``/``keepdims`` keywords (the assignment and that reduction)."""
    found = src.sole_reader(node)
    if found is None:
        return None
    assign, reader = found
    reduction = src.parents.get(reader)
    if not (isinstance(reduction, ast.Call) and call_name(src, reduction) in SUMS and reduction.args[:1] == [reader]
            and len(reduction.args) <= 2 and not {k.arg for k in reduction.keywords} - {"axis", "keepdims"}):
        return None
    if len(reduction.args) == 2 and kw(reduction, "axis") is not None:
        return None
    return assign, reduction


def _axes(reduction: ast.Call) -> list[int] | None:
    """The reduction's axes as int literals; [] for every axis (absent or None); None if unknown."""
    node = argument(reduction, 1, "axis")
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return []
    items = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
    values = [number_value(i) for i in items]
    if not items or any(type(v) is not int for v in values):
        return None
    return values  # type: ignore[return-value]


@rewriter(ast.Call)
def rewrite_summed_size(src: Source, node: ast.AST) -> Fix | None:
    tf = src.tf
    if tf is None or not isinstance(node, ast.Call):
        return None
    name = call_name(src, node)
    if name not in ONE_HOT and name not in SEGMENT_SUMS:
        return None
    found = _single_reader(src, node)
    if found is None:
        return None
    assign, reduction = found
    axes = _axes(reduction)
    if axes is None:
        return None
    target = assign.targets[0].id  # type: ignore[attr-defined]
    if name in ONE_HOT:
        return _one_hot(src, node, axes, target)
    return _segment_sum(src, node, axes, target)


def _plain(node: ast.AST) -> bool:
    """A name or attribute chain: read twice by the fix, so nothing is evaluated twice."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _one_hot(src: Source, node: ast.Call, axes: list[int], target: str) -> Fix | None:
    tf = src.tf
    ids, depth = argument(node, 0, "indices"), argument(node, 1, "depth")
    if ids is None or depth is None or len(node.args) > 2 or not _plain(ids):
        return None
    extra = {k.arg for k in node.keywords} - {"indices", "depth", "dtype", "name"}
    axis = kw(node, "axis")
    if extra - {"axis"} or (axis is not None and number_value(axis) != -1):
        return None
    dtype_node = kw(node, "dtype")
    dtype = "float32" if dtype_node is None else dtype_name(src, dtype_node)
    if dtype is None:
        return None
    dtype_text = f"{tf}.float32" if dtype_node is None else src.segment(dtype_node)
    ids_text = src.segment(ids)
    indicator = (f"{tf}.cast(({tf}.cast({ids_text}, {tf}.int64) >= 0) & ({tf}.cast({ids_text}, {tf}.int64) "
                 f"< {tf}.cast({arg(src, depth)}, {tf}.int64)), {dtype_text})[..., None]")
    if axes and -1 not in axes:
        # the new axis is axis len(ids.shape): covered by a non-negative entry equal to the rank of ids,
        # tested while tracing; where it is not covered the original call stays
        ranks = sorted({a for a in axes if a >= 1})
        if not ranks:
            return None
        test = f"len({ids_text}.shape) == {ranks[0]}" if len(ranks) == 1 else \
            f"len({ids_text}.shape) in ({', '.join(map(str, ranks))})"
        value = f"({indicator} if {test} else {src.segment(node)})"
    else:
        value = indicator
    reasons = [] if dtype in EXACT_INTS else [ORDER]
    return make_fix(f"Sum the one-hot axis away before `{target}` is reduced: its size `{src.segment(depth)}` "
                    "comes from the data, and the sum over it is the indicator of ids in range "
                    "(no data-dependent shape)", [replace(src, node, value)], reasons)


def _segment_sum(src: Source, node: ast.Call, axes: list[int], target: str) -> Fix | None:
    tf = src.tf
    data, ids, count = argument(node, 0, "data"), argument(node, 1, "segment_ids"), argument(node, 2, "num_segments")
    if data is None or ids is None or count is None or {k.arg for k in node.keywords} - {
            "data", "segment_ids", "num_segments", "name"} or len(node.args) > 3:
        return None
    if axes and 0 not in axes:
        return None
    if not (_plain(data) and _plain(ids)):
        return None
    x, i = src.segment(data), src.segment(ids)
    in_range = (f"({tf}.cast({i}, {tf}.int64) >= 0) & ({tf}.cast({i}, {tf}.int64) < "
                f"{tf}.cast({arg(src, count)}, {tf}.int64))")
    value = (f"{tf}.reduce_sum({tf}.where(({in_range})[(...,) + (None,) * (len({x}.shape) - len({i}.shape))], {x}, "
             f"{tf}.zeros_like({x})), axis=list(range(len({i}.shape))))[None]")
    reasons = [] if certain_dtype(src, data) in EXACT_INTS else [ORDER]
    return make_fix(f"Sum the segments away before `{target}` is reduced over them: the segment count "
                    f"`{src.segment(count)}` comes from the data, and the sum over all segments is the sum of "
                    f"`{x}` where the ids are in range (no data-dependent shape)", [replace(src, node, value)],
                    reasons)

