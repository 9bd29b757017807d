"""XLA203: ``tf.TensorArray(dynamic_size=True)`` in compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis.tables import TENSOR_ARRAYS
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name


class TensorArrayDynamicSize(Rule):
    """
    ## What it does
    Flags `tf.TensorArray(..., dynamic_size=True)` in compiled code.

    ## Why is this bad?
    XLA needs the size of a TensorArray up front. With `size=0, dynamic_size=True` filled in a
    loop, `stack()` under `jit_compile=True` returned an **empty** tensor where eager mode
    returned the values: a silent wrong result.

    ## Example
    ```python
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    ```

    ## Use instead
    ```python
    ta = tf.TensorArray(tf.float32, size=num_steps)  # a static bound
    ```

    ## Fix safety
    When the TensorArray is written once per iteration at the iteration's index by a loop whose
    trip count is known where the TensorArray is made, `size=0, dynamic_size=True` (or a truthy
    int) becomes `size=<trip count>`: `ta = ta.write(i, v)` directly in the body of
    `for i in tf.range(n)` / `range(n)` gives `size=n`, of `for i, x in enumerate(seq)`
    `size=len(seq)`; a `tf.while_loop(lambda i, ...: i < N, body, (0, ..., ta, ...))` whose
    body function returns `i + 1` and `ta.write(i, v)` (no `maximum_iterations`) gives
    `size=tf.maximum(N, 0)`, with `N`'s single binding written in its place when `N` is bound
    after the TensorArray. The loop writes indices 0..n-1 once each, so the elements are the
    same, and the fix is safe (nothing else in the function may write, scatter or unstack into
    a TensorArray). Otherwise there is no automatic fix, because the size must be known.
    """

    code = "XLA203"
    fix = ("rewrite_tensorarray_size",)
    name = "tensorarray-dynamic-size"
    severity = Severity.WRONG_RESULT
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    ta = tf.TensorArray(tf.float32, size=3)\n    return ta.stack()\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=2)\n"
                "    for i in tf.range(3):\n        ta = ta.write(i, x[i])\n    return ta.stack()\n",
                expected=(
                    (4, 10, "tf.TensorArray(dynamic_size=2): tracing passes it to the op's bool attribute and fails "
                            "with \"TypeError: Expected bool for argument 'resize_if_index_out_of_bounds'\"; give it "
                            'a static size (or a bool)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)\n    return ta.stack()\n",
                expected=(
                    (4, 10, 'tf.TensorArray with dynamic_size=True under XLA: stack() came back empty under '
                            'jit_compile (wrong result); give it a static size'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)\n"
                "    for i in tf.range(tf.shape(x)[0]):\n        ta = ta.write(i, 2.0 * x[i])\n    return ta.stack()\n",
                fixed="import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                      "    ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])\n"
                      "    for i in tf.range(tf.shape(x)[0]):\n        ta = ta.write(i, 2.0 * x[i])\n    return ta.stack()\n",
                expected=(
                    (4, 10, 'tf.TensorArray with dynamic_size=True under XLA: stack() came back empty under '
                            'jit_compile (wrong result); give it a static size'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        if call_name(node, ctx) not in TENSOR_ARRAYS:
            return
        dyn = argument(node, 2, "dynamic_size")
        if isinstance(dyn, ast.Constant) and type(dyn.value) is int:
            # measured (TF 2.21): a graph TensorArray passes dynamic_size to the TensorArrayV3 op's
            # bool attribute, so any int (0 too) fails tracing, with or without jit_compile
            ctx.report(self, node,
                       f"tf.TensorArray(dynamic_size={dyn.value}): tracing passes it to the op's bool attribute and "
                       "fails with \"TypeError: Expected bool for argument 'resize_if_index_out_of_bounds'\"; "
                       "give it a static size (or a bool)")
            return
        if isinstance(dyn, ast.Constant) and dyn.value is True:
            ctx.report(self, node,
                       "tf.TensorArray with dynamic_size=True under XLA: stack() came back empty under "
                       "jit_compile (wrong result); give it a static size")
