"""XLA305: ``K.get_value``/``K.eval`` inside compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import OP, VARIABLE, is_tensor
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
    trace (a learning-rate schedule read this way never moves): a silent wrong result. Given a
    tensor computed inside the function (`K.eval(K.argmin(errors))`) there is no value to escape
    to: tracing fails with `AttributeError: 'SymbolicTensor' object has no attribute 'numpy'`.

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
    `K.get_value(v)` -> `tf.stop_gradient(v)` reads the variable when the program runs, a constant
    to autodiff as the NumPy value was. It is unsafe by the letter: the result is a tensor, not a
    NumPy value (NumPy calls on it fail).
    """

    code = "XLA305"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
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
        Example("import tensorflow as tf\nK = tf.keras.backend\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    best = int(K.eval(K.argmin(x)))\n    return x[best]\n",
                expected=(
                    (5, 16, "tf.keras.backend.eval of a computed tensor inside compiled code: there is no value while "
                            "tracing ('SymbolicTensor' object has no attribute 'numpy'); keep the value as a tensor"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name in _READS:
            arg = node.args[0] if node.args else None
            k = ctx.flags(arg) if arg is not None else 0
            if name != "tf.keras.backend.batch_get_value" and k & OP and not k & VARIABLE and is_tensor(k):
                # a tensor an op computed here has no value while tracing: the read fails
                ctx.report(self, node,
                           f"{name} of a computed tensor inside compiled code: there is no value while tracing "
                           "('SymbolicTensor' object has no attribute 'numpy'); keep the value as a tensor")
                return
            ctx.report(self, node,
                       f"{name} inside compiled code runs once at trace time: the value is frozen into the graph "
                       "and never changes between steps (wrong result); use the variable/tensor directly")
