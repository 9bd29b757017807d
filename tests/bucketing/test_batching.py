"""Batch former + collator properties: nothing lost or duplicated, only declared shapes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bucketing import BatchFormer, BucketingCollator, BucketSpec, DummyRow

PAD = 0


def make_examples(lengths: list[int]) -> list[dict]:
    # token values encode (example, position), so order and ownership can be checked
    return [{"input_ids": [1000 * (i + 1) + p for p in range(n)]} for i, n in enumerate(lengths)]


@st.composite
def specs_and_lengths(draw: st.DrawFn) -> tuple[BucketSpec, list[int]]:
    boundaries = sorted(draw(st.sets(st.integers(1, 40), min_size=1, max_size=4)))
    batch_sizes = draw(st.lists(st.integers(1, 5), min_size=len(boundaries), max_size=len(boundaries)))
    lengths = draw(st.lists(st.integers(1, boundaries[-1]), min_size=0, max_size=60))
    return BucketSpec(tuple(boundaries), tuple(batch_sizes)), lengths


def real_rows(batch: dict) -> list[list[int]]:
    rows = []
    for ids, mask, weight in zip(batch["input_ids"], batch["attention_mask"], batch["sample_weight"]):
        if weight == 0:
            assert mask.sum() == 0 and (ids == PAD).all(), "a dummy row holds data"
            continue
        rows.append(ids[mask.astype(bool)].tolist())
    return rows


@settings(max_examples=80, deadline=None)
@given(
    case=specs_and_lengths(),
    shuffle_buffer=st.sampled_from([0, 1, 7, 100]),
    num_replicas=st.integers(1, 3),
    padding_side=st.sampled_from(["right", "left"]),
    seed=st.integers(0, 3),
)
def test_every_token_once_in_order_in_declared_shapes(
    case: tuple[BucketSpec, list[int]], shuffle_buffer: int, num_replicas: int, padding_side: str, seed: int
) -> None:
    spec, lengths = case
    examples = make_examples(lengths)
    collator = BucketingCollator(spec, pad_token_id=PAD, padding_side=padding_side)  # type: ignore[arg-type]
    seen: list[list[int]] = []
    per_replica_buckets = []
    for replica in range(num_replicas):
        former = BatchFormer(spec, shuffle_buffer, seed, num_replicas, replica)
        buckets = []
        for formed in former.form(examples):
            batch = collator(list(formed.rows))
            assert batch["input_ids"].shape in spec.shapes()
            assert batch["input_ids"].shape == spec.shapes()[formed.bucket]
            mask = batch["attention_mask"].astype(bool)
            width = mask.shape[1]
            for row in mask:  # padding is contiguous on the chosen side
                n = int(row.sum())
                expected = np.arange(width) < n if padding_side == "right" else np.arange(width) >= width - n
                assert (row == expected).all()
            assert (batch["input_ids"][~mask] == PAD).all()
            seen.extend(real_rows(batch))
            buckets.append(formed.bucket)
        assert len(buckets) == former.num_batches(lengths) if lengths else not buckets
        per_replica_buckets.append(buckets)
    # every replica is on the same shape at every step
    assert all(b == per_replica_buckets[0] for b in per_replica_buckets)
    assert sorted(map(tuple, seen)) == sorted(tuple(e["input_ids"]) for e in examples)


def test_same_seed_same_batches_other_seed_other_batches() -> None:
    spec = BucketSpec((8, 16, 32), (4, 4, 4))
    lengths = list(np.random.default_rng(0).integers(1, 33, 200))

    def order(seed: int) -> list:
        return [b.rows for b in BatchFormer(spec, 32, seed).form(range(200), lengths)]

    assert order(1) == order(1)
    assert order(1) != order(2)


def test_shuffle_buffer_interleaves_buckets() -> None:
    spec = BucketSpec((8, 32), (4, 4))
    lengths = [4] * 100 + [30] * 100  # sorted input: without a buffer one bucket comes first
    plain = [b.bucket for b in BatchFormer(spec).form(range(200), lengths)]
    assert plain == [0] * 25 + [1] * 25
    shuffled = [b.bucket for b in BatchFormer(spec, shuffle_buffer=200, seed=0).form(range(200), lengths)]
    assert sorted(shuffled) == sorted(plain) and shuffled != plain


def test_partial_batches_are_filled_with_dummy_rows() -> None:
    spec = BucketSpec((8,), (4,))
    batches = list(BatchFormer(spec).form(range(6), [3] * 6))
    assert [b.num_real for b in batches] == [4, 2]
    assert batches[1].rows[2:] == (DummyRow(0), DummyRow(0))


def test_overlong_is_an_error_by_default_naming_the_option() -> None:
    spec = BucketSpec((8,), (2,))
    with pytest.raises(ValueError, match="overlong='truncate' or overlong='drop'"):
        list(BatchFormer(spec).form(range(2), [3, 9]))
    dropped = list(BatchFormer(spec, overlong="drop").form(range(3), [3, 9, 4]))
    assert [r for b in dropped for r in b.rows if not isinstance(r, DummyRow)] == [0, 2]
    kept = list(BatchFormer(spec, overlong="truncate").form(range(3), [3, 9, 4]))
    assert sum(b.num_real for b in kept) == 3
    with pytest.raises(ValueError, match="overlong must be one of"):
        BatchFormer(spec, overlong="clip")  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(case=specs_and_lengths(), padding_side=st.sampled_from(["right", "left"]), seed=st.integers(0, 5))
def test_mlm_labels_agree_with_padding_and_originals(
    case: tuple[BucketSpec, list[int]], padding_side: str, seed: int
) -> None:
    from bucketing import MaskingSpec

    spec, lengths = case
    masking = MaskingSpec(mask_token_id=3, vocab_size=10_000_000, mlm_probability=0.5, pad_token_id=PAD)
    examples = make_examples(lengths)
    collator = BucketingCollator(spec, pad_token_id=PAD, padding_side=padding_side, masking=masking, seed=seed)  # type: ignore[arg-type]
    originals = []
    for formed in BatchFormer(spec, 8, seed).form(examples):
        batch = collator(list(formed.rows))
        mask = batch["attention_mask"].astype(bool)
        labelled = batch["labels"] != -100
        assert not (labelled & ~mask).any(), "a padding position carries a label"
        assert (batch["input_ids"][~mask] == PAD).all()
        # per-token labels: per-token weights, 1 exactly where a label counts
        assert batch["sample_weight"].shape == batch["labels"].shape
        assert ((batch["sample_weight"] == 1) == labelled).all()
        for ids, labels, m in zip(batch["input_ids"], batch["labels"], mask):
            if not m.any():  # a dummy row
                assert (labels == -100).all()
                continue
            restored = np.where(labels != -100, labels, ids)[m]
            originals.append(tuple(restored.tolist()))
    # putting the labels back gives every original sequence, once
    assert sorted(originals) == sorted(tuple(e["input_ids"]) for e in examples)
