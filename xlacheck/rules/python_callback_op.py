"""XLA306: ``tf.py_function``/``tf.numpy_function`` inside compiled code."""

from __future__ import annotations

import ast

from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_CALLBACKS = frozenset({"tf.py_function", "tf.numpy_function", "tf.compat.v1.py_func", "tf.py_func"})


class PythonCallbackOp(Rule):
    """
    ## What it does
    Flags `tf.py_function`, `tf.numpy_function` and `tf.compat.v1.py_func` in compiled code
    (models, losses, metrics, train steps). Input pipelines (`dataset.map`) are not compiled by
    XLA and are not flagged.

    ## Why is this bad?
    These ops call back into the Python interpreter; XLA has no kernel for them:
    `Detected unsupported operations when trying to compile graph ... EagerPyFunc`/`PyFunc`.
    On a TPU there is no Python host next to the device at all.

    ## Example
    ```python
    w = tf.py_function(_difficulty_weights, [y_true], tf.float32)
    ```

    ## Use instead
    ```python
    w = tf.where(y_true > 0.5, 2.0, 1.0)  # the same logic in TF ops
    ```

    ## Fix safety
    No automatic fix.
    """

    code = "XLA306"
    fix = None
    name = "python-callback-op"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\ndef tok(t):\n    return len(t.numpy())\n"
                "def make(texts):\n    ds = tf.data.Dataset.from_tensor_slices(texts)\n"
                "    return ds.map(lambda t: tf.py_function(tok, [t], tf.int32))\n"),
    )
    INVALID = (
        Example("import numpy as np\nimport tensorflow as tf\ndef _w(y):\n    return np.where(y.numpy() > 0.5, 2.0, 1.0)\n"
                "def loss(y_true, y_pred):\n    w = tf.py_function(_w, [y_true], tf.float32)\n"
                "    return tf.reduce_mean(w * tf.square(y_true - y_pred))\n"
                "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nmodel.compile(loss=loss)\n",
                expected=(
                    (6, 9, 'tf.py_function inside compiled code (passed to compile()/strategy.run): XLA has no '
                           'kernel for Python callbacks (PyFunc/EagerPyFunc), compilation fails; rewrite the '
                           'callback with TF ops'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name in _CALLBACKS:
            ctx.report(self, node,
                       f"{name} inside compiled code ({ctx.function.why}): XLA has no kernel for Python callbacks "
                       "(PyFunc/EagerPyFunc), compilation fails; rewrite the callback with TF ops")
