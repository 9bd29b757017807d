"""A data-dependent size that only feeds a sum (or mean) over the axis it sizes -> that sum, without the axis.

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

* ``tf.tile(x, [m_0, ..., m_{R-1}])`` (the list's length is the rank of ``x``) with entries computed
  from data on axes ``D`` that ``A`` covers: the sum over those axes holds ``m = prod m_d`` copies of
  the sum of ``x`` over them, ``tf.where(m > 0, tf.reduce_sum(x, D, keepdims=True) * m, 0)`` (no copy
  for ``m == 0``: an inf or NaN in ``x`` stays out, as in the original); int-literal entries stay
  tiled. The gradient with respect to ``x`` is ``m``, as the original's.

The reduction may also read the value in place, ``tf.reduce_sum(tf.one_hot(ids, n), axis=-1)``
(:func:`summed_reader`: the statement is an assignment, ``return`` or expression statement, and no
lambda, comprehension, conditional expression or ``and``/``or`` stands between them; new lines go
in front of that statement). It may be a ``tf.reduce_mean`` too: the mean over the data-sized axis
is the sum over it divided by its extent, so the one-hot indicator and the one segment are divided
by ``depth``/``n``, and the mean over ``m`` tiled copies is the mean of ``x`` over the tiled axes
(an integer mean truncates: refused for certain integers, UNSAFE where the dtype is unknown). An
extent of 0 empties the original's axis, whose mean is NaN: the fix gives NaN under ``tf.where``
(XLA:CPU folds ``tf.cast(b, tf.float32) / 0.0`` into 0, measured on TF 2.21). Frames are summed only.

Ids that are not a name or attribute chain (``tf.one_hot(tf.cast(labels[:, 0], tf.int32), n)``),
which the indicator reads twice, are bound once to a fresh name just before the statement when
they call only TensorFlow functions (:func:`_read_once`). A literal depth or segment count is no
data-dependent size: left alone.

``depth``/``n``/``frame_length``/the tile counts are still computed, but only compared with ids or
positions or used as factors: no shape depends on them.
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
import dataclasses

from xlacheck.analysis.tables import array_method_as_function
from xlacheck.diagnostics import Edit, Fix, Location
from xlacheck.rewrites._expr import arg, call_name, calls_only_tensorflow, kw, number_value
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.jax_static import canonical
from xlacheck.rewrites.dtypes import INT_DTYPES, argument, certain_dtype, dtype_name, is_floating

REDUCTIONS = {f"tf.{m}reduce_{op}": op for m in ("", "math.") for op in ("sum", "mean")}
# jax.numpy's, as a function (its canonical name) or as the array's method (array_method_as_function's name)
JAX_REDUCTIONS = {f"{m}.{op}": op for m in ("jax.numpy", "jnp") for op in ("sum", "mean")}
ONE_HOT = frozenset({"tf.one_hot", "tf.compat.v1.one_hot"})
FRAMES = frozenset({"tf.signal.frame"})
TILES = frozenset({"tf.tile"})
SEGMENT_SUMS = frozenset({"tf.math.unsorted_segment_sum", "tf.unsorted_segment_sum",
                          "tf.compat.v1.unsorted_segment_sum", "tf.compat.v1.math.unsorted_segment_sum"})
EXACT_INTS = frozenset({"int32", "int64"})
INTEGERS = frozenset(INT_DTYPES)
INT_MEAN = ("cannot prove the values are floating-point: for integers the original's mean truncates, the fix "
            "divides into a float")
ORDER = ("the fix sums in another order: float sums may differ in the last bits (a float32 sum of more than "
         "2**24 ones is rounded)")


@dataclasses.dataclass(frozen=True)
class Summed:
    """The one reduction that reads a data-sized value, and where the value is computed."""

    reduction: ast.Call
    op: str  # "sum" or "mean"
    statement: ast.stmt  # the statement that computes the value (a fix's new lines go before it)
    label: str  # how a message names the value: its name, or the call's text
    assign: ast.Assign | None  # ``y = <value>`` when the value is named, None when read in place
    # the reduction as a function call of the value first (``jnp.mean(y, 0)`` for ``y.mean(0)``, with
    # the method call's own argument nodes): where its axis is read; the reduction itself otherwise
    form: ast.Call | None = None

    @property
    def call(self) -> ast.Call:
        return self.form if self.form is not None else self.reduction


# Statements a fix may put new lines in front of: their value runs once, right after those lines
# (not a loop's or an ``if``'s test, which would run the new lines once for many evaluations).
STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)
# Nodes between the value and its statement that evaluate it later, repeatedly or in another scope.
_DEFERRED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr,
             ast.IfExp, ast.BoolOp)


def summed_reader(src: Source, node: ast.Call, jax: bool = False) -> Summed | None:
    """``node``'s only reader, a ``tf.reduce_sum``/``tf.reduce_mean`` with at most an axis and
    ``keepdims``: through one name (``y = <node>`` alone on its lines, ``y`` read once, as the
    reduction's first argument) or in place (``tf.reduce_sum(<node>, axis=A)``, the statement being
    an assignment, ``return`` or expression statement and nothing between them deferring or
    repeating the evaluation: a lambda, a comprehension, a conditional expression, ``and``/``or``).
    With ``jax`` (``node`` makes a jax.Array), ``jnp.sum``/``jnp.mean`` instead, also as the array's
    method (``y.mean(axis=0)``, :func:`xlacheck.analysis.tables.array_method_as_function`)."""
    found = src.sole_reader(node)
    if found is not None:
        assign, reader = found
        statement: ast.AST = assign
        label = reader.id
    else:
        assign, reader, label = None, node, src.segment(node)
        statement = node
        while not isinstance(statement, ast.stmt):
            statement = src.parents.get(statement)
            if statement is None or isinstance(statement, _DEFERRED):
                return None
        if not isinstance(statement, STATEMENTS):
            return None
    reduction = src.parents.get(reader)
    form = None
    if not jax:
        op = REDUCTIONS.get(call_name(src, reduction) or "") if isinstance(reduction, ast.Call) else None
    elif isinstance(reduction, ast.Attribute) and reduction.value is reader:
        reduction = src.parents.get(reduction)
        method = array_method_as_function(reduction) \
            if isinstance(reduction, ast.Call) and reduction.func is src.parents.get(reader) else None
        op = JAX_REDUCTIONS.get(method[0]) if method is not None else None
        form = method[1] if method is not None else None
    else:
        op = JAX_REDUCTIONS.get(canonical(src, reduction.func) or "") if isinstance(reduction, ast.Call) else None
    call = form if form is not None else reduction
    if op is None or call.args[:1] != [reader] or len(call.args) > 2 \
            or {k.arg for k in call.keywords} - {"axis", "keepdims"}:  # type: ignore[union-attr]
        return None
    if len(call.args) == 2 and kw(call, "axis") is not None:  # type: ignore[arg-type]
        return None
    return Summed(reduction, op, statement, label, assign, form)  # type: ignore[arg-type]


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
    if name not in ONE_HOT and name not in SEGMENT_SUMS and name not in FRAMES and name not in TILES:
        return None
    summed = summed_reader(src, node)
    if summed is None:
        return None
    axes = _axes(summed.reduction)
    if axes is None:
        return None
    if name in ONE_HOT:
        return _one_hot(src, node, axes, summed)
    if name in FRAMES:
        return _frame(src, node, axes, summed)
    if name in TILES:
        return _tile(src, node, axes, summed)
    return _segment_sum(src, node, axes, summed)


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


def _one_hot(src: Source, node: ast.Call, axes: list[int], summed: Summed) -> Fix | None:
    tf = src.tf
    ids, depth = argument(node, 0, "indices"), argument(node, 1, "depth")
    if ids is None or depth is None or len(node.args) > 2 or type(number_value(depth)) is int:
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
    read = _read_once(src, ids, summed)
    if read is None:
        return None
    ids_text, before = read
    indicator = (f"{tf}.cast(({tf}.cast({ids_text}, {tf}.int64) >= 0) & ({tf}.cast({ids_text}, {tf}.int64) "
                 f"< {tf}.cast({arg(src, depth)}, {tf}.int64)), {dtype_text})[..., None]")
    if summed.op == "mean":
        if not is_floating(dtype):
            return None  # an integer mean truncates: the indicator divided by the depth is a float
        # the mean over the one-hot axis is the indicator over the depth (0 / 0 = NaN for depth 0,
        # as the mean over the original's empty axis)
        indicator = _over_count(src, indicator, arg(src, depth), dtype_text)
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
    what = "averaged" if summed.op == "mean" else "summed"
    result = "the indicator of ids in range over the depth" if summed.op == "mean" else \
        "the indicator of ids in range"
    return make_fix(f"{what.capitalize()} over the one-hot axis before `{summed.label}` is reduced: its size "
                    f"`{src.segment(depth)}` comes from the data, and the {'mean' if summed.op == 'mean' else 'sum'} "
                    f"over it is {result} (no data-dependent shape)", [*before, replace(src, node, value)], reasons)


def _segment_sum(src: Source, node: ast.Call, axes: list[int], summed: Summed) -> Fix | None:
    tf = src.tf
    data, ids, count = argument(node, 0, "data"), argument(node, 1, "segment_ids"), argument(node, 2, "num_segments")
    if data is None or ids is None or count is None or {k.arg for k in node.keywords} - {
            "data", "segment_ids", "num_segments", "name"} or len(node.args) > 3:
        return None
    if axes and 0 not in axes or type(number_value(count)) is int:
        return None  # a literal count is no data-dependent size (and is what this fix writes)
    read = _read_once(src, ids, summed)
    if read is None:
        return None
    i, before = read
    x = src.segment(data)
    in_range = (f"({tf}.cast({i}, {tf}.int64) >= 0) & ({tf}.cast({i}, {tf}.int64) < "
                f"{tf}.cast({arg(src, count)}, {tf}.int64))")
    # one segment: ids in range go to segment 0, the others to -1, which unsorted_segment_sum drops
    # (eagerly and under XLA, whose scatter skips out-of-range rows); no rank or shape is read, so
    # ids and data of unknown rank are fine
    value = f"{tf}.math.unsorted_segment_sum({x}, {tf}.where({in_range}, 0, -1), 1)"
    dtype = certain_dtype(src, data)
    if summed.op == "mean":
        if dtype in INTEGERS or not _plain(data):
            return None  # an integer mean truncates; the data's dtype is read again
        # the mean over the segment axis divides the one segment by the segment count (0 / 0 = NaN
        # for no segments, as the mean over the original's empty axis)
        value = _over_count(src, value, arg(src, count), f"{x}.dtype")
    reasons = [] if dtype in EXACT_INTS else [ORDER]
    if summed.op == "mean" and not is_floating(dtype):
        reasons.append(INT_MEAN)
    return make_fix(f"{'Average' if summed.op == 'mean' else 'Sum'} the segments away before `{summed.label}` "
                    f"is reduced over them: the segment count `{src.segment(count)}` comes from the data, and the "
                    f"{'mean' if summed.op == 'mean' else 'sum'} over all segments is "
                    f"{'that of one segment holding' if summed.op == 'mean' else 'the sum of'} "
                    f"`{x}` where the ids are in range (no data-dependent shape)", [*before, replace(src, node, value)],
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


def _frame(src: Source, node: ast.Call, axes: list[int], summed: Summed) -> Fix | None:
    tf = src.tf
    if summed.op != "sum":
        return None
    target = summed.label
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
    base = target if summed.assign is not None else "frames"
    positions, counts = src.fresh_name(f"{base}_positions"), src.fresh_name(f"{base}_frames_per_sample")
    lines = [f"{positions} = {tf}.range({tf}.shape({x}, out_type={tf}.int64)[-1])",
             f"{counts} = {tf}.maximum({tf}.minimum(({tf}.size({positions}, out_type={tf}.int64) - {n}) // {s}, "
             f"{positions} // {s}) - {tf}.maximum(({positions} - {n} + {s}) // {s}, 0) + 1, 0)"]
    weighted = (f"{tf}.reduce_sum({tf}.where({counts} > 0, {x} * {tf}.cast({counts}, {x}.dtype), "
                f"{tf}.zeros_like({x})), axis=-1, keepdims=True)[..., None]")
    value = f"({weighted} if {_rank_test(src, x, ranks)} else {src.segment(node)})" if ranks else weighted
    edits = [lines_before(src, summed.statement, lines), replace(src, node, value)]
    reasons = [] if certain_dtype(src, signal) in EXACT_INTS else [
        ORDER, "each sample is multiplied by the number of frames that hold it where the original adds "
               "that many copies (float products are rounded once)"]
    return make_fix(f"Sum the frames away before `{target}` is reduced over them: the frame length "
                    f"`{src.segment(length)}` comes from the data, and the sum over every frame is each sample "
                    "times the number of frames that hold it (no data-dependent shape)",
                    edits, reasons)


def _read_once(src: Source, ids: ast.expr, summed: Summed) -> tuple[str, list[Edit]] | None:
    """``ids`` as code the fix may read twice: as written when it is a name or attribute chain;
    else a fresh name bound to it just before the statement (the edit), when it calls only
    TensorFlow functions and binds nothing (so computing it first, and once, gives its value)."""
    if _plain(ids):
        return src.segment(ids), []
    if calls_only_tensorflow(src, ids) is not None or any(
            isinstance(n, (ast.NamedExpr, ast.Lambda)) for n in ast.walk(ids)):
        return None
    name = src.fresh_name("ids")
    return name, [lines_before(src, summed.statement, [f"{name} = {src.segment(ids)}"])]


def _over_count(src: Source, value: str, count: str, dtype: str) -> str:
    """``value / count``, NaN where the count is not positive (the mean over an empty axis): written
    with ``tf.where`` because XLA:CPU folds ``0 / 0`` of a cast boolean into 0 (measured on TF 2.21:
    ``tf.cast(b, tf.float32) / 0.0`` gives NaN eagerly and 0 compiled). A non-positive count raises
    in the original or empties its axis; the NaN branch is a constant, so no gradient reaches it."""
    tf = src.tf
    return f"{tf}.where({count} > 0, {value} / {tf}.cast({count}, {dtype}), float(\"nan\"))"


def lines_before(src: Source, statement: ast.stmt, lines: list[str]) -> Edit:
    """Insert ``lines`` in front of ``statement``, at its indentation."""
    indent = src.indent_of(statement)
    at = Location(statement.lineno, 0)
    return Edit(at, at, "".join(f"{indent}{line}\n" for line in lines))


def _tile(src: Source, node: ast.Call, axes: list[int], summed: Summed) -> Fix | None:
    """``tf.tile(x, [m_0, ..., m_{R-1}])`` with the entries computed from data (not int literals)
    on axes the reduction covers: the sum over such an axis holds ``m_k`` copies of the sum of
    ``x`` over it, and the mean over it is the mean of ``x`` over it; literal entries stay tiled."""
    tf = src.tf
    x, multiples = argument(node, 0, "input"), argument(node, 1, "multiples")
    if x is None or multiples is None or len(node.args) > 2 or {k.arg for k in node.keywords} - {
            "input", "multiples", "name"}:
        return None
    if not isinstance(multiples, (ast.List, ast.Tuple)) or not multiples.elts \
            or any(isinstance(e, ast.Starred) for e in multiples.elts) or not _plain(x):
        return None
    rank = len(multiples.elts)  # tf.tile takes one multiple per axis of x: the list's length is its rank
    literal = [number_value(e) for e in multiples.elts]
    data = [k for k, v in enumerate(literal) if type(v) is not int]
    if not data or not all(_plain(multiples.elts[k]) for k in data):
        return None
    if any(not -rank <= a < rank for a in axes):
        return None
    covered = set(range(rank)) if not axes else {a % rank for a in axes}
    if not set(data) <= covered:
        return None  # a data-sized axis survives the reduction: the output shape depends on the data
    dtype = certain_dtype(src, x)
    if summed.op == "mean" and dtype in INTEGERS:
        return None  # an integer mean truncates
    text = src.segment(x)
    count = " * ".join(f"{tf}.cast({arg(src, multiples.elts[k])}, {tf}.int64)" for k in data)
    count = f"({count})" if len(data) > 1 else count
    axis_list = f"[{', '.join(map(str, data))}]"
    if summed.op == "sum":
        # m copies of the sum (none for m == 0: an inf or NaN in x does not reach the result)
        total = f"{tf}.reduce_sum({text}, axis={axis_list}, keepdims=True)"
        value = f"{tf}.where({count} > 0, {total} * {tf}.cast({count}, {text}.dtype), 0)"
        reasons = [] if dtype in EXACT_INTS else [
            ORDER, "the sum of x is multiplied by the tile count where the original adds that many copies "
                   "(float products are rounded once)"]
    else:
        # the mean over m copies is the mean of x; NaN for m == 0, as the mean over an empty axis
        mean = f"{tf}.reduce_mean({text}, axis={axis_list}, keepdims=True)"
        value = f"{tf}.where({count} > 0, {mean}, {tf}.zeros_like({mean}) + float(\"nan\"))"
        reasons = [ORDER] if is_floating(dtype) else [ORDER, INT_MEAN]
    if any(v != 1 for k, v in enumerate(literal) if k not in data):
        kept = ", ".join("1" if k in data else src.segment(e) for k, e in enumerate(multiples.elts))
        value = f"{tf}.tile({value}, [{kept}])"  # literal multiples compile: they stay
    result = "mean over the copies is the mean of" if summed.op == "mean" else \
        "sum over the copies is the count times the sum of"
    return make_fix(f"{'Average' if summed.op == 'mean' else 'Sum'} over the tiled axes before `{summed.label}` is "
                    f"reduced: the tile counts come from the data, and the {result} `{text}` (no data-dependent "
                    "shape)", [replace(src, node, value)], reasons)
