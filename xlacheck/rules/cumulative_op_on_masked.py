"""XLA202: cumulative ops over a boolean-masked (bounded dynamic) tensor."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import DYNAMIC
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name

_CUMULATIVE = frozenset({
    "tf.cumsum", "tf.math.cumsum", "tf.cumprod", "tf.math.cumprod", "tf.math.cumulative_logsumexp",
    "tf.scan",
})


class CumulativeOpOnMasked(Rule):
    """
    ## What it does
    Flags `tf.cumsum`/`tf.cumprod`/`tf.scan` applied to a tensor whose length
    depends on data (`x[mask]`, `tf.boolean_mask`, `tf.gather(x, tf.where(m))`).

    ## Why is this bad?
    On XLA:CPU these ops run over the padded bound of the dynamic dimension: `tf.cumsum(x[mask])`
    crashed the process (SIGSEGV) and `tf.math.cumsum(tf.gather(r, tf.where(v)[:, 0]))` returned
    an empty tensor, while eager mode gives the right answer.

    ## Example
    ```python
    valid = rewards[done_mask < 1]
    return tf.cumsum(valid)
    ```

    ## Use instead
    ```python
    keep = tf.cast(done_mask < 1, rewards.dtype)
    return tf.cumsum(rewards * keep)  # same totals, static shape; positions of dropped steps repeat
    ```

    ## Fix safety
    `tf.cumsum(s)` (with `reverse`/`exclusive`) of `s = x[m]`, `tf.boolean_mask(x, m)`,
    `tf.gather(x, tf.where(m)[:, 0])` or `tf.gather(x, tf.range(n))` gets a safe fix for every
    rank of the mask: the fix scans the full tensor, flattened over the mask's axes, with exact
    zeros at masked-out positions, and selects as the last op (which compiles and matches eager).
    For `tf.where(m)[:, 0]` the masked-out positions read an appended row of zeros, never `x`, so
    the fix raises nowhere the original returns. `tf.cumprod` gets the same fix with ones; it is
    unsafe for gradients only (TensorFlow's cumprod gradient divides by the entries, and an inf
    product at a masked-out row gives 0 * inf = NaN). `tf.scan` and `cumulative_logsumexp` get no
    fix.
    """

    code = "XLA202"
    fix = ("rewrite_masked",)
    name = "cumulative-op-on-masked"
    severity = Severity.WRONG_RESULT
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(r, m):\n"
                "    return tf.cumsum(r * tf.cast(m < 1, r.dtype))\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(r, m):\n"
                "    return tf.cumsum(r[m < 1])\n",
                expected=(
                    (4, 12, 'tf.cumsum over a tensor whose length depends on data (boolean mask / tf.where): XLA '
                            'runs it over the padded bound, which returned wrong/empty results or crashed on '
                            'XLA:CPU; multiply by the mask instead of dropping elements'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(r, v):\n"
                "    idx = tf.where(v > 0)[:, 0]\n    sel = tf.gather(r, idx)\n"
                "    return tf.math.cumsum(sel, reverse=True)\n",
                expected=(
                    (6, 12, 'tf.math.cumsum over a tensor whose length depends on data (boolean mask / tf.where): '
                            'XLA runs it over the padded bound, which returned wrong/empty results or crashed on '
                            'XLA:CPU; multiply by the mask instead of dropping elements'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name not in _CUMULATIVE:
            return
        arg = argument(node, 1 if name == "tf.scan" else 0, "elems" if name == "tf.scan" else "x")
        if arg is None and node.args:
            arg = node.args[0]
        if arg is not None and ctx.flags(arg) & DYNAMIC:
            ctx.report(self, node,
                       f"{name} over a tensor whose length depends on data (boolean mask / tf.where): XLA runs it "
                       "over the padded bound, which returned wrong/empty results or crashed on XLA:CPU; multiply "
                       "by the mask instead of dropping elements")
