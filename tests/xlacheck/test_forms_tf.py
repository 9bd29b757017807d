"""How model code reaches a compiled TF program, by form (issue 11, the form matrix of
tools/generate_form_cases_tf.py): a function bound with functools.partial, a Keras Lambda layer,
values packed into ``*args``/``**kwargs``, a tensor a layer stores on ``self`` in ``call``, and the
Keras layers an ``autograph=False`` entry runs. Each fact was checked with TF 2.21 / tf_keras
(``oracle.py label`` on the matrix: eval_cases/tf/form_*.py)."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level, analyze_module
from xlacheck.engine import check_source

TF = "import tensorflow as tf\n"
JIT = "@tf.function(jit_compile=True)\n"
NOAG = "@tf.function(jit_compile=True, autograph=False)\n"
ONE_HOT = ("    n = tf.cast(tf.reduce_max(h), tf.int32) + 1\n"
           "    return tf.one_hot(tf.cast(h, tf.int32), n)\n")


def codes(source: str) -> list[tuple[int, str]]:
    result = check_source(source, "t.py")  # not declared: only what the file proves compiled counts
    assert result.error is None, result.error
    return [(d.line, d.code) for d in result.diagnostics]


def test_a_local_bound_to_functools_partial_runs_its_function_in_the_callers_graph() -> None:
    src = TF + "import functools\n" + ("def features(h, scale):\n    h = h * scale\n    return tf.math.bessel_i0(h)\n"
                                      + JIT + "def forward(x):\n    fn = functools.partial(features, scale=1.0)\n"
                                      "    return fn(x)\n")
    assert codes(src) == [(5, "XLA309")]
    levels = {f.name: f.level for f in analyze_module(ast.parse(src)).functions}
    assert levels["features"] is Level.CERTAIN
    # rebound to something else on another path: not resolved
    other = src.replace("    return fn(x)\n", "    if x.shape[0] > 1:\n        fn = tf.nn.relu\n    return fn(x)\n")
    assert {f.name: f.level for f in analyze_module(ast.parse(other)).functions}["features"] is not Level.CERTAIN


def test_a_keras_lambda_layer_runs_its_function_in_the_model() -> None:
    src = TF + ("def features(h):\n    return tf.math.bessel_i0(h)\n"
                "model = tf.keras.Sequential([tf.keras.layers.Lambda(features)])\n")
    facts = {f.name: f for f in analyze_module(ast.parse(src)).functions}
    assert facts["features"].level is Level.LIKELY and facts["features"].no_autograph
    assert codes(src) == [(3, "XLA309")]


def test_values_packed_into_star_args_and_kwargs_keep_their_flags() -> None:
    for sig, read, call in (("*tensors", "tensors[0]", "tf.nn.relu(x), x"),
                            ("**feats", 'feats["h"]', "h=tf.nn.relu(x)")):
        src = (TF + f"def features({sig}):\n    h = {read}\n" + ONE_HOT + JIT
               + f"def forward(x):\n    return features({call})\n")
        assert codes(src) == [(5, "XLA205")], sig
        # a Python value packed there is not data
        py = src.replace(call, "3, 4" if sig.startswith("*t") else "h=3")
        assert codes(py) == [], sig


def test_a_tensor_stored_on_self_in_call_is_data_in_the_method_that_reads_it() -> None:
    src = TF + ("class Feature(tf.keras.layers.Layer):\n    def call(self, x):\n        self.hidden = tf.nn.relu(x)\n"
                "        return self.head()\n    def head(self):\n        h = self.hidden\n"
                "        n = tf.cast(tf.reduce_max(h), tf.int32) + 1\n"
                "        return tf.one_hot(tf.cast(h, tf.int32), n)\n"
                "layer = Feature()\n" + JIT + "def forward(x):\n    return layer(x)\n")
    assert codes(src) == [(9, "XLA205")]
    # a Python value stored there is not
    assert codes(src.replace("self.hidden = tf.nn.relu(x)", "self.hidden = 3")) == []


def test_keras_layers_an_autograph_false_entry_calls_are_not_converted() -> None:
    layer = ("class Feature(tf.keras.layers.Layer):\n    def call(self, h):\n        if tf.reduce_max(h) > 2.0:\n"
             "            h = h * 0.5\n        return h\n")
    for build in ("model = tf.keras.Sequential([Feature()])\n",
                  "inputs = tf.keras.Input((6,))\nmodel = tf.keras.Model(inputs, Feature()(inputs))\n",
                  "model = Feature()\n"):
        src = TF + layer + build + NOAG + "def forward(x):\n    return model(x)\n"
        found = check_source(src, "t.py")
        assert [(d.line, d.code) for d in found.diagnostics] == [(4, "XLA101")], build
        assert "which runs without AutoGraph" in found.diagnostics[0].message
        # the same model called from a converted entry compiles (AutoGraph stages the if)
        assert codes(src.replace(NOAG, JIT)) == [], build


def test_a_module_level_keras_model_runs_its_layers_in_the_compiled_caller() -> None:
    # string ops in a layer's call are taken for input-pipeline code, unless compiled code is shown
    # to run the layer: here a jit-compiled function calls the Sequential/functional model built of it
    layer = ("class Feature(tf.keras.layers.Layer):\n    def call(self, h):\n"
             "        return tf.strings.length(tf.strings.as_string(h))\n")
    for build in ("model = tf.keras.Sequential([Feature()])\n",
                  "inputs = tf.keras.Input((6,))\noutputs = Feature()(inputs)\n"
                  "model = tf.keras.Model(inputs, outputs)\n"):
        src = TF + layer + build + JIT + "def forward(x):\n    return model(x)\n"
        facts = {f.name: f for f in analyze_module(ast.parse(src)).functions}
        assert facts["call"].level is Level.CERTAIN and not facts["call"].host, build
        assert [c for _, c in codes(src)] == ["XLA308", "XLA308"], build
        # nothing compiled calls it: preprocessing, as before
        assert codes(TF + layer + build) == [], build
    lam = TF + ("def digits(h):\n    return tf.strings.length(tf.strings.as_string(h))\n"
                "model = tf.keras.Sequential([tf.keras.layers.Lambda(digits)])\n" + JIT
                + "def forward(x):\n    return model(x)\n")
    assert {f.name: f.level for f in analyze_module(ast.parse(lam)).functions}["digits"] is Level.CERTAIN


def test_strategy_run_inside_a_jit_compiled_function_runs_the_step_there() -> None:
    src = TF + ('strategy = tf.distribute.OneDeviceStrategy("/cpu:0")\n'
                "def features(h):\n    return tf.strings.length(tf.strings.as_string(h))\n" + JIT
                + "def forward(x):\n    return strategy.run(features, args=(x,))\n")
    assert {f.name: f.level for f in analyze_module(ast.parse(src)).functions}["features"] is Level.CERTAIN
    assert [c for _, c in codes(src)] == ["XLA308", "XLA308"]
