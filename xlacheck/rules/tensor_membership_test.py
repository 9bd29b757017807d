"""XLA104: ``tensor in container`` tests."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import is_data_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


class TensorMembershipTest(Rule):
    """
    ## What it does
    Flags `t in (...)` / `t not in [...]` where `t` is a tensor, in compiled code.

    ## Why is this bad?
    `in` compares the tensor with each element and asks Python for the truth of each comparison;
    AutoGraph does not convert it, so tracing fails with
    `Using a symbolic tf.Tensor as a Python bool is not allowed`.

    ## Example
    ```python
    weight = 0.0 if token_id in IGNORE_IDS else 1.0
    ```

    ## Use instead
    ```python
    is_ignored = tf.reduce_any(tf.equal(token_id[..., None], tf.constant(IGNORE_IDS)), axis=-1)
    weight = 1.0 - tf.cast(is_ignored, tf.float32)
    ```

    ## Fix safety
    `x in (0, 101, 102)` -> `tf.reduce_any(tf.equal(x, (0, 101, 102)))` is safe for a literal
    tuple of numbers (a tensor is never identical to a number, so Python's `in` is `any(x == c)`);
    unsafe when the container cannot be seen (a set, a dict, a tensor).
    """

    code = "XLA104"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_membership",)
    name = "tensor-membership-test"
    node_types = (ast.Compare,)
    in_helpers = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, mode='a'):\n"
                "    if mode in ('a', 'b'):\n        x = x * 2.0\n    return x\n"),
        Example("import tensorflow as tf\nclass L(tf.keras.layers.Layer):\n    def call(self, inputs):\n"
                "        if 'mask' in inputs:\n            return inputs['mask']\n        return inputs['x']\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nIGNORE = (0, 101)\ndef weight(token_id):\n"
                "    return 0.0 if token_id in IGNORE else 1.0\n"
                "@tf.function(jit_compile=True)\ndef f(ids):\n    return tf.stack([weight(t) for t in tf.unstack(ids)])\n",
                expected=(
                    (4, 19, 'membership test `in` on a tensor: it compares element by element as Python bools, which '
                            'AutoGraph does not convert; use tf.reduce_any(tf.equal(t[..., None], values), -1)'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Compare)
        if not any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            return
        k = ctx.flags(node.left)
        if is_data_tensor(k) and ctx.tensor_value(k):
            ctx.report(self, node,
                       "membership test `in` on a tensor: it compares element by element as Python bools, which "
                       "AutoGraph does not convert; use tf.reduce_any(tf.equal(t[..., None], values), -1)")
