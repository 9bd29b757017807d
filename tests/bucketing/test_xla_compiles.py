"""Under XLA the model compiles once per declared shape at most, evaluation included.

Each step is a ``tf.function(jit_compile=True, reduce_retracing=False)``: every trace has
fully static shapes and is one XLA compilation, so the tracing count is the compile count.
(Keras' own train function uses ``reduce_retracing=True``, which relaxes shapes to None and
then compiles per concrete shape without retracing: its tracing count would undercount.)
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
        weights = tf.cast(batch["labels"] != -100, tf.float32) * batch["sample_weight"][:, None]
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
