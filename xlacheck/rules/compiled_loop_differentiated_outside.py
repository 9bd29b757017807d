"""XLA325: an eager GradientTape differentiates a jit-compiled function that runs a staged loop."""

from __future__ import annotations

import ast
from functools import cache

from xlacheck import op_table
from xlacheck.analysis.contexts import ClassInfo, FunctionInfo, Level
from xlacheck.analysis.scopes import own_nodes
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_LOOP_OPS = frozenset({"While", "StatelessWhile"})


@cache
def _staged_loop(name: str) -> bool:
    """The op table traced a While loop into ``name``'s graph (``tf.scan``, ``tf.map_fn``,
    ``tf.while_loop``, ``tf.keras.layers.LSTM``/``GRU``/``SimpleRNN``/``Bidirectional``, ...)."""
    verdict = op_table.lookup(name)
    return verdict is not None and bool(_LOOP_OPS & set(verdict.raw_ops))


class CompiledLoopDifferentiatedOutside(ModuleRule):
    """
    ## What it does
    Flags `tape.gradient(...)` in eager code (a training step that nothing in the file compiles) when
    the tape recorded a call of a `jit_compile=True` function, or of a layer whose `call` is one,
    that runs a staged loop: an API whose traced graph holds a `While` loop according to the op
    table (`tf.scan`, `tf.map_fn`, `tf.while_loop`, Keras `LSTM`/`GRU`/`SimpleRNN`/
    `Bidirectional`, ...), a model built from such layers, or a `for` loop over `tf.range`.

    ## Why is this bad?
    The gradient of a loop needs the per-iteration values its forward pass accumulates in
    TensorLists. When only the forward pass is compiled and the tape differentiates it from eager
    code, those TensorLists would have to leave the compiled function, and TensorFlow 2.21 fails
    with "Support for TensorList crossing the XLA/TF boundary is not implemented" (measured for each
    of these loop forms; a Python `range` loop, unrolled at trace time, differentiates fine).

    ## Example
    ```python
    compiled_forward = tf.function(model, jit_compile=True)  # model holds an LSTM

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, compiled_forward(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True)
    def train_step(x, y):  # the tape and the gradient are compiled with the forward pass
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
    ```

    ## Fix safety
    No automatic fix: the step's structure changes.
    """

    code = "XLA325"
    fix = None
    name = "compiled-loop-differentiated-outside"
    node_types = ()

    VALID = (
        # the whole step is compiled: the gradient never leaves XLA
        Example("import tensorflow as tf\nrnn = tf.keras.layers.LSTM(4)\n@tf.function(jit_compile=True)\n"
                "def step(x):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(rnn(x))\n"
                "    return tape.gradient(loss, rnn.trainable_variables)\n"),
        # a jit-compiled forward pass without a loop
        Example("import tensorflow as tf\ndense = tf.keras.layers.Dense(4)\n"
                "forward = tf.function(dense, jit_compile=True)\ndef step(x):\n"
                "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(forward(x))\n"
                "    return tape.gradient(loss, dense.trainable_variables)\n"),
        # a Python range loop is unrolled at trace time
        Example("import tensorflow as tf\nw = tf.Variable(tf.ones([2, 2]))\n@tf.function(jit_compile=True)\n"
                "def forward(h):\n    for _ in range(3):\n        h = tf.tanh(tf.matmul(h, w))\n    return h\n"
                "def step(x):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(forward(x))\n"
                "    return tape.gradient(loss, [w])\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nw = tf.Variable(tf.ones([2, 2]))\n@tf.function(jit_compile=True)\n"
                "def forward(h):\n    return tf.scan(lambda a, e: tf.tanh(tf.matmul(a, w)) + e, tf.stack([h, h]))\n"
                "def step(x):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(forward(x))\n"
                "    return tape.gradient(loss, [w])\n",
                expected=(
                    (9, 12, 'tape.gradient differentiates forward(), a jit-compiled function with a staged loop '
                            '(tf.scan), from eager code: the loop\'s gradient needs the TensorLists its compiled '
                            'forward pass keeps, which cannot cross the XLA/TF boundary (UnimplementedError); '
                            'compile the whole training step, tape and gradient included'),
                )),
        # a method holds the compiled forward pass of a model with an LSTM
        Example("import tensorflow as tf\ndef build():\n"
                "    return tf.keras.Sequential([tf.keras.layers.LSTM(4), tf.keras.layers.Dense(1)])\n"
                "class Trainer:\n    def __init__(self):\n        self.model = build()\n"
                "        self.forward = tf.function(self.model, jit_compile=True)\n"
                "    def train_step(self, x):\n        with tf.GradientTape() as tape:\n"
                "            loss = tf.reduce_sum(self.forward(x))\n"
                "        return tape.gradient(loss, self.model.trainable_variables)\n",
                expected=(
                    (11, 16, 'tape.gradient differentiates self.forward(), a jit-compiled function with a staged '
                             'loop (tf.keras.layers.LSTM), from eager code: the loop\'s gradient needs the TensorLists '
                             'its compiled forward pass keeps, which cannot cross the XLA/TF boundary '
                             '(UnimplementedError); compile the whole training step, tape and gradient included'),
                )),
        # a layer whose call is jit-compiled and loops over tf.range
        Example("import tensorflow as tf\nclass Recur(tf.keras.layers.Layer):\n"
                "    def build(self, shape):\n        self.w = self.add_weight(shape=(shape[-1], shape[-1]))\n"
                "    @tf.function(jit_compile=True)\n    def call(self, h):\n"
                "        for _ in tf.range(3):\n            h = tf.tanh(tf.matmul(h, self.w))\n        return h\n"
                "class Trainer:\n    def __init__(self):\n        self.rnn = Recur()\n"
                "    def train_step(self, x):\n        with tf.GradientTape() as tape:\n"
                "            loss = tf.reduce_sum(self.rnn(x))\n"
                "        return tape.gradient(loss, self.rnn.trainable_variables)\n",
                expected=(
                    (16, 16, 'tape.gradient differentiates self.rnn(), a jit-compiled function with a staged loop '
                             '(for over tf.range), from eager code: the loop\'s gradient needs the TensorLists its '
                             'compiled forward pass keeps, which cannot cross the XLA/TF boundary '
                             '(UnimplementedError); compile the whole training step, tape and gradient included'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        resolve = ctx.facts.aliases.resolve
        for info in ctx.facts.functions:
            if info.level not in (Level.EAGER, Level.HELPER) or info.jax:
                continue
            for node in own_nodes(info.node, include_signature=True):
                if not isinstance(node, ast.With):
                    continue
                for item in node.items:
                    tape = item.optional_vars
                    if not (isinstance(item.context_expr, ast.Call) and isinstance(tape, ast.Name)
                            and resolve(item.context_expr.func) == "tf.GradientTape"):
                        continue
                    found = self._compiled_loop(node, info, ctx)
                    if found is None:
                        continue
                    what, loop = found
                    for call in own_nodes(info.node, include_signature=True):
                        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                                and call.func.attr == "gradient" and isinstance(call.func.value, ast.Name) \
                                and call.func.value.id == tape.id:
                            ctx.report(self, call,
                                       f"{tape.id}.gradient differentiates {what}(), a jit-compiled function with "
                                       f"a staged loop ({loop}), from eager code: the loop's gradient needs the "
                                       "TensorLists its compiled forward pass keeps, which cannot cross the XLA/TF "
                                       "boundary (UnimplementedError); compile the whole training step, tape and "
                                       "gradient included")

    def _compiled_loop(self, block: ast.With, info: FunctionInfo, ctx: ModuleContext) -> tuple[str, str] | None:
        """(callee, loop) for the first call in ``block`` of a jit-compiled callable that loops."""
        for stmt in block.body:
            for node in [stmt, *own_nodes(stmt, include_signature=True)]:
                if not isinstance(node, ast.Call):
                    continue
                for body in self._compiled_bodies(node.func, info, ctx):
                    loop = self._loop_in(body, info.cls, ctx, 0)
                    if loop is not None:
                        return ast.unparse(node.func), loop
        return None

    def _compiled_bodies(self, func: ast.expr, info: FunctionInfo, ctx: ModuleContext) -> list[ast.AST]:
        """What a call of ``func`` runs compiled with ``jit_compile=True``: a decorated function, the
        target of ``tf.function(target, jit_compile=True)``, or a layer of this file whose ``call`` is one."""
        value: ast.expr | None = None
        if isinstance(func, ast.Name):
            callee = ctx.facts.module_funcs.get(func.id)
            if callee is not None:
                return [callee.node] if _jit(callee) else []
            value = ctx.facts.module_values.get(func.id)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
                and info.cls is not None:
            value = info.cls.attrs.get(func.attr)
        if not isinstance(value, ast.Call):
            return []
        resolve = ctx.facts.aliases.resolve
        if resolve(value.func) == "tf.function" and value.args and any(
                kw.arg == "jit_compile" and isinstance(kw.value, ast.Constant) and kw.value.value is True
                for kw in value.keywords):
            return [value.args[0]]
        cls = self._local_class(value.func, ctx)
        if cls is not None:
            method = cls.methods.get("call") or cls.methods.get("__call__")
            if method is not None and _jit(method):
                return [method.node]
        return []

    @staticmethod
    def _local_class(func: ast.expr, ctx: ModuleContext) -> ClassInfo | None:
        return ctx.facts.classes_by_name.get(func.id) if isinstance(func, ast.Name) else None

    def _loop_in(self, body: ast.AST, cls: ClassInfo | None, ctx: ModuleContext, depth: int) -> str | None:
        """The first staged loop ``body`` runs: an API the op table traced a While loop into, a ``for``
        over ``tf.range``, or one in a builder function, a model attribute or a class of this file it
        calls (two levels deep)."""
        resolve = ctx.facts.aliases.resolve
        if depth > 2:
            return None
        if isinstance(body, ast.Attribute) and isinstance(body.value, ast.Name) and body.value.id == "self" \
                and cls is not None:  # tf.function(self.model, ...): what self.model was built from
            value = cls.attrs.get(body.attr)
            return self._loop_in(value, cls, ctx, depth + 1) if value is not None else None
        if isinstance(body, ast.Name):
            value = ctx.facts.module_values.get(body.id)
            callee = ctx.facts.module_funcs.get(body.id)
            target = callee.node if callee is not None else value
            return self._loop_in(target, cls, ctx, depth + 1) if target is not None else None
        own = list(own_nodes(body, include_signature=True))
        nodes = own if isinstance(body, ast.FunctionDef | ast.AsyncFunctionDef) else [body, *own]
        for node in nodes:
            if isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and resolve(node.iter.func) == "tf.range":
                return "for over tf.range"
            if not isinstance(node, ast.Call):
                continue
            name = resolve(node.func)
            if name is not None and _staged_loop(name):
                return name
            if name is None and isinstance(node.func, ast.Name) and depth < 2:
                callee = ctx.facts.module_funcs.get(node.func.id)
                local = self._local_class(node.func, ctx)
                if callee is not None:
                    found = self._loop_in(callee.node, cls, ctx, depth + 1)
                elif local is not None:
                    found = next((loop for m in local.methods.values()
                                  if (loop := self._loop_in(m.node, local, ctx, depth + 1)) is not None), None)
                else:
                    found = None
                if found is not None:
                    return found
        return None


def _jit(info: FunctionInfo) -> bool:
    """Compiled by its own ``jit_compile=True`` decorator or wrapper (not JAX)."""
    return info.level is Level.CERTAIN and info.jit_entry and not info.jax
