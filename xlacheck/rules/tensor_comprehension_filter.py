"""XLA105: a comprehension filtered by a tensor condition."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


class TensorComprehensionFilter(Rule):
    """
    ## What it does
    Flags `[... for ... in ... if <tensor condition>]` (and set/dict/generator forms) in compiled code.

    ## Why is this bad?
    AutoGraph converts statements, not comprehensions: the `if` clause asks the symbolic tensor
    for a Python bool while tracing and fails with
    `Using a symbolic tf.Tensor as a Python bool is not allowed`.

    ## Example
    ```python
    kept = [h for h in tf.unstack(hidden) if tf.reduce_sum(h) > 0]
    ```

    ## Use instead
    ```python
    keep = tf.cast(tf.reduce_sum(hidden, axis=-1, keepdims=True) > 0, hidden.dtype)
    kept = hidden * keep  # or tf.boolean_mask when a bounded dynamic shape is acceptable
    ```

    ## Fix safety
    When the filtered list is summed, `tf.add_n([e for t in tf.unstack(x) if c])` becomes
    `tf.add_n([tf.where(c, e, 0) for t in tf.unstack(x)])`. The fix is safe when `e` is a linear
    elementwise expression of the item (`t`, `2.0 * t`) and `c` one boolean test with no
    `and`/`or`. Where the original returns, at least one item is kept (`tf.add_n([])` raises),
    dropped items add exact zeros, and they get a zero gradient. With builtin `sum` it is unsafe:
    when no item is kept, the original returns the int 0 and the fix returns a tensor of zeros.
    Under `jax.jit`, `sum(e for t in x if c)` becomes `sum(jnp.where(c, e, 0) for t in x)`,
    unsafe for the same reason. Other comprehensions have no automatic fix, because the kept items
    change shape.
    """

    code = "XLA105"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_filtered_sum", "rewrite_jax_filtered_sum")
    name = "tensor-comprehension-filter"
    node_types = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
    in_helpers = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(xs):\n"
                "    return tf.add_n([x for i, x in enumerate(tf.unstack(xs)) if i % 2 == 0])\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(hidden):\n"
                "    kept = [h for h in tf.unstack(hidden) if tf.reduce_sum(h) > 0]\n    return tf.add_n(kept)\n",
                expected=(
                    (4, 46, 'comprehension filtered by a tensor condition: AutoGraph does not convert '
                            'comprehensions, so tracing fails on the Python bool; use a mask (multiply, tf.where) '
                            'instead'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(hidden):\n"
                "    return tf.add_n([h for h in tf.unstack(hidden) if tf.reduce_sum(h) > 0])\n",
                fixed="import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(hidden):\n"
                      "    return tf.add_n([tf.where(tf.reduce_sum(h) > 0, h, 0) for h in tf.unstack(hidden)])\n",
                expected=(
                    (4, 55, 'comprehension filtered by a tensor condition: AutoGraph does not convert '
                            'comprehensions, so tracing fails on the Python bool; use a mask (multiply, tf.where) '
                            'instead'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        # Called before the walker binds the comprehension targets; bind them here to judge.
        env = ctx.values.env
        saved: dict[str, int | None] = {}
        try:
            for gen in node.generators:  # type: ignore[attr-defined]
                for name, k in ctx.values.target_bindings(gen.target, gen.iter):
                    saved.setdefault(name, env.get(name))
                    env[name] = k
                ctx.values.invalidate()
                for cond in gen.ifs:
                    if is_tensor(ctx.flags(cond)) and ctx.tensor_value(ctx.flags(cond)):
                        ctx.report(self, cond,
                                   "comprehension filtered by a tensor condition: AutoGraph does not convert "
                                   "comprehensions, so tracing fails on the Python bool; use a mask "
                                   "(multiply, tf.where) instead")
                        return
        finally:
            for name, old in saved.items():
                if old is None:
                    env.pop(name, None)
                else:
                    env[name] = old
            ctx.values.invalidate()
