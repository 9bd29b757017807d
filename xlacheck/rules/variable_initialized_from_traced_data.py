"""XLA426: a variable created on the first call of XLA-compiled code from the values of its inputs."""

from __future__ import annotations

import ast

from xlacheck.analysis import argument
from xlacheck.analysis.contexts import Level
from xlacheck.analysis.objects import under_creation_guard, variable_constructor
from xlacheck.analysis.values import DATA, LOOP, PARAM, TENSOR, VARIABLE, is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext, call_name


class VariableInitializedFromTracedData(Rule):
    """
    ## What it does
    Flags `tf.Variable(value)` (and what the API table says builds a variable) created once, on
    the first call, inside XLA-compiled code (`jit_compile=True`, or a model declared compiled)
    when `value` is computed from the values of the function's tensors: the running mean of the
    first batch, a parameter, a loop value. An initial value that depends only on shapes
    (`tf.zeros_like(x)`, `tf.zeros(tf.shape(x))`) or on constants is not flagged.

    ## Why is this bad?
    `tf.function` lifts a variable created on the first trace out of the function, with its
    initializer. An initializer that reads the inputs' values cannot be lifted; a plain
    `tf.function` falls back to initializing it inside the graph, but XLA cannot:
    `UnimplementedError: We failed to lift variable creations out of this tf.function, so this
    tf.function cannot be run on XLA` (TF 2.21 measured: `tf.reduce_mean(x, 0)` fails under
    `jit_compile=True` and runs without it; `tf.zeros_like(x)` runs under both).

    ## Example
    ```python
    def call(self, x):
        if self.running_mean is None:
            self.running_mean = tf.Variable(tf.reduce_mean(x, axis=0), trainable=False)
        ...
    ```

    ## Use instead
    ```python
    def build(self, input_shape):
        self.running_mean = self.add_weight(shape=(input_shape[-1],), initializer="zeros", trainable=False)
    ```

    ## Fix safety
    No automatic fix: the variable's shape and first value move to `build`/`__init__`, and the
    first update must then do what the data-dependent initial value did.
    """

    code = "XLA426"
    fix = None
    name = "variable-initialized-from-traced-data"
    levels = frozenset({Level.CERTAIN})
    node_types = (ast.Call,)

    VALID = (
        # shape-only initial value: lifted with the shape
        Example("import tensorflow as tf\nclass T(tf.Module):\n    def __init__(self):\n        self.v = None\n"
                "    @tf.function(jit_compile=True)\n    def step(self, x):\n"
                "        if self.v is None:\n"
                "            self.v = tf.Variable(tf.zeros_like(x))\n        return self.v.assign_add(x)\n"),
        # a plain tf.function initializes it in the graph
        Example("import tensorflow as tf\nclass T(tf.Module):\n    def __init__(self):\n        self.v = None\n"
                "    @tf.function\n    def step(self, x):\n        if self.v is None:\n"
                "            self.v = tf.Variable(tf.reduce_mean(x, 0))\n        return self.v.read_value()\n"),
        # created in build, from the static shape
        Example("import tensorflow as tf\nclass N(tf.keras.layers.Layer):\n    def build(self, shape):\n"
                "        self.m = self.add_weight(shape=(shape[-1],), initializer='zeros')\n"
                "    def call(self, x):\n        return x - self.m\n", jit_compiled=True),
    )
    INVALID = (
        Example("""
            import tensorflow as tf


            class RunningNorm(tf.keras.layers.Layer):
                def __init__(self):
                    super().__init__()
                    self.mean = None

                def call(self, x):
                    if self.mean is None:
                        self.mean = tf.Variable(tf.reduce_mean(x, axis=0), trainable=False)
                    return x - self.mean
        """, jit_compiled=True, expected=(
            (11, 25, "tf.Variable created on the first call of XLA-compiled code (Keras call() (declared "
                     "jit-compiled) at line 9) from the values of its inputs: XLA cannot lift a variable whose "
                     "initial value reads the function's tensors (UnimplementedError: failed to lift variable "
                     "creations); create it in build/__init__ from the static shape and assign the first value"),
        )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None or not variable_constructor(name) or ctx.function.jax:
            return
        init = argument(node, 0, "initial_value")
        if init is None:
            return
        k = ctx.flags(init)
        if not is_tensor(k) or not k & TENSOR or k & VARIABLE or not k & (DATA | PARAM | LOOP):
            return
        if not under_creation_guard(node, ctx.function.node):  # XLA405 reports the unguarded form
            return
        ctx.report(self, node,
                   f"{name} created on the first call of XLA-compiled code ({ctx.function.evidence}) from the values "
                   "of its inputs: XLA cannot lift a variable whose initial value reads the function's tensors "
                   "(UnimplementedError: failed to lift variable creations); create it in build/__init__ from the "
                   "static shape and assign the first value")
