"""XLA112: a Python list or tuple indexed by a tensor."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import PYLIST, is_data_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


class TensorIndexIntoPythonList(Rule):
    """
    ## What it does
    Flags `python_list[t]` where `t` is a tensor computed from data (for example the `argmax`
    of a router), in compiled code.

    ## Why is this bad?
    Python lists need a Python `int` index; a symbolic tensor is not one, and tracing fails with
    `TypeError: list indices must be integers or slices, not SymbolicTensor`.

    ## Example
    ```python
    choice = tf.argmax(tf.reduce_mean(self.router(x), axis=0))
    return self.experts[choice](x)
    ```

    ## Use instead
    ```python
    outs = tf.stack([expert(x) for expert in self.experts])  # [E, ...]
    return tf.gather(outs, choice)
    # or tf.switch_case(tf.cast(choice, tf.int32), [lambda e=e: e(x) for e in self.experts])
    ```

    ## Fix safety
    `items[i](x)` -> `tf.switch_case` and `items[i]` -> `tf.gather(tf.stack(items), i)` are
    unsafe: Python counts negative indices from the end (a value the fix does not return), and
    `tf.switch_case` traces every branch, so unbuilt layers are built while tracing, in another
    order.
    """

    code = "XLA112"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_list_index",)
    name = "tensor-index-into-python-list"
    node_types = (ast.Subscript,)

    VALID = (
        Example("import tensorflow as tf\nclass M(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.experts = [tf.keras.layers.Dense(2) for _ in range(3)]\n"
                "    def call(self, x):\n        return self.experts[0](x) + self.experts[-1](x)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass M(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.router = tf.keras.layers.Dense(3)\n"
                "        self.experts = [tf.keras.layers.Dense(2) for _ in range(3)]\n"
                "    def call(self, x):\n        choice = tf.argmax(tf.reduce_mean(self.router(x), axis=0))\n"
                "        return self.experts[choice](x)\n",
                expected=(
                    (9, 16, 'a Python list indexed by a tensor: lists need a Python int, so tracing fails; stack the '
                            'items and tf.gather, or dispatch with tf.switch_case'),
                )),
        # JAX code gets the JAX remedy (reports30: the TF one was given for a jitted function too)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef pick(scales, x):\n"
                "    heads = [x * 2.0, x * 3.0]\n    return heads[jnp.argmax(scales)]\n",
                expected=(
                    (6, 12, 'a Python list indexed by a tensor: lists need a Python int, so tracing fails; jnp.stack '
                            'the items and index the stack, or dispatch with jax.lax.switch'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Subscript)
        if not isinstance(node.ctx, ast.Load) or isinstance(node.slice, (ast.Slice, ast.Tuple)):
            return
        base = ctx.flags(node.value)
        if not base & PYLIST:
            return
        if is_data_tensor(ctx.flags(node.slice)):
            remedy = ("jnp.stack the items and index the stack, or dispatch with jax.lax.switch" if ctx.function.jax
                      else "stack the items and tf.gather, or dispatch with tf.switch_case")
            ctx.report(self, node,
                       f"a Python list indexed by a tensor: lists need a Python int, so tracing fails; {remedy}")
