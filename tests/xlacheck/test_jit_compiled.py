"""The jit-compiled declaration (``--jit-compiled``, ``jit-compiled = true``): which functions it
makes compiled roots, which it leaves to the host, and that the rules then apply unchanged."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from xlacheck.analysis.contexts import Level, analyze_module
from xlacheck.cli import main
from xlacheck.engine import check_source

TF = "import tensorflow as tf\n"
JAX = "import jax\nimport jax.numpy as jnp\n"


def levels(source: str, declared: bool = True, path: str = "model.py") -> dict[str, tuple[Level, bool]]:
    """Function name -> (evidence level, declared root); HOST for functions known to run on the host."""
    facts = analyze_module(ast.parse(source), path, declared=declared)
    return {f.name: (Level.HOST if f.host else f.level, f.declared) for f in facts.functions}


def test_a_module_level_tensor_function_becomes_a_compiled_root() -> None:
    source = TF + "def gelu(x):\n    return 0.5 * x * (1.0 + tf.tanh(x))\n"
    assert levels(source, declared=False)["gelu"][0] is Level.HELPER
    assert levels(source)["gelu"] == (Level.CERTAIN, True)
    info = next(f for f in analyze_module(ast.parse(source), "m.py", declared=True).functions if f.name == "gelu")
    # AutoGraph-converted as under tf.function(jit_compile=True), but not an XLA entry of its own
    assert info.converted and not info.jit_entry and not info.jax and info.why == "declared jit-compiled"


def test_what_a_root_calls_is_reached_through_it_not_a_root() -> None:
    source = TF + ("def _scale(x):\n    return x * tf.reduce_max(x)\n"
                   "def forward(x):\n    return _scale(x) + 1.0\n")
    got = levels(source)
    assert got["forward"] == (Level.CERTAIN, True)
    assert got["_scale"] == (Level.CERTAIN, False)


@pytest.mark.parametrize("source", [
    # an input-pipeline function, and what only it calls
    TF + "def _decode(r):\n    return tf.cast(r, tf.float32)\ndef parse(r):\n    return _decode(r)\n"
         "def make(ds):\n    return ds.map(parse)\n",
    # a py_function target
    TF + "def parse(r):\n    return tf.cast(r, tf.float32)\n"
         "def step(x):\n    return tf.py_function(parse, [x], tf.float32)\n",
])
def test_host_functions_stay_host(source: str) -> None:
    got = levels(source)
    assert got["parse"][0] is Level.HOST and not got["parse"][1]


@pytest.mark.parametrize(("source", "name"), [
    # trains, builds models, pipelines, checkpoints
    (TF + "def train(model, ds):\n    model.fit(ds, epochs=1)\n    return tf.reduce_sum(model(ds))\n", "train"),
    (TF + "def build(vocab):\n    x = tf.keras.Input((None,))\n    return tf.keras.Model(x, tf.one_hot(x, vocab))\n",
     "build"),
    (TF + "def batches(xs):\n    return tf.data.Dataset.from_tensor_slices(xs).batch(8)\n", "batches"),
    # calls a compiled step of this file from Python, or a function that does
    (TF + "@tf.function(jit_compile=True)\ndef step(x):\n    return x * 2.0\n"
          "def loop(xs):\n    return [step(x) for x in xs]\ndef main_loop(xs):\n    return loop(tf.stack(xs))\n",
     "main_loop"),
    (JAX + "def _step(p, x):\n    return p - jnp.mean(x)\nstep = jax.jit(_step)\n"
           "def run(p, xs):\n    for x in xs:\n        p = step(p, x)\n    return p\n", "run"),
    # reads files or configuration
    (TF + "import json\ndef load(path):\n    cfg = json.load(open(path))\n    return tf.constant(cfg['w'])\n", "load"),
    (TF + "import os\ndef load(path, x):\n    if os.path.exists(path):\n        x = x + 1.0\n"
          "    return tf.reduce_sum(x)\n",
     "load"),  # a host module reached through a submodule (os.path)
    # builds an optimizer (transformers' TF optimizer factory: set-up, not the step)
    (TF + "from transformers import create_optimizer\ndef build_optimizer(lr, steps):\n"
          "    return create_optimizer(init_lr=lr, num_train_steps=steps, num_warmup_steps=0)\n", "build_optimizer"),
    # reads the command line or the environment (an attribute read, not a call)
    (TF + "import sys\ndef scale(x):\n    return x * float(sys.argv[1]) + tf.reduce_sum(x)\n", "scale"),
    (TF + "import os as o\ndef scale(x):\n    return x * float(o.environ['S']) + tf.reduce_sum(x)\n", "scale"),
    # the same, imported by name (`from sys import argv`, `from os import environ as env`)
    (TF + "from sys import argv\ndef scale(x):\n    return x * float(argv[1]) + tf.reduce_sum(x)\n", "scale"),
    (TF + "from os import environ as env\ndef scale(x):\n    return x * float(env['S']) + tf.reduce_sum(x)\n",
     "scale"),
    # written for eager mode, takes no inputs, only module-level code calls it
    (TF + "def summary(x):\n    return tf.reduce_mean(x).numpy()\n", "summary"),
    (TF + "def init_state():\n    return tf.zeros([4])\n", "init_state"),
    (TF + "def run(x):\n    return tf.reduce_sum(x)\nif __name__ == '__main__':\n    run(tf.ones([2]))\n", "run"),
    # a Keras initializer runs when the layer builds its weights
    (TF + "def sinusoid(shape, dtype=None):\n    return tf.sin(tf.range(shape[0], dtype=tf.float32))\n"
          "class Embed(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n"
          "        self.table = self.add_weight(shape=(4,), initializer=sinusoid)\n", "sinusoid"),
])
def test_host_side_code_is_no_root(source: str, name: str) -> None:
    level, declared = levels(source)[name]
    assert not declared and level is not Level.CERTAIN


@pytest.mark.parametrize("source", [
    TF + "def norm(x):\n    if tf.executing_eagerly():\n        print(x.numpy())\n    return x / tf.norm(x)\n",
    TF + "def norm(x):\n    if not tf.executing_eagerly():\n        return x / tf.norm(x)\n"
         "    else:\n        print(x.numpy())\n        return x / tf.norm(x)\n",
])
def test_numpy_under_an_eager_guard_does_not_make_host_code(source: str) -> None:
    """docs/configuration.md: only a `.numpy()` outside an `if tf.executing_eagerly():` guard says
    a function was written for eager mode; the guarded one never runs while tracing."""
    assert levels(source)["norm"] == (Level.CERTAIN, True)


def test_keras_methods_rise_and_set_up_methods_stay_eager() -> None:
    source = TF + (
        "class Block(tf.keras.layers.Layer):\n"
        "    def __init__(self, units):\n        super().__init__()\n        self.units = units\n"
        "    def build(self, shape):\n        self.w = self.add_weight(shape=(shape[-1], self.units))\n"
        "    def get_config(self):\n        return {'units': self.units}\n"
        "    def call(self, x):\n        return tf.matmul(x, self.w)\n"
        "class Net(tf.keras.Model):\n"
        "    def __init__(self):\n        super().__init__()\n        self.block = Block(4)\n"
        "    def call(self, x):\n        return self.block(x)\n"
        "class Log(tf.keras.callbacks.Callback):\n"
        "    def on_epoch_end(self, epoch, logs=None):\n        print(tf.reduce_sum(logs['loss']))\n"
    )
    plain = analyze_module(ast.parse(source), "m.py")
    declared = analyze_module(ast.parse(source), "m.py", declared=True)
    calls = [f for f in declared.functions if f.name == "call"]
    assert [f.level for f in plain.functions if f.name == "call"] == [Level.LIKELY, Level.LIKELY]
    assert [f.level for f in calls] == [Level.CERTAIN, Level.CERTAIN]
    # Net.call is the root; Block.call is reached through `self.block(x)`
    assert [f.declared for f in calls] == [False, True]
    for f in declared.functions:
        if f.name in ("__init__", "build", "get_config", "on_epoch_end"):
            assert f.level is Level.EAGER and not f.declared, f.name


def test_a_factory_is_host_and_the_function_it_returns_the_root() -> None:
    source = TF + ("def make_loss(weight):\n    def loss(y, p):\n"
                   "        return weight * tf.reduce_mean(tf.square(y - p))\n    return loss\n")
    got = levels(source)
    assert got["make_loss"][0] is not Level.CERTAIN and got["loss"] == (Level.CERTAIN, True)


def test_jax_roots_are_traced_as_by_jax_jit() -> None:
    source = JAX + "def loss(p, x):\n    return jnp.mean((x @ p) ** 2)\n"
    info = next(f for f in analyze_module(ast.parse(source), "m.py", declared=True).functions)
    assert info.level is Level.CERTAIN and info.jax and info.no_autograph and not info.converted


def test_flax_modules_are_roots_and_plain_classes_are_not() -> None:
    source = JAX + ("import flax.linen as nn\n"
                    "class MLP(nn.Module):\n    features: int\n"
                    "    def setup(self):\n        self.dense = nn.Dense(self.features)\n"
                    "    def __call__(self, x):\n        h = self.dense(x)\n"
                    "        if jnp.sum(h) > 0:\n            h = h * 2\n        return h\n"
                    "class Scaler:\n    def __init__(self, s):\n        self.s = s\n"
                    "    def apply(self, x):\n        return jnp.tanh(x) * self.s\n"
                    "    def describe(self, prefix):\n        return prefix + str(self.s)\n")
    got = levels(source)
    assert got["__call__"] == (Level.CERTAIN, True)
    # a plain class's methods are reached through the code that uses its objects, never roots
    assert not any(got[name][1] for name in ("setup", "apply", "describe", "__init__"))
    found = check_source(source, "m.py", jit_compiled=True).diagnostics
    assert [(d.code, d.line) for d in found] == [("XLA101", 10)]


@pytest.mark.parametrize(("source", "path"), [
    ("import torch\ndef f(x):\n    return torch.relu(x)\n", "m.py"),  # torch: --torch-xla's business
    (TF + "def test_scale():\n    assert tf.reduce_sum(tf.ones([2])) == 2.0\n", "test_model.py"),  # pytest runs it
    ("import math\ndef area(r):\n    return math.pi * r * r\n", "m.py"),  # no framework import
])
def test_no_roots_where_the_declaration_does_not_apply(source: str, path: str) -> None:
    assert not any(declared for _, declared in levels(source, path=path).values())


# Engine level: the declaration adds facts and the rules apply unchanged.
HOST_READ = TF + "def log_scale(x):\n    tf.print(x)\n    return x * 2.0\n"


def test_the_rules_apply_to_declared_roots() -> None:
    assert [d.code for d in check_source(HOST_READ, "m.py").diagnostics] == []
    found = check_source(HOST_READ, "m.py", jit_compiled=True).diagnostics
    assert [(d.code, d.line) for d in found] == [("XLA307", 3)]


@pytest.mark.parametrize("source", [
    # eager-only code under an executing_eagerly() guard
    TF + "def log_scale(x):\n    if tf.executing_eagerly():\n        tf.print(x)\n    return x * 2.0\n",
    # a Python-int helper: sizes are not tensors
    TF + "def causal_mask(batch_size, length):\n    i = tf.range(length)\n"
         "    return tf.broadcast_to(i[:, None] >= i[None, :], (batch_size, length, length))\n",
    # a layer method passed structures (a cache tuple): iterating it is Python over a tuple
    TF + "class Decoder(tf.keras.layers.Layer):\n    def reorder(self, past, beam_idx):\n"
         "        return tuple(tuple(tf.gather(s, beam_idx) for s in layer) for layer in past)\n",
    # a JAX sampler: a model object (annotated) and keyword-only options are Python values
    JAX + "def decode(rng, logits, model: 'givt.Model', *, top_k=0):\n    if model.style != 'ar':\n"
          "        raise ValueError(model.style)\n    if top_k:\n        logits = jax.lax.top_k(logits, top_k)[0]\n"
          "    return jax.random.categorical(rng, logits)\n",
    # a training script: builds, fits, saves
    TF + "def main(path):\n    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])\n"
         "    model.compile(loss='mse')\n    model.fit(tf.ones([4, 3]), tf.ones([4, 2]))\n"
         "    print(model.predict(tf.ones([1, 3])).numpy())\n    model.save(path)\n",
])
def test_declared_host_and_python_code_stays_clean(source: str) -> None:
    assert [d.code for d in check_source(source, "m.py", jit_compiled=True).diagnostics] == []


def test_the_cli_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "model.py").write_text(HOST_READ)
    assert main(["model.py", "--no-cache"]) == 0
    capsys.readouterr()
    assert main(["model.py", "--no-cache", "--jit-compiled"]) == 1
    out = capsys.readouterr().out
    assert "model.py:3:5: XLA307" in out
    assert "--jit-compiled" in _help(capsys)


def _help(capsys: pytest.CaptureFixture[str]) -> str:
    main(["--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("source", [
    JAX + "import flax.linen as nn\nclass Base(nn.Module):\n    def __call__(self, x):\n        return jnp.tanh(x)\n"
          "class Head(Base):\n    def __call__(self, x):\n        return jnp.sum(x)\n",
    TF + "class Base(tf.Module):\n    def __call__(self, x):\n        return tf.tanh(x)\n"
         "class Head(Base):\n    def __call__(self, x):\n        return tf.reduce_sum(x)\n",
])
def test_a_model_class_derived_from_one_of_this_file_is_a_model_class(source: str) -> None:
    """docs/configuration.md: every method of a tf.Module or Flax module is a root; a subclass of
    one defined here is one too (as a Keras layer's subclass already was)."""
    facts = analyze_module(ast.parse(source), "model.py", declared=True)
    heads = [f for f in facts.functions if f.cls is not None and f.cls.node.name == "Head"]
    assert [(f.level, f.declared) for f in heads] == [(Level.CERTAIN, True)]


def test_model_and_layer_classes_are_marked_once_for_every_reader() -> None:
    """``ClassInfo.model`` (set by ``_mark_classes``) is the one home of "a model or layer class":
    Keras classes, tf.Module/Flax classes and the classes of the file derived from them; the
    declaration reads it instead of its own closure over the bases."""
    source = TF + JAX + "import flax.linen as nn\n" + (
        "class Base(tf.Module):\n    pass\n"
        "class Mid(Base):\n    pass\n"
        "class Leaf(Mid):\n    def __call__(self, x):\n        return tf.nn.relu(x)\n"
        "class Block(nn.Module):\n    pass\n"
        "class Layer(tf.keras.layers.Layer):\n    pass\n"
        "class Plain:\n    def step(self, x):\n        return tf.nn.relu(x)\n")
    facts = analyze_module(ast.parse(source), "model.py", declared=True)
    marked = {c.node.name: c.model for c in facts.classes}
    assert marked == {"Base": True, "Mid": True, "Leaf": True, "Block": True, "Layer": True, "Plain": False}
    got = levels(source)
    assert got["__call__"] == (Level.CERTAIN, True)  # Leaf's, through two bases defined here
    assert got["step"][1] is False  # a plain class's method is reached through its users


@pytest.mark.parametrize("wrap", ["tf.function(self._step, jit_compile=True)",
                                  "tf.function(jit_compile=True)(self._step)"])
def test_a_method_that_calls_a_compiled_attribute_is_host_driver_code(wrap: str) -> None:
    """A method of a model class that calls ``self.step(...)``, where ``__init__`` binds ``self.step``
    to a ``tf.function`` of another method, calls a compiled entry point from Python: driver code,
    never a declared root (as ``step = jax.jit(f)`` called by name already was); the wrapped method
    stays what the wrapper makes it."""
    source = TF + ("class Sweep(tf.Module):\n    def __init__(self):\n        super().__init__()\n"
                   f"        self.step = {wrap}\n"
                   "    def _step(self, x, lr):\n        return tf.reduce_sum(x) * lr\n"
                   "    def cifar_training(self, x, lr):\n        lr = tf.constant(lr, tf.float32)\n"
                   "        return self.step(x, lr)\n")
    got = levels(source)
    assert got["cifar_training"][1] is False
    assert got["_step"][0] is Level.CERTAIN
