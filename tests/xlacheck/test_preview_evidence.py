"""Findings a rule keeps behind ``--preview`` (weaker evidence): reported with it, not without."""

from __future__ import annotations

import pytest

from xlacheck.engine import check_source

# XLA401: tf.data padding without padded_shapes (the elements may already have static shapes).
_PADDED_BATCH = "import tensorflow as tf\ndef batches(ds):\n    return ds.padded_batch(8, drop_remainder=True)\n"
_BUCKET = ("import tensorflow as tf\ndef batches(ds):\n"
           "    return ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [32, 64], [16, 8, 4])\n")


@pytest.mark.parametrize("source", [_PADDED_BATCH, _BUCKET], ids=["padded_batch", "bucket_by_sequence_length"])
def test_xla401_without_padded_shapes_only_with_preview(source: str) -> None:
    default = check_source(source, "pipeline.py")
    preview = check_source(source, "pipeline.py", preview=True)
    assert [d.code for d in default.diagnostics] == []
    assert [(d.code, d.start.line, d.start.col) for d in preview.diagnostics] == [("XLA401", 3, 11)]


def test_xla401_explicit_none_fires_with_preview_only() -> None:
    """XLA401 is behind --preview (2 of 9 findings true on real code, docs/known-results.md)."""
    source = "import tensorflow as tf\ndef batches(ds):\n    return ds.padded_batch(8, padded_shapes=[None])\n"
    assert [d.code for d in check_source(source, "pipeline.py").diagnostics] == []
    assert [d.code for d in check_source(source, "pipeline.py", preview=True).diagnostics] == ["XLA401"]


def test_xla406_rebound_method_is_not_flagged_but_plain_one_is() -> None:
    body = ("    def update_state(self, y_true, y_pred, sample_weight=None):\n        self.count += 1\n"
            "        return y_pred\n")
    plain = ("import tensorflow as tf\nclass Box(tf.keras.metrics.Metric):\n    def __init__(self):\n"
             "        super().__init__()\n        self.count = 0\n" + body)
    rebound = plain.replace("        self.count = 0\n", "        self.count = 0\n"
                            "        self.update_state = tf.py_function\n")
    assert [d.code for d in check_source(plain, "m.py").diagnostics] == ["XLA406"]
    assert [d.code for d in check_source(rebound, "m.py").diagnostics] == []


# XLA404: a function or object created per call from the call's own parameters or locals.
_CAPTURING = [
    "import tensorflow as tf\ndef predict(model, x):\n    return tf.function(model, jit_compile=True)(x)\n",
    "import tensorflow as tf\ndef forward(model, x):\n    @tf.function(jit_compile=True)\n"
    "    def run(v):\n        return model(v)\n    return run(x)\n",
    "import jax\ndef init_params(model, rng, x):\n    return jax.jit(lambda r, v: model.init(r, v))(rng, x)\n",
    "import tensorflow as tf\nclass Eraser:\n    def __init__(self, p):\n        self.p = p\n"
    "    @tf.function\n    def erase(self, x):\n        return x * self.p\n"
    "def random_erasing(x, p):\n    return Eraser(p).erase(x)\n",
]


@pytest.mark.parametrize("source", _CAPTURING, ids=["tf_function_of_param", "closure", "jax_lambda", "instance"])
def test_xla404_capturing_call_state_only_with_preview(source: str) -> None:
    assert [d.code for d in check_source(source, "helpers.py").diagnostics] == []
    assert [d.code for d in check_source(source, "helpers.py", preview=True).diagnostics] == ["XLA404"]


@pytest.mark.parametrize("source", [
    "import jax\nimport jax.numpy as jnp\ndef weighted_mse(a, b, w):\n"
    "    fast = jax.jit(lambda x, y: w * jnp.mean((x - y) ** 2))\n    return fast(a, b)\n"
    "def total(pairs, w):\n    return sum(weighted_mse(a, b, w) for a, b in pairs)\n",
    "import tensorflow as tf\ndef scaled(x, s):\n    @tf.function(jit_compile=True)\n"
    "    def run(v):\n        return -s * tf.nn.relu(v)\n    return run(x)\n"
    "def run_all(xs, s):\n    return [scaled(x, s) for x in xs]\n",
], ids=["jax_lambda", "tf_closure"])
def test_xla404_capturing_only_numbers_is_reported_by_default(source: str) -> None:
    """A closure whose per-call state is only arithmetic operands (numbers baked in as constants), in a
    function a loop here calls (with no caller in view, only with --preview)."""
    assert [d.code for d in check_source(source, "helpers.py").diagnostics] == ["XLA404"]


def test_xla404_decorator_options_are_not_captured_state() -> None:
    source = ("import tensorflow as tf\ndef forward(x, xla):\n    @tf.function(jit_compile=xla)\n"
              "    def run(v):\n        return v * 2.0\n    return run(x)\n"
              "def run_all(xs):\n    return [forward(x, True) for x in xs]\n")
    assert [d.code for d in check_source(source, "helpers.py").diagnostics] == ["XLA404"]


def test_xla408_uncalled_entry_point_with_a_none_length_only_with_preview() -> None:
    source = ("import tensorflow as tf\nSPEC = [tf.TensorSpec([8] + [None], tf.int32)]\n"
              "@tf.function(jit_compile=True, input_signature=SPEC)\ndef serving(ids):\n    return ids + 1\n")
    assert check_source(source, "serve.py").diagnostics == ()
    found = check_source(source, "serve.py", preview=True).diagnostics
    assert [(d.code, d.start.line, d.start.col) for d in found] == [("XLA408", 2, 8)]
    assert "which nothing in this file calls" in found[0].message


def test_xla403_python_bool_from_the_loop_counter_only_with_preview() -> None:
    """A bool has two values: one more trace than a tensor (python_bool_changes); real code passes
    first-step flags on purpose (Horovod's broadcast at `batch == 0`), so it is weaker evidence."""
    source = ("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, log):\n"
              "    return tf.reduce_sum(x) * tf.cast(log, tf.float32)\ndef train(x, steps):\n"
              "    for i in range(steps):\n        step(x, i % 100 == 0)\n")
    assert check_source(source, "train.py").diagnostics == ()
    found = check_source(source, "train.py", preview=True).diagnostics
    assert [(d.code, d.start.line, d.start.col) for d in found] == [("XLA403", 7, 16)]
    assert found[0].message.startswith("Python bool `i % 100 == 0`")
    assert "each of its two values traces and compiles the function" in found[0].message
