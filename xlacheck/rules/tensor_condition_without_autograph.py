"""XLA101: a Python condition on a tensor in compiled code that AutoGraph does not convert."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


class TensorConditionWithoutAutograph(Rule):
    """
    ## What it does
    Flags `if`, `while`, ternaries and `and`/`or` whose condition is a tensor, in compiled code
    that AutoGraph does not convert: `@tf.function(autograph=False)`,
    `@tf.autograph.experimental.do_not_convert`, lambdas (including `keras.layers.Lambda`),
    `jax.jit` and `torch.compile` functions.

    ## Why is this bad?
    Without AutoGraph, Python asks the symbolic tensor for a `bool` while tracing and TensorFlow
    raises `OperatorNotAllowedInGraphError: Using a symbolic tf.Tensor as a Python bool is not
    allowed` (JAX: `TracerBoolConversionError`). Inside AutoGraph-converted code the same `if`
    becomes `tf.cond` and compiles, so this rule stays silent there.

    ## Example
    ```python
    @tf.function(jit_compile=True, autograph=False)
    def scale(x):
        if tf.reduce_sum(x) > 10.0:
            x = x / 2.0
        return x
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True, autograph=False)
    def scale(x):
        return x / (1.0 + tf.cast(tf.reduce_sum(x) > 10.0, x.dtype))
    ```

    ## Fix safety
    `if c: x = f(x)`, `a if c else b` and `if c: return a` / `return b` become indicator
    arithmetic (`x / (1.0 + tf.cast(c, x.dtype))`), `tf.where` (branches linear in the inputs) or
    `tf.cond` (anything else). The fix is safe when the condition is provably a scalar and both
    branches provably share shape and dtype; unsafe, with the reason, when a one-element condition
    of higher rank could broadcast, when `tf.where` would broadcast branches of different shapes,
    when `tf.cond` would run a non-TensorFlow function's side effects for both branches, or when a
    zero gradient sent to the branch not taken would meet a non-linear op (NaN at inf).

    Branches of several assignments that read each other's results (`h = f(x)`, `y = g(h)`, tuple
    and augmented assignments; or a `return` ending both arms) become `tf.cond` over two local
    functions that hold the branches as written, take the names the branch assigns that have a
    value before the `if`, and return every name the `if` assigns (a branch's own temporary,
    read nowhere after the `if`, stays inside it). Only the taken branch runs, so values are the
    original's: safe under the same conditions as `tf.cond` above. Branches with other
    statements (calls for their side effects, loops, one arm returning) get no fix.
    """

    code = "XLA101"
    fix = ("rewrite_if", "rewrite_ternary", "rewrite_while")
    name = "tensor-condition-without-autograph"
    node_types = (ast.If, ast.While, ast.IfExp, ast.BoolOp)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.reduce_sum(x) > 10.0:\n        x = x / 2.0\n    return x\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, autograph=False)\ndef f(x, training=False):\n"
                "    if training:\n        x = x * 2.0\n    return x\n"),
        Example("import tensorflow as tf\n@tf.function(autograph=False)\ndef f(x):\n"
                "    if x.shape[0] > 2:\n        x = x[:2]\n    return x\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, autograph=False)\ndef f(x):\n"
                "    if tf.reduce_sum(x) > 10.0:\n        x = x / 2.0\n    return x\n",
                expected=(
                    (4, 8, '`if` on a tensor in code AutoGraph does not convert (jit-compiled without AutoGraph): '
                           "tracing fails with 'Using a symbolic tf.Tensor as a Python bool is not allowed'; use "
                           'tf.where/tf.cond or an indicator rewrite'),
                )),
        Example("import tensorflow as tf\nclass L(tf.keras.layers.Layer):\n"
                "    @tf.autograph.experimental.do_not_convert\n    def call(self, x):\n"
                "        return x if tf.reduce_mean(x) > 0 else -x\n",
                expected=(
                    (5, 21, 'conditional expression on a tensor in code AutoGraph does not convert (Keras call()): '
                            "tracing fails with 'Using a symbolic tf.Tensor as a Python bool is not allowed'; use "
                            'tf.where/tf.cond or an indicator rewrite'),
                )),
        Example("import tensorflow as tf\nlayer = tf.keras.layers.Lambda(lambda t: t * 2.0 if tf.reduce_max(t) > 1.0 else t)\n",
                expected=(
                    (2, 53, 'conditional expression on a tensor in code AutoGraph does not convert (compiled without '
                            "AutoGraph): tracing fails with 'Using a symbolic tf.Tensor as a Python bool is not "
                            "allowed'; use tf.where/tf.cond or an indicator rewrite"),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n"
                "    while jnp.sum(x) > 1.0:\n        x = x / 2.0\n    return x\n",
                expected=(
                    (5, 11, '`while` on a traced array under jax.jit (decorated with jax.jit): tracing fails with '
                            'TracerBoolConversionError; use jnp.where or jax.lax.cond/while_loop'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if ctx.converted:
            return
        if isinstance(node, ast.BoolOp):
            tested = node.values[:-1]  # Python evaluates all but the last operand for truth
        else:
            tested = [node.test]  # type: ignore[attr-defined]
        for test in tested:
            if is_tensor(ctx.flags(test)):
                kind = {ast.If: "`if`", ast.While: "`while`", ast.IfExp: "conditional expression",
                        ast.BoolOp: "`and`/`or`"}[type(node)]
                if ctx.function.jax:  # say it in JAX's terms: no AutoGraph, no tf.Tensor there
                    ctx.report(self, test,
                               f"{kind} on a traced array under jax.jit ({ctx.function.why}): tracing fails with "
                               "TracerBoolConversionError; use jnp.where or jax.lax.cond/while_loop")
                    return
                ctx.report(self, test,
                           f"{kind} on a tensor in code AutoGraph does not convert ({ctx.function.why}): "
                           "tracing fails with 'Using a symbolic tf.Tensor as a Python bool is not allowed'; "
                           "use tf.where/tf.cond or an indicator rewrite")
                return
