"""XLA331: a Python int before a tensor of another dtype in a TensorFlow call that converts its inputs in order."""

from __future__ import annotations

import ast

from xlacheck import tf_dtype_table
from xlacheck.analysis.dtypes import REAL_FLOAT_DTYPES
from xlacheck.analysis.values import TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext, call_name


def _int_literal(e: ast.expr | None) -> bool:
    """A Python int written as a literal (``0``, ``-1``; not ``True``, not ``0.0``)."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        e = e.operand
    return isinstance(e, ast.Constant) and type(e.value) is int


def _graph_error(form: tf_dtype_table.LiteralOperand, dtype: str) -> str | None:
    """The error the trace raised with a tensor of ``dtype`` after the literal: the probed float32
    verdict for every real float dtype (the literal's int32 conversion is the cause, not the width),
    the int64 one for int64; None for any other dtype (int32 matches the literal)."""
    if dtype in REAL_FLOAT_DTYPES:
        return form.graph.get("float32")
    return form.graph.get("int64") if dtype == "int64" else None


def _argument(node: ast.Call, position: int, keyword: str) -> ast.expr | None:
    """The argument at ``position`` (before any ``*args``) or passed as ``keyword``."""
    for kw in node.keywords:
        if kw.arg == keyword:
            return kw.value
    args = node.args
    for index, arg in enumerate(args):
        if isinstance(arg, ast.Starred):
            return None
        if index == position:
            return arg
    return None


class IntLiteralBeforeTensorOperand(Rule):
    """
    ## What it does
    Flags a call such as `tf.maximum(0, x)`, `tf.subtract(1, x)`, `tf.pow(2, x)` or
    `tf.where(c, 0, x)` in code that runs in a graph, where a Python int comes before a tensor whose
    dtype is proven to be a float or int64. Which functions, argument forms and dtypes fail comes
    from `literal_operand` in `xlacheck/data/tf_dtypes.json`, measured by
    `tools/generate_tf_dtype_table.py`
    (every public TensorFlow function called eagerly and traced with the int first).

    ## Why is this bad?
    In a graph TensorFlow converts a call's inputs in order: the leading Python int becomes an
    int32 tensor, and the float tensor after it no longer matches. Tracing fails with
    `TypeError: Input 'y' of 'Maximum' Op has type float32 that does not match type int32 of
    argument 'x'` in every `tf.function`, with or without `jit_compile`. Eagerly the inputs are
    matched together, so the same line works until the code is first compiled.

    ## Example
    ```python
    pseudo_derivative = 0.3 * tf.maximum(0, 1 - tf.abs(v_scaled))
    ```

    ## Use instead
    ```python
    pseudo_derivative = 0.3 * tf.maximum(0.0, 1 - tf.abs(v_scaled))
    ```

    ## Fix safety
    No automatic fix: the literal must take the tensor's dtype (`0.0` for a float, an int64 constant
    for an int64 tensor), which the fix would have to spell for each dtype.
    """

    code = "XLA331"
    name = "int-literal-before-tensor-operand"
    fails_in_any_graph = True  # the trace fails in every tf.function, jit_compile or not
    fix = None
    node_types = (ast.Call,)

    VALID = (
        # a float literal, the tensor first, and an int32 tensor all work in a graph (measured)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    h = tf.nn.relu(x)\n    i = tf.argmax(h, output_type=tf.int32)\n"
                "    return tf.maximum(0.0, h), tf.maximum(h, 0), tf.maximum(0, i)\n"),
        # tf.divide and Python's `-` convert the int to the tensor's dtype (measured)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    h = tf.nn.relu(x)\n    return tf.divide(1, h) + (1 - h)\n"),
        # the tensor's dtype is not proven
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.maximum(0, x)\n"),
        # eager code: the inputs are matched together
        Example("import tensorflow as tf\ndef f(x):\n    return tf.maximum(0, tf.cast(x, tf.float32))\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    v = tf.cast(x, tf.float32)\n    return 0.3 * tf.maximum(0, 1 - tf.abs(v))\n",
                expected=(
                    (5, 18, "tf.maximum(0, ...) before a float32 tensor: in a graph TensorFlow converts the leading "
                            "Python int to an int32 tensor first, so tracing fails with \"TypeError: Input 'y' of "
                            "'Maximum' Op has type float32 that does not match type int32 of argument 'x'.\" "
                            "(measured; eager works); write the literal in the tensor's dtype (0.0) or put the "
                            "tensor first"),
                )),
        Example("import tensorflow as tf\nclass Clip(tf.keras.layers.Layer):\n    def call(self, x):\n"
                "        ids = tf.argmax(x, axis=-1)\n        return tf.where(ids > 3, 0, ids)\n",
                expected=(
                    (5, 16, "tf.where(..., 0, ...) before an int64 tensor: in a graph TensorFlow converts the "
                            "leading Python int to an int32 tensor first, so tracing fails with \"TypeError: Input "
                            "'e' of 'SelectV2' Op has type int64 that does not match type int32 of argument 't'.\" "
                            "(measured; eager works); write the literal in the tensor's dtype or put the tensor "
                            "first"),
                )),
        # the dtype a compiled caller passes a helper's parameter, and a closure's in the enclosing function
        Example("import tensorflow as tf\ndef hinge(margin):\n    return tf.maximum(0, 1 - margin)\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    v = tf.cast(x, tf.float32)\n"
                "    def clipped():\n        return tf.minimum(1, v)\n    return hinge(v) + clipped()\n",
                expected=(
                    (3, 12, "tf.maximum(0, ...) before a float32 tensor: in a graph TensorFlow converts the leading "
                            "Python int to an int32 tensor first, so tracing fails with \"TypeError: Input 'y' of "
                            "'Maximum' Op has type float32 that does not match type int32 of argument 'x'.\" "
                            "(measured; eager works); write the literal in the tensor's dtype (0.0) or put the "
                            "tensor first"),
                    (8, 16, "tf.minimum(1, ...) before a float32 tensor: in a graph TensorFlow converts the leading "
                            "Python int to an int32 tensor first, so tracing fails with \"TypeError: Input 'y' of "
                            "'Minimum' Op has type float32 that does not match type int32 of argument 'x'.\" "
                            "(measured; eager works); write the literal in the tensor's dtype or put the tensor "
                            "first"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.function.jax:
            return
        name = call_name(node, ctx)
        if name is None or not name.startswith("tf."):
            return
        for form in tf_dtype_table.literal_operand_forms(name):
            literal = _argument(node, form.position, form.literal)
            tensor = _argument(node, form.position + 1, form.tensor)
            if literal is None or not _int_literal(literal) or tensor is None or not ctx.flags(tensor) & TENSOR:
                continue
            dtype = ctx.values.dtype(tensor)
            error = _graph_error(form, dtype) if dtype is not None else None
            if dtype is None or error is None:
                continue
            text = ast.unparse(literal)
            shown = "(" + ", ".join(["..."] * form.position + [text, "..."]) + ")"
            spelled = " (0.0)" if dtype in REAL_FLOAT_DTYPES and text == "0" else ""
            article = "an" if dtype[0] in "aeiou" else "a"
            ctx.report(self, node,
                       f"{name}{shown} before {article} {dtype} tensor: in a graph TensorFlow converts the leading "
                       f"Python int to an int32 tensor first, so tracing fails with \"{error}\" (measured; eager "
                       f"works); write the literal in the tensor's dtype{spelled} or put the tensor first")
            return
