"""The one statistical test that keeps the numpy and TF-native MLM masking identical.

Both implementations are measured with the same counters against the same specification;
a drift in either (HF's TF copy replaced ~2% of selected tokens at random, torch 10%) fails
here. Tolerances are 5 binomial standard deviations, so a correct implementation fails
about once in 3.5 million runs, and a 1-point drift in any rate on 100k tokens is caught.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from bucketing.masking import MaskingSpec, mask_tokens_np

VOCAB = 30_000
PAD, CLS, SEP, MASK = 1, 0, 2, 4
SPECS = [
    MaskingSpec(mask_token_id=MASK, vocab_size=VOCAB, special_token_ids=(CLS, SEP, MASK), pad_token_id=PAD),
    MaskingSpec(
        mask_token_id=MASK, vocab_size=VOCAB, mlm_probability=0.4, mask_replace_prob=0.5,
        random_replace_prob=0.3, special_token_ids=(CLS, SEP), pad_token_id=PAD,
    ),
    MaskingSpec(
        mask_token_id=MASK, vocab_size=VOCAB, mlm_probability=1.0, mask_replace_prob=1.0,
        random_replace_prob=0.0, special_token_ids=(CLS, SEP), pad_token_id=PAD,
    ),
    MaskingSpec(mask_token_id=MASK, vocab_size=VOCAB, mlm_probability=0.0, pad_token_id=PAD),
]


def make_batch(rows: int = 256, length: int = 512, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ids = rng.integers(5, VOCAB, size=(rows, length), dtype=np.int64)
    ids[:, 0] = CLS
    lengths = rng.integers(length // 4, length, size=rows)
    for r, n in enumerate(lengths):
        ids[r, n - 1] = SEP
        ids[r, n:] = PAD
    return ids


def measured_rates(ids: np.ndarray, masked: np.ndarray, labels: np.ndarray, spec: MaskingSpec) -> dict:
    excluded = np.isin(ids, spec.excluded_ids)
    candidates = ~excluded
    selected = labels != spec.ignore_index
    assert not (selected & excluded).any(), "a special or padding token was selected"
    assert (masked[~selected] == ids[~selected]).all(), "an unselected token changed"
    assert (labels[selected] == ids[selected]).all(), "labels must hold the original ids"
    n_sel = int(selected.sum())
    is_mask = masked == spec.mask_token_id
    changed_other = (~is_mask) & (masked != ids)
    return {
        "candidates": int(candidates.sum()),
        "selected": n_sel,
        "select_rate": n_sel / max(int(candidates.sum()), 1),
        "mask_rate": int((selected & is_mask).sum()) / max(n_sel, 1),
        "random_rate": int((selected & changed_other).sum()) / max(n_sel, 1),
    }


def assert_rate(name: str, observed: float, expected: float, n: int) -> None:
    sigma = math.sqrt(max(expected * (1 - expected), 1e-12) / max(n, 1))
    assert abs(observed - expected) <= 5 * sigma + 1e-9, f"{name}: {observed:.4f} vs {expected:.4f} (n={n})"


def check(rates: dict, spec: MaskingSpec) -> None:
    assert_rate("selection", rates["select_rate"], spec.mlm_probability, rates["candidates"])
    if rates["selected"]:
        assert_rate("mask replacement", rates["mask_rate"], spec.mask_replace_prob, rates["selected"])
        # a random draw can return the original id: probability 1/VOCAB
        expected_random = spec.random_replace_prob * (1 - 1 / VOCAB)
        assert_rate("random replacement", rates["random_rate"], expected_random, rates["selected"])


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"p{s.mlm_probability}-m{s.mask_replace_prob}-r{s.random_replace_prob}")
def test_numpy_masking_matches_spec(spec: MaskingSpec) -> None:
    ids = make_batch()
    masked, labels = mask_tokens_np(ids, spec, np.random.default_rng(1))
    check(measured_rates(ids, masked, labels, spec), spec)


@pytest.mark.tf
@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"p{s.mlm_probability}-m{s.mask_replace_prob}-r{s.random_replace_prob}")
def test_tf_masking_matches_spec_and_numpy(spec: MaskingSpec) -> None:
    tf = pytest.importorskip("tensorflow")
    from bucketing.masking import mask_tokens_tf

    ids = make_batch()
    masked, labels = mask_tokens_tf(tf.constant(ids), spec, seed=[3, 4])
    tf_rates = measured_rates(ids, masked.numpy(), labels.numpy(), spec)
    check(tf_rates, spec)
    np_masked, np_labels = mask_tokens_np(ids, spec, np.random.default_rng(1))
    np_rates = measured_rates(ids, np_masked, np_labels, spec)
    # the two implementations agree with each other, not only each with the spec
    for key in ("select_rate", "mask_rate", "random_rate"):
        n = tf_rates["selected"] if key != "select_rate" else tf_rates["candidates"]
        p = (tf_rates[key] + np_rates[key]) / 2
        sigma = math.sqrt(max(2 * p * (1 - p), 1e-12) / max(n, 1))
        assert abs(tf_rates[key] - np_rates[key]) <= 5 * sigma + 1e-9, key


@pytest.mark.tf
def test_tf_masking_is_deterministic_and_compiles_under_xla() -> None:
    tf = pytest.importorskip("tensorflow")
    from bucketing.masking import mask_tokens_tf

    spec = SPECS[0]
    ids = tf.constant(make_batch(rows=8, length=64))
    eager = mask_tokens_tf(ids, spec, seed=[7, 7])
    compiled = tf.function(lambda x: mask_tokens_tf(x, spec, seed=[7, 7]), jit_compile=True)(ids)
    for a, b in zip(eager, compiled):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    again = mask_tokens_tf(ids, spec, seed=[7, 7])
    np.testing.assert_array_equal(eager[0].numpy(), again[0].numpy())
    other = mask_tokens_tf(ids, spec, seed=[7, 8])
    assert not np.array_equal(eager[1].numpy(), other[1].numpy())


def test_spec_rejects_bad_probabilities() -> None:
    with pytest.raises(ValueError, match="mask_replace_prob"):
        MaskingSpec(mask_token_id=4, vocab_size=10, mask_replace_prob=0.9, random_replace_prob=0.2)
    with pytest.raises(ValueError, match="mlm_probability"):
        MaskingSpec(mask_token_id=4, vocab_size=10, mlm_probability=1.5)
    with pytest.raises(ValueError, match="outside the vocabulary"):
        MaskingSpec(mask_token_id=40, vocab_size=10)
