"""The TF retrace rules checked against the measured retrace table (xlacheck/data/tf_retrace.json).

Each example below is a host loop that makes the difference a table row measured (a Python int
that counts the steps, a slice of new length, a new object, ...). A retrace rule must flag it
exactly when the row says tf.function traces again (or, under ``jit_compile``, compiles again),
except the bounded rows named in ``_BOUNDED`` (one retrace in all); the rules run with ``--preview``
(XLA409, a growing tensor or list, is behind it). The last test re-measures a
sample of rows with the installed TensorFlow (``tools/generate_tf_retrace_table.py --only``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck import retrace_table
from xlacheck.engine import check_source

ROOT = Path(__file__).resolve().parents[2]
RETRACE_CODES = frozenset({"XLA401", "XLA402", "XLA403", "XLA404", "XLA408", "XLA409", "XLA412", "XLA413", "XLA414"})
H = "import numpy as np\nimport tensorflow as tf\n"


def _step(decorator: str, params: str, body: str) -> str:
    return f"{H}@tf.function({decorator})\ndef step({params}):\n    return {body}\n"


# (row, jit_compile) -> the host code that makes the row's difference at every iteration
EXAMPLES: dict[tuple[str, bool], str] = {
    ("python_int_value_changes", True): _step("jit_compile=True", "x, n", "x * n")
    + "def run(x):\n    for i in range(100):\n        x = step(x, i)\n    return x\n",
    ("numpy_random_draw_each_call", True): _step("jit_compile=True", "x, lam", "x * lam")
    + "def run(x):\n    for i in range(100):\n        x = step(x, np.random.beta(0.2, 0.2))\n    return x\n",
    ("python_int_same_value", True): _step("jit_compile=True", "x, n", "x * n")
    + "def run(x):\n    for i in range(100):\n        x = step(x, 4)\n    return x\n",
    ("python_float_value_changes_reduce_retracing", True):
        _step("jit_compile=True, reduce_retracing=True", "x, lr", "x * lr")
    + "def run(x):\n    lr = 0.1\n    for i in range(100):\n        lr = lr * 0.9\n"
    "        x = step(x, lr)\n    return x\n",
    ("python_int_value_changes_input_signature", True): _step(
        "jit_compile=True, input_signature=[tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.int32)]",
        "x, n", "x * tf.cast(n, tf.float32)")
    + "def run(x):\n    for i in range(100):\n        x = step(x, i)\n    return x\n",
    ("tensor_scalar_value_changes", True): _step("jit_compile=True", "x, lr", "x * lr")
    + "def run(x):\n    lr = 0.1\n    for i in range(100):\n        lr = lr * 0.9\n"
    "        x = step(x, tf.constant(lr))\n"
    "    return x\n",
    ("numpy_scalar_value_changes", True): _step("jit_compile=True", "x, lr", "x * lr")
    + "def run(x):\n    for i in range(100):\n        x = step(x, np.float32(0.9 ** i))\n    return x\n",
    ("numpy_array_value_changes", False): _step("", "x", "x * 2")
    + "def run():\n    for t in range(1, 100):\n        step(np.array([t, t + 1]))\n",
    ("numpy_array_shape_changes", True): _step("jit_compile=True", "w", "w * 2.0")
    + "def run():\n    for i in range(1, 100):\n        step(np.ones((i,), np.float32))\n",
    ("python_str_changes", True): _step("jit_compile=True", "x, tag", "x * 2.0")
    + "def run(x):\n    for i in range(100):\n        x = step(x, f'step{i}')\n    return x\n",
    ("python_default_unchanged", True): _step("jit_compile=True", "x, n=3", "x * n")
    + "def run(x):\n    for i in range(100):\n        x = step(x)\n    return x\n",
    ("tensor_shape_changes", True): _step("jit_compile=True", "x", "x * 2.0")
    + "def run(x):\n    for t in range(1, 100):\n        step(x[:t])\n",
    ("tensor_shape_changes", False): _step("", "x", "x * 2.0")
    + "def run():\n    for t in range(1, 100):\n        step(tf.zeros([t, 4]))\n",
    ("tensor_shape_changes_reduce_retracing", True): _step("jit_compile=True, reduce_retracing=True", "x", "x * 2.0")
    + "def run(x):\n    for t in range(1, 100):\n        step(x[:t])\n",
    ("tensor_shape_changes_reduce_retracing", False): _step("reduce_retracing=True", "ids", "tf.reduce_sum(ids)")
    + "def run(ids, new):\n    for i in range(100):\n        ids = tf.concat([ids, new], axis=1)\n        step(ids)\n",
    ("tensor_shape_changes_input_signature_none", True): _step(
        "jit_compile=True, input_signature=[tf.TensorSpec([None], tf.float32)]", "x", "x * 2.0")
    + "def run(batches):\n    for b in batches:\n        step(b)\n",
    ("tensor_shape_changes_input_signature_none", False): _step(
        "input_signature=[tf.TensorSpec([None, None], tf.int32)]", "ids", "tf.reduce_sum(ids)")
    + "def run(ids, new):\n    for i in range(100):\n        ids = tf.concat([ids, new], axis=1)\n        step(ids)\n",
    ("tensor_same_shape_input_signature_none", True): _step(
        "jit_compile=True, input_signature=[tf.TensorSpec([None], tf.float32)]", "x", "x * 0.5")
    + "def run(x):\n    for i in range(100):\n        x = step(x)\n    return x\n",
    ("sequence_dim_changes_input_signature_none", True): _step(
        "jit_compile=True, input_signature=[tf.TensorSpec([2, None], tf.float32)]", "x", "tf.reduce_sum(x, axis=1)")
    + "def run(batches):\n    for b in batches:\n        step(b)\n",  # an uncalled entry point: --preview only
    ("sequence_dim_changes_input_signature_none", False): _step(
        "input_signature=[tf.TensorSpec([2, None], tf.float32)]", "x", "tf.reduce_sum(x, axis=1)"),
    ("sequence_dim_repeats_input_signature_none", True): _step(
        "jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.float32)]", "x", "tf.reduce_sum(x)")
    + "def run(batches):\n    for b in batches:\n        step(b)\n",
    ("variable_new_object", True): _step("jit_compile=True", "v, x", "v * x")
    + "def run(x):\n    for i in range(100):\n        v = tf.Variable(tf.ones([2]))\n        step(v, x)\n",
    ("list_of_tensors_length_changes", True): _step("jit_compile=True", "xs", "tf.add_n(xs)")
    + "def run(x):\n    xs = []\n    for i in range(100):\n        xs.append(x)\n        step(xs)\n",
    ("list_of_tensors_length_changes_reduce_retracing", False): _step("reduce_retracing=True", "xs", "tf.add_n(xs)")
    + "def run(x):\n    xs = []\n    for i in range(100):\n        xs.append(x)\n        step(xs)\n",
    ("list_of_python_floats_values_change", True): _step("jit_compile=True", "x, ws", "x * sum(ws)")
    + "def run(x):\n    for i in range(100):\n        step(x, [0.1 * i, 1.0])\n",
    ("list_of_python_floats_equal_rebuilt", True): _step("jit_compile=True", "x, ws", "x * sum(ws)")
    + "def run(x):\n    for i in range(100):\n        step(x, [0.5, 1.0])\n",
    ("dict_of_python_floats_values_change", True): _step("jit_compile=True", "x, cfg", "x * cfg['w']")
    + "def run(x):\n    for i in range(100):\n        step(x, {'w': 0.1 * i})\n",
    ("new_plain_object_each_call", True): H + "class Cfg:\n    def __init__(self, w):\n        self.w = w\n"
    + _step("jit_compile=True", "x, cfg", "x * cfg.w")[len(H):]
    + "def run(x):\n    for i in range(100):\n        step(x, Cfg(0.5))\n",
    ("same_plain_object_mutated", True): H + "class Cfg:\n    def __init__(self, w):\n        self.w = w\n"
    + _step("jit_compile=True", "x, cfg", "x * cfg.w")[len(H):]
    + "def run(x):\n    cfg = Cfg(0.5)\n    for i in range(100):\n        step(x, cfg)\n",
    ("method_on_new_instance", True): H + "class Scorer:\n    @tf.function(jit_compile=True)\n"
    "    def score(self, x):\n        return x * 2.0\n"
    "def run(x):\n    for i in range(100):\n        Scorer().score(x)\n",
    ("function_created_per_call", True): H + "def run(x):\n    for i in range(100):\n"
    "        f = tf.function(lambda y: y * 2.0, jit_compile=True)\n        f(x)\n",
    ("function_created_once", True): H + "def g(y):\n    return y * 2.0\n"
    "def run(batches):\n    f = tf.function(g, jit_compile=True)\n    for b in batches:\n        f(b)\n",
    ("keras_fit_dataset_partial_batch", True): H + "def run(model, xs, ys):\n"
    "    model.compile(optimizer='sgd', loss='mse', jit_compile=True)\n"
    "    model.fit(tf.data.Dataset.from_tensor_slices((xs, ys)).batch(4), epochs=2)\n",
    ("keras_fit_dataset_drop_remainder", True): H + "def run(model, xs, ys):\n"
    "    model.compile(optimizer='sgd', loss='mse', jit_compile=True)\n"
    "    model.fit(tf.data.Dataset.from_tensor_slices((xs, ys)).batch(4, drop_remainder=True), epochs=2)\n",
}
# More host forms of a row: (row, jit_compile, code)
VARIANTS: list[tuple[str, bool, str]] = [
    ("tensor_shape_changes_input_signature_none", False, _step(
        "input_signature=[tf.TensorSpec([None, 3], tf.float32)]", "x", "tf.reduce_sum(x)")
     + "def run(xs):\n    for b in tf.data.Dataset.from_tensor_slices(xs).batch(32):\n        step(b)\n"),
    ("tensor_shape_changes_input_signature_none", True, _step(
        "jit_compile=True, input_signature=[tf.TensorSpec([None, 3], tf.float32)]", "x", "tf.reduce_sum(x)")
     + "def run(xs):\n    for b in tf.data.Dataset.from_tensor_slices(xs).batch(32):\n        step(b)\n"),
    # a last, partial batch: one trace more per process for a plain tf.function (bounded), one XLA
    # compilation more under jit_compile
    ("dataset_partial_batch_epochs", False, _step("", "x", "tf.reduce_sum(x)")
     + "def run(xs):\n    for b in tf.data.Dataset.from_tensor_slices(xs).batch(32):\n        step(b)\n"),
    ("dataset_partial_batch_epochs", True, _step("jit_compile=True", "x", "tf.reduce_sum(x)")
     + "def run(xs, epochs):\n    ds = tf.data.Dataset.from_tensor_slices(xs).batch(32)\n"
     "    for _ in range(epochs):\n        for b in ds:\n            step(b)\n"),
    ("dataset_partial_batch_epochs_input_signature", True, _step(
        "jit_compile=True, input_signature=[tf.TensorSpec([None, 3], tf.float32)]", "x", "tf.reduce_sum(x)")
     + "def run(xs, epochs):\n    ds = tf.data.Dataset.from_tensor_slices(xs).batch(32)\n"
     "    for _ in range(epochs):\n        for b in ds:\n            step(b)\n"),
    ("dataset_partial_batch_epochs_input_signature", False, _step(
        "input_signature=[tf.TensorSpec([None, 3], tf.float32)]", "x", "tf.reduce_sum(x)")
     + "def run(xs, epochs):\n    ds = tf.data.Dataset.from_tensor_slices(xs).batch(32)\n"
     "    for _ in range(epochs):\n        for b in ds:\n            step(b)\n"),
    ("tensor_shape_changes", False, _step("", "x", "x * 2") + "def run():\n    for t in range(1, 100):\n"
     "        step(tf.range(t))\n"),
    ("tensor_same_shape_input_signature_none", True, _step("jit_compile=True, reduce_retracing=True", "x, w", "x * w")
     + "def run(x, w):\n    for i in range(100):\n        step(x, w)\n"),
    # what the values are, only the compiled function's annotation says
    ("python_float_value_changes", True, _step("jit_compile=True", "x, lr: float", "x * lr")
     + "def run(x, schedule):\n    for lr in schedule:\n        x = step(x, lr)\n    return x\n"),
    ("python_str_changes", True, _step("jit_compile=True", "x, tag: str", "x * 2.0")
     + "def run(x, tags):\n    return [step(x, t) for t in tags]\n"),
    # experimental_follow_type_hints with a tf.Tensor annotation does not convert a Python float on TF 2.21
    ("python_float_follow_type_hints_tensor", True, _step(
        "jit_compile=True, experimental_follow_type_hints=True", "x, lr: tf.Tensor", "x * lr")
     + "def run(x):\n    for i in range(100):\n        x = step(x, 0.1 * i)\n    return x\n"),
    ("python_float_keras_loss_hyperparameter", True, "import tensorflow as tf\nY = tf.constant([[1.0], [0.0]])\n"
     "@tf.function(jit_compile=True)\ndef step(p, s):\n"
     "    return tf.reduce_mean(tf.keras.losses.binary_crossentropy(Y, p, label_smoothing=s))\n"
     "def run(p, epochs):\n    for epoch in range(epochs):\n        step(p, 0.05 * epoch)\n"),
    ("dataset_padded_batch_longest", True, _step("jit_compile=True", "x", "tf.reduce_sum(x)")
     + "def run(ds):\n    for b in ds.padded_batch(32, padded_shapes=[None], drop_remainder=True):\n        step(b)\n"),
    ("dataset_padded_batch_fixed", True, _step("jit_compile=True", "x", "tf.reduce_sum(x)")
     + "def run(ds):\n    for b in ds.padded_batch(32, padded_shapes=[128], drop_remainder=True):\n        step(b)\n"),
    # fixed-width windows stepping by their width: the last one shorter unless the length divides
    ("stepped_windows_last_shorter", True, _step("jit_compile=True", "x", "tf.reduce_sum(x)")
     + "def run(xs, bs):\n    for i in range(0, len(xs), bs):\n        step(xs[i:i + bs])\n"),
    ("stepped_windows_last_shorter", False, _step("", "x", "tf.reduce_sum(x)")
     + "def run(xs, bs):\n    for i in range(0, len(xs), bs):\n        step(xs[i:i + bs])\n"),
    ("stepped_windows_exact_multiple", True, _step("jit_compile=True", "x", "tf.reduce_sum(x)")
     + "def run(xs, bs):\n    for i in range(0, len(xs) - bs + 1, bs):\n        step(xs[i:i + bs])\n"),
]
CASES = [(row, jit, code) for (row, jit), code in sorted(EXAMPLES.items())] + VARIANTS

# Rows whose hazard is one retrace in all, not one per call: no rule flags them without jit_compile (a
# bool flag such as `training` takes two values; reduce_retracing relaxes a tensor's shape after one
# retrace; a last, partial batch traces once more per process).
_BOUNDED = frozenset({"tensor_shape_changes_reduce_retracing", "dataset_partial_batch_epochs",
                      "stepped_windows_last_shorter"})


def _expected(row: str, jit: bool) -> bool:
    r = retrace_table.rows()[row]
    if r["hazard"] == "recompile":
        return jit
    if r["hazard"] == "retrace" and row in _BOUNDED and not jit:
        assert r["no_jit"]["retraces"] <= 1, r  # the exemption holds only while the table says so
        return False
    return r["hazard"] == "retrace"


def test_table_has_a_tensorflow_version_and_a_hazard_per_row() -> None:
    data = retrace_table.table()
    assert data["tensorflow_version"].count(".") >= 2
    assert data["rows"] and all(r["hazard"] in ("retrace", "recompile", "none") for r in data["rows"])
    assert {row for row, _, _ in CASES} <= set(retrace_table.rows())


def test_rows_cited_by_the_rules_exist() -> None:
    cited = set()
    for path in (ROOT / "xlacheck" / "rules").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "tf_retrace" in text:
            cited |= {name for name in retrace_table.rows() if f"``{name}``" in text}
    assert cited, "no rule cites a row of the retrace table"


@pytest.mark.parametrize(("row", "jit", "code"), CASES,
                         ids=[f"{r}-{'jit' if j else 'plain'}-{i}" for i, (r, j, _) in enumerate(CASES)])
def test_retrace_rules_flag_what_tf_function_retraces(row: str, jit: bool, code: str) -> None:
    codes = {d.code for d in check_source(code, "example.py", preview=True).diagnostics} & RETRACE_CODES
    assert bool(codes) is _expected(row, jit), (row, retrace_table.rows()[row]["hazard"], codes)


SAMPLE = ("python_float_value_changes_reduce_retracing", "numpy_array_value_changes", "dataset_partial_batch_epochs",
          "tensor_shape_changes_reduce_retracing", "tensor_shape_changes_input_signature_none",
          "new_hashed_object_equal", "list_of_tensors_length_changes_reduce_retracing",
          "sequence_dim_changes_input_signature_none", "python_float_follow_type_hints_tensor")


@pytest.mark.tf
def test_a_sample_of_rows_matches_the_installed_tensorflow() -> None:
    pytest.importorskip("tensorflow")
    env = {**os.environ, "TF_USE_LEGACY_KERAS": "1", "TF_CPP_MIN_LOG_LEVEL": "3"}
    args = [a for name in SAMPLE for a in ("--only", name)]
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_tf_retrace_table.py"), *args],
                         capture_output=True, text=True, env=env, timeout=600, check=True).stdout
    measured = {r["name"]: r for r in json.loads(out[out.index("{"):])["rows"]}
    for name in SAMPLE:
        kept = retrace_table.rows()[name]
        for key in ("hazard", "no_jit", "jit_compile"):
            assert measured[name][key] == kept[key], (name, key, measured[name][key], kept[key])


_SIZED_BY_BATCH = (f"{H}@tf.function\ndef step(x, w):\n    return tf.reduce_sum(x * w)\n"
                   "def run(batches):\n    for x in batches:\n        step(x, tf.ones([len(x), 4]))\n"
                   "        step(x, np.zeros((x.shape[0], 4), np.float32))\n")
_GROWING_RELAXED = (f"{H}@tf.function(jit_compile=True, reduce_retracing=True)\ndef total(ids):\n"
                    "    return tf.reduce_sum(ids)\ndef run(ids, new, n):\n    for _ in range(n):\n"
                    "        ids = tf.concat([ids, new], axis=1)\n        total(ids)\n")


def test_messages_of_the_review_fixes() -> None:
    """XLA412 leaves a tensor shaped like the batch it goes with alone; XLA409 says reduce_retracing
    traces twice in all while XLA compiles each shape (both measured below)."""
    assert not {d.code for d in check_source(_SIZED_BY_BATCH, "example.py", preview=True).diagnostics} & RETRACE_CODES
    found = [d.message for d in check_source(_GROWING_RELAXED, "example.py", preview=True).diagnostics
             if d.code == "XLA409"]  # XLA409 runs with --preview
    assert found and "two traces in all, one XLA compilation per shape" in found[0], found


@pytest.mark.tf
def test_review_fixes_match_the_installed_tensorflow(tmp_path: Path) -> None:
    pytest.importorskip("tensorflow")
    script = (
        "import glob, os, sys\n"
        "import numpy as np\nimport tensorflow as tf\n"
        f"exec(compile({_SIZED_BY_BATCH!r}, 'a.py', 'exec'))\n"
        "run([np.ones((4, 4), np.float32) * i for i in range(5)])\n"
        "print('sized_by_batch_traces', step.experimental_get_tracing_count())\n"
        f"exec(compile({_GROWING_RELAXED!r}, 'b.py', 'exec'))\n"
        "run(tf.zeros([1, 1], tf.int32), tf.zeros([1, 1], tf.int32), 5)\n"
        "print('relaxed_traces', total.experimental_get_tracing_count())\n"
        "print('relaxed_xla_modules', len(glob.glob(os.path.join(sys.argv[1], '*total*after_optimizations.txt'))))\n"
    )
    env = {**os.environ, "TF_USE_LEGACY_KERAS": "1", "TF_CPP_MIN_LOG_LEVEL": "3",
           "XLA_FLAGS": f"--xla_dump_to={tmp_path}"}
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, env=env,
                         timeout=600, check=True).stdout
    counts = dict(line.split() for line in out.splitlines() if line.count(" ") == 1)
    assert counts == {"sized_by_batch_traces": "1", "relaxed_traces": "2", "relaxed_xla_modules": "5"}, out


# Sample distribution parameters for the NumPy draws of xlacheck/analysis/tables.py (as many as the
# table says come before `size`).
_DRAW_ARGS = {"uniform": (0.0, 1.0), "normal": (0.0, 1.0), "beta": (0.5, 0.5), "gamma": (2.0, 1.0),
              "exponential": (1.0,), "poisson": (3.0,), "binomial": (5, 0.5), "laplace": (0.0, 1.0),
              "lognormal": (0.0, 1.0), "triangular": (0.0, 0.5, 1.0), "randint": (1, 5)}


def test_numpy_scalar_draws_return_python_numbers() -> None:
    """The draws XLA403 counts as Python numbers return a Python float/int without `size` (a new
    trace key per value), and an array with one more positional argument (the `size` slot); the
    draws left out return NumPy scalars (traced as tensors)."""
    np = pytest.importorskip("numpy")
    from xlacheck.analysis.tables import NUMPY_GENERATOR_SCALAR_DRAWS, NUMPY_SCALAR_DRAWS

    owners = [(np.random, NUMPY_SCALAR_DRAWS), (np.random.RandomState(0), NUMPY_SCALAR_DRAWS),
              (np.random.default_rng(0), NUMPY_GENERATOR_SCALAR_DRAWS)]
    for owner, table in owners:
        for name, n_params in table.items():
            args = _DRAW_ARGS.get(name, ())
            assert len(args) == n_params, name
            value = getattr(owner, name)(*args)
            assert type(value) in (float, int), (owner, name, type(value))
            assert isinstance(getattr(owner, name)(*args, 2), np.ndarray), (owner, name)
    assert isinstance(np.random.choice([0.1, 0.2]), np.generic)
    assert isinstance(np.random.default_rng(0).integers(5), np.generic)


def test_host_random_draws_exist() -> None:
    """Every host draw XLA320 names is a function of NumPy's legacy random module (and but for two aliases a
    method of a RandomState) or of Python's `random` module, so the table names no spelling that nothing has."""
    np = pytest.importorskip("numpy")
    import random

    from xlacheck.analysis.tables import HOST_RANDOM_DRAWS

    for name in HOST_RANDOM_DRAWS["np.random"]:
        assert callable(getattr(np.random, name)), name
        if name not in ("ranf", "sample"):  # module-level aliases of random_sample only
            assert callable(getattr(np.random.RandomState(0), name)), name
    for name in HOST_RANDOM_DRAWS["random"]:
        assert callable(getattr(random, name)), name
