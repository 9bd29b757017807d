"""XLA303: ``int(t)`` under AutoGraph mixed with float tensors afterwards."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import CONST, INTCAST, TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext

_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.Mod)


class IntCastDtypeMismatch(Rule):
    """
    ## What it does
    Flags arithmetic that mixes the result of `int(t)` (inside AutoGraph-converted code) with
    another tensor, and the use of such a result as a Python dict/list index.

    ## Why is this bad?
    AutoGraph turns `int(t)` into `tf.cast(t, tf.int32)`: it compiles, but the value is now an
    int32 **tensor**, not a Python int. Dividing a float tensor by it fails with
    `TypeError: x and y must have the same dtype, got tf.float32 != tf.int32`, and it cannot be
    a dict key (`Tensor is unhashable`), although the same code worked eagerly.

    ## Example
    ```python
    num_tokens = int(tf.reduce_sum(attention_mask))
    return tf.reduce_sum(masked) / num_tokens
    ```

    ## Use instead
    ```python
    num_tokens = tf.reduce_sum(tf.cast(attention_mask, masked.dtype))
    return tf.reduce_sum(masked) / num_tokens
    ```

    ## Fix safety
    The fix offered for a list indexed by the int tensor (`tf.gather(tf.stack(items), i)`) is
    unsafe: Python counts negative indices from the end, and the items must share one shape and
    dtype. In arithmetic the fix casts the `int(t)` operand to the other operand's dtype
    (`total / tf.cast(n, total.dtype)`), the conversion eager code makes of the Python int: safe
    when `t` is an integer or bool tensor of at most 32 bits; otherwise unsafe, because
    AutoGraph's `int(t)` is an int32 cast that wraps (or saturates, for floats) past 2**31 - 1
    where Python's `int` is exact.
    """

    code = "XLA303"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_list_index", "rewrite_int_cast_operand")
    name = "int-cast-dtype-mismatch"
    node_types = (ast.BinOp, ast.Subscript)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(loss, mask):\n"
                "    n = int(tf.reduce_sum(mask))\n    return tf.reduce_sum(loss) / tf.cast(n, tf.float32)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(loss, mask):\n"
                "    n = int(tf.reduce_sum(mask))\n    return tf.reduce_sum(loss * tf.cast(mask, tf.float32)) / n\n",
                expected=(
                    (5, 12, 'int(t) inside AutoGraph code becomes tf.cast(t, tf.int32): mixing it with this tensor '
                            "fails with 'x and y must have the same dtype' (float32 != int32); cast explicitly to "
                            "the other operand's dtype"),
                )),
        Example("import tensorflow as tf\nSCALE = {0: 1.0, 1: 0.5}\n@tf.function(jit_compile=True)\ndef f(x, level):\n"
                "    return x * SCALE[int(tf.reduce_max(level))]\n",
                expected=(
                    (5, 16, 'int(t) inside AutoGraph code becomes an int32 tensor, not a Python int: it cannot index '
                            "a Python dict/list ('Tensor is unhashable'); use tf.gather on a tensor table"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if not ctx.converted:
            return
        if isinstance(node, ast.Subscript):
            if ctx.flags(node.slice) & INTCAST and not ctx.flags(node.value) & TENSOR:
                ctx.report(self, node,
                           "int(t) inside AutoGraph code becomes an int32 tensor, not a Python int: it cannot index a "
                           "Python dict/list ('Tensor is unhashable'); use tf.gather on a tensor table")
            return
        assert isinstance(node, ast.BinOp)
        if not isinstance(node.op, _ARITH):
            return
        left, right = ctx.flags(node.left), ctx.flags(node.right)
        for a, b in ((left, right), (right, left)):
            if a & INTCAST and b & TENSOR and not b & INTCAST and not b & CONST:
                ctx.report(self, node,
                           "int(t) inside AutoGraph code becomes tf.cast(t, tf.int32): mixing it with this tensor "
                           "fails with 'x and y must have the same dtype' (float32 != int32); cast explicitly to the "
                           "other operand's dtype")
                return
