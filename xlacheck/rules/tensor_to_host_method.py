"""XLA301: ``.numpy()`` / ``.item()`` / ``.tolist()`` in compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import PYLIST, TENSOR, is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


class TensorToHostMethod(Rule):
    """
    ## What it does
    Flags `.numpy()` on anything, and `.item()`/`.tolist()` on tensors (under `jax.jit`, on any
    traced argument), inside compiled code (code guarded by `if tf.executing_eagerly():` is skipped).

    ## Why is this bad?
    A compiled function has no concrete values to copy to the host: tracing fails with
    `AttributeError: 'SymbolicTensor' object has no attribute 'numpy'`, and on a variable with
    `NotImplementedError: numpy() is only available when eager execution is enabled.`

    ## Example
    ```python
    lr = self.optimizer.learning_rate.numpy()
    self.w.assign_sub(lr * grad)
    ```

    ## Use instead
    ```python
    lr = tf.cast(self.optimizer.learning_rate, grad.dtype)
    self.w.assign_sub(lr * grad)
    ```

    ## Fix safety
    `.numpy()` / `.item()` -> `tf.convert_to_tensor(x)` is unsafe: the result is a tensor, not a
    NumPy value (NumPy calls on it fail, and it keeps the input's dtype where NumPy may give
    float64).
    """

    code = "XLA301"
    fix = ("rewrite_host_read",)
    name = "tensor-to-host-method"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\nclass T:\n    @tf.function(jit_compile=True)\n    def step(self, x):\n"
                "        return x * 2.0\n    def fit(self, xs):\n        return [float(self.step(x).numpy()) for x in xs]\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.executing_eagerly():\n        print(x.numpy())\n    return x\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.opt = tf.keras.optimizers.SGD(0.1)\n"
                "    @tf.function(jit_compile=True)\n    def step(self, w, g):\n"
                "        lr = self.opt.learning_rate.numpy()\n        return w - lr * g\n",
                expected=(
                    (7, 14, '`.numpy()` inside compiled code (decorated with tf.function(jit_compile=True)): there '
                            "is no concrete value while tracing ('SymbolicTensor' object has no attribute 'numpy'); "
                            'keep the value as a tensor'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    n = tf.reduce_sum(x).item()\n    return x / n\n",
                expected=(
                    (4, 9, '`.item()` inside compiled code (decorated with tf.function(jit_compile=True)): there is '
                           "no concrete value while tracing ('SymbolicTensor' object has no attribute 'numpy'); keep "
                           'the value as a tensor'),
                )),
        Example("import jax\n@jax.jit\ndef normalize(x, total):\n    return x / total.item()\n",
                expected=(
                    (4, 16, '`.item()` on a traced array under jax.jit (decorated with jax.jit): there is no concrete '
                            'value while tracing (ConcretizationTypeError); keep the value as an array'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        f = node.func
        if not isinstance(f, ast.Attribute) or f.attr not in ("numpy", "item", "tolist") or node.args:
            return
        k = ctx.flags(f.value)
        # under jax.jit every non-static argument is an array or a pytree of them; only an array
        # has .item()/.tolist()
        if f.attr != "numpy" and not is_tensor(k) and not (ctx.function.jax and k & TENSOR and not k & PYLIST):
            return
        if ctx.resolve(f.value) is not None:
            return  # a module attribute, e.g. `tf.experimental.numpy`
        if ctx.function.jax:
            ctx.report(self, node, f"`.{f.attr}()` on a traced array under jax.jit ({ctx.function.why}): there is no "
                                   "concrete value while tracing (ConcretizationTypeError); keep the value as an array")
            return
        ctx.report(self, node,
                   f"`.{f.attr}()` inside compiled code ({ctx.function.why}): there is no concrete value while "
                   "tracing ('SymbolicTensor' object has no attribute 'numpy'); keep the value as a tensor")
