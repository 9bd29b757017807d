"""Where code runs compiled, by the API's and the compiler's behaviour (issue 11): Keras' loss and
metric signature, compile() keywords, callables handed to Keras layers, optimizer and metric
hooks, objects built and used in compiled code, the tf.function decorator factory. Each fact was
checked with TF 2.21 / tf_keras / Keras 3 (model.fit or jit_compile=True on a minimal program)."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level, analyze_module
from xlacheck.engine import check_source

TF = "import tensorflow as tf\n"


def codes(source: str, path: str = "t.py", *, preview: bool = False) -> list[tuple[int, str]]:
    result = check_source(source, path, preview=preview)
    assert result.error is None, result.error
    return [(d.line, d.code) for d in result.diagnostics]


def _levels(source: str, path: str = "t.py") -> dict[str, tuple[Level, str]]:
    facts = analyze_module(ast.parse(source), path)
    return {f.name: (f.level, f.why) for f in facts.functions if f.name != "<lambda>"}


def test_the_keras_loss_signature_is_evidence_of_the_compiled_step() -> None:
    # Keras calls fn(y_true, y_pred) inside its train function; `.numpy()` there is that API's
    # most reported failure (checked: model.fit with such a loss or metric fails), not eager use
    levels = _levels(TF + "def loss(y_true, y_pred):\n    err = y_true - y_pred\n    print(err.numpy())\n"
                          "    return tf.reduce_mean(tf.square(err))\n"
                          "def scaled(y_true, y_pred, scale):\n    return tf.reduce_max(y_pred) * scale\n"
                          "def weighted(y_true, y_pred, w=1.0):\n    return tf.reduce_max(y_pred) * w\n"
                          "def np_metric(y_true, y_pred):\n    return abs(y_true - y_pred).mean()\n")
    assert levels["loss"][0] is Level.LIKELY and "Keras loss/metric signature" in levels["loss"][1]
    assert levels["weighted"][0] is Level.LIKELY
    assert levels["scaled"][0] is Level.HELPER  # Keras passes two arguments: not its signature
    assert levels["np_metric"][0] is Level.EAGER  # no TensorFlow op: a NumPy metric
    assert codes(TF + "def loss(y_true, y_pred):\n    err = y_true - y_pred\n    print(err.numpy())\n"
                      "    return tf.reduce_mean(tf.square(err))\n") == [(4, "XLA301")]
    # a test module's test functions run eagerly under pytest
    assert _levels(TF + "def test_loss(y_true, y_pred):\n    return tf.reduce_max(y_pred).numpy()\n",
                   "tests/test_losses.py")["test_loss"][0] is Level.EAGER


def test_compile_keywords_decide_how_losses_and_metrics_run() -> None:
    src = TF + ("def hinge(a, b):\n    return tf.reduce_max(a * b)\ndef acc(a, b):\n    return tf.reduce_max(a - b)\n"
                "def build(model, eager):\n    model.compile(loss=hinge, jit_compile=True)\n"
                "    model.compile(metrics=[acc], run_eagerly=True)\n")
    by_name = {f.name: f for f in analyze_module(ast.parse(src)).functions}
    assert (by_name["hinge"].level, by_name["hinge"].why) == (Level.CERTAIN, "passed to compile(jit_compile=True)")
    assert by_name["acc"].host and not by_name["acc"].compiled  # run_eagerly=True: Python on eager tensors


def test_callables_handed_to_keras_layers_run_in_the_step() -> None:
    src = TF + ("def act(x):\n    return x\ndef reg(w):\n    return w\ndef init(shape, dtype=None):\n    return shape\n"
                "def metric(a, b):\n    return a\n"
                "def build():\n    d = tf.keras.layers.Dense(2, activation=act, kernel_regularizer=reg,"
                " kernel_initializer=init)\n    return tf.keras.metrics.MeanMetricWrapper(metric)\n")
    levels = _levels(src)
    assert levels["act"] == (Level.LIKELY, "passed as activation= to Keras Dense (run in the train step)")
    assert levels["reg"][0] is Level.LIKELY
    assert levels["metric"] == (Level.LIKELY, "wrapped in Keras MeanMetricWrapper (run in the train step)")
    assert levels["init"][0] is Level.EAGER  # initializers run when the layer is built


def test_objects_built_and_used_in_compiled_code_run_their_methods_there() -> None:
    src = TF + ("class Pool:\n    def __init__(self, x):\n        self.v = tf.constant(x)\n"
                "    def pool(self, x):\n        return x\n"
                "class Head(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n"
                "        self.p = Pool(1.0)\n"
                "    def call(self, x):\n        return self.p.pool(x) + Pool(self.dense(x)).v\n"
                "shared = Pool(2.0)\n@tf.function\ndef f(x):\n    return shared.pool(x)\n")
    facts = analyze_module(ast.parse(src))
    by_name: dict[str, list[Level]] = {}
    for fn in facts.functions:
        by_name.setdefault(fn.name, []).append(fn.level)
    assert by_name["pool"] == [Level.LIKELY]  # from Head.call (LIKELY) and f (GRAPH): the best
    assert by_name["__init__"] == [Level.LIKELY, Level.EAGER]  # Pool's (built in call), Head's
    # Pool(self.dense(x)) passes a layer output: tf.constant of it fails while tracing
    assert codes(src, preview=True) == [(4, "XLA304")]  # XLA304 runs with --preview


def test_a_type_dispatch_else_branch_holds_no_tensor() -> None:
    src = TF + ("class L(tf.keras.layers.Layer):\n    def call(self, q):\n        if hasattr(q, 'shape'):\n"
                "            s = tf.TensorShape(q.shape)\n        else:\n            s = tf.TensorShape(q)\n"
                "        return q\n")
    assert codes(src) == []


def test_optimizer_updates_and_metric_hooks_run_in_the_train_step() -> None:
    src = TF + ("class SGD(tf.keras.optimizers.SGD):\n    def update_step(self, gradient, variable):\n"
                "        variable.assign_sub(float(self.learning_rate.numpy()) * gradient)\n"
                "class Legacy(tf.keras.optimizers.legacy.SGD):\n"
                "    def _resource_apply_dense(self, grad, var, apply_state=None):\n        return var\n"
                "class M(tf.keras.Model):\n    def compute_metrics(self, x, y, y_pred, sample_weight):\n"
                "        return {}\n")
    levels = _levels(src)
    assert levels["update_step"] == (Level.LIKELY, "Keras update_step()")
    assert levels["_resource_apply_dense"][0] is Level.LIKELY and levels["compute_metrics"][0] is Level.LIKELY
    assert codes(src) == [(4, "XLA301")]


def test_a_function_stored_on_self_runs_where_it_is_called() -> None:
    src = TF + ("import numpy as np\ndef smooth_l1(a, b):\n    return tf.reduce_mean(np.abs(a - b))\n"
                "class Head(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
                "        self.loss_fn = smooth_l1\n        self.dense = tf.keras.layers.Dense(2)\n"
                "    def train_step(self, data):\n        x, y = data\n"
                "        return {'loss': self.loss_fn(y, self.dense(x))}\n")
    assert _levels(src)["smooth_l1"] == (Level.LIKELY, "called from train_step()")
    assert codes(src, preview=True) == [(4, "XLA304")]  # XLA304 runs with --preview


def test_the_tf_function_decorator_factory_applied_to_a_function_compiles_it() -> None:
    src = TF + ("import functools\ndef step(x):\n    return x\ndef other(x):\n    return x\n"
                "fast = tf.function(jit_compile=True)(step)\n"
                "slow = functools.partial(tf.function, autograph=False)(other)\n"
                "ran = tf.function(step)(tf.ones([2]))\n")
    by_name = {f.name: f for f in analyze_module(ast.parse(src)).functions}
    assert (by_name["step"].level, by_name["step"].why) == (Level.CERTAIN, "wrapped in tf.function(jit_compile=True)")
    assert by_name["other"].level is Level.GRAPH and by_name["other"].no_autograph


def test_objects_iterated_from_a_list_attribute_run_in_the_compiled_caller() -> None:
    # `for layer in self.layers: x = layer(x)` in a model jax.jit traces: each layer's __call__ runs on the
    # tracers (ivy#16255: np.asarray at the top of a layer's __call__ raised TracerArrayConversionError)
    src = ("import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
           "class Linear:\n    def __init__(self, n):\n        self.w = jnp.ones((n, n))\n"
           "    def __call__(self, x):\n        return np.asarray(x) @ self.w\n"
           "class MLP:\n    def __init__(self):\n        self.layers = [Linear(2), Linear(2)]\n"
           "    def __call__(self, x):\n        for layer in self.layers:\n            x = jnp.tanh(layer(x))\n"
           "        return x\n"
           "model = MLP()\n@jax.jit\ndef loss(x):\n    return jnp.sum(model(x))\n")
    assert codes(src) == [(8, "XLA326")]
    # a comprehension of one class's objects is the same; a list holding something else is not resolved
    assert codes(src.replace("[Linear(2), Linear(2)]", "[Linear(2) for _ in range(3)]")) == [(8, "XLA326")]
    assert codes(src.replace("[Linear(2), Linear(2)]", "[Linear(2), np.tanh]")) == []
    # the loop name rebound in the body: not a call of the listed objects
    assert codes(src.replace("x = jnp.tanh(layer(x))", "layer = np.asarray\n            x = layer(x)")) == []
