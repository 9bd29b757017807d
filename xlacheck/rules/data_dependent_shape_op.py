"""XLA204: ops whose output shape depends on data and that XLA cannot compile."""

from __future__ import annotations

import ast

from xlacheck import api_table, ragged_table
from xlacheck.analysis import argument
from xlacheck.analysis.contexts import Level
from xlacheck.analysis.tables import call_arguments, splatted
from xlacheck.analysis.values import CONST, DATA, DYNAMIC, LOOP, PARAM, RANDOM, TENSOR, VARIABLE
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

# The families this rule explains (the op table decides, per op, whether a call fails):
# canonical-name prefix -> why its failing ops fail.
_FAMILIES = (
    ("tf.math.segment_", "sorted segment ops produce one row per segment id value"),
    ("tf.unique_with_counts", "tf.unique_with_counts has a data-dependent output size"),
    ("tf.ragged.", "ragged ops have data-dependent row lengths"),
    ("tf.RaggedTensor.", "ragged ops have data-dependent row lengths"),
    ("tf.sets.", "set ops have data-dependent output sizes"),
    ("tf.sparse.", "this sparse op has no XLA kernel"),
    ("tf.SparseTensor", "this sparse op has no XLA kernel"),
    ("tf.strings.split", "returns a ragged tensor"),
)
# Compiles, but only by baking its inputs' values into the program (measured by the compiler-
# labelled cases: value_specialized), so XLA recompiles per value.
_VALUE_SPECIALIZED = {
    "tf.math.bincount": "tf.math.bincount needs its inputs' values (even with minlength == maxlength): "
                        "compiles only by value specialization, recompiling per value",
}
_ALIASES = {"tf.bincount": "tf.math.bincount", "tf.segment_sum": "tf.math.segment_sum",
            "tf.math.unique_with_counts": "tf.unique_with_counts", "tf.sparse.SparseTensor": "tf.SparseTensor",
            "tf.sparse.matmul": "tf.sparse.sparse_dense_matmul"}
# Ragged constructors compile (they are dense ops on values and row partitions) where the op table
# finds a kernel for each of their ops (tf.ragged.range's RaggedRange has none); what fails is
# making the ragged tensor dense (RaggedTensorToTensor has no XLA kernel) or reducing over its
# ragged dimension (the reduction builds a Range whose size is the data-dependent row count).
RAGGED_CONSTRUCTORS = frozenset({
    "tf.RaggedTensor.from_row_lengths", "tf.RaggedTensor.from_value_rowids", "tf.RaggedTensor.from_row_splits",
    "tf.RaggedTensor.from_tensor", "tf.RaggedTensor.from_nested_row_lengths", "tf.RaggedTensor.from_row_starts",
    "tf.RaggedTensor.from_row_limits", "tf.RaggedTensor.from_nested_row_splits", "tf.ragged.boolean_mask",
    "tf.ragged.constant", "tf.ragged.stack", "tf.ragged.range",
})
_RAGGED_REDUCTIONS = ("tf.reduce_", "tf.math.reduce_")


def measured_not_compiling(name: str, node: ast.Call, ctx: RuleContext) -> bool:
    """The API table measured this call form as data-dependent in shape (``data_dependent_shape``) and as
    not compiling under XLA with value-less inputs (``xla: false``: "must be a compile-time constant"),
    the call passes only arguments the probing call passed (``confusion_matrix`` without ``num_classes``),
    an argument carries tensor values (not constants, which TensorFlow folds, nor shapes), and no op of it
    lacks a kernel (XLA309's finding)."""
    fact = api_table.fact_for(name)
    if fact is None or fact.xla is not False or splatted(node) or failing_ops(name, node):
        return False
    bound = fact.bind(*call_arguments(node))
    if not fact.shape_depends_on_data(frozenset(bound)):
        return False
    flags = [ctx.flags(v) for v in bound.values()]
    if any(k & DYNAMIC for k in flags):
        # the table measured value-less inputs, not bounded dynamic ones: tf.dynamic_stitch of the indices
        # tf.dynamic_partition splits compiles (eval_cases/tf/neg_shape_dynamic_partition_experts_matmul.py)
        return False
    return any(k & TENSOR and not k & CONST and k & (DATA | PARAM | VARIABLE | LOOP | RANDOM) for k in flags)


def _family(name: str) -> str | None:
    for prefix, why in _FAMILIES:
        if name.startswith(prefix):
            return why
    return None


def dynamic_shape_reason(name: str) -> str | None:
    """Why a canonical tf name belongs to the data-dependent-shape families (None if it does not).
    Whether a given call fails is decided per op by :func:`failing_ops`."""
    name = _ALIASES.get(name, name)
    return _VALUE_SPECIALIZED.get(name) or _family(name)


def failing_ops(name: str, node: ast.Call) -> tuple[str, ...]:
    """Raw ops without an XLA kernel this call creates, from the generated op table."""
    from xlacheck.rules.op_without_xla_kernel import unsupported_ops

    return unsupported_ops(_ALIASES.get(name, name), node)


# The constructor forms tools/generate_ragged_table.py measured (xlacheck/data/tf_ragged.json), by name.
_RAGGED_FORMS = {
    "tf.RaggedTensor.from_row_lengths": "from_row_lengths", "tf.RaggedTensor.from_row_splits": "from_row_splits",
    "tf.RaggedTensor.from_value_rowids": "from_value_rowids",
}
# The reductions the table measured; the others (reduce_min, reduce_prod ...) take reduce_sum's facts:
# every ragged reduction goes through the same segment reduction over the row partition.
_MEASURED_REDUCTIONS = {"reduce_sum": "tf.reduce_sum", "reduce_mean": "tf.reduce_mean", "reduce_max": "tf.reduce_max"}


def _ragged_form(node: ast.Call, name: str) -> str | None:
    """The measured constructor form of ``node`` (``from_tensor`` by its ``lengths=`` / ``padding=``)."""
    if name == "tf.RaggedTensor.from_tensor":
        keys = {kw.arg for kw in node.keywords}
        return "from_tensor_lengths" if "lengths" in keys else "from_tensor_padding" if "padding" in keys else None
    return _RAGGED_FORMS.get(name)


def _reduction_call(n: ast.Call) -> str | None:
    """A reduction's call form in the table: ``no_axis``, ``axis0``, ``axis1``; None for another axis."""
    axis = argument(n, 1, "axis")
    if axis is None or isinstance(axis, ast.Constant) and axis.value is None:
        return "no_axis"
    if isinstance(axis, ast.Constant) and type(axis.value) is int and axis.value in (0, 1):
        return f"axis{axis.value}"
    return None


def _table_says_compiles(api: str, form: str | None, call: str | None) -> bool:
    """The ragged table measured this consumer call on this constructor and it compiled (and matched eager)."""
    return (form is not None and call is not None and ragged_table.measured(api, form, call)
            and not ragged_table.failing_probes(api, form, call))


def _ragged_consumer(node: ast.Call, ctx: RuleContext, form: str | None = None) -> str | None:
    """How the ragged tensor built by ``node`` is made dense, mapped over or reduced in this function
    (chained, or through names it flows to), or None. Raggedness flows through arithmetic operators,
    the APIs TensorFlow dispatches elementwise (the API table's ``elementwise``: ``tf.abs``,
    ``tf.math.add`` ...), which return a ragged tensor for a ragged input, and ``tf.gather`` at ragged
    indices. A consumer the ragged table (``tools/generate_ragged_table.py``) measured as compiling
    for this constructor form (a reduction over all axes) is not one."""
    holders: set[str] = set()

    def is_ragged(e: ast.AST) -> bool:
        if e is node or (isinstance(e, ast.Name) and e.id in holders):
            return True
        if isinstance(e, ast.BinOp):
            return is_ragged(e.left) or is_ragged(e.right)
        if isinstance(e, ast.UnaryOp):
            return is_ragged(e.operand)
        if isinstance(e, ast.Call):
            resolved = ctx.aliases.resolve(e.func) or ""
            if resolved == "tf.gather" and len(e.args) >= 2:  # ragged indices give a ragged result
                return is_ragged(e.args[1])
            fact = api_table.fact_for(resolved)
            if fact is not None and fact.elementwise is not None:
                return any(is_ragged(a) for a in e.args[:2 if fact.elementwise == "binary" else 1])
        return False

    assigns = [stmt for stmt in ast.walk(ctx.function.node)
               if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets)]
    changed = True
    while changed:  # names assigned from ragged expressions, to a fixed point (source order aside)
        changed = False
        for stmt in assigns:
            names = {t.id for t in stmt.targets}  # type: ignore[attr-defined]
            if not names <= holders and is_ragged(stmt.value):
                holders |= names
                changed = True

    for n in ast.walk(ctx.function.node):
        if not isinstance(n, ast.Call):
            continue
        if isinstance(n.func, ast.Attribute) and n.func.attr == "to_tensor" and is_ragged(n.func.value):
            return ".to_tensor() (RaggedTensorToTensor has no XLA kernel)"
        callee = ctx.aliases.resolve(n.func) or ""
        if callee == "tf.map_fn":
            elems = argument(n, 1, "elems")
            if elems is not None and is_ragged(elems):
                return "tf.map_fn over its rows (the ragged map has no XLA kernel)"
        if callee.startswith(_RAGGED_REDUCTIONS) and n.args and is_ragged(n.args[0]):
            short = callee.rsplit(".", 1)[-1]
            measured = _MEASURED_REDUCTIONS.get(short, "tf.reduce_sum")
            if _table_says_compiles(measured, form, _reduction_call(n)):
                continue
            return f"{callee} over its ragged dimension (a Range whose size is the data-dependent row count)"
    return None


class DataDependentShapeOp(Rule):
    """
    ## What it does
    Flags ops whose output shape depends on the values of their inputs and that XLA rejects or
    only compiles by specializing on values, per op from the generated op table
    (`docs/op-table.md`): `tf.unique_with_counts`, the sorted `tf.math.segment_*` ops,
    `tf.sparse.sparse_dense_matmul`/`reshape`/`split`/`concat`/`reorder`/`fill_empty_rows`/
    `reduce_*`, `tf.sets.*`, `tf.strings.split`; ragged tensors made dense (`.to_tensor()`) or
    reduced over their ragged dimension (also after arithmetic or the APIs the API table marks
    `elementwise`, from TensorFlow's own dispatch registry, which keep them ragged, and after
    `tf.gather` at ragged indices), or mapped over with `tf.map_fn`; a reduction the ragged table
    (`xlacheck/data/tf_ragged.json`, `tools/generate_ragged_table.py`: each constructor x consumer
    compiled on XLA:CPU) measured as compiling for that constructor, such as a reduction over all
    axes, is not flagged; and
    `tf.math.bincount` (value-specialized); and every other call that the generated API table
    (`xlacheck/data/tf_api.json`) measured as data-dependent in shape and not compiling with
    value-less inputs, in the measured call form and on tensor values (`tf.math.confusion_matrix`
    without `num_classes`, `tf.dynamic_stitch`, `tf.nn.collapse_repeated`, `keras.ops.bincount`,
    `tf.compat.v1.bincount`). Sparse and
    ragged constructors, `tf.sparse.to_dense`/`from_dense`, `.flat_values` and
    `tf.ragged.boolean_mask` compile and are not flagged.
    It fires in compiled code (jit entry points, Keras methods, tf.functions and what they call);
    in a module-level helper that nothing in the file compiles only with `--preview` (on real
    code every such finding was tf.data preprocessing, docs/known-results.md).

    ## Why is this bad?
    XLA needs every shape at compile time. These ops fail with "must be a compile-time constant"
    or missing-kernel errors; `bincount` compiles only with argument values baked in and
    recompiles per value. (`x[mask]`, `tf.boolean_mask`, `tf.unique` and one-argument `tf.where`
    compile as bounded dynamic shapes on XLA:CPU and are not flagged here.)

    ## Example
    ```python
    counts = tf.math.bincount(labels, minlength=NUM_CLASSES, maxlength=NUM_CLASSES)
    ```

    ## Use instead
    ```python
    counts = tf.reduce_sum(tf.one_hot(labels, NUM_CLASSES), axis=0)
    # segment_sum -> tf.math.unsorted_segment_sum(data, ids, num_segments=N) with a static N
    ```

    ## Fix safety
    Safe fixes, exact wherever the original returns (where it raises, the fix is unconstrained):
    - `counts = tf.math.bincount(ids[, dtype=D])` read only as `tf.gather(E(counts), ids)` (`E`
      elementwise arithmetic with numbers, `tf.maximum(counts, 1.0)`, `tf.cast`, ...: inverse-frequency
      weights) becomes the per-item counts, the rows of `tf.equal(ids[:, None], ids[None, :])` summed
      and shaped like `ids`, and each gather `E` of them: the histogram's length is never read
      (n^2 memory for n ids).
    - `tf.math.bincount(ids, minlength=K, maxlength=K[, dtype=D])` becomes
      `tf.reduce_sum(tf.one_hot(tf.reshape(tf.cast(ids, tf.int64), [-1]), K, dtype=D), axis=0)`
      when K is a Python int literal or module constant, or an int32 shape (`tf.shape(x)[k]`,
      `tf.size(x)`, or a name bound to one); negative ids, which raise in bincount, are not
      counted. Any other K makes it unsafe (bincount accepts an int64 tensor K with int64 ids,
      `tf.one_hot` does not). With `weights=W` (integer W) it becomes
      `tf.math.unsorted_segment_sum(tf.reshape(W, [-1]), tf.minimum(ids, K), K + 1)[:K]`: ids
      past K go to an extra segment that is dropped, as bincount drops them.
    - Unsafe: float weights (summed in another order: the last bits may differ); a
      `maxlength` without an equal `minlength` (the original has `max(minlength, max(ids) + 1)`
      bins, capped at `maxlength`; the fix always has `maxlength` bins, the extra ones zeros).
    - Without `maxlength`, ids the code bounds by B where it computes them (`tf.clip_by_value(x, lo, B)`,
      `tf.minimum(x, B)`, an integer `ids % (B + 1)`, through an integer `tf.cast`, reshapes and
      subscripts) give the same
      one-hot sum with `max(minlength, B + 1)` bins: safe for a literal `minlength >= B + 1` (the
      original's length on every input), unsafe otherwise (the original has `max(ids) + 1` bins,
      the fix `B + 1`, the extra ones zeros).
    - `tf.math.segment_sum/prod(data, ids)` (and `segment_mean` of provably float data) becomes
      `tf.math.unsorted_segment_*` with `num_segments=max(ids) + 1` (0 for empty ids), ids in
      int64; unsorted or negative ids, which raise in the original, are no longer checked. It
      is unsafe when `ids` is an expression (written twice) and for `segment_mean` of data that
      may be integer or complex. `num_segments` still comes from the data: XLA compiles once
      per value of it, except where the code shows a static count: the result concatenated
      (axis other than 0) or combined elementwise with an array `A` gets
      `num_segments=tf.shape(A)[0]` (where the original returns, its count is that size); a count
      the code configures under the op's own name (a parameter `num_segments=8`, an attribute
      `self.config.num_segments`, a module constant `NUM_SEGMENTS`) is used, unsafe: ids at or past
      it are dropped, and the rows past the largest id are zeros.
    - `tf.RaggedTensor.from_row_lengths/from_row_splits(values, p).to_tensor([default])`,
      chained or through a name read only by `.to_tensor`, becomes a gather from the values
      with a padding row; the partition checks stay as `tf.debugging` assertions (XLA drops
      them). The width is still `max(lengths)`: XLA compiles once per value of it. Unsafe when,
      in the chained form, the values or partition are expressions (computed earlier).

    - `y, idx, count = tf.unique_with_counts(x)` read only as `tf.gather(count, idx)` (how often
      each item's value occurs, as in inverse-frequency weights) and `tf.gather(y, idx)` (the items
      themselves) becomes one count per item, `tf.reduce_sum(tf.cast(tf.equal(tf.reshape(x, [-1,
      1]), tf.reshape(x, [1, -1])), D), axis=1)` with `D` the `out_idx` dtype, and `x`. Safe for
      integer `x` (dtype certain from its binding); unsafe otherwise (unique counts each NaN
      apart, the comparison matches none). It takes n^2 booleans of memory for n items.
    - `tf.unique_with_counts(x)` whose counts are never read (`[0]`, `[1]`, `.y`, `.idx` of the
      call, or `y, idx, count = ...` with `count` unread) becomes `tf.unique(x)`: the op table has
      no XLA kernel for UniqueWithCounts and one for Unique, and both return the same `y` and
      `idx`. Safe.

    Other ops get an explanation only: `segment_max/min` fill empty segments differently from
    their unsorted forms, and `tf.unique` with other uses of its outputs, sparse, set and other
    ragged ops have no static-shape equivalent.
    """

    code = "XLA204"
    fix = ("rewrite_masked", "rewrite_counting")
    name = "data-dependent-shape-op"
    node_types = (ast.Call,)
    preview_levels = frozenset({Level.HELPER})  # real code: helpers nothing here compiles were tf.data code

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels):\n"
                "    return tf.reduce_sum(tf.one_hot(labels, 3), axis=0)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, ids):\n"
                "    return tf.math.unsorted_segment_sum(x, ids, num_segments=4)\n"),
        Example("import tensorflow as tf\ndef to_sparse(ids):\n    return tf.sparse.from_dense(ids)\n"
                "def make(ds):\n    return ds.map(lambda x: to_sparse(x))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.sparse.to_dense(tf.sparse.from_dense(x))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.RaggedTensor.from_tensor(x, lengths=[1, 2]).flat_values\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(values, lengths):\n"
                "    r = tf.RaggedTensor.from_row_lengths(values, lengths)\n"
                "    return tf.reduce_sum(tf.abs(r).flat_values * 2.0)\n"),
        # measured (tools/generate_ragged_table.py): a reduction over all axes of a ragged tensor compiles
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(values, lengths):\n"
                "    r = tf.RaggedTensor.from_row_lengths(values, lengths)\n"
                "    return tf.reduce_sum(r)\n"),
        # tfrecall32: the API table measured confusion_matrix without num_classes; with it the size is static
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels, preds):\n"
                "    return tf.math.confusion_matrix(labels, preds, num_classes=3)\n"),
        # ... nor on bounded dynamic inputs: stitching what tf.dynamic_partition split compiles
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, route):\n"
                "    parts = tf.dynamic_partition(x, route, 2)\n"
                "    idx = tf.dynamic_partition(tf.range(tf.shape(x)[0]), route, 2)\n"
                "    return tf.dynamic_stitch(idx, [parts[0] * 2.0, parts[1]])\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels):\n"
                "    return tf.math.bincount(labels, minlength=3, maxlength=3)\n",
                expected=(
                    (4, 12, "tf.math.bincount: tf.math.bincount needs its inputs' values (even with minlength == "
                            'maxlength): compiles only by value specialization, recompiling per value; XLA needs '
                            'static shapes'),
                )),
        Example("import tensorflow as tf\nclass P(tf.keras.layers.Layer):\n    def call(self, x, ids):\n"
                "        return tf.math.segment_sum(x, ids)\n",
                expected=(
                    (4, 16, 'tf.math.segment_sum: sorted segment ops produce one row per segment id value '
                            '(SegmentSum, per the generated op table); XLA needs static shapes (compiled: Keras '
                            'call() at line 3)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(h, m):\n"
                "    return tf.reduce_mean(tf.ragged.boolean_mask(h, m), axis=1)\n",
                expected=(
                    (4, 27, 'tf.ragged.boolean_mask builds a ragged tensor that is then made dense or reduced by '
                            'tf.reduce_mean over its ragged dimension (a Range whose size is the data-dependent row '
                            'count): this fails under XLA; XLA needs static shapes (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(st):\n"
                "    return tf.sparse.to_dense(tf.sparse.reorder(st))\n",
                expected=(
                    (4, 31, 'tf.sparse.reorder: this sparse op has no XLA kernel (SparseReorder, per the generated '
                            'op table); XLA needs static shapes (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(values, lengths):\n"
                "    r = tf.RaggedTensor.from_row_lengths(values, lengths)\n"
                "    return tf.reduce_sum(tf.abs(r) * 2.0, axis=1)\n",
                expected=(
                    (4, 9, 'tf.RaggedTensor.from_row_lengths builds a ragged tensor that is then made dense or '
                           'reduced by tf.reduce_sum over its ragged dimension (a Range whose size is the '
                           'data-dependent row count): this fails under XLA; XLA needs static shapes (compiled: '
                           'decorated with tf.function(jit_compile=True) at line 2)'),
                )),
        # a ragged constructor whose own op has no kernel (RaggedRange), whatever reads it
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(lengths):\n"
                "    positions = tf.ragged.range(lengths)\n    return positions.flat_values\n",
                expected=(
                    (4, 17, "tf.ragged.range: ragged ops have data-dependent row lengths (RaggedRange, per the "
                            "generated op table); XLA needs static shapes (compiled: decorated with "
                            "tf.function(jit_compile=True) at line 2)"),
                )),
        # measured (tools/generate_ragged_table.py): tf.map_fn over a ragged tensor's rows has no XLA kernel
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(frames, lengths):\n"
                "    clips = tf.RaggedTensor.from_row_lengths(frames, lengths)\n"
                "    return tf.map_fn(lambda c: tf.reduce_max(c, 0), clips,\n"
                "                     fn_output_signature=tf.TensorSpec([None], tf.float32))\n",
                expected=(
                    (4, 13, "tf.RaggedTensor.from_row_lengths builds a ragged tensor that is then made dense or "
                            "reduced by tf.map_fn over its rows (the ragged map has no XLA kernel): this fails under "
                            "XLA; XLA needs static shapes (compiled: decorated with tf.function(jit_compile=True) at "
                            "line 2)"),
                )),
        # ... and tf.gather at ragged indices is ragged: its per-row mean builds the Range
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(table, ids, lengths):\n"
                "    bags = tf.RaggedTensor.from_row_lengths(ids, lengths)\n"
                "    return tf.reduce_mean(tf.gather(table, bags), axis=1)\n",
                expected=(
                    (4, 12, "tf.RaggedTensor.from_row_lengths builds a ragged tensor that is then made dense or "
                            "reduced by tf.reduce_mean over its ragged dimension (a Range whose size is the "
                            "data-dependent row count): this fails under XLA; XLA needs static shapes (compiled: "
                            "decorated with tf.function(jit_compile=True) at line 2)"),
                )),
        # fixes28: no maxlength, but ids the code bounds (a clip, then an int cast): a minlength past the bound
        # is the original's length on every input (SAFE)
        Example("""
            import tensorflow as tf


            @tf.function(jit_compile=True)
            def f(images):
                levels = tf.cast(tf.clip_by_value(images * 255.0, 0.0, 255.0), tf.int32)
                return tf.math.bincount(levels, minlength=256)
        """, fixed="""
            import tensorflow as tf


            @tf.function(jit_compile=True)
            def f(images):
                levels = tf.cast(tf.clip_by_value(images * 255.0, 0.0, 255.0), tf.int32)
                return tf.reduce_sum(tf.one_hot(tf.reshape(tf.cast(levels, tf.int64), [-1]), 256, dtype=tf.int32), axis=0)
        """, expected=(
            (7, 12, "tf.math.bincount: tf.math.bincount needs its inputs' values (even with minlength == maxlength): "
                    "compiles only by value specialization, recompiling per value; XLA needs static shapes"),
        )),
        # tfrecall32: a table row with data_dependent_shape and xla false, in the measured call form (no
        # num_classes); labelled value_specialized by tools/probe_tf_contexts.py
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels, preds):\n"
                "    return tf.math.confusion_matrix(labels, preds)\n",
                expected=(
                    (4, 12, "tf.math.confusion_matrix: its output shape depends on its input values (the generated "
                            "API table measured this call failing to compile with value-less inputs): XLA rejects "
                            "it, or compiles it only by baking the values in and recompiling per value; XLA needs "
                            "static shapes (compiled: decorated with tf.function(jit_compile=True) at line 2)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None or not name.startswith("tf."):
            return
        name = _ALIASES.get(name, name)
        special = _VALUE_SPECIALIZED.get(name)
        if special is not None:
            ctx.report(self, node, f"{name}: {special}; XLA needs static shapes")
            return
        why = _family(name)
        if why is None:
            if measured_not_compiling(name, node, ctx):
                ctx.report(self, node, f"{name}: its output shape depends on its input values (the generated API "
                                       "table measured this call failing to compile with value-less inputs): XLA "
                                       "rejects it, or compiles it only by baking the values in and recompiling per "
                                       f"value; XLA needs static shapes (compiled: {ctx.function.evidence})")
            return
        if name in RAGGED_CONSTRUCTORS and not failing_ops(name, node):  # tf.ragged.range: RaggedRange has none
            consumer = _ragged_consumer(node, ctx, _ragged_form(node, name))
            if consumer is not None:
                ctx.report(self, node, f"{name} builds a ragged tensor that is then made dense or reduced by "
                                       f"{consumer}: this fails under XLA; XLA needs static shapes (compiled: {ctx.function.evidence})")
            return
        ops = failing_ops(name, node)
        if ops:
            ctx.report(self, node, f"{name}: {why} ({', '.join(ops)}, per the generated op table); "
                                   f"XLA needs static shapes (compiled: {ctx.function.evidence})")
