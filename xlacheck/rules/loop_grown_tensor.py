"""XLA206: a tensor grown with ``tf.concat`` inside a staged loop."""

from __future__ import annotations

import ast

from xlacheck.rules.base import Example, Rule, RuleContext, call_name


class LoopGrownTensor(Rule):
    """
    ## What it does
    Flags `x = tf.concat([x, ...])` (or `[..., x]`) inside a loop over `tf.range` or a tensor
    `while`.

    ## Why is this bad?
    A staged loop's variables must keep their shape across iterations; growing one needs
    `shape_invariants` with `None` dimensions, which XLA cannot compile.

    ## Example
    ```python
    for _ in tf.range(steps):
        seq = tf.concat([seq, next_token], axis=1)
    ```

    ## Use instead
    ```python
    buf = tf.zeros([batch, max_len])  # preallocate, then write with tensor_scatter_nd_update
    ```

    ## Fix safety
    `for i in tf.range(N)` with `N` known at trace time -> `for i in range(N)` (the loop unrolls
    and runs as eagerly) is safe when the loop variable is unused or only indexes; unsafe when it
    is used in arithmetic (a Python int instead of an int32 tensor).
    """

    code = "XLA206"
    fix = ("rewrite_loop",)
    name = "loop-grown-tensor"
    node_types = (ast.Assign,)
    in_helpers = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(a, b):\n"
                "    for i in range(3):\n        a = tf.concat([a, b], axis=1)\n    return a\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(seq, w):\n"
                "    for _ in tf.range(3):\n        nxt = tf.reduce_sum(seq[:, -1:] * w, axis=1, keepdims=True)\n"
                "        seq = tf.concat([seq, nxt], axis=1)\n    return seq\n",
                expected=(
                    (6, 9, 'tensor grown by tf.concat inside a staged loop: its shape changes per iteration, which '
                           'XLA cannot compile; preallocate a fixed-size buffer or use tf.TensorArray with a static '
                           'size'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Assign)
        if not ctx.staged_loops or not isinstance(node.value, ast.Call):
            return
        if call_name(node.value, ctx) not in ("tf.concat", "tf.experimental.numpy.concatenate"):
            return
        names = {t.id for t in node.targets if isinstance(t, ast.Name)}
        parts = node.value.args[0] if node.value.args else None
        if isinstance(parts, (ast.List, ast.Tuple)) and any(
            isinstance(e, ast.Name) and e.id in names for e in parts.elts
        ):
            ctx.report(self, node,
                       "tensor grown by tf.concat inside a staged loop: its shape changes per iteration, which XLA "
                       "cannot compile; preallocate a fixed-size buffer or use tf.TensorArray with a static size")
