"""XLA206: a tensor grown with ``tf.concat`` inside a staged loop."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level, declared_varying_shapes
from xlacheck.analysis.values import DYNAMIC, PARAM, TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_CONCAT = ("tf.concat", "tf.experimental.numpy.concatenate")


class LoopGrownTensor(Rule):
    """
    ## What it does
    Flags `x = tf.concat([x, ...])` (or `[..., x]`) inside a loop over `tf.range` or a tensor
    `while`, and the other assignments there that change the shape of the loop-carried `x`:
    `x = x[1:]` (a slice that always drops elements), `x = tf.boolean_mask(x, m)` / `x[m]` /
    `tf.unique(x)` while `x` has a static shape, `x = tf.expand_dims(x, 0)`, a non-zero
    `x = tf.pad(x, ...)` (filters, slices and pads of a value that comes from a parameter only in
    jit-compiled code, where arguments are traced with their static shapes); and, in jit-compiled code and Keras methods, a `tf.while_loop` body that returns
    `tf.concat([v, ...])` in the place of its own loop variable `v`. In a plain `tf.function`, not
    a variable whose shape the loop declares free (`tf.autograph.experimental.set_loop_options(
    shape_invariants=[(v, tf.TensorShape([None]))])`): the graph carries it, only XLA cannot.

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
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
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
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    kept = tf.boolean_mask(x, x > 0)\n    for i in tf.range(2):\n"
                "        kept = tf.boolean_mask(kept, kept > tf.cast(i, kept.dtype))\n"
                "        x = tf.pad(x, [[0, 0]]) * 2.0\n    return tf.reduce_sum(kept) + tf.reduce_sum(x)\n"),
        # a plain tf.function whose loop declares the grown variable's shape free (AutoGraph's
        # shape_invariants): the graph carries it; only XLA cannot
        Example("import tensorflow as tf\n@tf.function\ndef f(n):\n    kept = tf.zeros([0])\n"
                "    while tf.size(kept) < n:\n"
                "        tf.autograph.experimental.set_loop_options(\n"
                "            shape_invariants=[(kept, tf.TensorShape([None]))])\n"
                "        kept = tf.concat([kept, tf.ones([2])], axis=0)\n    return kept\n"),
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
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(scores):\n"
                "    for i in tf.range(2):\n        scores = tf.boolean_mask(scores, scores > tf.reduce_min(scores))\n"
                "    queue = tf.range(5)\n    while tf.size(queue) > 2:\n        queue = queue[1:]\n"
                "    return tf.reduce_sum(scores) + tf.cast(tf.reduce_sum(queue), scores.dtype)\n",
                expected=(
                    (5, 9, "tensor filtered by tf.boolean_mask inside a staged loop: its shape changes per iteration, "
                           "which a staged loop cannot carry ('... enters the loop with shape ..., but has shape ... "
                           "after one iteration'); keep a fixed shape (a mask, a preallocated buffer, or a "
                           "tf.TensorArray with a static size)"),
                    (8, 9, "tensor sliced shorter inside a staged loop: its shape changes per iteration, which a "
                           "staged loop cannot carry ('... enters the loop with shape ..., but has shape ... after "
                           "one iteration'); keep a fixed shape (a mask, a preallocated buffer, or a tf.TensorArray "
                           "with a static size)"),
                )),
        # the same declared loop under jit_compile=True: XLA needs fixed loop shapes, declared or not
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(n):\n    kept = tf.zeros([0])\n"
                "    while tf.size(kept) < n:\n"
                "        tf.autograph.experimental.set_loop_options(\n"
                "            shape_invariants=[(kept, tf.TensorShape([None]))])\n"
                "        kept = tf.concat([kept, tf.ones([2])], axis=0)\n    return kept\n",
                expected=(
                    (8, 9, "tensor grown by tf.concat inside a staged loop: its shape changes per iteration, which "
                           "XLA cannot compile; preallocate a fixed-size buffer or use tf.TensorArray with a static "
                           "size"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if isinstance(node, ast.Return):
            self._while_loop_body(node, ctx)
            return
        assert isinstance(node, ast.Assign)
        if not ctx.staged_loops:
            return
        names = {t.id for t in node.targets if isinstance(t, ast.Name)}
        if ctx.function.level not in (Level.CERTAIN, Level.LIKELY) \
                and names & declared_varying_shapes(ctx.staged_loops[-1], ctx.aliases):
            return  # shape_invariants declare it free: a plain graph carries it, only XLA cannot
        how = _reshaped_by(node.value, names, ctx)
        if how is not None and not _assigned_later(node, names, ctx.staged_loops[-1]):
            ctx.report(self, node,
                       f"tensor {how} inside a staged loop: its shape changes per iteration, which a staged loop "
                       "cannot carry ('... enters the loop with shape ..., but has shape ... after one iteration'); "
                       "keep a fixed shape (a mask, a preallocated buffer, or a tf.TensorArray with a static size)")
            return
        if not isinstance(node.value, ast.Call):
            return
        if call_name(node.value, ctx) not in ("tf.concat", "tf.experimental.numpy.concatenate"):
            return
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


def _shrinking_bound(part: ast.expr) -> bool:
    """A slice that drops elements whatever the length: ``1:``, ``:-1``, ``2:-2``."""
    if not isinstance(part, ast.Slice) or part.step is not None:
        return False
    lower, upper = part.lower, part.upper
    positive_lower = isinstance(lower, ast.Constant) and type(lower.value) is int and lower.value > 0
    negative_upper = isinstance(upper, ast.UnaryOp) and isinstance(upper.op, ast.USub) and isinstance(
        upper.operand, ast.Constant) and type(upper.operand.value) is int and upper.operand.value > 0
    return (positive_lower and (upper is None or negative_upper)) or (lower is None and negative_upper)


def _static_length(x: ast.Name, ctx: RuleContext) -> bool:
    """``x`` has static dimensions when the loop starts, so a filter or a slice changes them: it
    does not come from a parameter (a tf.data element or a Keras input may already have a `None`
    dimension there, which a filter keeps `None`), unless the function is jit-compiled for sure
    (traced with the shapes of the arguments it is called with)."""
    return ctx.function.level is Level.CERTAIN or not ctx.flags(x) & PARAM


def _reshaped_by(value: ast.expr, names: set[str], ctx: RuleContext) -> str | None:
    """How ``x = value`` changes the shape of the loop-carried ``x`` (one of ``names``), or None:
    a slice of ``x`` that always drops elements (``x[1:]``, ``x[:, :-1]``), an op whose result
    length depends on the data applied to ``x`` while ``x`` had a static shape (``tf.boolean_mask``,
    ``x[mask]``, ``tf.unique``: (None,) after one iteration), ``tf.expand_dims(x, ...)`` or a
    non-zero ``tf.pad`` of ``x`` (all measured on TF 2.21: ValueError while tracing)."""
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id in names:
        if not ctx.flags(value.value) & TENSOR or not _static_length(value.value, ctx):
            return None
        parts = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
        if any(_shrinking_bound(p) for p in parts):
            return "sliced shorter"
        if ctx.flags(value) & DYNAMIC and not ctx.flags(value.value) & DYNAMIC:
            return "filtered by a boolean mask"
        return None
    if not isinstance(value, ast.Call):
        return None
    name = call_name(value, ctx)
    first = value.args[0] if value.args else None
    if not (isinstance(first, ast.Name) and first.id in names and ctx.flags(first) & TENSOR):
        return None
    if name == "tf.expand_dims":
        return "given a new axis by tf.expand_dims"  # a new rank, whatever the dimensions
    if not _static_length(first, ctx):
        return None
    if name == "tf.pad" and len(value.args) > 1:
        literal_zero = all(isinstance(n, ast.Constant) and n.value == 0 for n in ast.walk(value.args[1])
                           if isinstance(n, ast.Constant))
        if not literal_zero:
            return "padded by tf.pad"
        return None
    if ctx.flags(value) & DYNAMIC and not ctx.flags(first) & DYNAMIC:
        return f"filtered by {name}"
    return None


def _assigned_later(node: ast.Assign, names: set[str], loop: ast.For | ast.While) -> bool:
    """A later statement of the loop body assigns one of ``names`` again (a sliding window:
    ``w = w[1:]`` then ``w = tf.concat([w, x], 0)`` keeps the shape the loop carries)."""
    for other in ast.walk(loop):
        if isinstance(other, (ast.Assign, ast.AugAssign)) and other is not node and other.lineno > node.lineno:
            targets = other.targets if isinstance(other, ast.Assign) else [other.target]
            if any(isinstance(n, ast.Name) and n.id in names for t in targets for n in ast.walk(t)):
                return True
    return False
