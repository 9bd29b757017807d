"""PackingCollator and pack_batches: every batch in spec.shapes(), every example once."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bucketing.masking import MaskingSpec
from bucketing.packing import (
    PackedBatchSampler,
    pack_batches,
    plan_next_fit,
    plan_packing,
)
from bucketing.packing_collator import PackingCollator
from bucketing.packing_masks import segment_mask_np
from bucketing.spec import BucketSpec


def _examples(lengths):
    return [{"input_ids": [1000 * (i + 1) + t for t in range(n)], "label": i} for i, n in enumerate(lengths)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 32), min_size=1, max_size=80), st.integers(0, 3))
def test_every_batch_in_spec_shapes_and_every_example_once(lengths, seed):
    spec = BucketSpec((16, 32), (4, 4))
    collator = PackingCollator(spec, max_segments=6)
    examples = _examples(lengths)
    seen = []
    for indices in pack_batches(lengths, spec, max_segments=6, seed=seed):
        batch = collator([examples[i] for i in indices])
        assert batch["input_ids"].shape in spec.shapes()
        assert batch["labels"].shape == (batch["input_ids"].shape[0], 6)
        seg = batch["segment_ids"]
        seen += batch["labels"][batch["labels"] >= 0].tolist()
        assert sorted(batch["input_ids"][seg > 0].tolist()) == sorted(
            t for i in indices for t in examples[i]["input_ids"]
        )
    assert sorted(seen) == list(range(len(lengths)))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 20), min_size=1, max_size=60), st.integers(0, 5))
def test_next_fit_on_a_plans_rows_needs_no_more_rows(lengths, seed):
    plan = plan_packing(lengths, 20, seed=seed)
    order = [i for row in plan.rows() for i in row]
    assert plan_next_fit([lengths[i] for i in order], 20).num_rows <= plan.num_rows


def test_narrow_bucket_for_a_short_batch_and_return_tensors():
    spec = BucketSpec((8, 32), (2, 4))
    batch = PackingCollator(spec)(_examples([3, 4, 5]))
    assert batch["input_ids"].shape == (2, 8)
    batch = PackingCollator(spec)(_examples([30, 4, 5]))
    assert batch["input_ids"].shape == (4, 32)
    assert (batch["segment_ids"][2:] == 0).all()  # 30 | 4 + 5: two rows, two dummy rows


def test_too_many_examples_for_a_batch():
    with pytest.raises(ValueError, match="need 3 rows of 8, more than the batch's 2; form batches"):
        PackingCollator(BucketSpec((8,), (2,)))(_examples([8, 8, 8]))


def test_mlm_masking_touches_real_tokens_only_and_masks():
    spec = BucketSpec((64,), (2,))
    masking = MaskingSpec(mask_token_id=4, vocab_size=100_000, mlm_probability=0.5)
    collator = PackingCollator(spec, masking=masking, seed=0, attention_mask="segment")
    batch = collator([{"input_ids": list(range(10, 10 + n))} for n in (20, 30, 25)])
    seg = batch["segment_ids"]
    assert (batch["labels"][seg == 0] == -100).all()
    assert (batch["input_ids"][seg == 0] == 0).all()
    selected = batch["labels"] != -100
    assert 0 < selected.sum() < (seg > 0).sum()
    assert np.array_equal(batch["attention_mask"], segment_mask_np(seg))


def test_roberta_positions_and_additive_mask():
    spec = BucketSpec((8,), (1,))
    batch = PackingCollator(spec, model_type="roberta", pad_token_id=1, attention_mask="additive")(
        _examples([3, 2])
    )
    assert batch["position_ids"].tolist() == [[2, 3, 4, 2, 3, 1, 1, 1]]
    assert batch["attention_mask"].shape == (1, 1, 8, 8)


@pytest.mark.parametrize("kwargs", [{"return_tensors": "torch"}, {"attention_mask": "2d"}, {"max_segments": 0}])
def test_bad_configuration(kwargs):
    with pytest.raises(ValueError, match="PackingCollator"):
        PackingCollator(BucketSpec((8,), (1,)), **kwargs)


def test_tf_tensors():
    tf = pytest.importorskip("tensorflow")
    batch = PackingCollator(BucketSpec((8,), (1,)), return_tensors="tf")(_examples([3, 2]))
    assert isinstance(batch["input_ids"], tf.Tensor)


def test_torch_dataloader_with_pack_batches():
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader

    lengths = [5, 9, 3, 12, 7, 2, 16, 4]
    spec = BucketSpec((16,), (2,))
    sampler = PackedBatchSampler(lengths, spec, seed=0)
    loader = DataLoader(_examples(lengths), batch_sampler=sampler,
                        collate_fn=PackingCollator(spec, return_tensors="pt"))
    batches = list(loader)
    assert len(loader) == len(batches)
    assert all(tuple(b["input_ids"].shape) == (2, 16) for b in batches)
    assert sum(int((b["segment_ids"] > 0).sum()) for b in batches) == sum(lengths)
    assert all(isinstance(b["input_ids"], torch.Tensor) for b in batches)


def test_sampler_new_packing_per_epoch_and_reproducible():
    lengths = np.random.default_rng(0).integers(1, 30, 200)
    spec = BucketSpec((64,), (4,))
    sampler = PackedBatchSampler(lengths, spec, seed=3)
    first = list(sampler)
    sampler.set_epoch(1)
    second = list(sampler)
    assert first != second
    assert sorted(i for b in second for i in b) == list(range(200))
    sampler.set_epoch(0)
    assert list(sampler) == first == list(PackedBatchSampler(lengths, spec, seed=3))


def test_falls_back_to_the_given_order_when_best_fit_needs_more_rows():
    # BFD on 5,4,3,3,3,2 into rows of 10 needs 3 rows (5+4 | 3+3+3 | 2); listed as the rows
    # 5+3+2 | 4+3+3 (what pack_batches yields) they fit the batch's 2
    assert plan_packing([5, 3, 2, 4, 3, 3], 10).num_rows == 3
    batch = PackingCollator(BucketSpec((10,), (2,)))(_examples([5, 3, 2, 4, 3, 3]))
    assert batch["segment_ids"].tolist() == [[1, 1, 1, 1, 1, 2, 2, 2, 3, 3], [1, 1, 1, 1, 2, 2, 2, 3, 3, 3]]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 32), min_size=1, max_size=80), st.integers(1, 4))
def test_replicas_split_every_global_batch_and_keep_in_step(lengths, num_replicas):
    spec = BucketSpec((32,), (2,))
    collator = PackingCollator(spec, max_segments=8)
    examples = _examples(lengths)
    shards = [pack_batches(lengths, spec, max_segments=8, seed=0, num_replicas=num_replicas, rank=r)
              for r in range(num_replicas)]
    assert len({len(s) for s in shards}) == 1  # the same number of steps on every replica
    assert sorted(i for s in shards for b in s for i in b) == list(range(len(lengths)))
    for step in zip(*shards):
        for indices in step:  # an empty share becomes dummy rows of the same shape
            batch = collator([examples[i] for i in indices])
            assert batch["input_ids"].shape == (2, 32)
            assert int((batch["segment_ids"] > 0).sum()) == sum(lengths[i] for i in indices)


def test_replicas_need_a_one_bucket_spec():
    with pytest.raises(ValueError, match="one-bucket spec"):
        pack_batches([3, 4], BucketSpec((8, 16), (2, 2)), num_replicas=2, rank=0)
