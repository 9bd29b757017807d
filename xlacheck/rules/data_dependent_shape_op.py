"""XLA204: ops whose output shape depends on data and that XLA cannot compile."""

from __future__ import annotations

import ast

from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_EXACT = {
    "tf.unique_with_counts": "tf.unique_with_counts has a data-dependent output size",
    "tf.math.bincount": "tf.math.bincount needs its inputs' values (even with minlength == maxlength): "
                        "compiles only by value specialization, recompiling per value",
    "tf.math.segment_sum": "sorted segment ops produce one row per segment id value",
    "tf.math.segment_mean": "sorted segment ops produce one row per segment id value",
    "tf.math.segment_max": "sorted segment ops produce one row per segment id value",
    "tf.math.segment_min": "sorted segment ops produce one row per segment id value",
    "tf.math.segment_prod": "sorted segment ops produce one row per segment id value",
    "tf.RaggedTensor.from_row_lengths": "ragged tensors are not supported by XLA",
    "tf.RaggedTensor.from_value_rowids": "ragged tensors are not supported by XLA",
    "tf.RaggedTensor.from_row_splits": "ragged tensors are not supported by XLA",
    "tf.RaggedTensor.from_tensor": "ragged tensors are not supported by XLA",
    "tf.RaggedTensor.from_nested_row_lengths": "ragged tensors are not supported by XLA",
    "tf.strings.split": "returns a ragged tensor",
    "tf.sparse.from_dense": "sparse tensors are not supported by XLA",
    "tf.sparse.to_dense": "sparse tensors are not supported by XLA",
    "tf.sparse.sparse_dense_matmul": "sparse tensors are not supported by XLA",
    "tf.sparse.reduce_sum": "sparse tensors are not supported by XLA",
    "tf.SparseTensor": "sparse tensors are not supported by XLA",
    "tf.sparse.SparseTensor": "sparse tensors are not supported by XLA",
}
_PREFIXES = {
    "tf.ragged.": "ragged tensors are not supported by XLA",
    "tf.sets.": "set ops have data-dependent output sizes",
    "tf.sparse.": "sparse tensors are not supported by XLA",
}
_ALIASES = {"tf.bincount": "tf.math.bincount", "tf.segment_sum": "tf.math.segment_sum",
            "tf.math.unique_with_counts": "tf.unique_with_counts"}


def dynamic_shape_reason(name: str) -> str | None:
    """Why a canonical tf name has a data-dependent output shape (None if it has not)."""
    name = _ALIASES.get(name, name)
    why = _EXACT.get(name)
    if why is None:
        for prefix, text in _PREFIXES.items():
            if name.startswith(prefix):
                return text
    return why


class DataDependentShapeOp(Rule):
    """
    ## What it does
    Flags ops whose output shape depends on the values of their inputs and that XLA rejects or
    only compiles by specializing on values: `tf.unique_with_counts`, `tf.math.bincount`, the
    sorted `tf.math.segment_*` ops, `tf.ragged.*`/`tf.RaggedTensor`, `tf.sparse.*`, `tf.sets.*`,
    `tf.strings.split`.

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
    - `tf.math.bincount(ids, minlength=K, maxlength=K[, dtype=D])` becomes
      `tf.reduce_sum(tf.one_hot(tf.reshape(tf.cast(ids, tf.int64), [-1]), K, dtype=D), axis=0)`
      when K is a Python int literal or module constant; negative ids, which raise in bincount,
      are not counted. Any other K makes it unsafe (bincount accepts an int64 tensor K with
      int64 ids, `tf.one_hot` does not).
    - `tf.math.segment_sum/prod(data, ids)` (and `segment_mean` of provably float data) becomes
      `tf.math.unsorted_segment_*` with `num_segments=max(ids) + 1` (0 for empty ids), ids in
      int64; unsorted or negative ids, which raise in the original, are no longer checked. It
      is unsafe when `ids` is an expression (written twice) and for `segment_mean` of data that
      may be integer or complex. `num_segments` still comes from the data: XLA compiles once
      per value of it.
    - `tf.RaggedTensor.from_row_lengths/from_row_splits(values, p).to_tensor([default])`,
      chained or through a name read only by `.to_tensor`, becomes a gather from the values
      with a padding row; the partition checks stay as `tf.debugging` assertions (XLA drops
      them). The width is still `max(lengths)`: XLA compiles once per value of it. Unsafe when,
      in the chained form, the values or partition are expressions (computed earlier).

    Other ops get an explanation only: `segment_max/min` fill empty segments differently from
    their unsorted forms, and `tf.unique_with_counts`, sparse, set and other ragged ops have no
    static-shape equivalent.
    """

    code = "XLA204"
    name = "data-dependent-shape-op"
    node_types = (ast.Call,)
    in_helpers = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels):\n"
                "    return tf.reduce_sum(tf.one_hot(labels, 3), axis=0)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, ids):\n"
                "    return tf.math.unsorted_segment_sum(x, ids, num_segments=4)\n"),
        Example("import tensorflow as tf\ndef to_sparse(ids):\n    return tf.sparse.from_dense(ids)\n"
                "def make(ds):\n    return ds.map(lambda x: to_sparse(x))\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels):\n"
                "    return tf.math.bincount(labels, minlength=3, maxlength=3)\n"),
        Example("import tensorflow as tf\nclass P(tf.keras.layers.Layer):\n    def call(self, x, ids):\n"
                "        return tf.math.segment_sum(x, ids)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(h, m):\n"
                "    return tf.reduce_mean(tf.ragged.boolean_mask(h, m), axis=1)\n"),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None or not name.startswith("tf."):
            return
        why = dynamic_shape_reason(name)
        if why is not None:
            ctx.report(self, node, f"{_ALIASES.get(name, name)}: {why}; XLA needs static shapes")
