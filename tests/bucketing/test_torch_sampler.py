from __future__ import annotations

import numpy as np
import pytest

from bucketing import BucketingCollator, BucketSpec

torch = pytest.importorskip("torch")

from bucketing.torch_sampler import BucketBatchSampler, WithDummyRows  # noqa: E402


def test_data_loader_yields_declared_shapes_and_every_row_once_per_epoch() -> None:
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 40, 203)
    dataset = [{"input_ids": list(range(1, n + 1)), "idx": i} for i, n in enumerate(lengths)]
    spec = BucketSpec.fit(lengths, max_shapes=3, batch_size=4)
    collator = BucketingCollator(spec, return_tensors="pt")
    seen_by_rank = []
    buckets_by_rank = []
    for rank in range(2):
        sampler = BucketBatchSampler(lengths, spec, seed=5, num_replicas=2, rank=rank)
        sampler.set_epoch(1)
        loader = torch.utils.data.DataLoader(WithDummyRows(dataset), batch_sampler=sampler, collate_fn=collator)
        seen, buckets = [], []
        for batch in loader:
            assert tuple(batch["input_ids"].shape) in spec.shapes()
            buckets.append(tuple(batch["input_ids"].shape))
            seen += batch["idx"][batch["sample_weight"] > 0].tolist()
        assert len(buckets) == len(sampler)
        seen_by_rank.append(seen)
        buckets_by_rank.append(buckets)
    assert buckets_by_rank[0] == buckets_by_rank[1]  # ranks step through the same shapes
    assert sorted(seen_by_rank[0] + seen_by_rank[1]) == list(range(len(dataset)))


def test_epochs_reshuffle_and_seeds_repeat() -> None:
    lengths = np.random.default_rng(1).integers(1, 30, 100)
    spec = BucketSpec.fit(lengths, max_shapes=2, batch_size=4)
    sampler = BucketBatchSampler(lengths, spec, seed=0)
    first = list(sampler)
    assert first == list(sampler)
    sampler.set_epoch(1)
    assert first != list(sampler)
