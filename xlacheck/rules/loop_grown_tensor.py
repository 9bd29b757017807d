"""XLA206: a tensor grown with ``tf.concat`` inside a staged loop."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_CONCAT = ("tf.concat", "tf.experimental.numpy.concatenate")


class LoopGrownTensor(Rule):
    """
    ## What it does
    Flags `x = tf.concat([x, ...])` (or `[..., x]`) inside a loop over `tf.range` or a tensor
    `while`, and, in jit-compiled code and Keras methods, a `tf.while_loop` body that returns
    `tf.concat([v, ...])` in the place of its own loop variable `v`.

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
    is used in arithmetic (a Python int instead of an int32 tensor). `for t in x` over a tensor ->
    `for t in tf.unstack(x)` (unrolled over exactly the rows it iterated): safe when `x` is a
    TensorFlow op's result, unsafe when it is only a parameter (a Python list passed there would
    be packed first). A `tf.while_loop` body that returns a grown loop variable has a data-dependent
    trip count, so it gets an explanation only (loop over a static maximum with a `done` mask).
    """

    code = "XLA206"
    fix = ("rewrite_loop",)
    name = "loop-grown-tensor"
    node_types = (ast.Assign, ast.Return)
    in_helpers = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(a, b):\n"
                "    for i in range(3):\n        a = tf.concat([a, b], axis=1)\n    return a\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(tokens, w):\n    def body(i, seq):\n"
                "        nxt = tf.reduce_sum(seq[:, -1:] * w, axis=1, keepdims=True)\n"
                "        return i + 1, tf.concat([seq[:, 1:], nxt], axis=1)\n"
                "    return tf.while_loop(lambda i, s: i < 3, body, (0, tokens))[1]\n"),
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
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(tokens, w):\n    def body(i, seq):\n"
                "        nxt = tf.reduce_sum(seq[:, -1:] * w, axis=1, keepdims=True)\n"
                "        return i + 1, tf.concat([seq, nxt], axis=1)\n"
                "    return tf.while_loop(lambda i, s: i < 3, body, (0, tokens),\n"
                "                         shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, None])))[1]\n",
                expected=(
                    (6, 23, "loop variable `seq` grown by tf.concat in a tf.while_loop body: its shape changes per "
                            "iteration, which XLA cannot compile ('Input and output shapes of loop body do not "
                            "match'); preallocate a fixed-size buffer or use tf.TensorArray with a static size"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if isinstance(node, ast.Return):
            self._while_loop_body(node, ctx)
            return
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

    def _while_loop_body(self, node: ast.Return, ctx: RuleContext) -> None:
        """``return ..., tf.concat([v, x]), ...`` in a function passed as ``body`` to
        ``tf.while_loop``, at the position of its own loop variable ``v``: the loop-carried value
        grows every iteration (XLA: "Input and output shapes of loop body do not match", measured
        with a ``None`` shape invariant on TF 2.21)."""
        fn = ctx.function.node
        if ctx.function.level not in (Level.CERTAIN, Level.LIKELY):
            return  # with None shape invariants a plain graph runs it: only XLA needs fixed loop shapes
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.value is None:
            return
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        if params and params[0] == "self":
            return
        values = node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) else [node.value]
        if len(values) != len(params) or not _is_while_loop_body(fn, ctx):
            return
        for param, value in zip(params, values):
            if isinstance(value, ast.Call) and call_name(value, ctx) in _CONCAT:
                parts = value.args[0] if value.args else None
                if isinstance(parts, (ast.List, ast.Tuple)) and any(
                        isinstance(e, ast.Name) and e.id == param for e in parts.elts):
                    ctx.report(self, value,
                               f"loop variable `{param}` grown by tf.concat in a tf.while_loop body: its shape "
                               "changes per iteration, which XLA cannot compile ('Input and output shapes of loop "
                               "body do not match'); preallocate a fixed-size buffer or use tf.TensorArray with a "
                               "static size")
                    return


def _is_while_loop_body(fn: ast.FunctionDef | ast.AsyncFunctionDef, ctx: RuleContext) -> bool:
    """``fn`` is handed as ``body`` to a ``tf.while_loop`` call of its enclosing function (or of
    the module, for a module-level function)."""
    parent = ctx.function.parent
    scope = parent.node if parent is not None else None
    candidates = ast.walk(scope) if scope is not None else (
        n for f in ctx.module_funcs.values() for n in ast.walk(f.node))
    for call in candidates:
        if not isinstance(call, ast.Call) or ctx.resolve(call.func) not in ("tf.while_loop", "tf.compat.v1.while_loop"):
            continue
        body = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "body"), None)
        if isinstance(body, ast.Name) and body.id == fn.name:
            return True
    return False
