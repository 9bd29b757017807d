"""XLA327: ``tf.constant(t)`` / ``tf.TensorShape(t)`` of a tensor in code a ``tf.function`` traces."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.tables import PYTHON_VALUE_ARGS
from xlacheck.analysis.tracers import proven_symbolic
from xlacheck.analysis.values import CONST, DATA, OPAQUE, PARAM, PYLIST, TENSOR, VARIABLE
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name

# Traced into a graph by a tf.function (CERTAIN: jit_compile and what it calls; GRAPH: a plain one).
_LEVELS = frozenset({Level.CERTAIN, Level.GRAPH})
# What each callable raises on a symbolic tensor (TF 2.21, tf.function with and without jit_compile;
# tests/xlacheck/test_compiler_truth.py).
_ERRORS = {
    "tf.constant": "TypeError: Expected any non-tensor type, but got a tensor instead",
    "tf.compat.v1.constant": "TypeError: Expected any non-tensor type, but got a tensor instead",
    "tf.TensorShape": "TypeError: Dimension value must be integer or None or have an __index__ method",
}


def _evidence(flags: int, name: str, ctx: RuleContext) -> str | None:
    """How the argument is known to be a tensor that the graph holds symbolically, or None.

    ``tf.constant`` of an eager tensor made outside the function (a ``tf.constant`` in ``__init__``
    or at module level) works in a graph: it reads the captured value (measured), so a constant
    counts only for ``tf.TensorShape``, which iterates its argument and so stages a slice op per
    element even on a captured eager tensor (measured: "only integer scalar arrays can be converted to
    a scalar index")."""
    if not flags & TENSOR or flags & PYLIST:
        return None
    found = proven_symbolic(flags, ctx.function)
    if found is not None:
        return found
    if flags & VARIABLE:
        return "a tf.Variable"
    if flags & DATA:
        return "computed from tensor data"
    if flags & PARAM:
        return None  # an entry's parameter is "a tensor or a structure of tensors" by position only
    if flags & OPAQUE:
        return "returned by a layer or function called on tensors"
    if flags & CONST and name == "tf.TensorShape":
        return "a tensor constant"
    return None


def constant_of_symbolic_tensor(node: ast.AST, ctx: RuleContext) -> str | None:
    """The message for ``node`` when it is ``tf.constant(t)`` / ``tf.TensorShape(t)`` of a tensor in a
    function a ``tf.function`` traces (XLA327), else None. XLA304 (behind --preview, Keras methods
    without a compiled caller) leaves these nodes to XLA327."""
    info = ctx.function
    if not isinstance(node, ast.Call) or info.jax or info.level not in _LEVELS:
        return None
    name = call_name(node, ctx)
    if name not in PYTHON_VALUE_ARGS:
        return None
    position, keyword = PYTHON_VALUE_ARGS[name]
    arg = argument(node, position, keyword)
    if arg is None:
        return None
    evidence = _evidence(ctx.flags(arg), name, ctx)
    if evidence is None:
        return None
    use = "tf.cast / tf.convert_to_tensor" if name != "tf.TensorShape" else \
        "Python ints (or None for an unknown dimension), e.g. the tensor's static .shape"
    return (f"{name} of a symbolic tensor ({evidence}) in a graph ({info.why}): it reads its argument as "
            f"Python/NumPy data while tracing and raises '{_ERRORS[name]}' (measured); use {use}")



class ConstantOfSymbolicTensor(Rule):
    """
    ## What it does
    Flags `tf.constant(t)` and `tf.TensorShape(t)` where `t` is a tensor in a function that a
    `tf.function` traces (decorated or wrapped, with or without `jit_compile`, and what it calls):
    the result of a TensorFlow op, a `tf.Variable`, a value computed from tensor data or returned by a
    layer called on tensors, and for `tf.TensorShape` also a tensor constant. Which callables read
    their argument as Python data comes from `PYTHON_VALUE_ARGS` in `xlacheck/analysis/tables.py`.

    ## Why is this bad?
    Both read their argument as Python/NumPy data while tracing. There is none in a graph, so
    tracing fails with or without XLA (TF 2.21): `tf.constant` raises `TypeError: Expected any
    non-tensor type, but got a tensor instead` (`Expected float32, but got Tensor(...) of type
    'SymbolicTensor'` with a `dtype`, `numpy() is only available when eager execution is enabled`
    for a variable), and `tf.TensorShape` raises `Dimension value must be integer or None`. Eagerly
    both work, so the code runs until the first compiled call. `tf.constant` of an eager constant made
    outside the function (in `__init__`, at module level) works and is not flagged; `tf.TensorShape`
    of one fails too, since it iterates the tensor and so stages ops.

    ## Example
    ```python
    class Quantity:
        def __init__(self, value):
            self.value = tf.constant(value, dtype=tf.float32)

    @tf.function(jit_compile=True)
    def gate(x):
        return Quantity(tf.sigmoid(x)).value
    ```

    ## Use instead
    ```python
    class Quantity:
        def __init__(self, value):
            self.value = tf.convert_to_tensor(value, dtype=tf.float32)
    ```

    ## Fix safety
    No automatic fix: `tf.convert_to_tensor` refuses a tensor of another dtype where `tf.constant`
    of Python data converted it, and a `tf.TensorShape` needs the dimensions the code means, which
    the tensor's static shape may not be.
    """

    code = "XLA327"
    name = "constant-of-symbolic-tensor"
    fails_in_any_graph = True  # a tf.function without jit_compile fails too
    levels = _LEVELS  # a Keras method alone may run eagerly, where both work (XLA304 with --preview)
    fix = None
    node_types = (ast.Call,)

    VALID = (
        # Python data, a static shape
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x * tf.constant([0.5, 2.0]) + tf.zeros(tf.TensorShape(x.shape))\n"),
        # an eager constant made in __init__ is captured: tf.constant reads its value (measured)
        Example("import tensorflow as tf\nclass Scale(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.c = tf.constant([2.0, 3.0])\n    def call(self, x):\n"
                "        return x * tf.constant(self.c)\nscale = Scale()\n@tf.function(jit_compile=True)\n"
                "def f(x):\n    return scale(x)\n"),
        # a Keras method alone: a model called eagerly hands it eager tensors
        Example("import tensorflow as tf\nclass Gate(tf.keras.layers.Layer):\n    def call(self, x):\n"
                "        return x * tf.constant(tf.sigmoid(x))\n"),
        # a parameter alone may be a Python value
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, scale):\n"
                "    return x * tf.constant(scale)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x * tf.constant(tf.sigmoid(x), dtype=tf.float32)\n",
                expected=(
                    (4, 16, 'tf.constant of a symbolic tensor (computed by a TensorFlow op) in a graph (decorated '
                            'with tf.function(jit_compile=True)): it reads its argument as Python/NumPy data while '
                            "tracing and raises 'TypeError: Expected any non-tensor type, but got a tensor instead' "
                            '(measured); use tf.cast / tf.convert_to_tensor'),
                )),
        # a tensor stored on self in __init__ and read as a shape in the traced method (tensorflow#126191)
        Example("import tensorflow as tf\nclass Refiner(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.target = tf.constant([2, 2])\n    def call(self, x):\n"
                "        return tf.ensure_shape(x, tf.TensorShape(self.target))\nrefiner = Refiner()\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return refiner(x)\n",
                expected=(
                    (7, 35, 'tf.TensorShape of a symbolic tensor (a tensor constant) in a graph (called from f()): '
                            'it reads its argument as Python/NumPy data while '
                            "tracing and raises 'TypeError: Dimension value must be integer or None or have an "
                            "__index__ method' (measured); use Python ints (or None for an unknown dimension), "
                            'e.g. the tensor\'s static .shape'),
                )),
        # a helper class built inside the traced function from a layer's output (tensorflow#105151)
        Example("import tensorflow as tf\nclass Quantity:\n    def __init__(self, value):\n"
                "        self.value = tf.constant(value, dtype=tf.float32)\n"
                "dense = tf.keras.layers.Dense(4)\n@tf.function\ndef f(x):\n"
                "    return Quantity(dense(x)).value\n",
                expected=(
                    (4, 22, 'tf.constant of a symbolic tensor (returned by a layer or function called on tensors) '
                            'in a graph (called from f()): it reads its argument as Python/NumPy data while tracing '
                            "and raises 'TypeError: Expected any non-tensor type, but got a tensor instead' "
                            '(measured); use tf.cast / tf.convert_to_tensor'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if (message := constant_of_symbolic_tensor(node, ctx)) is not None:
            ctx.report(self, node, message)
