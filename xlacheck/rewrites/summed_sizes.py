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
  ``ids``, which the fixed code tests while tracing (``... if tf.get_static_value(tf.rank(ids)) in
  (1, 2) else tf.one_hot(ids, depth)``): where it is not, or the rank is unknown while tracing, the
  original stays.
* ``tf.math.unsorted_segment_sum(x, ids, n)``: row ``s`` of the result sums the entries of ``x``
  whose id is ``s``, ids outside ``[0, n)`` dropped (negative ids) or raising (``>= n``, eagerly);
  the sum over the segment axis 0 is the sum of ``x`` where ``0 <= ids < n``, which is one segment:
  ``tf.math.unsorted_segment_sum(x, tf.where(m, 0, -1), 1)`` with ``m`` that indicator (segment
  ``-1`` is dropped, eagerly and by XLA's scatter). It reads no rank, so ids of unknown rank are
  fine. The gradient with respect to ``x`` is 1 on those entries and 0 elsewhere, as the
  original's; ``A`` covers axis 0 when it holds ``0`` (or is absent).
* ``tf.signal.frame(x, n, s)`` (``pad_end`` False, frames along the last axis): ``y[..., f, t] =
  x[..., f * s + t]`` for ``f < F = max(0, 1 + (L - n) // s)`` frames and ``t < n``, so the sum
  over both new axes (``A`` holds ``-2`` and ``-1``, or the two axes ``R - 1`` and ``R`` of a rank
  ``R`` signal, tested while tracing as above, or is absent) is ``sum_j c_j * x[..., j]`` where
  ``c_j`` counts the frames that hold sample ``j``: ``f`` from ``max(0, ceil((j - n + 1) / s))``
  to ``min(F - 1, j // s)``. ``y`` becomes that weighted sum with two size-1 axes, and samples no
  frame holds are not read (``tf.where``: an inf there would give ``inf * 0``). Its gradient is
  ``c_j``, as the original's.

``depth``/``n``/``frame_length`` are still computed, but only compared with ids or positions: no
shape depends on them.
SAFE for integer sums (certainly int32/int64: integer addition is exact modulo 2**k in any order);
for floats UNSAFE, and the message says why: the fix sums in another order (float sums may differ
in the last bits; a sum of more than 2**24 float32 ones is rounded). The assignment of ``y``
becomes the summed tensor's, in place and under the same name (it reads what the original call
reads, where it read it); ``y`` must have no other reader. For a frame sum the weighted sum
multiplies where the original adds ``c_j`` copies: rounded once instead of ``c_j`` times, so floats
are UNSAFE for that reason as well.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Edit, Fix, Location
from xlacheck.rewrites._expr import arg, call_name, kw, number_value
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import argument, certain_dtype, dtype_name

SUMS = frozenset({"tf.reduce_sum", "tf.math.reduce_sum"})
ONE_HOT = frozenset({"tf.one_hot", "tf.compat.v1.one_hot"})
FRAMES = frozenset({"tf.signal.frame"})
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
    if name not in ONE_HOT and name not in SEGMENT_SUMS and name not in FRAMES:
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
    if name in FRAMES:
        return _frame(src, node, axes, assign)
    return _segment_sum(src, node, axes, target)


def _rank_test(src: Source, tensor: str, ranks: list[int]) -> str:
    """A trace-time test that ``tensor`` has one of ``ranks``: its static rank, None (so False) where
    the rank is unknown, in which case the original call stays (``len(t.shape)`` raises there)."""
    tf = src.tf
    rank = f"{tf}.get_static_value({tf}.rank({tensor}))"
    return f"{rank} == {ranks[0]}" if len(ranks) == 1 else f"{rank} in ({', '.join(map(str, ranks))})"


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
        value = f"({indicator} if {_rank_test(src, ids_text, ranks)} else {src.segment(node)})"
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
    if not _plain(ids):
        return None
    x, i = src.segment(data), src.segment(ids)
    in_range = (f"({tf}.cast({i}, {tf}.int64) >= 0) & ({tf}.cast({i}, {tf}.int64) < "
                f"{tf}.cast({arg(src, count)}, {tf}.int64))")
    # one segment: ids in range go to segment 0, the others to -1, which unsorted_segment_sum drops
    # (eagerly and under XLA, whose scatter skips out-of-range rows); no rank or shape is read, so
    # ids and data of unknown rank are fine
    value = f"{tf}.math.unsorted_segment_sum({x}, {tf}.where({in_range}, 0, -1), 1)"
    reasons = [] if certain_dtype(src, data) in EXACT_INTS else [ORDER]
    return make_fix(f"Sum the segments away before `{target}` is reduced over them: the segment count "
                    f"`{src.segment(count)}` comes from the data, and the sum over all segments is the sum of "
                    f"`{x}` where the ids are in range (no data-dependent shape)", [replace(src, node, value)],
                    reasons)



MAX_RANK = 8  # signal ranks a non-negative axis list is matched against


def _frame_ranks(axes: list[int]) -> list[int] | None:
    """The signal ranks ``R`` for which ``axes`` cover both frame axes (``R - 1`` and ``R`` of the
    framed result); ``[]`` when they cover them whatever the rank; None when no rank does."""
    if not axes or {-2, -1} <= set(axes):
        return []
    ranks = []
    for rank in range(1, MAX_RANK + 1):
        if any(a < -(rank + 1) or a > rank for a in axes):
            continue
        covered = {a % (rank + 1) for a in axes}
        if {rank - 1, rank} <= covered:
            ranks.append(rank)
    return ranks or None


def _frame(src: Source, node: ast.Call, axes: list[int], assign: ast.Assign) -> Fix | None:
    tf = src.tf
    target = assign.targets[0].id  # type: ignore[attr-defined]
    signal, length, step = (argument(node, 0, "signal"), argument(node, 1, "frame_length"),
                            argument(node, 2, "frame_step"))
    if signal is None or length is None or step is None or len(node.args) > 3:
        return None
    if {k.arg for k in node.keywords} - {"signal", "frame_length", "frame_step", "pad_end", "axis", "name"}:
        return None
    pad_end, axis = kw(node, "pad_end"), kw(node, "axis")
    if pad_end is not None and not (isinstance(pad_end, ast.Constant) and pad_end.value is False):
        return None
    if axis is not None and number_value(axis) != -1:
        return None
    if not (_plain(signal) and all(_plain(n) or number_value(n) is not None for n in (length, step))):
        return None
    ranks = _frame_ranks(axes)
    if ranks is None:
        return None
    x = src.segment(signal)
    n, s = (str(int(number_value(v))) if type(number_value(v)) is int else f"{tf}.cast({arg(src, v)}, {tf}.int64)"
            for v in (length, step))
    positions, counts = src.fresh_name(f"{target}_positions"), src.fresh_name(f"{target}_frames_per_sample")
    lines = [f"{positions} = {tf}.range({tf}.shape({x}, out_type={tf}.int64)[-1])",
             f"{counts} = {tf}.maximum({tf}.minimum(({tf}.size({positions}, out_type={tf}.int64) - {n}) // {s}, "
             f"{positions} // {s}) - {tf}.maximum(({positions} - {n} + {s}) // {s}, 0) + 1, 0)"]
    weighted = (f"{tf}.reduce_sum({tf}.where({counts} > 0, {x} * {tf}.cast({counts}, {x}.dtype), "
                f"{tf}.zeros_like({x})), axis=-1, keepdims=True)[..., None]")
    value = f"({weighted} if {_rank_test(src, x, ranks)} else {src.segment(node)})" if ranks else weighted
    indent = src.indent_of(assign)
    at = Location(assign.lineno, 0)
    edits = [Edit(at, at, "".join(f"{indent}{line}\n" for line in lines)),
             replace(src, node, value)]
    reasons = [] if certain_dtype(src, signal) in EXACT_INTS else [
        ORDER, "each sample is multiplied by the number of frames that hold it where the original adds "
               "that many copies (float products are rounded once)"]
    return make_fix(f"Sum the frames away before `{target}` is reduced over them: the frame length "
                    f"`{src.segment(length)}` comes from the data, and the sum over every frame is each sample "
                    "times the number of frames that hold it (no data-dependent shape)",
                    edits, reasons)
