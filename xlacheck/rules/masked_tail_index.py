"""XLA201: indexing a boolean-masked (bounded dynamic) tensor from its end."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import DYNAMIC, PYLIST
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext


def _negative(e: ast.expr | None) -> bool:
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        return True
    return isinstance(e, ast.Constant) and isinstance(e.value, int) and e.value < 0


class MaskedTailIndex(Rule):
    """
    ## What it does
    Flags `valid[-1]`, `valid[-k:]` and similar negative indexing of a tensor whose length depends
    on data: the result of `x[mask]`, `tf.boolean_mask`, one-argument `tf.where` (and
    `tf.gather` with its indices), `tf.unique`.

    ## Why is this bad?
    XLA compiles these as bounded dynamic shapes (`f32[<=N]`). Counting from the end uses the
    padded bound, not the real length: under `jit_compile=True` `valid[-1]` returns the wrong
    element and `valid[-2:]` comes back empty, silently.

    ## Example
    ```python
    valid = hidden[attention_mask > 0]
    return valid[-1]
    ```

    ## Use instead
    ```python
    last = tf.reduce_sum(tf.cast(attention_mask > 0, tf.int32)) - 1
    return tf.gather(tf.reshape(hidden, [-1, hidden.shape[-1]]), last)
    ```

    ## Fix safety
    Safe, for `s[i]` and `s[a:b]` with literal bounds, when `s` is `x[m]`, `tf.boolean_mask(x, m)`
    or `tf.gather(x, tf.where(m)[:, 0])`, for every rank of the mask. The fix flattens `x` over the
    mask's axes (after the shape check `tf.boolean_mask` itself makes) and picks the rows by their
    count among the true entries (`tf.cumsum` of the flat mask, from the front or the back), so
    values, dtype, shape and gradients are the original's. Where the original raises (fewer
    selected entries than the index needs) the fix gathers at -1: eagerly on CPU that raises too
    (unless the rows are empty), under XLA it returns the first row. `tf.squeeze`/`tf.reshape` of `tf.where(m)` are the rows of
    the true entries only for a 1-D mask, so those fixes are unsafe.
    """

    code = "XLA201"
    fix = ("rewrite_masked",)
    name = "masked-tail-index"
    severity = Severity.WRONG_RESULT
    node_types = (ast.Subscript,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(h, m):\n"
                "    return h[:, -1]\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(h, m):\n"
                "    valid = h[m > 0]\n    return tf.reduce_mean(valid)\n"),
        # the last piece of a split is a list item: the number of pieces is static
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(h, m):\n"
                "    valid = h[m > 0]\n    return tf.split(valid, 2, axis=-1)[-1]\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(h, m):\n"
                "    valid = h[m > 0]\n    return valid[-1]\n",
                expected=(
                    (5, 12, 'negative index into a tensor whose length depends on data (boolean mask / tf.where): '
                            'XLA pads it to a bound, so counting from the end reads padding and gives a wrong '
                            'result; compute the position from the mask instead'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(r, v):\n"
                "    idx = tf.where(v > 0)[:, 0]\n    return tf.gather(r, idx)[-2:]\n",
                expected=(
                    (5, 12, 'negative index into a tensor whose length depends on data (boolean mask / tf.where): '
                            'XLA pads it to a bound, so counting from the end reads padding and gives a wrong '
                            'result; compute the position from the mask instead'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Subscript)
        flags = ctx.flags(node.value)
        if not flags & DYNAMIC or flags & PYLIST:  # `tf.split(masked, 2)[-1]` picks a list item: no padding read
            return
        sl = node.slice
        first = sl.elts[0] if isinstance(sl, ast.Tuple) and sl.elts else sl
        bad = _negative(first) if not isinstance(first, ast.Slice) else (
            _negative(first.lower) or _negative(first.upper) or _negative(first.step))
        if bad:
            ctx.report(self, node,
                       "negative index into a tensor whose length depends on data (boolean mask / tf.where): XLA "
                       "pads it to a bound, so counting from the end reads padding and gives a wrong result; "
                       "compute the position from the mask instead")
