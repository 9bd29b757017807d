"""XLA106: Python iteration over a tensor where AutoGraph cannot stage it."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis.values import DATA, PYLIST, SHAPE, is_data_tensor, is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

# Ops that return one tensor (never a tuple of them, as tf.nn.moments, tf.math.top_k, tf.unique or
# tf.linalg.eigh do: the API table does not tell a tuple from a tensor), besides the elementwise
# ops the API table marks (`elementwise`) and the reductions (`*reduce_*`).
_ONE_TENSOR_OPS = frozenset({
    "tf.shape", "tf.compat.v1.shape", "tf.size", "tf.rank", "tf.reshape", "tf.transpose", "tf.stack", "tf.concat",
    "tf.gather", "tf.gather_nd", "tf.squeeze", "tf.expand_dims", "tf.matmul", "tf.linalg.matmul", "tf.argmax",
    "tf.math.argmax", "tf.argmin", "tf.math.argmin", "tf.range", "tf.one_hot", "tf.tile", "tf.cumsum",
    "tf.math.cumsum", "tf.nn.softmax", "tf.nn.log_softmax", "tf.math.softmax", "tf.einsum", "tf.linalg.einsum",
    "tf.boolean_mask", "tf.slice", "tf.strided_slice", "tf.reverse", "tf.sort", "tf.argsort", "tf.clip_by_value",
    "tf.identity", "tf.stop_gradient", "tf.convert_to_tensor", "tf.constant", "tf.zeros", "tf.ones", "tf.fill",
    "tf.zeros_like", "tf.ones_like", "tf.broadcast_to", "tf.tensordot", "tf.linalg.norm", "tf.norm",
})
# Python builtins that iterate their argument (a `for`/comprehension over them is XLA106's other case)
_ITERATING_BUILTINS = frozenset({"list", "tuple", "set", "frozenset", "dict"})
_ITERATOR_BUILTINS = frozenset({"zip", "enumerate", "reversed", "map", "filter"})


def _one_tensor(e: ast.expr, ctx: RuleContext) -> bool:
    """``e`` is certainly one tensor, not a tuple or list of tensors: an op that returns one
    (:data:`_ONE_TENSOR_OPS`, an elementwise op, a reduction), a slice or item of one, tensor
    arithmetic, or a name holding a shape vector (``shape = tf.shape(x)``)."""
    if not ctx.tensor_value(ctx.flags(e)):
        return False
    if isinstance(e, ast.Call):
        name = call_name(e, ctx)
        if name is None or not name.startswith("tf."):
            return False
        if name in _ONE_TENSOR_OPS or name.rsplit(".", 1)[-1].startswith("reduce_"):
            return True
        fact = api_table.fact_for(name)
        return fact is not None and fact.elementwise is not None
    if isinstance(e, ast.Subscript):
        return _one_tensor(e.value, ctx)
    if isinstance(e, (ast.BinOp, ast.UnaryOp)):
        return True  # tensor arithmetic (is_tensor: not a Python tuple of tensors)
    if isinstance(e, ast.Name):
        k = ctx.flags(e)
        return is_tensor(k) and bool(k & SHAPE) and not k & DATA
    return False


class IterateTensorInPython(Rule):
    """
    ## What it does
    Flags iteration over a tensor in a comprehension, through `zip()`/`enumerate()`, or in a
    `for` statement that AutoGraph does not convert, inside compiled code; and unpacking one
    tensor (`h, w = tf.shape(x)[1:3]`), listing it (`list(t)`, `tuple(t)`, `list(zip(t, u))`)
    or splatting it (`[*t]`, `f(*t)`), which iterate it too.

    ## Why is this bad?
    A symbolic tensor cannot be iterated in Python: tracing fails with
    `Iterating over a symbolic tf.Tensor is not allowed`. AutoGraph turns a plain
    `for row in tensor:` statement into a `tf.while_loop`, but not a comprehension or a
    `zip()` over tensors, and never unpacking: `h, w = tf.shape(x)[1:3]` works eagerly and
    fails in every `tf.function` (TF 2.21). Unpacking an op that returns a tuple of tensors
    (`mean, var = tf.nn.moments(x, [0])`) is fine and not flagged.

    ## Example
    ```python
    rows = [row / tf.reduce_sum(tf.abs(row)) for row in x]
    ```

    ## Use instead
    ```python
    rows = x / tf.reduce_sum(tf.abs(x), axis=-1, keepdims=True)
    # or, when the leading dimension is static: [... for row in tf.unstack(x)]
    ```

    ## Fix safety
    `for row in x` in a comprehension, a `for` statement or through `zip`/`enumerate`/`reversed`
    -> `for row in tf.unstack(x)` is safe: iterating a tensor yields exactly the rows
    `tf.unstack` lists, in order. An unknown first dimension fails loudly at trace time.
    """

    code = "XLA106"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_iteration",)
    name = "iterate-tensor-in-python"
    node_types = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp, ast.For, ast.Assign, ast.Call,
                  ast.Starred)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.stack([r * 2.0 for r in tf.unstack(x)])\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    total = tf.constant(0.0)\n    for row in x:\n"
                "        total += tf.reduce_sum(row)\n    return total\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, route):\n"
                "    parts = tf.dynamic_partition(x, route, 2)\n"
                "    return tf.add_n([tf.reduce_sum(p) for p in parts])\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    mean, var = tf.nn.moments(x, axes=[0])\n    values, idx = tf.math.top_k(x[0], k=2)\n"
                "    h, w = x.shape[0], tf.shape(x)[1]\n    a, b = tf.unstack(x[:2])\n"
                "    return (x - mean) * tf.math.rsqrt(var) + tf.reduce_sum(values) + tf.cast(h * "
                "w, x.dtype) + a * b\n"),
        # a call site here passes lists: the entry's own list result goes back in as `weights`
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef apply_update(weights, grads, lr):\n"
                "    return [w - lr * g for w, g in zip(weights, grads)]\n"
                "def train(weights, grad_batches, lr):\n    for grads in grad_batches:\n"
                "        weights = apply_update(weights, grads, lr)\n    return weights\n"),
        # uncertainty-baselines psl_utils.py: model.trainable_weights is a Python list of variables (tf-real8)
        Example("""
            import tensorflow as tf


            def constrained_step(model, optimizer, alpha):
                scale = tf.constant(alpha)

                @tf.function
                def step(x, weights):
                    with tf.GradientTape() as tape:
                        drift = tf.reduce_sum([tf.reduce_sum(tf.square(w - v))
                                               for w, v in zip(weights, model.trainable_weights)])
                        loss = tf.reduce_sum(model(x)) + scale * drift
                    grads = tape.gradient(loss, model.trainable_variables)
                    optimizer.apply_gradients(zip(grads, model.trainable_variables))
                return step
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.stack([row / tf.reduce_sum(row) for row in x])\n",
                expected=(
                    (4, 58, 'iterating over a tensor in Python: comprehensions and zip()/enumerate() are not '
                            "converted by AutoGraph, so tracing fails with 'Iterating over a symbolic tf.Tensor'; "
                            'use vectorized ops, tf.unstack (static length) or tf.map_fn'),
                )),
        Example("import tensorflow as tf\ndef margin(pos, neg):\n"
                "    return tf.add_n([tf.nn.relu(1.0 - p + n) for p, n in zip(pos, neg)])\n"
                "@tf.function(jit_compile=True)\ndef f(pos, neg):\n    return margin(pos, neg)\n",
                expected=(
                    (3, 62, 'iterating over a tensor in Python: comprehensions and zip()/enumerate() are not '
                            "converted by AutoGraph, so tracing fails with 'Iterating over a symbolic tf.Tensor'; "
                            'use vectorized ops, tf.unstack (static length) or tf.map_fn'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(images):\n"
                "    h, w = tf.shape(images)[1:3]\n    return tf.image.resize(images, [h // 2, w // 2])\n",
                expected=(
                    (4, 12, "unpacking or listing a tensor in Python iterates it, which AutoGraph does not convert, "
                            "so tracing fails with 'Iterating over a symbolic tf.Tensor is not allowed'; index the "
                            "parts (t[0], t[1]) or use tf.unstack(t, num=...)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(scores):\n"
                "    total = tf.add_n([*tf.nn.softmax(scores)])\n    return total + tf.stack(list(tf.abs(scores)))\n",
                expected=(
                    (4, 24, "unpacking or listing a tensor in Python iterates it, which AutoGraph does not convert, "
                            "so tracing fails with 'Iterating over a symbolic tf.Tensor is not allowed'; index the "
                            "parts (t[0], t[1]) or use tf.unstack(t, num=...)"),
                    (5, 34, "unpacking or listing a tensor in Python iterates it, which AutoGraph does not convert, "
                            "so tracing fails with 'Iterating over a symbolic tf.Tensor is not allowed'; index the "
                            "parts (t[0], t[1]) or use tf.unstack(t, num=...)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if ctx.function.jax:
            return  # a JAX array with a static leading dim iterates (unrolls) under jax.jit
        if isinstance(node, (ast.Assign, ast.Call, ast.Starred)):
            self._unpacking(node, ctx)
            return
        if isinstance(node, ast.For):
            if not ctx.converted:
                self._check_iter(node.iter, ctx)
            return
        for gen in node.generators:  # type: ignore[attr-defined]
            if self._check_iter(gen.iter, ctx):
                return

    def _check_iter(self, it: ast.expr, ctx: RuleContext) -> bool:
        sources = [it]
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("zip", "enumerate", "reversed"):
            sources = list(it.args)
        for src in sources:
            k = ctx.flags(src)
            if is_data_tensor(k) and not k & PYLIST:
                ctx.report(self, src,
                           "iterating over a tensor in Python: comprehensions and zip()/enumerate() are not "
                           "converted by AutoGraph, so tracing fails with 'Iterating over a symbolic tf.Tensor'; "
                           "use vectorized ops, tf.unstack (static length) or tf.map_fn")
                return True
        return False

    def _unpacking(self, node: ast.Assign | ast.Call | ast.Starred, ctx: RuleContext) -> None:
        """``a, b = t``, ``list(t)``/``tuple(t)``/``list(zip(t, u))`` and ``[*t]`` of one tensor:
        each iterates it in Python, which AutoGraph never converts."""
        sources: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            if any(isinstance(t, (ast.Tuple, ast.List)) for t in node.targets):
                sources = [node.value]
        elif isinstance(node, ast.Starred):
            if isinstance(node.ctx, ast.Load):
                sources = [node.value]
        elif isinstance(node.func, ast.Name) and node.func.id not in ctx.values.env and len(node.args) == 1:
            arg = node.args[0]
            if node.func.id in _ITERATING_BUILTINS:
                sources = [arg]
                if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id in _ITERATOR_BUILTINS:
                    sources = list(arg.args)
        for src in sources:
            if _one_tensor(src, ctx):
                ctx.report(self, src,
                           "unpacking or listing a tensor in Python iterates it, which AutoGraph does not convert, "
                           "so tracing fails with 'Iterating over a symbolic tf.Tensor is not allowed'; index the "
                           "parts (t[0], t[1]) or use tf.unstack(t, num=...)")
                return
