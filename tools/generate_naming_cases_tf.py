"""Write the TF naming matrix (eval_cases/tf/form_name_*.py): APIs without an XLA kernel, crossed with
every way Python and TensorFlow let code NAME the API or REACH the object that runs it.

The form matrix (``generate_form_cases_tf.py``) crosses sinks with the ways compiled code reaches a
few lines of model code. This one holds the sink's computation fixed and varies how the callee is
named, from Python's binding rules (an import alias, ``from M import f as g``, a module attribute
bound to a name, ``functools.partial``, a lambda, a dict or tuple of functions, a parameter default,
``getattr`` with a literal, a layer attribute set in ``__init__``) and TensorFlow's own aliases
(``tf.compat.v1``, ``tf.raw_ops``, Keras 3's ``keras.ops``), and how an object whose call or method
creates the op is built and reached (a layer in ``__init__``/``build``/at module level, in a
``Sequential`` list, in a functional model, in a list of layers, a sub-layer of a sub-layer, a
subclass calling ``super().call``, a ``tf.lookup`` table, a ``tf.random.Generator``).

The sinks come from ``xlacheck/data/tf_xla_ops.json`` (their raw ops have no XLA kernel). Each
naming cell has its near miss: the same way of naming an API that compiles (``tf.linalg.trace`` for
``tf.linalg.det``, ``bessel_i0e`` for ``bessel_i0``, ``Rescaling`` for ``RandomRotation``), and for a
few ways the failing call in host code (a ``tf.data`` map function, which XLA never compiles).

    python tools/generate_naming_cases_tf.py            # (re)write the cases and eval_cases/forms_tf_names.txt
    python tools/generate_naming_cases_tf.py --check    # exit 1 when a generated file is stale
    python tools/generate_naming_cases_tf.py --matrix   # xlacheck per cell, by the labels
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
LIST = ROOT / "eval_cases" / "forms_tf_names.txt"
TOOL = "generate_naming_cases_tf.py"
X = "tf.reshape(tf.range(1, 13, dtype=tf.float32) / 4.0, [2, 6])"
JIT = "@tf.function(jit_compile=True)"


@dataclass(frozen=True)
class Api:
    """A public function and the names it has: module path and attribute, its TF1 name, its raw op."""

    key: str
    module: str        # "linalg": tf.linalg
    attr: str          # "det"
    v1: str            # "matrix_determinant": tf.compat.v1.matrix_determinant
    raw: str           # "MatrixDeterminant(input={arg})"
    keras: str | None  # "det": keras.ops.det
    prep: str          # lines reading ``h`` and binding ``arg``
    what: str


FAILS = (
    Api("det", "linalg", "det", "matrix_determinant", "MatrixDeterminant(input={arg})", "det",
        "arg = tf.reshape(h[:, :4], [-1, 2, 2])\n", "tf.linalg.det (MatrixDeterminant has no XLA kernel)"),
    Api("bessel", "math", "bessel_i0", "math.bessel_i0", "BesselI0(x={arg})", None,
        "arg = h\n", "tf.math.bessel_i0 (BesselI0 has no XLA kernel)"),
)
# the near miss of each: the same names, an API whose ops have kernels
COMPILES = {
    "det": Api("det", "linalg", "trace", "trace", "Sqrt(x={arg})", "trace",
               "arg = tf.reshape(h[:, :4], [-1, 2, 2])\n", "tf.linalg.trace (compiles)"),
    "bessel": Api("bessel", "math", "bessel_i0e", "math.bessel_i0e", "BesselI0e(x={arg})", None,
                  "arg = h\n", "tf.math.bessel_i0e (compiles)"),
}


@dataclass(frozen=True)
class Way:
    """One way to name the API: extra imports, module-level lines, lines in the function before the
    call, and the call; ``{m}``, ``{a}``, ``{v1}``, ``{raw}``, ``{k}`` are the Api's names, ``{arg}``
    the argument."""

    name: str
    what: str
    call: str
    imports: str = ""
    module: str = ""
    local: str = ""
    keras_only: bool = False  # needs Api.keras


WAYS = (
    Way("tf", "named tf.M.f after import tensorflow as tf", "tf.{m}.{a}({arg})"),
    Way("alias", "named through another alias of the tensorflow module", "tfx.{m}.{a}({arg})",
        imports="import tensorflow as tfx\n"),
    Way("from_tf", "named M.f after from tensorflow import M", "{m}.{a}({arg})",
        imports="from tensorflow import {m}\n"),
    Way("from_module_as", "named g after from tensorflow.M import f as g", "api_fn({arg})",
        imports="from tensorflow.{m} import {a} as api_fn\n"),
    Way("compat_v1", "named by its tf.compat.v1 name", "tf.compat.v1.{v1}({arg})"),
    Way("compat_import", "named after import tensorflow.compat.v1 as tf1", "tf1.{v1}({arg})",
        imports="import tensorflow.compat.v1 as tf1\n"),
    Way("raw_ops", "called as its raw op, tf.raw_ops", "tf.raw_ops.{raw}"),
    Way("keras_ops", "named keras.ops.f (Keras 3)", "keras.ops.{k}({arg})", imports="import keras\n",
        keras_only=True),
    Way("keras_ops_from", "named ops.f after from keras import ops (Keras 3)", "ops.{k}({arg})",
        imports="from keras import ops\n", keras_only=True),
    Way("module_alias", "bound to a module-level name (api_fn = tf.M.f)", "api_fn({arg})",
        module="api_fn = tf.{m}.{a}\n"),
    Way("module_of_alias", "through a module bound to a module-level name (M = tf.M)", "tfm.{a}({arg})",
        module="tfm = tf.{m}\n"),
    Way("local_alias", "bound to a local name in the compiled function", "api_fn({arg})",
        local="api_fn = tf.{m}.{a}\n"),
    Way("partial", "bound with functools.partial at module level", "api_fn({arg})",
        imports="import functools\n", module="api_fn = functools.partial(tf.{m}.{a}, name=\"api\")\n"),
    Way("lambda", "wrapped in a module-level lambda", "api_fn({arg})",
        module="api_fn = lambda t: tf.{m}.{a}(t)\n"),
    Way("dict", "looked up by a literal key in a module-level dict of functions", "API_FNS[\"f\"]({arg})",
        module="API_FNS = {{\"f\": tf.{m}.{a}, \"g\": tf.math.abs}}\n"),
    Way("tuple_loop", "called in a Python loop over a module-level tuple of functions", "0.0",
        module="API_FNS = (tf.{m}.{a}, tf.math.abs)\n",
        local="parts = [tf.reduce_sum(fn({arg})) for fn in API_FNS]\n"),
    Way("default", "the default of a helper's parameter", "apply_fn({arg})",
        module="def apply_fn(t, fn=tf.{m}.{a}):\n    return fn(t)\n"),
    Way("getattr", "fetched with getattr and a literal name", "getattr(tf.{m}, \"{a}\")({arg})"),
    Way("self_attr", "stored on a layer in __init__ and called in its call", "apply_layer({arg})",
        module="class ApiLayer(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n"
               "        self.fn = tf.{m}.{a}\n\n    def call(self, t):\n        return self.fn(t)\n\n\n"
               "apply_layer = ApiLayer()\n"),
)


def _names(api: Api, arg: str) -> dict[str, str]:
    return {"m": api.module, "a": api.attr, "v1": api.v1, "raw": api.raw.format(arg=arg), "k": api.keras or "",
            "arg": arg}


def _ind(code: str, n: int) -> str:
    return textwrap.indent(code, " " * n)


def _function_case(api: Api, way: Way, context: str, fails: bool, doc: str) -> str:
    """The file: imports, module-level lines, the compiled code in ``context`` and the oracle section."""
    names = _names(api, "arg")
    imports = ("import functools\n" if "functools" in way.imports else "") + "import tensorflow as tf\n" + \
        way.imports.replace("import functools\n", "").format(**names)
    module = way.module.format(**names)
    mark = "  # XLA: op" if fails else ""
    call = way.call.format(**names)
    local = way.local.format(**names)
    if way.name == "tuple_loop":
        body = api.prep + local.rstrip("\n") + mark + "\nout = tf.add_n(parts)\n"
    else:
        body = api.prep + local + f"out = tf.reduce_sum({call}, axis=-1){mark}\n" if api.key == "bessel" else \
            api.prep + local + f"out = {call}{mark}\n"
    entry = "return forward, ({x},)"
    if context == "fn":
        code = f"{JIT}\ndef forward(h):\n{_ind(body, 4)}    return out\n"
    elif context == "keras_call":
        code = ("class FeatureModel(tf.keras.Model):\n    def call(self, h):\n"
                f"{_ind(body, 8)}        return out\n\n\n"
                "def build_model():\n    model = FeatureModel()\n"
                '    model.compile(optimizer="sgd", loss="mse", jit_compile=True)\n    return model\n')
        entry = "return build_model(), ({x},)"
    elif context == "host":  # the same call in a tf.data map function: the host runs it, XLA never sees it
        code = (f"def features(h):\n{_ind(body, 4)}    return out\n\n\n"
                f"{JIT}\ndef step(f):\n    return tf.reduce_sum(f * f)\n\n\n"
                "def forward(x):\n    ds = tf.data.Dataset.from_tensors(x).map(features)\n"
                "    return step(next(iter(ds)))\n")
    else:
        raise ValueError(context)
    wrap = "WRAP = False\n" if context == "host" else ""
    return (f'"""Generated by tools/{TOOL} (the TF naming matrix): {doc}."""\n{imports}\n\n'
            + (f"{module}\n\n" if module else "") + f"{code}\n\n# --- oracle ---\nCATEGORY = \"op\"\n{wrap}\n\n"
            f"def ENTRY():\n    {entry.format(x=X)}\n")


# ways of naming reached from a Keras model compiled with jit_compile=True, and ways whose failing call
# is also written in host code (the near miss "same call, not compiled")
KERAS_WAYS = ("tf", "from_module_as", "module_alias", "partial", "lambda", "dict", "default", "getattr",
              "self_attr", "keras_ops")
HOST_WAYS = ("tf", "module_alias", "partial", "dict", "getattr")


@dataclass(frozen=True)
class LayerWay:
    """A way to build and reach a layer object whose call creates ops without a kernel."""

    name: str
    what: str
    template: str  # {layer}: the constructor expression; defines ``model`` (called by the jit function)
    # how the model runs compiled, when not by a jit-compiled function calling it: Keras's own train
    # function (model.compile(jit_compile=True)) or the model wrapped in tf.function(jit_compile=True)
    runner: str = ""


AUG = "tf.keras.layers.RandomRotation(0.25)"
AUG_OK = "tf.keras.layers.Rescaling(0.5)"
LAYER_WAYS = (
    LayerWay("init", "built in __init__ and called in call",
             "class Net(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
             "        self.aug = {layer}\n\n    def call(self, x):\n        return self.aug(x, training=True){mark}\n\n"
             "\n"
             "model = Net()\n"),
    LayerWay("build", "built in build and called in call",
             "class Net(tf.keras.layers.Layer):\n    def build(self, input_shape):\n        self.aug = {layer}\n\n"
             "    def call(self, x):\n        return self.aug(x, training=True){mark}\n\n\nmodel = Net()\n"),
    LayerWay("module", "a module-level layer called in the compiled function", "model = {layer}\n"),
    LayerWay("sequential", "inside a keras.Sequential list",
             "model = tf.keras.Sequential([{layer}, tf.keras.layers.Rescaling(2.0)]){mark}\n"),
    LayerWay("functional", "in a functional keras.Model",
             "inputs = tf.keras.Input((2, 3, 1))\n"
             "model = tf.keras.Model(inputs, {layer}(inputs, training=True)){mark}\n"),
    LayerWay("layer_list", "in a list of layers a model loops over",
             "class Net(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
             "        self.augs = [{layer}, tf.keras.layers.Rescaling(2.0)]\n\n"
             "    def call(self, x):\n        for aug in self.augs:\n            x = aug(x, training=True){mark}\n"
             "        return x\n\n\nmodel = Net()\n"),
    LayerWay("subsub", "a sub-layer of a sub-layer",
             "class Inner(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n"
             "        self.aug = {layer}\n\n    def call(self, x):\n        return self.aug(x, training=True){mark}\n\n"
             "\n"
             "class Net(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
             "        self.inner = Inner()\n\n    def call(self, x):\n        return self.inner(x)\n\n\nmodel = Net()\n"
             ""),
    LayerWay("subclass_super", "a subclass of the layer whose call calls super().call",
             "class Augment({cls}):\n    def call(self, x, training=True):\n"
             "        return super().call(x, training=True){mark}\n\n\nmodel = Augment({args})\n"),
    LayerWay("keras3", "a Keras 3 layer (import keras) built in __init__",
             "class Net(keras.Model):\n    def __init__(self):\n        super().__init__()\n"
             "        self.aug = {layer3}\n\n    def call(self, x):\n        return self.aug(x, training=True){mark}\n"
             "\n\n"
             "model = Net()\n"),
    # the model is built somewhere else than where it is called (branch tf-layers15)
    LayerWay("builder", "in a Sequential a builder function returns",
             "def build_model():\n    return tf.keras.Sequential([{layer}, tf.keras.layers.Rescaling(2.0)]){mark}\n\n\n"
             "model = build_model()\n"),
    LayerWay("sequential_add", "added to a Sequential with model.add",
             "model = tf.keras.Sequential()\nmodel.add({layer}){mark}\nmodel.add(tf.keras.layers.Rescaling(2.0))\n"),
    LayerWay("functional_builder", "in a functional model a builder function chains (x = layer(x))",
             "def build_model():\n    inputs = tf.keras.Input((2, 3, 1))\n    x = {layer}(inputs){mark}\n"
             "    x = tf.keras.layers.Rescaling(2.0)(x)\n    return tf.keras.Model(inputs, x)\n\n\n"
             "model = build_model()\n"),
    LayerWay("nested_model", "in a Sequential that is the first layer of another Sequential",
             "augment = tf.keras.Sequential([{layer}]){mark}\n"
             "model = tf.keras.Sequential([augment, tf.keras.layers.Rescaling(2.0)])\n"),
    LayerWay("compile_jit", "in a Sequential compiled with jit_compile=True and trained with train_on_batch",
             "model = tf.keras.Sequential([{layer}, tf.keras.layers.Dense(1)])\n"
             "model.compile(optimizer=\"sgd\", loss=\"mse\", jit_compile=True){mark}\n",
             runner="def forward(x):\n    return model.train_on_batch(x, tf.zeros_like(x))\n"),
    LayerWay("compile_jit_builder", "in a functional model a builder function returns, compiled with "
             "jit_compile=True where it is built",
             "def build_model():\n    inputs = tf.keras.Input((2, 3, 1))\n    x = {layer}(inputs)\n"
             "    outputs = tf.keras.layers.Dense(1)(x)\n    model = tf.keras.Model(inputs, outputs)\n"
             "    model.compile(optimizer=\"sgd\", loss=\"mse\", jit_compile=True){mark}\n    return model\n\n\n"
             "model = build_model()\n",
             runner="def forward(x):\n    return model.train_on_batch(x, tf.zeros_like(x))\n"),
    LayerWay("subclass_init", "a subclass of the layer that sets its arguments in __init__ and keeps its call",
             "class Augment({cls}):\n    def __init__(self):\n        super().__init__({args})\n\n\n"
             "class Net(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
             "        self.aug = Augment()\n\n    def call(self, x):\n        return self.aug(x, training=True){mark}\n"
             "\n\nmodel = Net()\n"),
    LayerWay("tf_function_model", "in a Sequential wrapped whole in tf.function(jit_compile=True)",
             "model = tf.keras.Sequential([{layer}, tf.keras.layers.Rescaling(2.0)])\n"
             "fast = tf.function(model, jit_compile=True){mark}\n",
             runner="def forward(x):\n    return fast(x, training=True)\n"),
)


def _layer_case(way: LayerWay, fails: bool, doc: str) -> str:
    layer = AUG if fails else AUG_OK
    cls, args = layer.split("(", 1)
    mark = "  # XLA: op" if fails else ""
    model = way.template.format(layer=layer, mark=mark, cls=cls, args=args[:-1],
                                layer3=layer.replace("tf.keras.", "keras."))
    if way.name == "module":
        model = model.rstrip("\n") + "\n"
        call = f"    return model(x, training=True){mark}\n"
    else:
        call = "    return model(x)\n"
    imports = "import keras\n" if way.name == "keras3" else ""
    forward = way.runner or f"{JIT}\ndef forward(x):\n{call}"
    wrap = "WRAP = False\n" if way.runner else ""  # the model's own compiled function runs it
    return (f'"""Generated by tools/{TOOL} (the TF naming matrix): {doc}."""\n{imports}import tensorflow as tf\n\n\n'
            f"{model}\n\n{forward}\n\n# --- oracle ---\nCATEGORY = \"op\"\nCOMPARE = False\n{wrap}\n\n"
            f"def ENTRY():\n    return forward, (tf.reshape({X}, [2, 2, 3, 1]),)\n")


@dataclass(frozen=True)
class ObjectWay:
    """A method of an object an API returns, whose op has no kernel."""

    name: str
    what: str
    code: str      # the module-level set-up and compiled function
    fixed: str     # the same object, a method that compiles (or, with ``host``, the call in a tf.data map)
    host: bool = False


OBJECT_WAYS = (
    ObjectWay("table_module", "tf.lookup.StaticHashTable.lookup on a module-level table",
              "table = tf.lookup.StaticHashTable(\n"
              "    tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2, 3], tf.int64), "
              "tf.constant([10.0, 20.0, 30.0])), default_value=0.0)\n\n\n"
              "{jit}\ndef forward(x):\n    ids = tf.cast(x, tf.int64)\n    return table.lookup(ids){mark}\n",
              "table = tf.lookup.StaticHashTable(\n"
              "    tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2, 3], tf.int64), "
              "tf.constant([10.0, 20.0, 30.0])), default_value=0.0)\n\n\n"
              "def features(x):\n    return table.lookup(tf.cast(x, tf.int64))\n\n\n"
              "{jit}\ndef step(f):\n    return tf.reduce_sum(f * f)\n\n\n"
              "def forward(x):\n    ds = tf.data.Dataset.from_tensors(x).map(features)\n"
              "    return step(next(iter(ds)))\n",
              host=True),
    # measured: a table's size() has no kernel either (LookupTableSizeV2); the op table did not probe it
    ObjectWay("table_size_module", "tf.lookup.StaticHashTable.size on a module-level table",
              "table = tf.lookup.StaticHashTable(\n"
              "    tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2, 3], tf.int64), "
              "tf.constant([10.0, 20.0, 30.0])), default_value=0.0)\n\n\n"
              "{jit}\ndef forward(x):\n    return x * tf.cast(table.size(), x.dtype){mark}\n",
              "table = tf.lookup.StaticHashTable(\n"
              "    tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2, 3], tf.int64), "
              "tf.constant([10.0, 20.0, 30.0])), default_value=0.0)\n\n\n"
              "def features(x):\n    return x * tf.cast(table.size(), x.dtype)\n\n\n"
              "{jit}\ndef step(f):\n    return tf.reduce_sum(f * f)\n\n\n"
              "def forward(x):\n    ds = tf.data.Dataset.from_tensors(x).map(features)\n"
              "    return step(next(iter(ds)))\n",
              host=True),
    ObjectWay("table_build", "tf.lookup.StaticHashTable.lookup on a table a layer builds in build",
              "class Vocab(tf.keras.layers.Layer):\n    def build(self, input_shape):\n"
              "        self.table = tf.lookup.StaticHashTable(\n            tf.lookup.KeyValueTensorInitializer("
              "tf.constant([1, 2, 3], tf.int64), tf.constant([10.0, 20.0, 30.0])), default_value=0.0)\n\n"
              "    def call(self, x):\n        return self.table.lookup(tf.cast(x, tf.int64)){mark}\n\n\n"
              "vocab = Vocab()\n\n\n"
              "{jit}\ndef forward(x):\n    return vocab(x)\n",
              "class Vocab(tf.keras.layers.Layer):\n    def build(self, input_shape):\n"
              "        self.table = tf.lookup.StaticHashTable(\n            tf.lookup.KeyValueTensorInitializer("
              "tf.constant([1, 2, 3], tf.int64), tf.constant([10.0, 20.0, 30.0])), default_value=0.0)\n\n"
              "    def call(self, x):\n        return self.table.lookup(tf.cast(x, tf.int64))\n\n\nvocab = Vocab()\n\n"
              "\n"
              "{jit}\ndef step(f):\n    return tf.reduce_sum(f * f)\n\n\n"
              "def forward(x):\n    ds = tf.data.Dataset.from_tensors(x).map(vocab)\n    return step(next(iter(ds)))\n",
              host=True),
    ObjectWay("generator", "tf.random.Generator.binomial on a module-level generator (from_seed)",
              "gen = tf.random.Generator.from_seed(1)\n\n\n"
              "{jit}\ndef forward(x):\n"
              "    draws = gen.binomial([2, 6], counts=tf.fill([2, 6], 4.0), probs=tf.fill([2, 6], 0.5))"
              "{mark}\n    return x + tf.cast(draws, x.dtype)\n",
              "gen = tf.random.Generator.from_seed(1)\n\n\n"
              "{jit}\ndef forward(x):\n    return x + gen.uniform([2, 6])\n"),
    ObjectWay("generator_self", "tf.random.Generator.binomial on a generator a layer stores in __init__",
              "class Noise(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n"
              "        self.gen = tf.random.Generator.from_seed(1)\n\n    def call(self, x):\n"
              "        draws = self.gen.binomial([2, 6], counts=tf.fill([2, 6], 4.0), probs=tf.fill([2, 6], 0.5))"
              "{mark}\n        return x + tf.cast(draws, x.dtype)\n\n\nnoise = Noise()\n\n\n{jit}\ndef forward(x):\n"
              "    return noise(x)\n",
              "class Noise(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n"
              "        self.gen = tf.random.Generator.from_seed(1)\n\n    def call(self, x):\n"
              "        return x + self.gen.uniform([2, 6])\n\n\nnoise = Noise()\n\n\n{jit}\ndef forward(x):\n"
              "    return noise(x)\n"),
    # objects whose methods the op table probes (branch tf-layers15): each near miss a call that compiles
    ObjectWay("linear_operator_local", "tf.linalg.LinearOperatorFullMatrix.determinant on an operator the "
              "compiled function builds",
              "{jit}\ndef forward(x):\n    m = tf.reshape(x[:, :4], [-1, 2, 2])\n"
              "    op = tf.linalg.LinearOperatorFullMatrix(m)\n    return op.determinant(){mark}\n",
              "{jit}\ndef forward(x):\n    m = tf.reshape(x[:, :4], [-1, 2, 2])\n"
              "    op = tf.linalg.LinearOperatorFullMatrix(m)\n    return op.matvec(x[:, :2])\n"),
    ObjectWay("linear_operator_inline", "tf.linalg.LinearOperatorFullMatrix.log_abs_determinant called on the "
              "operator where it is built",
              "{jit}\ndef forward(x):\n    m = tf.reshape(x[:, :4], [-1, 2, 2])\n"
              "    return tf.linalg.LinearOperatorFullMatrix(m).log_abs_determinant(){mark}\n",
              "{jit}\ndef forward(x):\n    m = tf.reshape(x[:, :4], [-1, 2, 2])\n"
              "    return tf.linalg.LinearOperatorLowerTriangular(m).log_abs_determinant()\n"),
    ObjectWay("queue_module", "tf.queue.FIFOQueue.enqueue/dequeue on a module-level queue",
              "queue = tf.queue.FIFOQueue(4, tf.float32, shapes=[[6]])\n\n\n"
              "{jit}\ndef forward(x):\n    queue.enqueue(x[0]){mark}\n    return queue.dequeue()\n",
              "import collections\n\nqueue = collections.deque(maxlen=4)\n\n\n"
              "{jit}\ndef forward(x):\n    queue.append(x[0])\n    return queue.popleft()\n"),
    ObjectWay("dataset_loop_module", "a for loop over a module-level tf.data dataset inside the compiled function",
              "batches = tf.data.Dataset.from_tensor_slices(tf.ones([4, 6])).batch(2)\n\n\n"
              "{jit}\ndef forward(x):\n    total = tf.zeros([2, 6])\n    for batch in batches:{mark}\n"
              "        total += batch * x\n    return total\n",
              "batches = [tf.ones([2, 6]), tf.ones([2, 6])]\n\n\n"
              "{jit}\ndef forward(x):\n    total = tf.zeros([2, 6])\n    for batch in batches:\n"
              "        total += batch * x\n    return total\n"),
    ObjectWay("dataset_built", "a tf.data dataset built and reduced inside the compiled function",
              "{jit}\ndef forward(x):\n    rows = tf.data.Dataset.from_tensor_slices(x){mark}\n"
              "    return rows.reduce(tf.zeros([6]), lambda total, row: total + row)\n",
              "{jit}\ndef forward(x):\n"
              "    return tf.foldl(lambda total, row: total + row, x, initializer=tf.zeros([6]))\n"),
    ObjectWay("iterator_module", "next() of a module-level tf.data iterator inside the compiled function",
              "batches = iter(tf.data.Dataset.from_tensors(tf.ones([2, 6])).repeat())\n\n\n"
              "{jit}\ndef forward(x):\n    return x + next(batches){mark}\n",
              "batches = iter([tf.ones([2, 6]), tf.zeros([2, 6])])\n\n\n"
              "{jit}\ndef forward(x):\n    return x + next(batches)\n"),
)


def _object_case(way: ObjectWay, fails: bool, doc: str) -> str:
    code = (way.code if fails else way.fixed).format(jit=JIT, mark="  # XLA: op" if fails else "")
    wrap = "WRAP = False\n" if way.host and not fails else ""
    return (f'"""Generated by tools/{TOOL} (the TF naming matrix): {doc}."""\nimport tensorflow as tf\n\n\n'
            f"{code}\n\n# --- oracle ---\nCATEGORY = \"op\"\nCOMPARE = False\n{wrap}\n\n"
            f"def ENTRY():\n    return forward, ({X},)\n")


# cells where the compiler's verdict differs from the expectation: True = fails, False = compiles
COMPILER: dict[str, bool] = {}
# cells whose case cannot run (an import or a name TensorFlow does not have): reason
SKIP: dict[str, str] = {}


def render_all() -> dict[str, str]:
    cases: dict[str, tuple[bool, str]] = {}  # name -> (expected to fail, text)

    def add(stem: str, fails: bool, make) -> None:
        fails = COMPILER.get(stem, fails)
        name = ("" if fails else "neg_") + "form_name_" + stem
        if stem not in SKIP:
            cases[name + ".py"] = (fails, make(fails))

    for api in FAILS:
        ok = COMPILES[api.key]
        for way in WAYS:
            if way.keras_only and api.keras is None:
                continue
            contexts = ["fn"] + (["keras_call"] if way.name in KERAS_WAYS and api.key == "det" else [])
            for context in contexts:
                where = "in a jit-compiled function" if context == "fn" else \
                    "in the call of a Model compiled with jit_compile=True"
                add(f"{api.key}_{way.name}_{context}", True,
                    lambda f, a=api, w=way, c=context, d=where: _function_case(
                        a if f else ok, w, c, f, f"{a.what}, {w.what}, {d}"))
            add(f"{api.key}_{way.name}_ok", False,
                lambda f, w=way: _function_case(ok, w, "fn", f, f"{ok.what}, {w.what}, in a jit-compiled function "
                                                 "(near miss)"))
            if way.name in HOST_WAYS and api.key == "det":
                add(f"{api.key}_{way.name}_host", False,
                    lambda f, a=api, w=way: _function_case(a, w, "host", f, f"{a.what}, {w.what}, in a tf.data map "
                                                           "function: the host runs it (near miss)"))
    for lway in LAYER_WAYS:
        add(f"layer_{lway.name}", True,
            lambda f, w=lway: _layer_case(w, f, f"{AUG} (ImageProjectiveTransformV3 has no XLA kernel), {w.what}"))
        add(f"layer_{lway.name}_ok", False,
            lambda f, w=lway: _layer_case(w, f, f"{AUG_OK} (compiles), {w.what} (near miss)"))
    for oway in OBJECT_WAYS:
        add(oway.name, True, lambda f, w=oway: _object_case(w, f, w.what))
        near = "the same call in a tf.data map function: the host runs it" if oway.host else "a method that compiles"
        add(f"{oway.name}_ok", False, lambda f, w=oway, n=near: _object_case(w, f, f"{w.what}: {n} (near miss)"))
    return {name: text for name, (_, text) in cases.items()}


def print_matrix() -> int:
    """One mark per labelled case: F flagged failure, . missed failure, o quiet on a case that
    compiles, x finding on one, E broken (no eager reference)."""
    marks = _form_cases.lint_marks(render_all(), OUT)
    for case, mark in sorted(marks.items(), key=lambda kv: kv[0].removeprefix("neg_")):
        print(f"{mark} {case}")
    counts = {m: list(marks.values()).count(m) for m in "F.oxE"}
    tp, fn = counts["F"], counts["."]
    print(f"failures flagged {tp}/{tp + fn}, compiling cases flagged {counts['x']}/{counts['x'] + counts['o']}, "
          f"broken {counts['E']}  ({_form_cases.MARKS})")
    return 0


def _generated() -> list[Path]:
    mark = f'"""Generated by tools/{TOOL}'
    return [p for p in [*OUT.glob("form_name_*.py"), *OUT.glob("neg_form_name_*.py")]
            if p.read_text().startswith(mark)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a generated file is missing or stale")
    ap.add_argument("--matrix", action="store_true", help="print xlacheck's result per cell, by the labels")
    ap.add_argument("--out", type=Path, help="write the cases into this folder instead (for labelling)")
    args = ap.parse_args(argv)
    if args.matrix:
        return print_matrix()
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, text in render_all().items():
            (args.out / name).write_text(text)
        return 0
    return _form_cases.sync(render_all(), OUT, LIST, _generated(), TOOL, check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
