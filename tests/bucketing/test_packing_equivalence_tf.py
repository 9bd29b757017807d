"""Packing changes nothing but speed: HF TF BERT/RoBERTa on packed rows under ``jit_compile``
give every sequence the logits (and MLM loss) it gets when run alone through the model's own
eager ``call``. Tiny configs, no download; weights scaled up (initializer_range 0.2) so that
attention is far from uniform and a leak across segments shows.

Tolerance: atol 1e-5 on logits whose magnitude is ~1-10 (measured max difference ~1e-6: float32
reduction order, XLA vs eager); the leaking 2-D-mask run differs by ~0.1-1.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
tf = pytest.importorskip("tensorflow")
transformers = pytest.importorskip("transformers")

from bucketing.packing import pack_features, plan_packing
from bucketing.packing_masks import hf_position_ids
from bucketing.packing_models import tf_packed_masked_lm_logits

ATOL = 1e-5
WIDTH = 48
VOCAB = 97


def _model(model_type: str):
    common = {
        "vocab_size": VOCAB, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
        "intermediate_size": 64, "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
        "initializer_range": 0.2,
    }
    tf.random.set_seed(0)
    if model_type == "bert":
        return transformers.TFBertForMaskedLM(transformers.BertConfig(max_position_embeddings=WIDTH, **common))
    # RoBERTa positions run padding_idx + 1 .. padding_idx + WIDTH
    config = transformers.RobertaConfig(max_position_embeddings=WIDTH + 2, pad_token_id=1, **common)
    return transformers.TFRobertaForMaskedLM(config)


def _packed_case(seed: int = 0):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(2, 24, 9)
    features = [{"input_ids": rng.integers(5, VOCAB, n).tolist()} for n in lengths]
    plan = plan_packing(lengths, WIDTH, seed=seed)
    assert plan.max_segments_used >= 2  # a row with neighbours, or the test proves nothing
    return features, plan


def _alone_logits(model, features):
    return [model(tf.constant([f["input_ids"]]), training=False).logits.numpy()[0] for f in features]


def _max_difference(packed: np.ndarray, alone: list[np.ndarray], plan) -> float:
    worst = 0.0
    for i, reference in enumerate(alone):
        r, o, n = int(plan.row[i]), int(plan.offset[i]), int(plan.lengths[i])
        worst = max(worst, float(np.abs(packed[r, o:o + n] - reference).max()))
    return worst


@pytest.mark.parametrize("model_type", ["bert", "roberta"])
def test_packed_logits_and_loss_equal_one_by_one_under_jit_compile(model_type):
    model = _model(model_type)
    features, plan = _packed_case()
    batch = pack_features(features, plan, pad_token_id=model.config.pad_token_id)
    packed_fn = tf.function(
        lambda ids, seg, pos: tf_packed_masked_lm_logits(model, ids, seg, pos), jit_compile=True
    )
    packed = packed_fn(
        tf.constant(batch["input_ids"]), tf.constant(batch["segment_ids"]), tf.constant(batch["position_ids"])
    ).numpy()
    alone = _alone_logits(model, features)
    assert np.abs(packed).max() > 1.0  # logits of a scale where 1e-5 is a tight tolerance
    assert _max_difference(packed, alone, plan) < ATOL

    # MLM loss: the same label positions, per sequence and over the packed rows
    rng = np.random.default_rng(1)
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="sum")
    labels = [rng.random(len(f["input_ids"])) < 0.3 for f in features]
    alone_loss = sum(
        float(loss(np.asarray(f["input_ids"])[m], a[m])) for f, a, m in zip(features, alone, labels)
    )
    packed_labels = pack_features(
        [{"input_ids": f["input_ids"], "labels": np.where(m, f["input_ids"], -100)}
         for f, m in zip(features, labels)], plan,
    )["labels"]
    selected = packed_labels != -100
    packed_loss = float(loss(packed_labels[selected], packed[selected]))
    assert packed_loss == pytest.approx(alone_loss, rel=1e-5)


@pytest.mark.parametrize("model_type", ["bert", "roberta"])
def test_a_padding_only_mask_leaks_across_segments_and_fails(model_type):
    """The same packed rows through the model's own call with the 2-D padding mask (what the
    TF models accept): every token sees its row's other sequences, and the logits move."""
    model = _model(model_type)
    features, plan = _packed_case()
    batch = pack_features(features, plan, pad_token_id=model.config.pad_token_id)
    positions = hf_position_ids(batch["position_ids"], batch["segment_ids"], model_type, 1)
    leaking = tf.function(
        lambda ids, mask, pos: model(ids, attention_mask=mask, position_ids=pos, training=False).logits,
        jit_compile=True,
    )(tf.constant(batch["input_ids"]), tf.constant((batch["segment_ids"] > 0).astype(np.int64)), tf.constant(positions)).numpy()
    assert _max_difference(leaking, _alone_logits(model, features), plan) > 1000 * ATOL


def test_adapter_rejects_an_unsupported_model():
    config = transformers.DistilBertConfig(vocab_size=VOCAB, dim=32, n_layers=1, n_heads=2, hidden_dim=64)
    model = transformers.TFDistilBertForMaskedLM(config)
    with pytest.raises(ValueError, match="supports model types \\['bert', 'roberta'\\], got 'distilbert'"):
        tf_packed_masked_lm_logits(model, tf.zeros([1, 4], tf.int64), tf.ones([1, 4], tf.int64),
                                   tf.zeros([1, 4], tf.int64))
