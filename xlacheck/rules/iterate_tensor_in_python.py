"""XLA106: Python iteration over a tensor where AutoGraph cannot stage it."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import PYLIST, is_data_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


class IterateTensorInPython(Rule):
    """
    ## What it does
    Flags iteration over a tensor in a comprehension, through `zip()`/`enumerate()`, or in a
    `for` statement that AutoGraph does not convert, inside compiled code.

    ## Why is this bad?
    A symbolic tensor cannot be iterated in Python: tracing fails with
    `Iterating over a symbolic tf.Tensor is not allowed`. AutoGraph turns a plain
    `for row in tensor:` statement into a `tf.while_loop`, but not a comprehension or a
    `zip()` over tensors.

    ## Example
    ```python
    rows = [row / tf.reduce_sum(tf.abs(row)) for row in x]
    ```

    ## Use instead
    ```python
    rows = x / tf.reduce_sum(tf.abs(x), axis=-1, keepdims=True)
    # or, when the leading dimension is static: [... for row in tf.unstack(x)]
    ```

    ## Fix safety
    `for row in x` in a comprehension, a `for` statement or through `zip`/`enumerate`/`reversed`
    -> `for row in tf.unstack(x)` is safe: iterating a tensor yields exactly the rows
    `tf.unstack` lists, in order. An unknown first dimension fails loudly at trace time.
    """

    code = "XLA106"
    fix = ("rewrite_iteration",)
    name = "iterate-tensor-in-python"
    node_types = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp, ast.For)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.stack([r * 2.0 for r in tf.unstack(x)])\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    total = tf.constant(0.0)\n    for row in x:\n        total += tf.reduce_sum(row)\n    return total\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, route):\n"
                "    parts = tf.dynamic_partition(x, route, 2)\n"
                "    return tf.add_n([tf.reduce_sum(p) for p in parts])\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.stack([row / tf.reduce_sum(row) for row in x])\n",
                expected=(
                    (4, 58, 'iterating over a tensor in Python: comprehensions and zip()/enumerate() are not '
                            "converted by AutoGraph, so tracing fails with 'Iterating over a symbolic tf.Tensor'; "
                            'use vectorized ops, tf.unstack (static length) or tf.map_fn'),
                )),
        Example("import tensorflow as tf\ndef margin(pos, neg):\n"
                "    return tf.add_n([tf.nn.relu(1.0 - p + n) for p, n in zip(pos, neg)])\n"
                "@tf.function(jit_compile=True)\ndef f(pos, neg):\n    return margin(pos, neg)\n",
                expected=(
                    (3, 62, 'iterating over a tensor in Python: comprehensions and zip()/enumerate() are not '
                            "converted by AutoGraph, so tracing fails with 'Iterating over a symbolic tf.Tensor'; "
                            'use vectorized ops, tf.unstack (static length) or tf.map_fn'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if ctx.function.jax:
            return  # a JAX array with a static leading dim iterates (unrolls) under jax.jit
        if isinstance(node, ast.For):
            if not ctx.converted:
                self._check_iter(node.iter, ctx)
            return
        for gen in node.generators:  # type: ignore[attr-defined]
            if self._check_iter(gen.iter, ctx):
                return

    def _check_iter(self, it: ast.expr, ctx: RuleContext) -> bool:
        sources = [it]
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("zip", "enumerate", "reversed"):
            sources = list(it.args)
        for src in sources:
            k = ctx.flags(src)
            if is_data_tensor(k) and not k & PYLIST:
                ctx.report(self, src,
                           "iterating over a tensor in Python: comprehensions and zip()/enumerate() are not "
                           "converted by AutoGraph, so tracing fails with 'Iterating over a symbolic tf.Tensor'; "
                           "use vectorized ops, tf.unstack (static length) or tf.map_fn")
                return True
        return False
