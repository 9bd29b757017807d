"""XLA305: ``K.get_value``/``K.eval`` inside compiled code."""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_READS = frozenset({"tf.keras.backend.get_value", "tf.keras.backend.eval", "tf.keras.backend.batch_get_value"})


class FrozenHostRead(Rule):
    """
    ## What it does
    Flags `tf.keras.backend.get_value(...)`, `K.eval(...)` and `K.batch_get_value(...)` inside
    compiled code.

    ## Why is this bad?
    These escape to eager mode **at trace time** and return a NumPy value that is baked into the
    graph as a constant. The step compiles and runs, but keeps using the value from the first
    trace (a learning-rate schedule read this way never moves): a silent wrong result.

    ## Example
    ```python
    step = tf.keras.backend.get_value(self.step)
    lr = 0.1 / (1.0 + step)
    ```

    ## Use instead
    ```python
    lr = 0.1 / (1.0 + self.step)  # read the variable as a tensor
    ```

    ## Fix safety
    `K.get_value(v)` -> `tf.convert_to_tensor(v)` reads the variable when the program runs. It is
    unsafe by the letter: the result is a tensor, not a NumPy value (NumPy calls on it fail).
    """

    code = "XLA305"
    fix = ("rewrite_host_read",)
    name = "frozen-host-read"
    severity = Severity.WRONG_RESULT
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.step = tf.Variable(0.0)\n"
                "    @tf.function(jit_compile=True)\n    def f(self, x):\n        return x / (1.0 + self.step)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.step = tf.Variable(0.0)\n"
                "    @tf.function(jit_compile=True)\n    def f(self, x):\n"
                "        step = tf.keras.backend.get_value(self.step)\n        return x / (1.0 + step)\n",
                expected=(
                    (7, 16, 'tf.keras.backend.get_value inside compiled code runs once at trace time: the value is '
                            'frozen into the graph and never changes between steps (wrong result); use the '
                            'variable/tensor directly'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name in _READS:
            ctx.report(self, node,
                       f"{name} inside compiled code runs once at trace time: the value is frozen into the graph "
                       "and never changes between steps (wrong result); use the variable/tensor directly")
