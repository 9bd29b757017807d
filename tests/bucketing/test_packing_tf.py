"""packed_dataset: the collator's batches as a tf.data pipeline with a static element spec."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
tf = pytest.importorskip("tensorflow")

from bucketing import BucketSpec, PackingCollator
from bucketing.packing_tf import packed_dataset


def test_static_shapes_and_every_token_once():
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 30, 50)
    features = [{"input_ids": rng.integers(5, 100, n), "label": i} for i, n in enumerate(lengths)]
    collator = PackingCollator(BucketSpec((32,), (4,)), max_segments=8)
    ds = packed_dataset(features, collator, seed=1)
    assert ds.element_spec["input_ids"].shape == (4, 32)
    assert ds.element_spec["labels"].shape == (4, 8)
    batches = list(ds.as_numpy_iterator())
    assert sum(int((b["segment_ids"] > 0).sum()) for b in batches) == int(lengths.sum())
    assert sorted(x for b in batches for x in b["labels"][b["labels"] >= 0].tolist()) == list(range(50))


def test_needs_numpy_collator():
    with pytest.raises(ValueError, match="return_tensors='np'"):
        packed_dataset([{"input_ids": [1]}], PackingCollator(BucketSpec((8,), (1,)), return_tensors="tf"))
