"""XLA401: a ``tf.Variable`` or Keras metric created on every call of a compiled step."""

from __future__ import annotations

import ast

from xlacheck.rules.base import Example, Rule, RuleContext, call_name


class VariableCreatedInStep(Rule):
    """
    ## What it does
    Flags `tf.Variable(...)` and Keras metric constructors (`tf.keras.metrics.Mean()`, ...) at
    the top level of a compiled function (not inside `if self.v is None:`, the one-time creation
    idiom; not in `__init__`/`build`).

    ## Why is this bad?
    A `tf.function` may create variables only on its first trace. A variable created
    unconditionally in the step fails on the next trace: `ValueError: tf.function only supports
    singleton tf.Variables created on the first call.` Even when it does not fail, a fresh
    variable per call does not keep state.

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def train_step(w, x, y):
        running = tf.Variable(0.0, trainable=False)
    ```

    ## Use instead
    ```python
    running = tf.Variable(0.0, trainable=False)  # created once, outside the step

    @tf.function(jit_compile=True)
    def train_step(w, x, y):
        running.assign(0.9 * running + 0.1 * loss)
    ```

    ## Fix safety
    No automatic fix.
    """

    code = "XLA401"
    name = "variable-created-in-step"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\nclass S:\n    def __init__(self):\n        self.v = None\n"
                "    @tf.function(jit_compile=True)\n    def step(self, x):\n        if self.v is None:\n"
                "            self.v = tf.Variable(0.0)\n        self.v.assign_add(tf.reduce_sum(x))\n        return x\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x):\n"
                "    running = tf.Variable(0.0, trainable=False)\n    running.assign(tf.reduce_mean(x))\n"
                "    return running.read_value()\n"),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        if not ctx.certain or len(ctx.blocks) != 1 or ctx.function.name in ("__init__", "build"):
            return
        name = call_name(node, ctx) or ""
        metric = name.startswith("tf.keras.metrics.") and name.rsplit(".", 1)[-1][:1].isupper()
        if name == "tf.Variable" or metric:
            ctx.report(self, node,
                       f"{name} created on every call of a compiled function: only the first trace may create "
                       "variables ('tf.function only supports singleton tf.Variables'); create it once outside")
