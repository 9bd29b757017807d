"""Counting and grouping ops whose output size depends on the data.

``tf.math.bincount(ids, minlength=K, maxlength=K[, dtype=D])`` is value-specialized under XLA
even with ``minlength == maxlength`` (one compilation per new input, none from a variable or
random input). It becomes ``tf.reduce_sum(tf.one_hot(tf.reshape(tf.cast(ids, tf.int64), [-1]),
K, dtype=D), axis=0)``, exact (SAFE) wherever the original returns, when ``K`` is a Python int
in [0, 2**31) the reader can see (a literal or a module constant assigned once):

* bincount flattens ``ids`` of any rank (``reshape(-1)``), counts each value v in [0, K) in
  bin v and drops values >= K (``maxlength``); the one-hot row of such a value is all zeros;
* negative ids raise (InvalidArgumentError from DenseBincount, for int32/int64 tensors, lists
  and arrays, whatever ``dtype``); there the fix, which does not count them, is unconstrained;
* float and bool ids are cast to int32 by bincount (truncation); it returns only when every
  cast value is >= 0, i.e. -1 < v < 2**31 (NaN, inf and larger values cast to INT_MIN and
  raise), and there the int64 cast truncates to the same value. The int64 cast keeps int64
  ids >= 2**31 out of range, as bincount does (an int32 cast would wrap them into a bin);
* the result has bincount's dtype: ``D`` when given (int32, int64, float32 and float64 are
  accepted; float16, bool, int8 ... raise), int32 by default; float counts are sums of ones;
* empty ``ids`` give K zeros in both; K = 0 gives an empty vector in both.

``K`` may also be an int32 shape the reader can see (``tf.shape(x)[k]``, ``tf.size(x)``, or a
name bound once to one): ``tf.one_hot`` takes an int32 tensor depth, and under XLA it is a
compile-time constant (one compilation per input shape). Any other ``K`` stays UNSAFE: bincount
accepts an int64 tensor ``K`` with int64 ids, ``tf.one_hot`` rejects it.

With ``weights=W`` bincount sums W per bin in W's dtype (``dtype`` is ignored). The fix is
``tf.math.unsorted_segment_sum(tf.reshape(W, [-1]), tf.minimum(ids, K), K + 1)[:K]``: ids >= K
land in one extra segment that is sliced off, as bincount drops them; the result has W's dtype
and K entries. Integer weights give exactly the same sums (SAFE); float weights are added in
another order, so the last bits may differ (UNSAFE). (A one-hot product would turn an inf
weight into NaN in every other bin, 0 * inf.)

``minlength != maxlength`` (or no ``minlength``): the original has ``max(minlength, max(ids) +
1)`` bins, capped at ``maxlength``; the fix always has ``maxlength`` bins, the extra ones zeros.
Equal where the original reaches ``maxlength`` (the shape a loop accumulating the counts
needs), different in length otherwise: UNSAFE, and it says so. With literal ``minlength >=
maxlength`` the length is ``maxlength`` in both (SAFE). SparseTensor ids (which bincount counts by their
stored values) make the fix raise; ragged ids are counted alike by both.

``tf.math.segment_sum/mean/prod(data, ids)`` has no XLA kernel. With ``n = max(ids) + 1``
(0 for empty ids: ``tf.reduce_max`` of an empty int tensor is the dtype's minimum, hence the
``tf.maximum(..., 0)``) it equals ``tf.math.unsorted_segment_*(data, ids, num_segments=n)``
wherever the original returns. The original raises for unsorted, negative or 2-D ids and for
ids not matching the data's rows; for sorted ids both give n rows shaped like the data's rows,
with 0, 0 and 1 for the ids that do not occur, and the same gradients w.r.t. ``data`` (NaN,
inf and zeros included: checked by running). The ids are cast to int64: ``n`` is 2**31 for an
int32 id 2**31 - 1 (the original returns such a tensor when the data's rows are empty), and
the kernel takes ``num_segments`` in the ids' dtype. The fix is SAFE when ``ids`` is a plain
name (it is read twice) and, for ``segment_mean``, when the data is provably floating: on
integer data segment_mean truncates and keeps the dtype while unsorted_segment_mean divides
into a float, and it rejects complex data (it also counts the ids per segment in a vector of
``n`` entries: 8 GiB for n = 2**31 over empty rows, where segment_mean needs none). Sums and
products keep the data's dtype, integer and complex included. ``num_segments`` still comes
from the data, so XLA compiles once per value of it (value-specialized code); the message
recommends a static ``num_segments``. ``segment_max/min`` fill empty segments differently (0
versus the dtype's lowest value) and get an explanation.

``tf.unique`` produces as many rows as the data says; no static-shape program returns the same
tensor, so it gets an explanation only. Ragged tensors made dense at once
(``from_row_lengths/from_row_splits(...).to_tensor()``) are rewritten in
:mod:`xlacheck.rewrites.ragged`; other ragged uses get an explanation.
"""

from __future__ import annotations

import ast

from xlacheck.analysis.dtypes import INT_DTYPES
from xlacheck.diagnostics import Edit, Fix
from xlacheck.analysis.scopes import parameter_defaults
from xlacheck.rewrites._expr import arg, atom, call_name, kw, static_int, tf_name
from xlacheck.rewrites._fix import explain, make_fix, replace, replace_block, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import certain_dtype, is_floating
from xlacheck.rewrites.ragged import rewrite_ragged_to_tensor
from xlacheck.rewrites.segment_bounds import partner
from xlacheck.rewrites.value_bounds import int_upper_bound

UNIQUE = frozenset({"tf.unique", "tf.math.unique", "tf.unique_with_counts", "tf.math.unique_with_counts"})
SEGMENTS = frozenset(f"tf.math.segment_{op}" for op in ("sum", "mean", "max", "min", "prod"))
RAGGED_PREFIXES = ("tf.RaggedTensor.from_", "tf.ragged.")


def _int32_length(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """``tf.shape(x)[k]`` or ``tf.size(x)``, directly or through the name's single binding: an
    int32 scalar tensor, which ``tf.one_hot`` takes as its depth (and XLA folds to a constant)."""
    if isinstance(node, ast.Name) and depth < 4:
        bound = src.local_binding(node.id, node)
        return bound is not None and _int32_length(src, bound, depth + 1)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
        inner = node.value
        return isinstance(inner, ast.Call) and call_name(src, inner) == "tf.shape" and len(inner.args) == 1 \
            and not inner.keywords
    return isinstance(node, ast.Call) and call_name(src, node) == "tf.size" and len(node.args) == 1 \
        and not node.keywords


# elementwise TF functions a histogram may pass through before it is read at the counted ids (the
# histogram first, the other arguments numbers or dtypes)
_ELEMENTWISE = frozenset({"tf.cast", "tf.maximum", "tf.minimum", "tf.math.maximum", "tf.math.minimum", "tf.sqrt",
                          "tf.math.sqrt", "tf.math.rsqrt", "tf.math.log", "tf.math.log1p", "tf.exp", "tf.math.exp",
                          "tf.math.reciprocal", "tf.math.reciprocal_no_nan", "tf.pow", "tf.math.pow",
                          "tf.math.divide_no_nan", "tf.math.xdivy"})
_ARITH_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv, ast.Mod)


def _constant_operand(src: Source, node: ast.AST) -> bool:
    """A number, a ``tf.float32``-style dtype, or a name bound once to a number (module or function)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return True
    if isinstance(node, ast.Attribute) and (tf_name(src, node) or "").startswith("tf.") and node.attr in (
            "float16", "bfloat16", "float32", "float64", "int32", "int64"):
        return True
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node) or src.module_constant(node)
        return isinstance(bound, ast.Constant) and type(bound.value) in (int, float)
    return False


def _read_at_ids(src: Source, read: ast.AST, ids: str) -> ast.expr | None:
    """The ``tf.gather(E, ids)`` that reads the histogram name ``read`` through ``E``, elementwise
    arithmetic with numbers and :data:`_ELEMENTWISE` functions of it; None for any other read."""
    value: ast.AST = read
    while True:
        parent = src.parents.get(value)
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, _ARITH_OPS) \
                and _constant_operand(src, parent.right if parent.left is value else parent.left):
            value = parent
        elif isinstance(parent, ast.Call) and parent.args and parent.args[0] is value \
                and call_name(src, parent) in _ELEMENTWISE and not parent.keywords \
                and all(_constant_operand(src, a) for a in parent.args[1:]):
            value = parent
        else:
            break
    gather = src.parents.get(value)
    if isinstance(gather, ast.Call) and call_name(src, gather) in ("tf.gather", "tf.compat.v1.gather") \
            and len(gather.args) == 2 and not gather.keywords and gather.args[0] is value \
            and isinstance(gather.args[1], ast.Name) and gather.args[1].id == ids:
        return gather
    return None


def _histogram_read_at_ids(src: Source, node: ast.Call) -> Fix | None:
    """``counts = tf.math.bincount(ids[, dtype=D])`` read only as ``tf.gather(E(counts), ids)``: how
    often each id occurs, at each id (inverse-frequency weights), through elementwise arithmetic with
    numbers (``1.0 / tf.maximum(counts, 1.0)``) -> the per-item counts ``counts[ids[i]]``, the number
    of ``j`` with ``ids[j] == ids[i]``: the rows of the n x n comparison summed, shaped like ``ids``,
    and ``E`` of them in place of each gather. The length of the histogram (``max(ids) + 1``, which
    is data) is never read. Exact (SAFE) wherever the original returns (bincount raises on negative
    ids; it flattens ids of any rank and gather reads them in their shape, as the reshape does); the
    comparison takes n^2 entries of memory for n ids."""
    stmt = src.parents.get(node)
    if not (isinstance(stmt, ast.Assign) and stmt.value is node and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and src.alone_on_lines(stmt, stmt)):
        return None
    if len(node.args) != 1 or not isinstance(node.args[0], ast.Name) or any(k.arg != "dtype" for k in node.keywords):
        return None
    func = src.function_of(stmt)
    counts, ids = stmt.targets[0].id, node.args[0].id
    if func is None or counts == ids:
        return None
    stores = src.stores_in(func)
    if len(stores.get(counts, [])) != 1 or stores.get(ids):
        return None  # the histogram rebound, or the ids (read again at each gather) changed
    reads = src.loads_of(counts, func)
    gathers = [_read_at_ids(src, r, ids) for r in reads]
    if not reads or any(g is None for g in gathers):
        return None
    tf = src.tf
    dtype = kw(node, "dtype")
    dtype_text = src.segment(dtype) if dtype is not None else f"{tf}.int32"
    per_item = (f"{tf}.reshape({tf}.reduce_sum({tf}.cast({tf}.equal({tf}.reshape({ids}, [-1, 1]), "
                f"{tf}.reshape({ids}, [1, -1])), {dtype_text}), axis=1), {tf}.shape({ids}))")
    edits = [replace(src, node, per_item)]
    for gather in dict.fromkeys(gathers):  # type: ignore[arg-type]
        inner = gather.args[0]  # type: ignore[union-attr]
        text = src.segment(inner)
        atomic = isinstance(inner, (ast.Name, ast.Call, ast.Attribute))
        edits.append(replace(src, gather, text if atomic else f"({text})"))
    return make_fix(f"Count each id's occurrences per item with a static-shape comparison: `{counts}` is read only at "
                    f"the ids it counts, so its data-dependent length is never needed (n^2 memory for n ids)", edits)


def _bincount(src: Source, node: ast.Call) -> Fix | None:
    tf = src.tf
    low, high = kw(node, "minlength"), kw(node, "maxlength")
    allowed = {"minlength", "maxlength", "dtype", "weights"}
    bounded = _bounded_ids(src, node, low) if high is None else None
    if len(node.args) != 1 or (high is None and bounded is None) or any(k.arg not in allowed for k in node.keywords):
        return explain("bincount's output length depends on the largest value, and XLA specializes on the "
                       "values even with minlength == maxlength: count with "
                       "tf.reduce_sum(tf.one_hot(ids, K), axis=0) for a static number of classes K")
    reasons = []
    if bounded is not None:  # no maxlength: the ids' own bound sets the length
        high_int, reason = bounded
        size_text = str(high_int)
        reasons += [reason] if reason else []
    else:
        assert high is not None
        size_text = src.segment(high)
        low_int, high_int = (static_int(src, low) if low is not None else None), static_int(src, high)
    if bounded is None and (low is None or src.segment(low) != size_text and not (
            low_int is not None and high_int is not None and low_int >= high_int)):
        # The original has max(minlength, max(ids) + 1) bins, capped at maxlength: data-dependent.
        reasons.append(f"the original has max(minlength, max(ids) + 1) bins, at most maxlength; the fix always has "
                       f"`{size_text}` bins (the ones past the largest id are zeros)")
    if not (high_int is not None and 0 <= high_int < 2**31 or high is not None and _int32_length(src, high)):
        reasons.append(f"`{size_text}` is not a Python int or an int32 shape the fixer can see (bincount also "
                       "accepts an int64 tensor length with int64 ids, tf.one_hot does not)")
    ids = f"{tf}.reshape({tf}.cast({arg(src, node.args[0])}, {tf}.int64), [-1])"
    weights = kw(node, "weights")
    if weights is None:
        dtype = kw(node, "dtype")
        dtype_text = src.segment(dtype) if dtype is not None else f"{tf}.int32"
        text = f"{tf}.reduce_sum({tf}.one_hot({ids}, {size_text}, dtype={dtype_text}), axis=0)"
        message = ("Count with a one-hot sum of static depth (bincount is value-specialized under XLA; negative "
                   "ids, which raise in bincount, are not counted)")
    else:
        # ids >= size go to one extra segment, sliced off: bincount drops them (maxlength).
        size = size_text if high_int is not None else f"{tf}.cast({size_text}, {tf}.int64)"
        text = (f"{tf}.math.unsorted_segment_sum({tf}.reshape({arg(src, weights)}, [-1]), {tf}.minimum({ids}, "
                f"{size}), {size} + 1)[:{size_text}]")
        if certain_dtype(src, weights) not in ("int32", "int64"):
            reasons.append("the weights may be floats: the fix adds them in another order, so sums may differ in "
                           "the last bits")
        message = ("Sum the weights per bin with unsorted_segment_sum of static size (bincount is value-specialized "
                   "under XLA; negative ids, which raise in bincount, are dropped)")
    return make_fix(message, [replace(src, node, text)], reasons)


def _bounded_ids(src: Source, node: ast.Call, low: ast.expr | None) -> tuple[int, str | None] | None:
    """For ``tf.math.bincount(ids[, minlength=K])`` without ``maxlength``, whose ids the code bounds
    by ``B`` (:func:`int_upper_bound`: ``tf.cast(tf.clip_by_value(x * 255.0, 0.0, 255.0), tf.int32)``,
    ``tf.cast(h, tf.int32) % NUM_BUCKETS``):
    the number of bins of the fix, and the reason it is UNSAFE (None: SAFE). The original has
    ``max(K, max(ids) + 1)`` bins and ``max(ids) + 1 <= B + 1``: with a literal ``K >= B + 1`` that
    is always ``K`` (SAFE); otherwise the fix has ``B + 1`` bins, equal to the original's where the
    ids reach ``B``, and zeros past the largest id elsewhere. None when no bound shows, or ``K``
    is not a literal."""
    if len(node.args) != 1:
        return None
    bound = int_upper_bound(src, node.args[0])
    low_int = static_int(src, low) if low is not None else 0
    if bound is None or low_int is None or bound + 1 >= 2**31:
        return None
    if low_int >= bound + 1:
        return low_int, None
    return bound + 1, (f"the ids are at most {bound} (bounded where they are computed), so the original has "
                       f"max(minlength, max(ids) + 1) bins, at most {bound + 1}; the fix always has {bound + 1} "
                       "(the ones past the largest id are zeros)")


_COUNT = "num_segments"  # the op's own argument: a value the code names after it is the count it configures
DROPPED = ("ids >= {b} are dropped (the original counts max(ids) + 1 segments); the result has {b} rows, the ones "
           "past the largest id {fill}, where the original has max(ids) + 1")


def _configured_count(src: Source, node: ast.Call) -> tuple[str, str] | None:
    """(the text of a segment count the code configures, where it comes from), readable where the
    segment call runs and named after the op's own ``num_segments`` argument (``num_segments``,
    ``max_num_segments``, ``NUM_SEGMENTS``): a parameter of the enclosing function with an int
    default, never rebound; an attribute the function already reads on ``self`` or on a parameter
    (``self.config.num_segments``); a module-level int constant. The nearest kind that has one
    candidate wins, in that order; None when there is none, or more than one of the nearest kind."""
    function = src.function_of(node)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    named = lambda text: text.lower().endswith(_COUNT)  # noqa: E731
    stores = src.stores_in(function)
    kinds: list[dict[str, str]] = [{}, {}, {}]
    found = kinds[0]
    for param, default in parameter_defaults(function).items():
        if named(param) and isinstance(default, ast.Constant) and type(default.value) is int \
                and default.value > 0 and not stores.get(param):
            found[param] = f"the parameter `{param}` (default {default.value})"
    params = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    for sub in src.scope_nodes(function):
        if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Load) and named(sub.attr):
            root = sub.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and (root.id == "self" or root.id in params) and not stores.get(root.id):
                kinds[1][src.segment(sub)] = f"the configuration attribute `{src.segment(sub)}`"
    for stmt in src.tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and named(stmt.targets[0].id) and stmt.targets[0].id not in params | set(stores):
            value = src.module_constant(stmt.targets[0])
            if isinstance(value, ast.Constant) and type(value.value) is int and value.value > 0:
                kinds[2][stmt.targets[0].id] = f"the module constant `{stmt.targets[0].id}` ({value.value})"
    nearest = next((kind for kind in kinds if kind), {})
    return next(iter(nearest.items())) if len(nearest) == 1 else None


def _segment(src: Source, node: ast.Call, name: str) -> Fix:
    tf = src.tf
    data_node, ids_node = node.args
    data, ids = arg(src, data_node), arg(src, ids_node)
    unsorted = name.replace("segment_", "unsorted_segment_")
    reasons = []
    if name.endswith("_mean") and not is_floating(certain_dtype(src, data_node)):
        reasons.append("the data may be integer or complex: segment_mean truncates integer means and keeps the "
                       "dtype, unsorted_segment_mean returns a float and rejects complex data")
    # a static count: the leading size of the array the result is combined with (where the original
    # returns, its count is that size), else one the code configures
    combined = partner(src, node, lambda f: tf_name(src, f), "tf.concat", {})
    if combined is not None:
        other, why = combined
        text = f"{unsorted}({data}, {ids}, num_segments={tf}.shape({atom(src, other)})[0])"
        return make_fix(f"Use {unsorted} with num_segments= the leading size of `{src.segment(other)}`, which the "
                        "result is combined with (a static shape; where the original returns, its segment count is "
                        "that size; unsorted or negative ids, which raise in the original, are no longer checked)",
                        [replace(src, node, text)], [*reasons, *([why] if why else [])])
    configured = _configured_count(src, node)
    if configured is not None:
        count, source = configured
        text = f"{unsorted}({data}, {ids}, num_segments={count})"
        fill = "ones" if name.endswith("_prod") else "zeros"
        return make_fix(f"Use {unsorted} with num_segments={count}, the count configured by {source} (a static "
                        "count: XLA compiles once; unsorted or negative ids, which raise in the original, are no "
                        "longer checked)", [replace(src, node, text)],
                        [*reasons, DROPPED.format(b=f"`{count}`", fill=fill)])
    ids64 = f"{tf}.cast({ids}, {tf}.int64)"
    text = f"{unsorted}({data}, {ids64}, num_segments={tf}.maximum({tf}.reduce_max({ids64}) + 1, 0))"
    if not isinstance(ids_node, ast.Name):
        reasons.append(f"`{src.segment(ids_node)}` is evaluated twice")
    return make_fix(f"Use {unsorted}, which has an XLA kernel (unsorted or negative ids, which raise in the "
                    "original, are no longer checked; num_segments still comes from the data, so XLA compiles "
                    "once per value: pass a static num_segments to compile once)",
                    [replace(src, node, text)], reasons)


UNIQUE_FLOATS = ("the values may be floats: unique counts each NaN apart (count 1) where the comparison gives NaN "
                 "no match (count 0)")


def _counts_per_item(src: Source, node: ast.Call) -> Fix | None:
    """``y, idx, count = tf.unique_with_counts(x)`` read only as ``tf.gather(count, idx)`` (how
    often each item's value occurs: inverse-frequency weights) and ``tf.gather(y, idx)`` (the
    items themselves) -> one static-shape count per item, ``tf.reduce_sum(tf.cast(tf.equal(
    tf.reshape(x, [-1, 1]), tf.reshape(x, [1, -1])), D), axis=1)``, and ``x``.

    ``unique_with_counts`` takes a 1-D ``x`` (it raises otherwise); ``idx[i]`` is the position of
    ``x[i]``'s value in ``y``, so ``y[idx[i]] == x[i]`` and ``count[idx[i]]`` is the number of
    ``j`` with ``x[j] == x[i]``, which is row ``i`` of the n x n comparison summed. Exact (SAFE) for
    integer ``x`` (the dtype certain from its binding); for floats UNSAFE (NaN). The counts have
    ``out_idx``'s dtype (int32 by default), as the original's. The comparison takes n^2 booleans
    of memory for n items (the original takes n)."""
    stmt = src.parents.get(node)
    if not (isinstance(stmt, ast.Assign) and stmt.value is node and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Tuple) and len(stmt.targets[0].elts) == 3
            and all(isinstance(e, ast.Name) for e in stmt.targets[0].elts)):
        return None
    if call_name(src, node) not in ("tf.unique_with_counts", "tf.math.unique_with_counts") \
            or len(node.args) != 1 or any(k.arg not in ("out_idx", "name") for k in node.keywords) \
            or not isinstance(node.args[0], ast.Name) or not src.alone_on_lines(stmt, stmt):
        return None
    values, idx, count = (e.id for e in stmt.targets[0].elts)  # type: ignore[attr-defined]
    x = node.args[0].id  # type: ignore[attr-defined]
    func = src.function_of(stmt)
    if func is None or len({values, idx, count, x}) != 4:
        return None
    stores = src.stores_in(func)
    if any(len(stores.get(n, [])) != 1 for n in (values, idx, count)) or any(
            (s.lineno, s.col_offset) > (stmt.lineno, stmt.col_offset) for s in stores.get(x, [])):
        return None  # rebound elsewhere, or x changes after the call
    own = {id(n) for n in ast.walk(stmt)}
    gathers: dict[int, tuple[ast.Call, str]] = {}
    for sub in ast.walk(func):
        if isinstance(sub, ast.Call) and call_name(src, sub) in ("tf.gather", "tf.compat.v1.gather") \
                and len(sub.args) == 2 and not sub.keywords and all(isinstance(a, ast.Name) for a in sub.args) \
                and sub.args[1].id == idx and sub.args[0].id in (values, count):  # type: ignore[attr-defined]
            gathers[id(sub)] = (sub, sub.args[0].id)  # type: ignore[attr-defined]
    inside = {id(a) for call, _ in gathers.values() for a in call.args}
    for name in (values, idx, count):
        if any(id(n) not in inside and id(n) not in own for n in src.loads_of(name, func)):
            return None  # read some other way
    if not any(kind == count for _, kind in gathers.values()):
        return None
    tf = src.tf
    out_idx = kw(node, "out_idx")
    dtype = src.segment(out_idx) if out_idx is not None else f"{tf}.int32"
    per_item = src.fresh_name(f"{count}_per_item")
    line = (f"{per_item} = {tf}.reduce_sum({tf}.cast({tf}.equal({tf}.reshape({x}, [-1, 1]), "
            f"{tf}.reshape({x}, [1, -1])), {dtype}), axis=1)")
    edits = [*replace_block(src, stmt, stmt, [line])]
    edits += [replace(src, call, per_item if kind == count else x) for call, kind in gathers.values()]
    reasons = [] if certain_dtype(src, node.args[0]) in INT_DTYPES else [
        UNIQUE_FLOATS]
    return make_fix("Count each item's value with a static-shape comparison instead of unique_with_counts (whose "
                    "output size is data; it takes n^2 memory for n items)", edits, reasons)


def _unique_without_counts(src: Source, node: ast.Call) -> Fix | None:
    """``tf.unique_with_counts(x)`` whose counts are never read -> ``tf.unique(x)``: the op table
    (``xlacheck/data/tf_xla_ops.json``) measured ``UniqueWithCounts`` without an XLA kernel and
    ``Unique`` with one, and the two ops return the same ``y`` and ``idx`` (first-occurrence order,
    ``out_idx``'s dtype). Read as ``[0]``/``[1]``/``.y``/``.idx`` of the call, or unpacked as
    ``y, idx, count = ...`` with ``count`` never read (``_`` included) in the function. SAFE:
    the same op family, values, dtypes and shapes."""
    if call_name(src, node) not in ("tf.unique_with_counts", "tf.math.unique_with_counts") \
            or any(k.arg not in ("x", "out_idx", "name") for k in node.keywords):
        return None
    parent = src.parents.get(node)
    func_text = f"{src.tf}.unique"
    call = replace(src, node.func, func_text)
    message = ("Use tf.unique, which has an XLA kernel (UniqueWithCounts has none; the counts are never read, "
               "and y and idx are the same)")
    if isinstance(parent, ast.Subscript) and parent.value is node and static_int(src, parent.slice) in (0, 1):
        return make_fix(message, [call])
    if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in ("y", "idx"):
        return make_fix(message, [call])
    if not (isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Tuple) and len(parent.targets[0].elts) == 3):
        return None
    count = parent.targets[0].elts[2]
    func = src.function_of(parent)
    if func is None or not isinstance(count, ast.Name) or src.loads_of(count.id, func):
        return None
    first, second = parent.targets[0].elts[:2]
    return make_fix(message, [Edit(src.start(first), src.end(count), f"{src.segment(first)}, {src.segment(second)}"),
                              call])


@rewriter(ast.Call)
def rewrite_counting(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.Call) or src.tf is None:
        return None
    name = call_name(src, node) or ""
    if name in ("tf.math.bincount", "tf.bincount"):
        return _histogram_read_at_ids(src, node) or _bincount(src, node)
    if name in UNIQUE:
        return _counts_per_item(src, node) or _unique_without_counts(src, node) or explain(
                       "The number of unique values depends on the data, so no fixed-size op returns the same "
                       "tensor. If the values are ids below a known bound K, use "
                       "counts = tf.reduce_sum(tf.one_hot(ids, K), axis=0) and the mask counts > 0 instead of "
                       "the unique list (tf.math.bincount is value-specialized under XLA: avoid it).")
    if name in SEGMENTS and name.rsplit("_", 1)[1] in ("sum", "mean", "prod") and len(node.args) == 2 \
            and not node.keywords:
        return _segment(src, node, name)
    if name in SEGMENTS:
        return explain("The number of output rows is the largest segment id + 1, known only from the data. "
                       f"Use {name.replace('segment_', 'unsorted_segment_')}(data, ids, num_segments=K) "
                       "with a static K (e.g. the batch's maximum number of graphs) and mask the unused rows.")
    if name.startswith(RAGGED_PREFIXES):
        return rewrite_ragged_to_tensor(src, node) or explain(
            "Ragged tensors have data-dependent row lengths and have no XLA kernels. Keep the "
            "data dense and padded to a static length, with a mask of valid positions, and "
            "reduce with the mask (tf.where(mask, x, 0)).")
    return None
