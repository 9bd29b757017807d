"""XLA301: ``.numpy()`` / ``.item()`` / ``.tolist()`` in compiled code."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis.contexts import ClassInfo
from xlacheck.analysis.tables import KERAS_EAGER_ENDPOINTS
from xlacheck.analysis.tracers import proven_symbolic, proven_tracer
from xlacheck.analysis.values import PYLIST, TENSOR, is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


class TensorToHostMethod(Rule):
    """
    ## What it does
    Flags `.numpy()` on anything, and `.item()`/`.tolist()` on tensors (under `jax.jit`, on any
    traced argument), inside compiled code (code guarded by `if tf.executing_eagerly():` is skipped).
    Also the other no-argument methods that `tools/generate_tensor_members_table.py` measured as
    needing the concrete value (`x.delete()`, `x.tobytes()`, `x.nonzero()` without `size=` on a
    tracer; `rt.to_list()` on a symbolic ragged tensor), on a value proven traced.
    Also a Keras model's host-side endpoints there: `model.predict(x)`, `fit`, `evaluate`,
    `*_on_batch` on a Keras model built in the file (or `self` in a Keras model).

    ## Why is this bad?
    A compiled function has no concrete values to copy to the host: tracing fails with
    `AttributeError: 'SymbolicTensor' object has no attribute 'numpy'`, and on a variable with
    `NotImplementedError: numpy() is only available when eager execution is enabled.` Keras'
    `predict`/`fit`/`evaluate` run their own loop and `tf.function`: tf_keras refuses with
    `RuntimeError: Detected a call to Model.predict inside a tf.function`, Keras 3 fails reading
    the symbolic input into NumPy.

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
    `.numpy()` / `.item()` -> `tf.stop_gradient(x)` is unsafe: the result is a tensor, not a
    NumPy value (NumPy calls on it fail, and it keeps the input's dtype where NumPy may give
    float64). `tf.stop_gradient` keeps what the host read was to autodiff, a constant: a loss or
    train step scaled by it gets the gradients it had eagerly (an integer or boolean tensor is
    kept as it is). Under `jax.jit`, `x.item()` read only by arithmetic, a `return` or JAX calls
    becomes `x`: unsafe, a 0-d array is not weakly typed as a Python scalar is. Printed
    (`print(f"{x.item():.4f}")`), it becomes `jax.debug.print("{:.4f}", x)`: unsafe, it prints each
    time the compiled function runs and formats the array.
    """

    code = "XLA301"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_host_read", "rewrite_jax_host_read", "rewrite_jax_debug_print")
    name = "tensor-to-host-method"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\nclass T:\n    @tf.function(jit_compile=True)\n    def step(self, x):\n"
                "        return x * 2.0\n    def fit(self, xs):\n        return [float(self.step(x).numpy()) for x in xs]\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.executing_eagerly():\n        print(x.numpy())\n    return x\n"),
        # a Keras model that defines its own predict() (beam search) calls that method
        Example("import tensorflow as tf\nclass Seq2Seq(tf.keras.Model):\n    def call(self, x):\n"
                "        return self.predict(x)\n    def predict(self, x):\n        return x * 2.0\n"),
        # calling the model is the compiled form; predict() outside compiled code is fine
        Example("import tensorflow as tf\n"
                "encoder = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer='ones')])\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return encoder(x) * 2.0\n"
                "def offline(x):\n    return encoder.predict(x)\n"),
        # nonzero() with a static size is traceable; a module-level array under jit is concrete, not a tracer
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef first(x):\n"
                "    (idx,) = jnp.abs(x).nonzero(size=4, fill_value=0)\n    return idx\n"),
        Example("import jax\nimport jax.numpy as jnp\nTABLE = jnp.arange(8.0)\n@jax.jit\ndef f(x):\n"
                "    n = len(TABLE.devices())\n    return x * n\n"),
        # `to_list()` of something not proven a tensor (a pandas Index) is left alone
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, frame):\n"
                "    cols = frame.columns.to_list()\n    return x\n"),
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
        Example("import tensorflow as tf\n"
                "encoder = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer='ones')])\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return encoder.predict(x) * 2.0\n",
                expected=(
                    (5, 12, "`Model.predict()` inside compiled code (decorated with tf.function(jit_compile=True)): "
                            "Keras' predict runs its own tf.function and refuses to run inside one (RuntimeError: "
                            "Detected a call to `Model.predict` inside a `tf.function`); call the model on the "
                            "tensors instead: `model(x)`"),
                )),
        Example("import jax\n@jax.jit\ndef normalize(x, total):\n    return x / total.item()\n",
                expected=(
                    (4, 16, '`.item()` on a traced array under jax.jit (decorated with jax.jit): there is no concrete '
                            'value while tracing (ConcretizationTypeError); keep the value as an array'),
                )),
        Example("import jax\n@jax.jit\ndef step(params, grads):\n    new = params - 0.1 * grads\n"
                "    params.delete()\n    return new\n",
                expected=(
                    (5, 5, '`.delete()` on a traced array under jax.jit (decorated with jax.jit; parameter `params` '
                           'of a function JAX traces): it needs the concrete value, which a tracer does not have '
                           '(ConcretizationTypeError); keep the value as an array'),
                )),
        Example("import hashlib\nimport jax\nimport jax.numpy as jnp\n@jax.jit\ndef key(x):\n    h = jnp.tanh(x)\n"
                "    return hashlib.sha1(h.tobytes()).hexdigest()\n",
                expected=(
                    (7, 25, '`.tobytes()` on a traced array under jax.jit (decorated with jax.jit; computed by a JAX '
                            'op): it needs the concrete value, which a tracer does not have (ConcretizationTypeError); '
                            'keep the value as an array'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, y):\n"
                "    rt = tf.ragged.stack([x, y])\n    return len(rt.to_list())\n",
                expected=(
                    (5, 16, '`.to_list()` inside compiled code (decorated with tf.function(jit_compile=True); computed '
                            'by a TensorFlow op): it is only supported in eager mode, and a traced tensor has no '
                            'concrete value'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in KERAS_EAGER_ENDPOINTS and not ctx.function.jax:
            self._endpoint(node, f, ctx)
            return
        if not isinstance(f, ast.Attribute) or node.args:
            return
        # the three reads every framework refuses while tracing, and the others the members table
        # measured as needing the concrete value (`x.delete()`, `x.tobytes()` on a tracer)
        if f.attr not in ("numpy", "item", "tolist"):
            if f.attr in api_table.tensor_host_read_methods(ctx.function.jax) and not node.keywords:
                self._measured(node, f, ctx)
            return
        k = ctx.flags(f.value)
        # under jax.jit every non-static argument is an array or a pytree of them; only an array
        # has .item()/.tolist()
        if f.attr != "numpy" and not is_tensor(k) and not (ctx.function.jax and k & TENSOR and not k & PYLIST) and not (
                ctx.function.jax and not isinstance(f.value, ast.Name)
                and proven_tracer(f.value, ctx.flags, ctx.function, ctx.facts) is not None):
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

    def _measured(self, node: ast.Call, f: ast.Attribute, ctx: RuleContext) -> None:
        """A method the members table measured as needing the concrete value, on a value proven traced
        (a name that also means something on a NumPy array or a pandas object is not taken on trust)."""
        if ctx.function.jax:
            if (evidence := proven_tracer(f.value, ctx.flags, ctx.function, ctx.facts)) is not None:
                ctx.report(self, node, f"`.{f.attr}()` on a traced array under jax.jit ({ctx.function.why}; "
                                       f"{evidence}): it needs the concrete value, which a tracer does not have "
                                       "(ConcretizationTypeError); keep the value as an array")
        elif (evidence := proven_symbolic(ctx.flags(f.value), ctx.function)) is not None:
            ctx.report(self, node, f"`.{f.attr}()` inside compiled code ({ctx.function.why}; {evidence}): it is "
                                   "only supported in eager mode, and a traced tensor has no concrete value")

    def _endpoint(self, node: ast.Call, f: ast.Attribute, ctx: RuleContext) -> None:
        """``model.predict(x)`` / ``self.fit(...)`` on a Keras model inside compiled code."""
        recv = f.value
        owner = ctx.function.cls
        scope = ctx.function.parent
        while owner is None and scope is not None:
            owner, scope = scope.cls, scope.parent
        is_self = isinstance(recv, ast.Name) and recv.id == "self"
        # `self.predict(...)` in a Keras model that defines its own predict() (a decoder's beam
        # search) calls that method, not Keras' endpoint
        keras_self = is_self and owner is not None and owner.keras and f.attr not in owner.methods
        if not (keras_self or _keras_model(recv, owner, ctx)):
            return
        ctx.report(self, node,
                   f"`Model.{f.attr}()` inside compiled code ({ctx.function.why}): Keras' {f.attr} runs its own "
                   f"tf.function and refuses to run inside one (RuntimeError: Detected a call to `Model.{f.attr}` "
                   "inside a `tf.function`); call the model on the tensors instead: `model(x)`")


def _keras_model(recv: ast.expr, owner: ClassInfo | None, ctx: RuleContext) -> bool:
    """``self.encoder`` (set in a method) or ``encoder`` (bound at module level, not rebound in the
    function) built by a Keras model constructor: ``tf.keras.Sequential(...)``, a callable the API
    table says builds a layer. A class defined in the project may define its own ``predict``."""
    if isinstance(recv, ast.Attribute) and isinstance(recv.value, ast.Name) and recv.value.id == "self":
        built = owner.attrs.get(recv.attr) if owner is not None else None
    elif isinstance(recv, ast.Name) and recv.id not in ctx.values.env:
        built = ctx.module_values.get(recv.id)
    else:
        return False
    if not isinstance(built, ast.Call):
        return False
    name = ctx.resolve(built.func)
    return name is not None and api_table.returns(name) == "layer"
