"""XLA409: a tensor that grows every iteration, passed to a ``tf.function`` in that loop."""

from __future__ import annotations

import ast

from xlacheck import retrace_table
from xlacheck.analysis.module_index import ModuleIndex, TfFunction, is_true
from xlacheck.analysis.per_step import per_batch
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    LIST_GROWERS,
    in_test,
    jax_jitted,
    jax_loop_grown_argument,
    loop_grown_arguments,
    runs_traced,
)
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_RELAX = ("reduce_retracing", "experimental_relax_shapes")


class GrowingTensorToTfFunction(ModuleRule):
    """
    ## What it does
    Flags a call of a `tf.function` (or `jax.jit` function) of this file, inside a Python loop, whose argument (or a
    tensor built from it, `tf.stack(tokens)`) gets longer in that loop: re-bound to a longer
    version of itself (`ids = tf.concat([ids, next_id], 1)`, `tf.pad(ids, ...)`), or a Python
    list of tensors grown with `append`/`extend`/`+=`, as in a token-by-token generation loop
    (a grown list passed itself to a `jax.jit` function is XLA422's finding: its length is
    pytree structure; a `jax.numpy` array grown by `jnp.concatenate`/`append`/`pad` of itself, or
    `jnp.array(tokens)` of a grown list, passed to a `jax.jit` function is XLA416's).
    Also flags a list kept across calls (`self.history`, a module-level list) that a function
    running per batch (called in a loop, a batch hook, a collator) grows and passes to a compiled
    function (`self.history.append(loss); self.smooth(self.history)`): one more item every call.
    A `tf.function` with an `input_signature`, or a growing *tensor* passed to one with
    `reduce_retracing=True`, is flagged only under `jit_compile=True`: without it, it traces once
    (twice with `reduce_retracing`) whatever the length (measured; a Python list of new length
    still retraces every call under `reduce_retracing`; rows in `xlacheck/data/tf_retrace.json`).

    ## Why is this bad?
    Each iteration passes a new shape, so the function traces and XLA compiles it again on every
    step: generating 100 tokens costs 100 compilations. XLA-friendly generation keeps fixed
    shapes: a buffer padded to the maximum length (and a fixed-size cache) written with
    `tf.tensor_scatter_nd_update`/`dynamic_update_slice`, plus a position index.

    ## Example
    ```python
    for _ in range(max_new_tokens):
        logits = next_logits(ids)
        ids = tf.concat([ids, tf.argmax(logits, -1, output_type=ids.dtype)[:, None]], axis=1)
    ```

    ## Use instead
    ```python
    ids = tf.pad(prompt, [[0, 0], [0, max_new_tokens]])  # fixed shape, filled in place
    for pos in range(prompt_len, prompt_len + max_new_tokens):
        logits = next_logits(ids, tf.constant(pos))
        ids = tf.tensor_scatter_nd_update(ids, ..., tf.argmax(logits, -1, output_type=ids.dtype))
    ```

    ## Fix safety
    No automatic fix: the loop must be restructured around a fixed-size buffer.
    """

    code = "XLA409"
    # untuned real code, first sight: 4 findings, 0 true (docs/real-code-judgments-8-final.md)
    preview = True
    fix = None
    name = "growing-tensor-to-tf-function"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(ids, pos):\n    return ids + pos\n"
                "def generate(ids, n):\n    for i in range(n):\n        out = step(ids, tf.constant(i))\n"
                "        ids = tf.tensor_scatter_nd_update(ids, [[0, i]], [1])\n    return ids\n"),
        Example('import tensorflow as tf\nclass Tracker:\n    def __init__(self):\n'
                '        self.history = []\n    @tf.function(jit_compile=True)\n'
                '    def smooth(self, value):\n        return tf.reduce_mean(value)\n'
                '    def update(self, loss):\n        self.history.append(loss)\n'
                '        return self.smooth(loss)\ndef train(tracker, losses):\n'
                '    for loss in losses:\n        tracker.update(loss)\n'),
        Example("import tensorflow as tf\n@tf.function(reduce_retracing=True)\ndef total(ids):\n"
                "    return tf.reduce_sum(ids)\ndef run(ids, new, n):\n    for _ in range(n):\n"
                "        ids = tf.concat([ids, new], axis=1)\n        total(ids)\n"),
        # uncertainty-baselines jft/ood_utils.py: a list bound anew each pass does not grow from pass to pass (tf-real8)
        Example("""
            import jax
            import jax.numpy as jnp


            @jax.jit
            def distance(x, means):
                return jnp.sum((x - jnp.stack(means)) ** 2)


            def evaluate(batches, ens_size):
                means = None
                for batch in batches:
                    if means is not None:
                        print(distance(batch, means))
                    means = []
                    for m in range(ens_size):
                        means.append(jnp.mean(batch) + m)
        """),
        # a jax.numpy array grown in the loop and passed to jax.jit: XLA416 reports it (one fact, one finding)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef next_token(ids):\n    return jnp.argmax(ids[-1:])\n"
                "def generate(ids, n):\n    for _ in range(n):\n"
                "        ids = jnp.concatenate([ids, next_token(ids)[None]])\n    return ids\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef next_logits(ids):\n"
                "    return tf.one_hot(ids[:, -1], 10)\n"
                "def generate(ids, n):\n    for _ in range(n):\n        logits = next_logits(ids)\n"
                "        ids = tf.concat([ids, tf.argmax(logits, -1, output_type=ids.dtype)[:, None]], axis=1)\n"
                "    return ids\n",
                expected=(
                    (7, 30, '`ids` grows every iteration (line 8) and is passed to tf.function `next_logits` in the '
                            'same loop: every step has a new shape, so it traces and compiles again each iteration; '
                            'use a fixed-size padded buffer and a position index'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef next_id(table, history):\n"
                "    return tf.argmax(tf.gather(table, tf.stack(history))[-1], output_type=tf.int32)\n"
                "def decode(table, start, n):\n    history = [start]\n    for _ in range(n):\n"
                "        history.append(next_id(table, history))\n    return history\n",
                expected=(
                    (8, 39, '`history` grows every iteration (line 8) and is passed to tf.function `next_id` in the '
                            'same loop: every step has a new shape, so it traces and compiles again each iteration; '
                            'use a fixed-size padded buffer and a position index'),
                )),
        Example('import tensorflow as tf\nclass Tracker:\n    def __init__(self):\n'
                '        self.history = []\n    @tf.function(jit_compile=True)\n'
                '    def smooth(self, values):\n        return tf.reduce_mean(tf.stack(values))\n'
                '    def update(self, loss):\n        self.history.append(loss)\n'
                '        return self.smooth(self.history)\ndef train(tracker, losses):\n'
                '    for loss in losses:\n        tracker.update(loss)\n',
                expected=(
                    (10, 28, '`self.history` is kept across calls and grows on every call of `update()` (line 9), '
                             'which runs repeatedly (in a loop, per batch), and is passed to tf.function `smooth`: '
                             'every call has one more item, so it traces and compiles again each call; pass a '
                             'fixed-size buffer (or a tf.Variable) instead'),
                )),
        # reduce_retracing relaxes the trace (two in all) but XLA compiles each new shape
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, reduce_retracing=True)\ndef total(ids):\n"
                "    return tf.reduce_sum(ids)\ndef run(ids, new, n):\n    for _ in range(n):\n"
                "        ids = tf.concat([ids, new], axis=1)\n        total(ids)\n",
                expected=(
                    (8, 15, '`ids` grows every iteration (line 7) and is passed to tf.function `total` in the same '
                            'loop: every step has a new shape, so XLA compiles it again (two traces in all, one XLA '
                            'compilation per shape) each iteration; use a fixed-size padded buffer and a position '
                            'index'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        jitted = {name for name, _ in jax_jitted(ctx.facts, index)}  # jax.jit compiles once per shape too
        if not index.tf_functions and not jitted and not index.imports_tf_functions:
            return
        for call, _ in index.calls:
            tfn = index.tf_function_called(call)
            if tfn is not None:
                kind, callee = "tf.function", tfn.name
            elif isinstance(call.func, ast.Name) and call.func.id in jitted:
                kind, callee = "jitted function", call.func.id
            else:
                continue
            if not any(isinstance(loop, (ast.For, ast.While)) for loop in index.loops_around(call)):
                self._grows_per_call(ctx, call, kind, callee)
                continue
            loops = [lp for lp in index.loops_around(call) if isinstance(lp, (ast.For, ast.AsyncFor, ast.While))]
            for arg, name, growth in loop_grown_arguments(index, call):
                if tfn is None and arg is name and _list_growth(growth):
                    continue  # the list itself to jax.jit: its length is pytree structure (XLA422 reports it)
                if tfn is None and jax_loop_grown_argument(index, arg, loops) is not None:
                    continue  # a grown array or a join of a grown list to jax.jit: XLA416 reports it
                cost = "it traces and compiles again" if tfn is None else _tf_cost(index, tfn, arg, growth)
                if cost is None:
                    continue
                ctx.report(self, arg, f"`{name.id}` grows every iteration (line {growth.lineno}) and is passed to "
                                      f"{kind} `{callee}` in the same loop: every step has a new shape, so "
                                      f"{cost} each iteration; use a fixed-size padded buffer "
                                      "and a position index")

    def _grows_per_call(self, ctx: ModuleContext, call: ast.Call, kind: str, callee: str) -> None:
        """A list kept across calls (``self.history``, a module-level ``HISTORY``) that the
        function around ``call`` grows, passed to the compiled function there (itself or
        ``tf.stack`` of it), where that function runs per batch (called in a loop, a batch hook,
        a collator): one more item every call, a new trace key every call."""
        index = ctx.index
        func = index.function_of(call)
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or in_test(index, ctx.path, call) \
                or runs_traced(ctx.facts, index, call) or not per_batch(index, call):
            return
        for arg in list(call.args) + [kw.value for kw in call.keywords]:
            held = [arg] if not isinstance(arg, ast.Call) else list(arg.args)
            for value in held:
                shown = _persistent_list(index, func, value)
                if shown is None:
                    continue
                growth = _grows_persistent(func, value)
                if growth is not None:
                    ctx.report(self, arg, f"`{shown}` is kept across calls and grows on every call of `{func.name}()` "
                                          f"(line {growth.lineno}), which runs repeatedly (in a loop, per batch), "
                                          f"and is passed to {kind} `{callee}`: every call has one more item, so it "
                                          "traces and compiles again each call; pass a fixed-size buffer (or a "
                                          "tf.Variable) instead")
                    return


def _tf_cost(index: ModuleIndex, tfn: TfFunction, arg: ast.expr, growth: ast.AST) -> str | None:
    """What a tensor (or list) that grows every call costs ``tfn``, as measured in
    ``xlacheck/data/tf_retrace.json``; None when it costs one or two traces in all.

    An ``input_signature`` (with ``None`` dims, or the call fails) never retraces
    (``tensor_shape_changes_input_signature_none``); ``reduce_retracing`` retraces once for a tensor
    of a new shape, then runs the relaxed trace (``tensor_shape_changes_reduce_retracing``: 2
    traces for 3 shapes), but a Python list of new length retraces every time
    (``list_of_tensors_length_changes_reduce_retracing``). Under ``jit_compile`` XLA still compiles
    once per shape in both cases."""
    jit = is_true(tfn.keyword("jit_compile"))
    relaxed = any(is_true(tfn.keyword(k)) for k in _RELAX)
    tensor = isinstance(arg, ast.Call) or (isinstance(growth, ast.Assign) and isinstance(growth.value, ast.Call))
    if tfn.has_input_signature and retrace_table.bounded("tensor_shape_changes_input_signature_none", at_most=0):
        return "XLA compiles it again (one trace, one XLA compilation per shape)" if jit else None
    if relaxed and retrace_table.bounded("tensor_shape_changes_reduce_retracing" if tensor
                                         else "list_of_tensors_length_changes_reduce_retracing"):
        # two traces in all (the second relaxed to None dims), but XLA still compiles each shape
        return "XLA compiles it again (two traces in all, one XLA compilation per shape)" if jit else None
    return "it traces and compiles again" if jit else "it traces again"


def _persistent_list(index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef, value: ast.expr) -> str | None:
    """``self.X`` read in a method, or a module-level name that ``func`` does not bind: the text."""
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self" \
            and isinstance(index.parent(func), ast.ClassDef):
        return f"self.{value.attr}"
    if isinstance(value, ast.Name) and value.id not in index.own_bindings(func) \
            and not any(isinstance(a, ast.arg) and a.arg == value.id for a in ast.walk(func.args)) \
            and isinstance(index.module_binding(value.id), (ast.List, ast.ListComp)):
        return value.id
    return None


def _grows_persistent(func: ast.AST, value: ast.expr) -> ast.stmt | ast.expr | None:
    """``X.append(...)`` / ``X.extend(...)`` / ``X += [...]`` of the same ``self.X`` or name in ``func``."""
    text = ast.unparse(value)
    for node in ast.walk(func):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LIST_GROWERS \
                and ast.unparse(node.func.value) == text:
            return node
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and ast.unparse(node.target) == text \
                and isinstance(node.value, (ast.List, ast.Tuple, ast.ListComp)):
            return node
    return None


def _list_growth(growth: ast.AST) -> bool:
    """``growth`` lengthens a Python list (``append``/``extend``/``insert``, ``+= [...]``,
    ``name = name + [...]``), not an array (``jnp.concatenate``)."""
    if isinstance(growth, ast.Call):
        return isinstance(growth.func, ast.Attribute) and growth.func.attr in LIST_GROWERS
    value = growth.value if isinstance(growth, (ast.Assign, ast.AugAssign)) else None
    return isinstance(value, (ast.List, ast.Tuple, ast.ListComp)) or (
        isinstance(value, ast.BinOp) and isinstance(value.right, (ast.List, ast.Tuple)))
