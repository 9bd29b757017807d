"""XLA304: NumPy functions applied to tensors in compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import DATA, PARAM, PYLIST, SHAPE, TENSOR, VARIABLE
from xlacheck.rules.base import Example, Rule, RuleContext, call_name


class NumpyCallOnTensor(Rule):
    """
    ## What it does
    Flags `np.<function>(t)` (and `scipy.*`) where `t` is a tensor, inside compiled code (Keras `call`,
    `train_step`, metrics' `update_state`, `loss=`/`metrics=` functions, `tf.function`s).
    `tf.experimental.numpy` is TensorFlow and is not flagged.

    ## Why is this bad?
    NumPy needs concrete values: tracing fails with `NotImplementedError: Cannot convert a
    symbolic tf.Tensor to a numpy array.`

    ## Example
    ```python
    hard = np.where(y_pred > 0.5, 1.0, 0.0)
    ```

    ## Use instead
    ```python
    hard = tf.where(y_pred > 0.5, 1.0, 0.0)
    ```

    ## Fix safety
    NumPy reductions and elementwise functions on tensors -> the same-named TensorFlow op is
    unsafe: the result is a tensor, not a NumPy value, it keeps the input's dtype where NumPy may
    give float64, and float sums may round differently.
    """

    code = "XLA304"
    fix = ("rewrite_host_read",)
    name = "numpy-call-on-tensor"
    node_types = (ast.Call,)

    VALID = (
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x / np.sqrt(x.shape[-1])\n"),
        Example("import tensorflow as tf\nimport tensorflow.experimental.numpy as tnp\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return tnp.mean(x)\n"),
        # a type dispatch: the NumPy branch never runs on a traced tensor
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if isinstance(x, np.ndarray):\n        return np.where(x > 0, x, 0)\n"
                "    if not hasattr(x, 'astype'):\n        return tf.nn.relu(x)\n    return np.maximum(x, 0)\n"),
    )
    INVALID = (
        Example("import numpy as np\nimport tensorflow as tf\ndef mae(y_true, y_pred):\n"
                "    return tf.constant(np.mean(tf.abs(y_true - y_pred)))\n"
                "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nmodel.compile(loss='mse', metrics=[mae])\n",
                expected=(
                    (4, 24, 'np.mean on a tensor inside compiled code (passed to compile()/strategy.run): NumPy '
                            "needs concrete values ('Cannot convert a symbolic tf.Tensor to a numpy array'); use the "
                            'tf.* op'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None or not name.startswith(("np.", "scipy.")):
            return
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            k = ctx.flags(arg)
            if k & TENSOR and not k & PYLIST and (k & (DATA | PARAM | VARIABLE) or not k & SHAPE):
                if ctx.function.jax:  # in JAX's terms
                    ctx.report(self, node,
                               f"{name} on a traced array under jax.jit ({ctx.function.why}): NumPy needs concrete "
                               "values (TracerArrayConversionError); use the jnp.* / jax.lax op")
                    return
                ctx.report(self, node,
                           f"{name} on a tensor inside compiled code ({ctx.function.why}): NumPy needs concrete "
                           "values ('Cannot convert a symbolic tf.Tensor to a numpy array'); use the tf.* op")
                return
