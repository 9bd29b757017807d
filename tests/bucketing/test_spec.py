from __future__ import annotations

import numpy as np
import pytest

from bucketing import BucketSpec, optimal_boundaries


def test_fit_uses_the_optimal_boundaries_and_lists_every_shape() -> None:
    lengths = np.random.default_rng(0).integers(1, 300, 2000)
    with pytest.warns(UserWarning, match=r"297 of 2000 lengths exceed max_length=256 \(longest 299\)"):
        spec = BucketSpec.fit(lengths, max_shapes=4, pad_to_multiple_of=8, batch_size=32, max_length=256)
    with pytest.warns(UserWarning, match="exceed max_length"):
        assert spec.boundaries == optimal_boundaries(lengths, 4, 8, 256)
    assert spec.shapes() == tuple((32, b) for b in spec.boundaries)
    assert spec.bucket_index(1) == 0
    assert spec.bucket_index(spec.boundaries[0]) == 0
    assert spec.bucket_index(spec.boundaries[0] + 1) == 1
    assert spec.bucket_index(256) == 3
    with pytest.raises(ValueError, match="overlong='truncate'"):
        spec.bucket_index(257)


def test_token_budget_batch_sizes_round_down_to_the_multiple() -> None:
    spec = BucketSpec.from_boundaries((64, 128, 512), tokens_per_batch=8192, batch_multiple=8)
    assert spec.batch_sizes == (128, 64, 16)
    odd = BucketSpec.from_boundaries((100, 300), tokens_per_batch=4000, batch_multiple=4)
    assert odd.batch_sizes == (40, 12)
    with pytest.raises(ValueError, match="raise tokens_per_batch to at least 4096"):
        BucketSpec.from_boundaries((64, 512), tokens_per_batch=1000, batch_multiple=8)


@pytest.mark.parametrize(
    "boundaries, batch_sizes, message",
    [
        ((), (), "at least one"),
        ((64, 32), (8, 8), "strictly ascending"),
        ((0, 32), (8, 8), "positive"),
        ((32, 64), (8,), "one batch size per bucket"),
        ((32,), (0,), "batch_sizes must be >= 1"),
    ],
)
def test_spec_validation(boundaries: tuple, batch_sizes: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BucketSpec(boundaries, batch_sizes)


def test_fit_needs_exactly_one_batch_rule() -> None:
    with pytest.raises(ValueError, match="exactly one of batch_size"):
        BucketSpec.fit([5, 6], 1)
    with pytest.raises(ValueError, match="exactly one of batch_size"):
        BucketSpec.fit([5, 6], 1, batch_size=4, tokens_per_batch=64)
    with pytest.raises(ValueError, match="not a multiple"):
        BucketSpec.fit([5, 6], 1, batch_size=6, batch_multiple=4)


def test_dict_round_trip_for_manifests() -> None:
    import json

    spec = BucketSpec((16, 64), (8, 4))
    assert BucketSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec
    with pytest.raises(ValueError, match="unknown keys"):
        BucketSpec.from_dict({"boundaries": [1], "batch_sizes": [1], "sizes": [2]})
