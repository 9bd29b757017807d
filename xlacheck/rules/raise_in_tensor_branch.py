"""XLA109: ``raise`` inside a branch that depends on a tensor."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import is_computed_tensor, is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


class RaiseInTensorBranch(Rule):
    """
    ## What it does
    Flags `raise` inside an `if`/`while` whose condition is a tensor, in AutoGraph-converted code.

    ## Why is this bad?
    AutoGraph traces both branches of the resulting `tf.cond`; the `raise` runs while tracing,
    so the function fails for every input, not only for the bad ones.

    ## Example
    ```python
    if tf.reduce_any(labels < 0):
        raise ValueError("negative labels")
    ```

    ## Use instead
    ```python
    tf.debugging.assert_non_negative(labels)  # checked eagerly; XLA drops it
    ```

    ## Fix safety
    `if c: raise E("msg")` (the raise alone, no `else`) becomes
    `tf.debugging.Assert(tf.logical_not(c), ["msg"])`. The fix is safe: wherever the original
    returns, the condition was false, so the Assert passes and changes nothing. Where the original
    raises, XLA drops the check under `jit_compile`, and eagerly or in a `tf.function` the error
    is `InvalidArgumentError` instead of `E`. Unsafe when the message is not a string literal
    (the fix evaluates it on every call), when an `and`/`or` could skip operands on a passing
    input, or when a `try` or an `except` in the file could catch `E` (then the original returns).
    Leading Python-level guards (`labels is not None and ...`) stay a Python `if` around the
    Assert, so the tensor condition is read only where the original reads it.
    """

    code = "XLA109"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_if",)
    name = "raise-in-tensor-branch"
    node_types = (ast.Raise,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if x.shape[-1] != 4:\n        raise ValueError('bad width')\n    return x\n"),
        Example("import tensorflow as tf\ndef pos_embed(embed_dim, grid):\n    if embed_dim % 2 != 0:\n"
                "        raise ValueError('embed_dim must be even')\n    return tf.concat([grid, grid], axis=1)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, limit):\n"
                "    if limit < 0:\n        raise ValueError('negative limit')\n    return tf.minimum(x, limit)\n",
                expected=(
                    (5, 9, '`raise` under a condition on a tensor: AutoGraph traces both branches of the tf.cond, so '
                           'this raises while tracing, for every input; use tf.debugging.assert_*'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels):\n"
                "    if tf.reduce_any(labels < 0):\n        raise ValueError('negative labels')\n"
                "    return labels\n",
                expected=(
                    (5, 9, '`raise` under a condition on a tensor: AutoGraph traces both branches of the tf.cond, so '
                           'this raises while tracing, for every input; use tf.debugging.assert_*'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        # A bare parameter may be a Python value (model code validates config ints this way),
        # except in an explicit jit_compile/jax.jit entry, whose arguments are tensors.
        if ctx.converted and ctx.tensor_branches and any(
            is_computed_tensor(k) or (ctx.function.jit_entry and is_tensor(k))
            for k in (ctx.flags(b.test) for b in ctx.tensor_branches)
        ):
            ctx.report(self, node,
                       "`raise` under a condition on a tensor: AutoGraph traces both branches of the tf.cond, "
                       "so this raises while tracing, for every input; use tf.debugging.assert_*")
