"""Under XLA the model compiles once per declared shape at most, evaluation included.

Each step is a ``tf.function(jit_compile=True, reduce_retracing=False)``: every trace has
fully static shapes and is one XLA compilation, so the tracing count is the compile count.
Keras' own train function uses ``reduce_retracing=True``, which relaxes shapes to None and
then compiles per concrete shape without retracing, so its tracing count undercounts: for
``model.fit``/``evaluate`` the compilations are counted from XLA's module dumps instead.
"""

from __future__ import annotations

import numpy as np
import pytest

from bucketing import BatchFormer, BucketingCollator, BucketSpec

tf = pytest.importorskip("tensorflow")
pytestmark = pytest.mark.tf

from bucketing.tf_data import bucket_batch  # noqa: E402

VOCAB = 64


def tiny_model() -> tf.keras.Model:
    return tf.keras.Sequential([tf.keras.layers.Embedding(VOCAB, 8), tf.keras.layers.Dense(VOCAB)])


def steps(model: tf.keras.Model):
    optimizer = tf.keras.optimizers.SGD(0.1)
    # variables made before the first trace: creating them inside would trace twice
    model.build((None, None))
    optimizer.build(model.trainable_variables)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

    def loss_of(batch):
        labels = tf.maximum(batch["labels"], 0)
        weights = batch["sample_weight"]  # per token from the collator, per row from tf_data
        if weights.shape.rank == 1:
            weights = tf.cast(batch["labels"] != -100, tf.float32) * weights[:, None]
        per_token = loss_fn(labels, model(batch["input_ids"]))
        return tf.reduce_sum(per_token * weights) / tf.maximum(tf.reduce_sum(weights), 1.0)

    @tf.function(jit_compile=True, reduce_retracing=False)
    def train_step(batch):
        with tf.GradientTape() as tape:
            loss = loss_of(batch)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    @tf.function(jit_compile=True, reduce_retracing=False)
    def eval_step(batch):
        return loss_of(batch)

    return train_step, eval_step


def lengths_and_spec(seed: int) -> tuple[np.ndarray, BucketSpec]:
    lengths = np.minimum(np.random.default_rng(seed).lognormal(2.5, 0.7, 150).astype(int) + 1, 48)
    return lengths, BucketSpec.fit(lengths, max_shapes=3, pad_to_multiple_of=4, batch_size=8)


def test_python_path_compiles_at_most_once_per_shape_train_and_eval() -> None:
    lengths, spec = lengths_and_spec(0)
    rng = np.random.default_rng(1)
    examples = [{"input_ids": rng.integers(2, VOCAB, n).tolist()} for n in lengths]
    for e in examples:
        e["labels"] = list(e["input_ids"])
    collator = BucketingCollator(spec, return_tensors="tf")
    train_step, eval_step = steps(tiny_model())
    train_shapes, eval_shapes = set(), set()
    for formed in BatchFormer(spec, shuffle_buffer=64, seed=0).form(examples):
        batch = collator(list(formed.rows))
        train_shapes.add(tuple(batch["input_ids"].shape))
        train_step(batch)
    held_out = examples[:37]  # not a multiple of any batch size: partial batches everywhere
    for formed in BatchFormer(spec).form(held_out):
        batch = collator(list(formed.rows))
        eval_shapes.add(tuple(batch["input_ids"].shape))
        eval_step(batch)
    assert train_shapes <= set(spec.shapes()) and eval_shapes <= set(spec.shapes())
    assert train_step.experimental_get_tracing_count() == len(train_shapes) <= len(spec.shapes())
    assert eval_step.experimental_get_tracing_count() == len(eval_shapes) <= len(spec.shapes())


def test_tf_data_path_compiles_at_most_once_per_shape() -> None:
    lengths, spec = lengths_and_spec(2)
    rng = np.random.default_rng(3)
    rows = [rng.integers(2, VOCAB, n) for n in lengths]
    ds = tf.data.Dataset.from_tensor_slices({"input_ids": tf.ragged.constant(rows)})
    ds = ds.map(lambda f: {"input_ids": f["input_ids"], "labels": f["input_ids"]})
    train_step, eval_step = steps(tiny_model())
    for batch in bucket_batch(ds, spec, shuffle_buffer=50, seed=0):
        train_step(batch)
    for batch in bucket_batch(ds.take(37), spec):
        eval_step(batch)
    assert train_step.experimental_get_tracing_count() <= len(spec.shapes())
    assert eval_step.experimental_get_tracing_count() <= len(spec.shapes())


KERAS_FIT = """
import json, sys
import numpy as np, tensorflow as tf
from bucketing import BucketSpec
from bucketing.tf_data import bucket_batch

rng = np.random.default_rng(0)
lengths = np.minimum(rng.lognormal(2.5, 0.7, 150).astype(int) + 1, 48)
spec = BucketSpec.fit(lengths, max_shapes=3, pad_to_multiple_of=4, batch_size=8)
rows = [rng.integers(2, 64, n) for n in lengths]
ds = tf.data.Dataset.from_tensor_slices({"input_ids": tf.ragged.constant(rows)})
ds = ds.map(lambda f: {"input_ids": f["input_ids"]})
as_xy = lambda b: (b["input_ids"], b["input_ids"], tf.cast(b["attention_mask"], tf.float32) * b["sample_weight"][:, None])
train = bucket_batch(ds, spec, shuffle_buffer=50, seed=0).map(as_xy)
held_out = bucket_batch(ds.take(37), spec).map(as_xy)
model = tf.keras.Sequential([tf.keras.layers.Embedding(64, 8), tf.keras.layers.Dense(64)])
model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), jit_compile=True)
model.fit(train, epochs=2, verbose=0)
model.evaluate(held_out, verbose=0)
seen = lambda d: sorted({tuple(x.shape) for x, _, _ in d})
print(json.dumps({"shapes": spec.shapes(), "train": seen(train), "eval": seen(held_out),
                  "traces": model.train_function.experimental_get_tracing_count()}))
"""


@pytest.mark.slow
def test_keras_fit_and_evaluate_compile_at_most_once_per_shape(tmp_path) -> None:
    """Keras' own fit/evaluate (tf-keras, as the trainer runs it), compilations counted from
    XLA's module dumps: its tracing count (reduce_retracing=True) would say 1."""
    import json
    import os
    import re
    import subprocess
    import sys
    from collections import defaultdict
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3",
               XLA_FLAGS=f"--xla_dump_to={tmp_path}")
    out = subprocess.run([sys.executable, "-c", KERAS_FIT], cwd=root, env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    modules = defaultdict(set)  # traced function (name_id) -> XLA module ids compiled for it
    for name in os.listdir(tmp_path):
        match = re.match(r"module_(\d+)\.a_inference_(\w+?_\d+)__.*before_optimizations\.txt$", name)
        if match:
            modules[match.group(2)].add(match.group(1))
    compiles = sorted(len(ids) for ids in modules.values())
    shapes = [tuple(s) for s in result["shapes"]]
    train_shapes = {tuple(s) for s in result["train"]}
    eval_shapes = {tuple(s) for s in result["eval"]}
    assert train_shapes <= set(shapes) and eval_shapes <= set(shapes)
    # one compiled function for fit, one for evaluate; each at most once per declared shape
    assert compiles == sorted([len(train_shapes), len(eval_shapes)]), modules
    assert max(compiles) <= len(shapes)
    assert result["traces"] < len(train_shapes)  # why counting traces would not do here
