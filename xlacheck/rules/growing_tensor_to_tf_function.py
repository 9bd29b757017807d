"""XLA409: a tensor that grows every iteration, passed to a ``tf.function`` in that loop."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.tables import GROWING_OPS as _GROWING_OPS
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import jax_jitted
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_LIST_GROWERS = frozenset({"append", "extend", "insert"})


def _grows(index: ModuleIndex, name: str, loop: ast.AST) -> ast.stmt | ast.expr | None:
    """Where ``name`` gets longer inside ``loop``: ``name = tf.concat([name, ...])`` (or
    ``tf.pad(name, ...)``), or, for a Python list of tensors, ``name.append(...)``,
    ``name.extend(...)``, ``name += [...]``, ``name = name + [...]``."""
    for node in ast.walk(loop):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LIST_GROWERS \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            return node
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(node.target, ast.Name) \
                and node.target.id == name and isinstance(node.value, (ast.List, ast.Tuple, ast.ListComp)):
            return node
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Add) \
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets) \
                and isinstance(node.value.left, ast.Name) and node.value.left.id == name \
                and isinstance(node.value.right, (ast.List, ast.Tuple)):
            return node
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        if not any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            continue
        if index.aliases.resolve(node.value.func) not in _GROWING_OPS:
            continue
        if any(isinstance(sub, ast.Name) and sub.id == name for arg in node.value.args for sub in ast.walk(arg)):
            return node
    return None


class GrowingTensorToTfFunction(ModuleRule):
    """
    ## What it does
    Flags a call of a `tf.function` (or `jax.jit` function) of this file, inside a Python loop, whose argument (or a
    tensor built from it, `tf.stack(tokens)`) gets longer in that loop: re-bound to a longer
    version of itself (`ids = tf.concat([ids, next_id], 1)`, `tf.pad(ids, ...)`), or a Python
    list of tensors grown with `append`/`extend`/`+=`, as in a token-by-token generation loop.

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
    fix = None
    name = "growing-tensor-to-tf-function"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(ids, pos):\n    return ids + pos\n"
                "def generate(ids, n):\n    for i in range(n):\n        out = step(ids, tf.constant(i))\n"
                "        ids = tf.tensor_scatter_nd_update(ids, [[0, i]], [1])\n    return ids\n"),
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
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef next_token(ids):\n    return jnp.argmax(ids[-1:])\n"
                "def generate(ids, n):\n    for _ in range(n):\n"
                "        ids = jnp.concatenate([ids, next_token(ids)[None]])\n    return ids\n",
                expected=(
                    (8, 48, '`ids` grows every iteration (line 8) and is passed to jitted function `next_token` in '
                            'the same loop: every step has a new shape, so it traces and compiles again each '
                            'iteration; use a fixed-size padded buffer and a position index'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        jitted = {name for name, _ in jax_jitted(ctx.facts, index)}  # jax.jit compiles once per shape too
        if not index.tf_functions and not jitted:
            return
        for call, _ in index.calls:
            tfn = index.tf_function_called(call)
            if tfn is not None:
                kind, callee = "tf.function", tfn.name
            elif isinstance(call.func, ast.Name) and call.func.id in jitted:
                kind, callee = "jitted function", call.func.id
            else:
                continue
            loops = [loop for loop in index.loops_around(call) if isinstance(loop, (ast.For, ast.While))]
            if not loops:
                continue
            for arg in list(call.args) + [kw.value for kw in call.keywords]:
                # the value itself, or a tensor made of it (tf.stack(tokens), tf.constant(history))
                names = [arg] if isinstance(arg, ast.Name) else [
                    a for a in arg.args if isinstance(a, ast.Name)] if isinstance(arg, ast.Call) else []
                for name in names:
                    growth = next((g for loop in loops if (g := _grows(index, name.id, loop)) is not None), None)
                    if growth is not None:
                        break
                else:
                    continue
                if growth is not None:
                    ctx.report(self, arg, f"`{name.id}` grows every iteration (line {growth.lineno}) and is passed to "
                                          f"{kind} `{callee}` in the same loop: every step has a new shape, so it "
                                          "traces and compiles again each iteration; use a fixed-size padded buffer "
                                          "and a position index")
