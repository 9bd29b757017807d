"""Write the TF form matrix (eval_cases/tf/form_*.py): SINKS that fail under XLA crossed with PATHS.

A sink is a few lines of model code that fail under ``jit_compile`` wherever they run: an op
without an XLA kernel (``xlacheck/data/tf_xla_ops.json``), an op over a data-dependent shape, a
host read (``.numpy()``), a Python ``if`` on a tensor where AutoGraph does not convert it, and a
data-dependent value fed to an argument that must be a compile-time constant
(``xlacheck/data/tf_api.json`` ``const_args``). A path is one way model code reaches the compiled
program (a helper, a sub-layer's method, a Keras model compiled with ``jit_compile=True``, a loss,
a metric, ``tf.map_fn``/``tf.while_loop``/``tf.cond``/``tf.vectorized_map`` bodies, a Lambda layer,
``functools.partial``, ``strategy.run``) or carries the sink's input (a tuple, a dict, a
namedtuple, a layer attribute, a loop variable, a default argument, ``*args``, ``**kwargs``).
Each sink also has its fixed form (``neg_form_<sink>_fixed_<path>.py``) on a few paths.

The file name states the author's expectation; the compiler labels the case (``oracle.py
label``). ``COMPILER`` records the cells where the compiler disagreed with the expectation (the
file is named by the compiler's verdict). Cells in ``SKIP`` cannot run eagerly, so the oracle
has no reference for them.

    python tools/generate_form_cases_tf.py            # (re)write the cases and eval_cases/forms_tf.txt
    python tools/generate_form_cases_tf.py --check    # exit 1 when a generated file is stale
    python tools/generate_form_cases_tf.py --matrix   # xlacheck per cell (sink x path), by the labels
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _form_cases  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "eval_cases" / "tf"
LIST = ROOT / "eval_cases" / "forms_tf.txt"
X = "tf.reshape(tf.range(1, 13, dtype=tf.float32) / 4.0, [2, 6])"
JIT = "@tf.function(jit_compile=True)"


@dataclass(frozen=True)
class Sink:
    name: str
    category: str
    what: str
    code: str           # reads ``h``, assigns ``out``; ``{mark}`` ends the failing line
    fixed: str          # the same computation in a form that compiles
    autograph_off: bool = False  # fails only where AutoGraph does not convert the code
    grad_only: bool = False  # fails only where the compiled step differentiates through it


SINKS = (
    Sink("op", "op", "tf.math.bessel_i0 (BesselI0 has no XLA_CPU_JIT kernel)",
         "out = tf.reduce_sum(tf.math.bessel_i0(h), axis=-1){mark}\n",
         "out = tf.reduce_sum(tf.math.bessel_i0e(h) * tf.exp(tf.abs(h)), axis=-1)\n"),
    Sink("opdtype", "op", "tf.math.cumsum on int8 (Cumsum has no XLA_CPU_JIT kernel for that dtype)",
         "steps = tf.math.cumsum(tf.cast(h, tf.int8), axis=-1){mark}\n"
         "out = tf.reduce_sum(tf.cast(steps, tf.float32), axis=-1)\n",
         "steps = tf.math.cumsum(tf.cast(h, tf.int32), axis=-1)\n"
         "out = tf.reduce_sum(tf.cast(steps, tf.float32), axis=-1)\n"),
    Sink("opstring", "op", "tf.strings ops on a tensor (AsString has no XLA_CPU_JIT kernel)",
         "digits = tf.strings.length(tf.strings.as_string(h)){mark}\n"
         "out = tf.reduce_sum(tf.cast(digits, tf.float32), axis=-1)\n",
         "digits = 8.0 + tf.floor(tf.math.log(tf.maximum(tf.abs(h), 1.0)) / tf.math.log(10.0))\n"
         "out = tf.reduce_sum(digits, axis=-1)\n"),
    Sink("shape", "shape", "tf.math.cumsum over a boolean_mask result (XLA scans the padded bound)",
         "kept = tf.boolean_mask(h, h > 1.0)\n"
         "out = tf.reduce_sum(h, axis=-1) + tf.reduce_sum(tf.math.cumsum(kept)){mark}\n",
         "keep = tf.reshape(tf.cast(h > 1.0, h.dtype), [-1])\n"
         "out = tf.reduce_sum(h, axis=-1) + tf.reduce_sum(tf.math.cumsum(tf.reshape(h, [-1]) * keep) * keep)\n"),
    Sink("host", "host", "a host read (.numpy()) of a traced tensor",
         "scale = float(tf.reduce_max(h).numpy()){mark}\n"
         "out = tf.reduce_sum(h, axis=-1) / scale\n",
         "scale = tf.reduce_max(h)\n"
         "out = tf.reduce_sum(h, axis=-1) / scale\n"),
    Sink("cond", "cond", "a Python if on a tensor in code AutoGraph does not convert",
         "if tf.reduce_max(h) > 2.0:{mark}\n"
         "    h = h * 0.5\n"
         "out = tf.reduce_sum(h, axis=-1)\n",
         "h = tf.where(tf.reduce_max(h) > 2.0, h * 0.5, h)\n"
         "out = tf.reduce_sum(h, axis=-1)\n",
         autograph_off=True),
    Sink("static", "shape", "tf.one_hot depth computed from the data (a const_arg of OneHot)",
         "n = tf.cast(tf.reduce_max(h), tf.int32) + 1\n"
         "out = tf.reduce_sum(tf.one_hot(tf.cast(h, tf.int32), n), axis=[-2, -1]){mark}\n",
         "n = 4\n"
         "out = tf.reduce_sum(tf.one_hot(tf.cast(h, tf.int32), n), axis=[-2, -1])\n"),
    # a divergence (xlacheck/data/tf_xla_divergence.json): the input class, NaN, is made where model code
    # makes it, a mean over a mask that selects nothing (0/0); XLA's reduce_max drops the NaN
    Sink("nan", "op", "tf.reduce_max over a mean whose mask selects nothing (0/0 NaN; XLA drops NaN, eager keeps it)",
         "big = tf.cast(h > 2.0, h.dtype)\n"
         "mean_big = tf.reduce_sum(h * big, axis=-1, keepdims=True) / tf.reduce_sum(big, axis=-1, keepdims=True)\n"
         "out = tf.reduce_max(tf.concat([h, mean_big], axis=-1), axis=-1){mark}\n",
         "big = tf.cast(h > 2.0, h.dtype)\n"
         "mean_big = tf.math.divide_no_nan(tf.reduce_sum(h * big, axis=-1, keepdims=True),\n"
         "                                 tf.reduce_sum(big, axis=-1, keepdims=True))\n"
         "out = tf.reduce_max(tf.concat([h, mean_big], axis=-1), axis=-1)\n"),
    # the same NaN cast to an integer: XLA maps NaN to 0, eager to INT_MIN (the table's narrowing_cast)
    Sink("nancast", "op", "tf.cast to int32 of a mean whose mask selects nothing (0/0 NaN; XLA gives 0, eager INT_MIN)",
         "big = tf.cast(h > 2.0, h.dtype)\n"
         "mean_big = tf.reduce_sum(h * big, axis=-1) / tf.reduce_sum(big, axis=-1)\n"
         "bucket = tf.cast(mean_big * 4.0, tf.int32){mark}\n"
         "out = tf.reduce_sum(h, axis=-1) + tf.cast(bucket, h.dtype)\n",
         "big = tf.cast(h > 2.0, h.dtype)\n"
         "mean_big = tf.math.divide_no_nan(tf.reduce_sum(h * big, axis=-1), tf.reduce_sum(big, axis=-1))\n"
         "bucket = tf.cast(mean_big * 4.0, tf.int32)\n"
         "out = tf.reduce_sum(h, axis=-1) + tf.cast(bucket, h.dtype)\n"),
    # the forward compiles; the gradient (ResizeNearestNeighborGrad) has no kernel: fails only where the
    # step differentiates through it (the op table's grad_unsupported). The square keeps the incoming
    # gradient data-dependent: a plain sum's gradient is a constant, and TensorFlow folds the
    # ResizeNearestNeighborGrad of a constant before XLA sees it (measured: such a step compiles)
    Sink("grad", "op",
         "tf.image.resize(method=\"nearest\"), whose gradient ResizeNearestNeighborGrad has no XLA kernel",
         "img = tf.reshape(h, [-1, 2, 3, 1])\n"
         "up = tf.image.resize(img, [4, 6], method=\"nearest\"){mark}\n"
         "out = tf.reduce_sum(up * up, axis=[1, 2, 3])\n",
         "img = tf.reshape(h, [-1, 2, 3, 1])\n"
         "up = tf.image.resize(img, [4, 6], method=\"bilinear\")\n"
         "out = tf.reduce_sum(up * up, axis=[1, 2, 3])\n",
         grad_only=True),
)


def _ind(code: str, n: int) -> str:
    return textwrap.indent(code, " " * n)


@dataclass(frozen=True)
class Path_:
    name: str
    what: str
    template: str       # {sink4}/{sink8}/{sink12}: the sink indented; {dec}: the jit decorator
    entry: str = "return forward, ({x},)"
    keras: bool = False  # compiled by Model.compile(jit_compile=True): AutoGraph converts the code
    value: bool = False  # a value-flow path: only for the sinks that read the value
    differentiates: bool = False  # the compiled step takes a gradient through the sink's output
    grad: bool = False  # a way of differentiating: only for the gradient-only sinks


IDENTITY = 'tf.keras.layers.Dense(6, kernel_initializer="identity")'
TRAIN_ENTRY = ("model = build_model()\n    _KEEP.append(model)\n"
               "    return model.train_step, (({x}, tf.ones([2])),)")
TRAIN_ENTRY6 = TRAIN_ENTRY.replace("tf.ones([2])", "tf.ones([2, 6])")

PATHS = (
    Path_("direct", "inline in the jit-compiled function", "{dec}\ndef forward(h):\n{sink4}    return out\n"),
    Path_("helper", "in a helper the jit-compiled function calls",
          "def features(h):\n{sink4}    return out\n\n\n{dec}\ndef forward(x):\n    return features(x)\n"),
    Path_("sublayer_method", "in a method of a sub-layer, called from the outer layer's call",
          "class Projection(tf.keras.layers.Layer):\n    def project(self, h):\n{sink8}        return out\n\n\n"
          "class Block(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n"
          "        self.proj = Projection()\n\n    def call(self, x):\n        return self.proj.project(x)\n\n\n"
          "block = Block()\n\n\n{dec}\ndef forward(x):\n    return block(x)\n"),
    Path_("sequential", "in a layer of a keras.Sequential model called by the jit-compiled function",
          "class Feature(tf.keras.layers.Layer):\n    def call(self, h):\n{sink8}        return out\n\n\n"
          "model = tf.keras.Sequential([Feature()])\n\n\n{dec}\ndef forward(x):\n    return model(x)\n"),
    Path_("functional", "in a layer of a functional keras.Model called by the jit-compiled function",
          "class Feature(tf.keras.layers.Layer):\n    def call(self, h):\n{sink8}        return out\n\n\n"
          "inputs = tf.keras.Input((6,))\nmodel = tf.keras.Model(inputs, Feature()(inputs))\n\n\n"
          "{dec}\ndef forward(x):\n    return model(x)\n"),
    Path_("lambda_layer", "in a function wrapped by a keras Lambda layer",
          "def features(h):\n{sink4}    return out\n\n\n"
          "model = tf.keras.Sequential([tf.keras.layers.Lambda(features)])\n\n\n"
          "{dec}\ndef forward(x):\n    return model(x)\n"),
    Path_("keras_call", "in the call of a subclassed Model compiled with jit_compile=True",
          "class FeatureModel(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
          f"        self.dense = {IDENTITY}\n\n    def call(self, x):\n        h = self.dense(x)\n"
          "{sink8}        return out\n\n\n"
          "def build_model():\n    model = FeatureModel()\n"
          '    model.compile(optimizer="sgd", loss="mse", jit_compile=True)\n    return model\n',
          "return build_model(), ({x},)", keras=True),
    Path_("train_step", "in an overridden train_step of a Model compiled with jit_compile=True",
          "class FeatureModel(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
          f"        self.dense = {IDENTITY}\n\n    def call(self, x):\n        return self.dense(x)\n\n"
          "    def train_step(self, data):\n        x, y = data\n        with tf.GradientTape() as tape:\n"
          "            h = self(x, training=True)\n{sink12}"
          "            loss = tf.reduce_mean(tf.square(out - y)) + 0.01 * tf.reduce_mean(h)\n"
          "        grads = tape.gradient(loss, self.trainable_variables)\n"
          "        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))\n"
          '        return {{"loss": loss}}\n\n\n'
          "def build_model():\n    model = FeatureModel()\n"
          '    model.compile(optimizer="sgd", jit_compile=True)\n    return model\n',
          TRAIN_ENTRY, keras=True, differentiates=True),
    Path_("loss_fn", "in a loss function given to Model.compile(jit_compile=True)",
          "def feature_loss(y_true, y_pred):\n    h = y_pred\n{sink4}"
          "    return tf.reduce_mean(tf.square(out - y_true)) + 0.01 * tf.reduce_mean(h)\n\n\n"
          f"def build_model():\n    model = tf.keras.Sequential([{IDENTITY}])\n"
          '    model.compile(optimizer="sgd", loss=feature_loss, jit_compile=True)\n    return model\n',
          TRAIN_ENTRY, keras=True, differentiates=True),
    Path_("loss_class", "in a keras Loss subclass given to Model.compile(jit_compile=True)",
          "class FeatureLoss(tf.keras.losses.Loss):\n    def call(self, y_true, y_pred):\n        h = y_pred\n"
          "{sink8}        return tf.reduce_mean(tf.square(out - y_true)) + 0.01 * tf.reduce_mean(h)\n\n\n"
          f"def build_model():\n    model = tf.keras.Sequential([{IDENTITY}])\n"
          '    model.compile(optimizer="sgd", loss=FeatureLoss(), jit_compile=True)\n    return model\n',
          TRAIN_ENTRY, keras=True, differentiates=True),
    Path_("metric", "in a keras Metric's update_state, compiled by Model.compile(jit_compile=True)",
          "class FeatureMetric(tf.keras.metrics.Metric):\n    def __init__(self, name=\"feature\"):\n"
          "        super().__init__(name=name)\n"
          "        self.total = self.add_weight(name=\"total\", initializer=\"zeros\")\n\n"
          "    def update_state(self, y_true, y_pred, sample_weight=None):\n        h = y_pred\n"
          "{sink8}        self.total.assign_add(tf.reduce_sum(out))\n\n"
          "    def result(self):\n        return self.total\n\n\n"
          f"def build_model():\n    model = tf.keras.Sequential([{IDENTITY}])\n"
          '    model.compile(optimizer="sgd", loss="mse", metrics=[FeatureMetric()], jit_compile=True)\n'
          "    return model\n",
          TRAIN_ENTRY6, keras=True),
    Path_("map_fn", "in the body of tf.map_fn over the batch",
          "def features(h):\n{sink4}    return out\n\n\n{dec}\ndef forward(x):\n    return tf.map_fn(features, x)\n"),
    Path_("while_loop", "in the body of a tf.while_loop",
          "{dec}\ndef forward(x):\n    def body(i, acc):\n        h = x * tf.cast(i + 1, tf.float32)\n"
          "{sink8}        return i + 1, acc + out\n\n"
          "    _, total = tf.while_loop(lambda i, acc: i < 2, body, (tf.constant(0), tf.zeros([2])))\n"
          "    return total\n"),
    Path_("cond_branch", "in a branch of tf.cond",
          "def features(h):\n{sink4}    return out\n\n\n{dec}\ndef forward(x):\n"
          "    return tf.cond(tf.reduce_sum(x) > 0.0, lambda: features(x), lambda: tf.reduce_sum(x, axis=-1))\n"),
    Path_("vectorized_map", "in the function given to tf.vectorized_map",
          "def features(h):\n{sink4}    return out\n\n\n{dec}\ndef forward(x):\n"
          "    return tf.vectorized_map(features, x)\n"),
    Path_("partial", "in a function bound with functools.partial and called from the jit-compiled function",
          "def features(h, scale):\n    h = h * scale\n{sink4}    return out\n\n\n{dec}\ndef forward(x):\n"
          "    fn = functools.partial(features, scale=1.0)\n    return fn(x)\n"),
    Path_("strategy", "in the step function given to strategy.run inside the jit-compiled function",
          "strategy = tf.distribute.OneDeviceStrategy(\"/cpu:0\")\n\n\n"
          "def features(h):\n{sink4}    return out\n\n\n{dec}\ndef forward(x):\n"
          "    return strategy.run(features, args=(x,))\n"),
    # ways of differentiating (for the gradient-only sinks), with near misses that need no gradient of the sink
    Path_("fit_call",
          "in the call of a subclassed Model that Model.fit trains (the default train_step, jit_compile=True)",
          "class FeatureModel(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
          f"        self.dense = {IDENTITY}\n\n    def call(self, x):\n        h = self.dense(x)\n"
          "{sink8}        return out\n\n\n"
          "def build_model():\n    model = FeatureModel()\n"
          '    model.compile(optimizer="sgd", loss="mse", jit_compile=True)\n    return model\n',
          TRAIN_ENTRY, keras=True, differentiates=True, grad=True),
    Path_("tape", "under a tf.GradientTape in the jit-compiled function, differentiated with respect to a variable",
          "w = tf.Variable(tf.ones([6]))\n\n\n{dec}\ndef forward(x):\n    with tf.GradientTape() as tape:\n"
          "        h = x * w\n{sink8}        loss = tf.reduce_sum(out)\n    return tape.gradient(loss, w)\n",
          differentiates=True, grad=True),
    Path_("minimize", "in the loss an optimizer's minimize differentiates in the jit-compiled function",
          "w = tf.Variable(tf.ones([6]))\nopt = tf.keras.optimizers.SGD(0.1)\n\n\n"
          "def objective(x):\n    h = x * w\n{sink4}    return tf.reduce_sum(out)\n\n\n"
          "{dec}\ndef forward(x):\n    opt.minimize(lambda: objective(x), [w])\n    return w + 0.0\n",
          differentiates=True, grad=True),
    Path_("custom_gradient", "in a tf.custom_gradient function (its own gradient replaces the op's) under a tape",
          "w = tf.Variable(tf.ones([6]))\n\n\n@tf.custom_gradient\ndef features(h):\n{sink4}"
          "    def grad(dy):\n        return dy[..., None] * tf.ones_like(h)\n\n    return out, grad\n\n\n"
          "{dec}\ndef forward(x):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(features(x * w))\n"
          "    return tape.gradient(loss, w)\n", grad=True),
    Path_("stop_gradient", "on a tf.stop_gradient input under a tape (the gradient does not flow through the op)",
          "w = tf.Variable(tf.ones([6]))\n\n\n{dec}\ndef forward(x):\n    with tf.GradientTape() as tape:\n"
          "        h = tf.stop_gradient(x * w)\n{sink8}        loss = tf.reduce_sum(out) + tf.reduce_sum(x * w)\n"
          "    return tape.gradient(loss, w)\n", grad=True),
    # value flow: how the sink's input reaches it
    Path_("tuple", "on the first element of a tuple a helper returns",
          "def encode(x):\n    return tf.nn.relu(x), tf.reduce_sum(x)\n\n\n{dec}\ndef forward(x):\n"
          "    h, total = encode(x)\n{sink4}    return out + 0.0 * total\n", value=True),
    Path_("dict", "on a value read back from a dict of features",
          "{dec}\ndef forward(x):\n    feats = {{\"h\": tf.nn.relu(x), \"n\": tf.shape(x)[0]}}\n"
          "    h = feats[\"h\"]\n{sink4}    return out\n", value=True),
    Path_("namedtuple", "on a field of a namedtuple",
          "Batch = collections.namedtuple(\"Batch\", [\"h\", \"mask\"])\n\n\n{dec}\ndef forward(x):\n"
          "    batch = Batch(tf.nn.relu(x), x > 0.0)\n    h = batch.h\n{sink4}    return out\n", value=True),
    Path_("self_attr", "on a tensor a layer stored on self in call and reads in another method",
          "class Feature(tf.keras.layers.Layer):\n    def call(self, x):\n        self.hidden = tf.nn.relu(x)\n"
          "        return self.head()\n\n    def head(self):\n        h = self.hidden\n{sink8}        return out\n\n\n"
          "layer = Feature()\n\n\n{dec}\ndef forward(x):\n    return layer(x)\n", value=True),
    Path_("loop", "on the loop variable of a Python loop over tensors",
          "{dec}\ndef forward(x):\n    total = tf.zeros([2])\n    for h in (tf.nn.relu(x), x * 0.5):\n"
          "{sink8}        total = total + out\n    return total\n", value=True),
    Path_("default_arg", "on a parameter whose default (None) is replaced by a tensor",
          "def features(x, h=None):\n    if h is None:\n        h = tf.nn.relu(x)\n{sink4}    return out\n\n\n"
          "{dec}\ndef forward(x):\n    return features(x)\n", value=True),
    Path_("star_args", "on an element of *args",
          "def features(*tensors):\n    h = tensors[0]\n{sink4}    return out\n\n\n"
          "{dec}\ndef forward(x):\n    return features(tf.nn.relu(x), x)\n", value=True),
    Path_("kwargs", "on a value of **kwargs",
          "def features(**feats):\n    h = feats[\"h\"]\n{sink4}    return out\n\n\n"
          "{dec}\ndef forward(x):\n    return features(h=tf.nn.relu(x))\n", value=True),
)
VALUE_SINKS = ("host", "cond", "static")
FIXED_PATHS = ("direct", "helper", "train_step", "map_fn")
GRAD_FIXED_PATHS = ("train_step", "loss_fn", "fit_call", "tape")  # the gradient-only sinks' fixed forms

# cells whose case cannot run eagerly (the oracle needs an eager reference): reason
SKIP = {
    ("host", "functional"): "a functional Model calls its layers on symbolic inputs when it is built",
    ("host", "vectorized_map"): "tf.vectorized_map traces its function even when called eagerly",
    ("cond", "vectorized_map"): "tf.vectorized_map traces its function even when called eagerly",
    ("shape", "vectorized_map"): "tf.vectorized_map's boolean_mask fails eagerly (pfor on a data-dependent shape)",
    ("static", "vectorized_map"): "tf.vectorized_map's one_hot fails eagerly (pfor on a data-dependent depth)",
    ("grad", "keras_call"): "a model compiled with an optimizer and a loss is trained by fit (the fit_call cell); "
                            "the oracle would run its forward pass only",
}
# cells where the compiler's verdict differs from the expectation: True = fails, False = compiles
COMPILER: dict[tuple[str, str], bool] = {}


def _expect_fail(sink: Sink, path: Path_) -> bool:
    verdict = COMPILER.get((sink.name, path.name))
    if verdict is not None:
        return verdict
    if sink.grad_only:
        return path.differentiates
    return not (sink.autograph_off and path.keras)


def _render(sink: Sink, path: Path_, fixed: bool) -> tuple[str, str]:
    fails = not fixed and _expect_fail(sink, path)
    mark = f"  # XLA: {sink.category}" if fails else ""
    code = (sink.fixed if fixed else sink.code).replace("{mark}", mark)
    dec = JIT[:-1] + ", autograph=False)" if sink.autograph_off and not fixed else JIT
    body = path.template.format(dec=dec, sink4=_ind(code, 4), sink8=_ind(code, 8), sink12=_ind(code, 12))
    name = ("" if fails else "neg_") + f"form_{sink.name}_" + ("fixed_" if fixed else "") + path.name
    if fixed:
        doc = f"the fixed form of {sink.what}, {path.what} (near miss)"
    else:
        doc = f"{sink.what}, {path.what}"
        if not fails:
            doc += ("; expected to compile: AutoGraph converts code that Model.compile(jit_compile=True) traces"
                    if (sink.name, path.name) not in COMPILER else "; the compiler compiles it")
    imports = "".join(f"import {m}\n" for m in ("collections", "functools") if f"{m}." in body)
    keep = "_KEEP = []\n" if "_KEEP" in path.entry else ""
    text = (f'"""Generated by tools/generate_form_cases_tf.py (the TF form matrix): {doc}."""\n'
            f"{imports}import tensorflow as tf\n\n\n{body}\n\n# --- oracle ---\nCATEGORY = \"{sink.category}\"\n"
            f"{keep}\n\ndef ENTRY():\n    {path.entry.format(x=X)}\n")
    return name, text


def render_all() -> dict[str, str]:
    out = {}
    for sink in SINKS:
        for path in PATHS:
            if (sink.name, path.name) in SKIP or (path.value and sink.name not in VALUE_SINKS) or (
                    path.grad and not sink.grad_only):
                continue
            name, text = _render(sink, path, fixed=False)
            out[f"{name}.py"] = text
        for path in PATHS:
            if path.name in (GRAD_FIXED_PATHS if sink.grad_only else FIXED_PATHS):
                name, text = _render(sink, path, fixed=True)
                out[f"{name}.py"] = text
    return out


def print_matrix() -> int:
    """Lint every labelled form case as xla_cases_score.py does (stripped, jit-compiled declaration)
    and print one mark per cell: F flagged failure, . missed failure, o quiet on a case that
    compiles, x finding on one, E broken (no eager reference)."""
    marks = _form_cases.lint_marks(render_all(), OUT)
    cells = {tuple(case.removeprefix("neg_").removeprefix("form_").split("_", 1)): mark for case, mark in marks.items()}
    counts = {m: list(marks.values()).count(m) for m in "F.oxE"}
    sinks = [s.name for s in SINKS]
    paths = [p.name for p in PATHS] + [f"fixed_{p}" for p in dict.fromkeys(FIXED_PATHS + GRAD_FIXED_PATHS)]
    print(" " * 18 + "".join(f"{s:>9}" for s in sinks))
    for p in paths:
        print(f"{p:18}" + "".join(f"{cells.get((s, p), ''):>9}" for s in sinks))
    tp, fn = counts["F"], counts["."]
    print(f"failures flagged {tp}/{tp + fn}, compiling cases flagged {counts['x']}/{counts['x'] + counts['o']}, "
          f"broken {counts['E']}  ({_form_cases.MARKS})")
    return 0


def _generated() -> list[Path]:
    """The files this generator wrote (its docstring says so): other generators also write form_* cases
    into eval_cases/tf (tools/generate_fix_forms.py, generate_retrace_cases_tf.py), and those are theirs."""
    mark = '"""Generated by tools/generate_form_cases_tf.py'
    return [p for p in [*OUT.glob("form_*.py"), *OUT.glob("neg_form_*.py")] if p.read_text().startswith(mark)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a generated file is missing or stale")
    ap.add_argument("--matrix", action="store_true", help="print xlacheck's result per cell, by the labels")
    args = ap.parse_args(argv)
    if args.matrix:
        return print_matrix()
    return _form_cases.sync(render_all(), OUT, LIST, _generated(), "generate_form_cases_tf.py", check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
