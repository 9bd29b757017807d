"""XLA206: a tensor grown with ``tf.concat`` inside a staged loop."""

from __future__ import annotations

import ast

from xlacheck.analysis import argument
from xlacheck.analysis.contexts import Level, declared_varying_shapes
from xlacheck.analysis.scopes import own_nodes
from xlacheck.analysis.tf_rank import Rank, RankModel, function_scopes
from xlacheck.analysis.values import DYNAMIC, PARAM, TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_CONCAT = ("tf.concat", "tf.experimental.numpy.concatenate")
# jax.numpy/lax joins whose result is longer than a part given whole: a carry joined with more rows grows
_JAX_CONCAT = frozenset({"jnp.concatenate", "jnp.append", "jnp.vstack", "jnp.hstack", "jnp.row_stack",
                         "jnp.column_stack", "jax.lax.concatenate"})
# JAX loops that carry a value: name -> (position of the body argument, its keyword, index of the carry
# parameter of the body, whether the body returns ``(carry, y)`` rather than the carry, position and
# keyword of the initial carry). The body's
# output carry must have the input carry's shapes and dtypes (measured on jax 0.10.2: a `fori_loop`
# body returning its carry concatenated with a row raises "TypeError: fori_loop body function carry
# input and carry output must have equal types", under jax.jit and called from plain Python alike).
_JAX_LOOPS = {
    "jax.lax.fori_loop": (2, "body_fun", 1, False, 3, "init_val"),
    "jax.lax.while_loop": (1, "body_fun", 0, False, 2, "init_val"),
    "jax.lax.scan": (0, "f", 0, True, 1, "init"),
}


# the fixes28 example: a fori_loop history grown from empty (`row`), and its buffer form
_GROWN = ("import jax\nimport jax.numpy as jnp\nSTEPS = 4\n@jax.jit\ndef rollout(x):\n    def step(i, carry):\n"
          "        history, x = carry\n        history = {row}\n        return history, x\n"
          "    history, _ = jax.lax.fori_loop(1, STEPS, step, (jnp.zeros(({start})), x))\n    return history\n")


class LoopGrownTensor(Rule):
    """
    ## What it does
    Flags `x = tf.concat([x, ...])` (or `[..., x]`) inside a loop over `tf.range` or a tensor
    `while`, and the other assignments there that change the shape of the loop-carried `x`:
    `x = x[1:]` (a slice that always drops elements), `x = tf.boolean_mask(x, m)` / `x[m]` /
    `tf.unique(x)` while `x` has a static shape, `x = tf.expand_dims(x, 0)`, an op that provably
    gives `x` another rank (`tf.reduce_max(x, axis=-1)`: the shared rank model), a non-zero
    `x = tf.pad(x, ...)` (filters, slices and pads of a value that comes from a parameter only in
    jit-compiled code, where arguments are traced with their static shapes); and, in jit-compiled code and Keras methods, a `tf.while_loop` body that returns
    `tf.concat([v, ...])` in the place of its own loop variable `v`. In a plain `tf.function`, not
    a variable whose shape the loop declares free (`tf.autograph.experimental.set_loop_options(
    shape_invariants=[(v, tf.TensorShape([None]))])`): the graph carries it, only XLA cannot.
    In JAX, a `jax.lax.fori_loop`/`while_loop`/`scan` body that returns, in the place of a carried
    value `v`, `v` joined with more rows (`jnp.concatenate([v, x])`, `jnp.append(v, x)`, `jnp.vstack`,
    directly or through the name it assigns), or such a join cut back to a fixed length (`[-k:]`)
    while the loop starts `v` empty (`jnp.zeros((0, ...))`); a join of a slice of `v` (the sliding
    window `jnp.concatenate([v[1:], x])`) keeps its length and is not flagged.

    ## Why is this bad?
    A staged loop's variables must keep their shape across iterations; growing one needs
    `shape_invariants` with `None` dimensions, which XLA cannot compile. A JAX loop's carry must keep
    its shapes and dtypes: JAX traces the body once and raises "body function carry input and carry
    output must have equal types" (measured on jax 0.10.2, under `jax.jit` and called from plain Python).

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
    `for i in tf.range(N)` with `N` known at trace time (an int literal, a module constant,
    `self.<attr>` that `__init__` alone sets to one, `x.shape[k]`) -> `for i in range(N)` (the loop unrolls
    and runs as eagerly) is safe when the loop variable is unused or only indexes; unsafe when it
    is used in arithmetic (a Python int instead of an int32 tensor). `N` may also be a parameter
    whose default is an int literal, in a function AutoGraph converts: a Python int unrolls as any
    literal does, and AutoGraph runs `range` of a tensor as the `tf.range` loop it was, so the fix
    is the same loop for every value a caller passes. `for t in x` over a tensor ->
    `for t in tf.unstack(x)` (unrolled over exactly the rows it iterated): safe when `x` is a
    TensorFlow op's result, unsafe when it is only a parameter (a Python list passed there would
    be packed first). A `tf.while_loop` body that returns a grown loop variable has a data-dependent
    trip count, so it gets an explanation only (loop over a static maximum with a `done` mask).

    A Python `range` over a tensor's dimension (`tf.shape(x)[k]`, or a name bound once to it) in
    TensorFlow code loops over `x.shape[k]` instead, the size known when traced, so Python unrolls
    the loop (`rewrites/static_dims.py`). Unsafe: the loop is unrolled (one copy of its body per
    step), and a dimension unknown when traced (None in an input_signature) makes `range` raise.

    A `jax.lax.fori_loop(lo, hi, body, init)` carry that starts empty (`jnp.zeros((0, d))`) and
    gains one row per step (`h = jnp.concatenate([h, row[None, :]], axis=0)`), with `lo` and `hi`
    Python ints the reader can see and `h` read nowhere else in the body (but in sums and means over
    axis 0 after the append: a mean becomes the sum divided by `i - lo + 1`), starts as
    `jnp.zeros((hi - lo, d))` and the step writes `h.at[i - lo].set(row)`: after the loop it
    holds the rows the original appended. Unsafe: the row is written in the buffer's dtype,
    where `jnp.concatenate` promoted the two. A window of the last `W` rows
    (`h = jnp.concatenate([h, row[None]], axis=0)[-W:]`, `W` a positive int literal, module constant
    or parameter of the function around the body) starts as `W` zero rows instead, so the carry
    keeps `W` rows; where the body reads it after the update only in sums and means over axis 0
    (`jnp.mean(h, axis=0)`, `h.sum(0)`) and the loop's result leaves it unread, a mean becomes the
    sum divided by the rows filled, `jnp.minimum(i - lo + 1, W)` (the rows not yet filled are the
    start's zeros). Unsafe: `W` must be a positive int, and a float16 sum is not widened first.
    """

    code = "XLA206"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_loop", "rewrite_static_dim_range", "rewrite_jax_grown_carry")
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
        # JAX loop bodies that keep the carry's shape: a sliding window, a join cut back to the length a
        # full buffer starts with, a scan that stacks its outputs (ys), not its carry
        Example("import jax\nimport jax.numpy as jnp\ndef smooth(x, window):\n    def body(i, carry):\n"
                "        buf, total = carry\n        buf = jnp.concatenate([buf[1:], x[i][None]])\n"
                "        return buf, total + jnp.mean(buf)\n"
                "    return jax.lax.fori_loop(0, x.shape[0], body, (window, 0.0))[1]\n"),
        Example("import jax\nimport jax.numpy as jnp\ndef history(xs, k):\n    def step(hist, x):\n"
                "        hist = jnp.concatenate([hist, x[None]], axis=0)[-k:]\n        return hist, jnp.sum(hist)\n"
                "    return jax.lax.scan(step, jnp.zeros((k, xs.shape[1])), xs)[1]\n"),
        Example("import jax\nimport jax.numpy as jnp\ndef rollout(h0, xs):\n    def step(h, x):\n"
                "        h = jnp.tanh(h + x)\n        return h, jnp.concatenate([h, x])\n"
                "    return jax.lax.scan(step, h0, xs)\n"),
        # a private helper every call of the module passes a static rank (`x.shape.rank`): the `while`
        # tests Python ints, so it is unrolled while tracing, not staged (tensorflow/gnn pool_ops)
        Example("import tensorflow as tf\n\n\nclass Reducer:\n    def compute(self, total, count):\n"
                "        return tf.math.divide_no_nan(total, _expand_to_rank(count, total.shape.rank))\n\n\n"
                "def _expand_to_rank(count, rank):\n    while count.shape.rank < rank:\n"
                "        count = tf.expand_dims(count, axis=-1)\n    return count\n"),
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
        # a JAX loop body that returns its carry joined with more rows (jax 0.10.2: "fori_loop body function
        # carry input and carry output must have equal types"), also cut back to a length the empty initial
        # carry does not have (diffusers PR#3833)
        Example("import jax\nimport jax.numpy as jnp\ndef collect(x, n):\n    def body(i, acc):\n"
                "        return jnp.concatenate([acc, x[i][None]])\n    return jax.lax.fori_loop(0, n, body, x[:1])\n",
                expected=(
                    (5, 16, "loop carry `acc` joined with more rows in a jax.lax.fori_loop body: the carry the body "
                            "returns has another shape than the one it takes, which JAX rejects when it traces the "
                            "loop ('body function carry input and carry output must have equal types'); preallocate "
                            "the carry at its final size and write into it (`.at[i].set`, "
                            "`lax.dynamic_update_slice`)"),
                )),
        Example("import jax\nimport jax.numpy as jnp\ndef lms(xs, order):\n    def step(carry, x):\n"
                "        h, hist = carry\n        hist = jnp.concatenate([hist, x[None]], axis=0)[-order:]\n"
                "        return (h + x, hist), jnp.sum(hist)\n    hist = jnp.zeros((0, xs.shape[1]))\n"
                "    return jax.lax.scan(step, (xs[0], hist), xs)[1]\n",
                expected=(
                    (6, 16, "loop carry `hist` joined with more rows and cut back to a fixed length in a "
                            "jax.lax.scan body: the carry the body returns has another shape than the one it "
                            "takes, which JAX rejects when it traces the loop ('body function carry input and "
                            "carry output must have equal types'); preallocate the carry at its final size and "
                            "write into it (`.at[i].set`, `lax.dynamic_update_slice`)"),
                )),
        # the same helper handed the rank as a tensor (`tf.rank`): the loop test is a tensor, the loop staged
        Example("import tensorflow as tf\n\n\nclass Reducer:\n    def compute(self, total, count):\n"
                "        return tf.math.divide_no_nan(total, _expand_to_rank(count, tf.rank(total)))\n\n\n"
                "def _expand_to_rank(count, rank):\n    while count.shape.rank < rank:\n"
                "        count = tf.expand_dims(count, axis=-1)\n    return count\n",
                expected=(
                    (11, 9, "tensor given a new axis by tf.expand_dims inside a staged loop: its shape changes per "
                           "iteration, which a staged loop cannot carry ('... enters the loop with shape ..., but has "
                           "shape ... after one iteration'); keep a fixed shape (a mask, a preallocated buffer, or a "
                           "tf.TensorArray with a static size)"),
                )),
        # a reduction with a literal axis drops a dimension of the carry (analysis/tf_rank.py)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    y = x\n"
                "    for _ in tf.range(tf.shape(x)[0]):\n        y = tf.reduce_max(y, axis=-1)\n    return y\n",
                expected=(
                    (6, 9, "tensor given the rank of `y` minus 1 by tf.reduce_max inside a staged loop: its shape "
                           "changes per iteration, which a staged loop cannot carry ('... enters the loop with shape "
                           "..., but has shape ... after one iteration'); keep a fixed shape (a mask, a preallocated "
                           "buffer, or a tf.TensorArray with a static size)"),
                )),
        # fixes28: a fori_loop history that starts empty and gains one row per step, fixed as a buffer
        Example(_GROWN.format(start="0, 3", row="jnp.concatenate([history, x[None, :]], axis=0)"),
                fixed=_GROWN.format(start="STEPS - 1, 3", row="history.at[i - 1].set(x)"),
                expected=(
                    (8, 19, "loop carry `history` joined with more rows in a jax.lax.fori_loop body: the carry "
                            "the body returns has another shape than the one it takes, which JAX rejects when it "
                            "traces the loop ('body function carry input and carry output must have equal types'); "
                            "preallocate the carry at its final size and write into it (`.at[i].set`, "
                            "`lax.dynamic_update_slice`)"),
                )),
        # the grown loop variable returned by the name the body binds it to once (keras-hub#341's beams)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(tokens):\n    def body(i, seq):\n"
                "        seq = tf.concat([seq, seq[:, -1:] + 1.0], axis=1)\n        return i + 1, seq\n"
                "    return tf.while_loop(lambda i, s: i < 3, body, (0, tokens),\n"
                "                         shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, None])))[1]\n",
                expected=(
                    (5, 15, "loop variable `seq` grown by tf.concat in a tf.while_loop body: its shape changes per "
                            "iteration, which XLA cannot compile ('Input and output shapes of loop body do not "
                            "match'); preallocate a fixed-size buffer or use tf.TensorArray with a static size"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if isinstance(node, ast.Return):
            self._while_loop_body(node, ctx)
            self._jax_loop_body(node, ctx)
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
            value = _once_bound_value(fn, value)
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


    def _jax_loop_body(self, node: ast.Return, ctx: RuleContext) -> None:
        """The body of a ``jax.lax.fori_loop``/``while_loop``/``scan`` returns, in the place of a carried
        value ``v``, ``v`` joined with more rows (``jnp.concatenate([v, x])``, ``jnp.append(v, x)``, directly
        or through a name assigned so in the body), or such a join cut back to a fixed length
        (``[-k:]``) while the loop starts the value empty (``jnp.zeros((0, ...))``): the output carry's
        shape differs from the input's, which JAX rejects when it traces the loop."""
        fn = ctx.function.node
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.value is None:
            return
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        if not _may_join(fn, node.value, ctx):  # before the search for the loop, which walks the module
            return
        loop = _jax_loop_of(fn, ctx)
        if loop is None:
            return
        call, (_, _, carry_index, returns_pair, init_position, init_keyword) = loop
        if carry_index >= len(params):
            return
        carry = params[carry_index]
        returned = node.value
        if returns_pair:
            if not (isinstance(returned, ast.Tuple) and len(returned.elts) == 2):
                return
            returned = returned.elts[0]
        slots = _unpacked(fn, carry)
        init = argument(call, init_position, init_keyword)
        pairs: list[tuple[str | None, ast.expr, ast.expr | None]]
        if slots is None:
            pairs = [(carry, returned, init)]
        elif isinstance(returned, ast.Tuple) and len(returned.elts) == len(slots):
            inits: list[ast.expr | None] = list(init.elts) if isinstance(init, ast.Tuple) \
                and len(init.elts) == len(slots) else [None] * len(slots)
            pairs = list(zip(slots, returned.elts, inits))
        else:
            return
        caller = ctx.function.parent.node if ctx.function.parent is not None else None
        for name, value, start in pairs:
            if name is None:
                continue
            grown = _bound_value(fn, value)
            how = _grown_carry(grown, name, ctx)
            if how is None or how == "cut" and not _starts_empty(start, caller):
                continue
            what = "joined with more rows" if how == "grown" else "joined with more rows and cut back to a fixed length"
            ctx.report(self, grown,
                       f"loop carry `{name}` {what} in a {ctx.resolve(call.func)} body: the carry the body "
                       "returns has another shape than the one it takes, which JAX rejects when it traces the loop "
                       "('body function carry input and carry output must have equal types'); preallocate the "
                       "carry at its final size and write into it (`.at[i].set`, `lax.dynamic_update_slice`)")
            return


def _may_join(fn: ast.FunctionDef | ast.AsyncFunctionDef, value: ast.expr, ctx: RuleContext) -> bool:
    """Whether a returned value, one of its tuple items or one of theirs, is (bound to) a :data:`_JAX_CONCAT`
    join, sliced or not: what :func:`_grown_carry` needs, so a return without one is no grown carry (a
    cheap test that keeps the fix path linear: :func:`_jax_loop_of` walks the module for each return)."""
    parts = [value]
    for part in parts:
        if isinstance(part, ast.Tuple):
            parts.extend(part.elts)
    for part in parts:
        bound = _bound_value(fn, part)
        if isinstance(bound, ast.Subscript):
            bound = bound.value
        if isinstance(bound, ast.Call) and call_name(bound, ctx) in _JAX_CONCAT:
            return True
    return False


def _jax_loop_of(fn: ast.FunctionDef | ast.AsyncFunctionDef, ctx: RuleContext
                 ) -> tuple[ast.Call, tuple[int, str, int, bool, int, str]] | None:
    """The ``jax.lax`` loop call of the enclosing function (or of the module) that takes ``fn`` as its
    body, with its :data:`_JAX_LOOPS` row."""
    parent = ctx.function.parent
    scope = parent.node if parent is not None else None
    candidates = ast.walk(scope) if scope is not None else (
        n for f in ctx.module_funcs.values() for n in ast.walk(f.node))
    for call in candidates:
        if not isinstance(call, ast.Call):
            continue
        row = _JAX_LOOPS.get(ctx.resolve(call.func) or "")
        if row is None:
            continue
        body = argument(call, row[0], row[1])
        if isinstance(body, ast.Name) and body.id == fn.name:
            return call, row
    return None


def _unpacked(fn: ast.FunctionDef | ast.AsyncFunctionDef, carry: str) -> list[str | None] | None:
    """The names a top-level ``a, b = carry`` of the body unpacks the carry into (None for a slot that
    is not a plain name), or None when the body does not unpack it."""
    for stmt in fn.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name) and stmt.value.id == carry \
                and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple):
            return [e.id if isinstance(e, ast.Name) else None for e in stmt.targets[0].elts]
    return None


def _once_bound_value(fn: ast.FunctionDef | ast.AsyncFunctionDef, value: ast.expr) -> ast.expr:
    """``value``, or the value of the one assignment of the body that binds it when nothing else in the
    body binds that name (``seq = tf.concat([seq, x]); return i + 1, seq``): the ``seq`` it joins is
    then the body's own loop variable, not a value an earlier statement made of it."""
    if not isinstance(value, ast.Name):
        return value
    stores = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == value.id
              and not isinstance(n.ctx, ast.Load)]
    bound = [stmt.value for stmt in fn.body if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
             and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == value.id]
    return bound[0] if len(bound) == 1 and len(stores) == 1 else value


def _bound_value(fn: ast.FunctionDef | ast.AsyncFunctionDef, value: ast.expr) -> ast.expr:
    """``value``, or the value of the one top-level assignment of the body that binds it last (the
    carry returned by name: ``buf = jnp.concatenate([buf, x]); return buf``)."""
    if not isinstance(value, ast.Name):
        return value
    bound = [stmt.value for stmt in fn.body if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
             and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == value.id]
    return bound[-1] if bound else value


def _grown_carry(value: ast.expr, name: str, ctx: RuleContext) -> str | None:
    """``"grown"`` when ``value`` joins the whole of ``name`` with more (``jnp.concatenate([name, x])``,
    ``jnp.append(name, x)``), ``"cut"`` when such a join is then sliced (``[-k:]``), else None (a join of
    a slice of ``name``, such as the sliding window ``jnp.concatenate([name[1:], x])``, keeps its length)."""
    cut = False
    if isinstance(value, ast.Subscript) and isinstance(value.slice, (ast.Slice, ast.Tuple)):
        value, cut = value.value, True
    if not isinstance(value, ast.Call) or call_name(value, ctx) not in _JAX_CONCAT or not value.args:
        return None
    first = value.args[0]
    parts = first.elts if isinstance(first, (ast.List, ast.Tuple)) else [first]
    if call_name(value, ctx) == "jnp.append":
        parts = [first]
    whole = any(isinstance(p, ast.Name) and p.id == name for p in parts)
    more = len(parts) > 1 or call_name(value, ctx) == "jnp.append" and len(value.args) > 1
    if not (whole and more):
        return None
    return "cut" if cut else "grown"


def _starts_empty(start: ast.expr | None, caller: ast.AST | None) -> bool:
    """The loop's initial value of the carry is an empty array: ``jnp.zeros((0, ...))``,
    ``jnp.zeros((0,) + shape)``, ``jnp.empty((0, ...))``, ``jnp.array([])``, directly or through the one
    assignment of the calling function that binds the name."""
    if isinstance(start, ast.Name) and caller is not None:
        bound = [n.value for n in own_nodes(caller) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == start.id]
        start = bound[0] if len(bound) == 1 else None
    if not isinstance(start, ast.Call) or not start.args:
        return False
    shape = start.args[0]
    if isinstance(shape, ast.BinOp) and isinstance(shape.op, ast.Add):
        shape = shape.left
    if isinstance(shape, (ast.Tuple, ast.List)):
        return bool(shape.elts) and isinstance(shape.elts[0], ast.Constant) and shape.elts[0].value == 0 \
            and not isinstance(shape.elts[0].value, bool)
    return False


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
    rank = RankModel(ctx.resolve, function_scopes(ctx.function)).rank(value, {n: Rank(n, 0) for n in names})
    if rank is not None and rank.base == first.id and rank.offset:
        # `y = tf.reduce_sum(y, axis=0)`: a new rank, whatever the dimensions (TF 2.21: "'y' has shape (4, 3)
        # before the loop, but shape (3,) after one iteration", tf_branch_carry.json autograph_for.rank_differs)
        return f"given {rank.describe()} by {name}"
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
