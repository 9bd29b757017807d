"""A packed MLM training step of HF TF BERT compiles once per declared shape under jit_compile."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
tf = pytest.importorskip("tensorflow")
transformers = pytest.importorskip("transformers")

from bucketing import BucketSpec, MaskingSpec, PackingCollator, pack_batches
from bucketing.packing_models import tf_packed_masked_lm_logits


def test_packed_training_step_compiles_at_most_once_per_shape():
    config = transformers.BertConfig(
        vocab_size=64, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=32,
    )
    model = transformers.TFBertForMaskedLM(config)
    model(model.dummy_inputs)
    optimizer = tf.keras.optimizers.SGD(0.01)
    optimizer.build(model.trainable_variables)
    spec = BucketSpec((16, 32), (2, 4))
    collator = PackingCollator(spec, max_segments=8, seed=0,
                               masking=MaskingSpec(mask_token_id=4, vocab_size=64, mlm_probability=0.3))
    rng = np.random.default_rng(0)
    lengths = rng.integers(2, 20, 40)
    examples = [{"input_ids": rng.integers(5, 64, n)} for n in lengths]

    @tf.function(jit_compile=True, reduce_retracing=False)  # xlacheck: ignore[XLA404]
    def step(batch):
        with tf.GradientTape() as tape:
            logits = tf_packed_masked_lm_logits(
                model, batch["input_ids"], batch["segment_ids"], batch["position_ids"], training=True
            )
            labels = batch["labels"]
            weight = tf.cast(labels != -100, tf.float32)
            per_token = tf.keras.losses.sparse_categorical_crossentropy(
                tf.maximum(labels, 0), logits, from_logits=True
            )
            loss = tf.reduce_sum(per_token * weight) / tf.maximum(tf.reduce_sum(weight), 1.0)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    shapes = set()
    short = [i for i, n in enumerate(lengths) if n <= 8][:3]  # fits 2 rows of 16: the small shape
    for indices in [*pack_batches(lengths, spec, max_segments=8, seed=0), short, short]:
        batch = collator([examples[i] for i in indices])
        shapes.add(batch["input_ids"].shape)
        batch = {k: tf.constant(batch[k]) for k in ("input_ids", "segment_ids", "position_ids", "labels")}
        assert np.isfinite(step(batch).numpy())
    assert shapes == set(spec.shapes())
    assert step.experimental_get_tracing_count() == len(shapes) <= len(spec.shapes())
