"""Packing into rows of several widths, and the attention cost model that chooses them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bucketing.packing import (
    fit_packing_spec,
    pack_batches,
    pack_features,
    packing_cost,
    plan_packing,
    row_cost,
)
from bucketing.packing_collator import PackingCollator
from bucketing.spec import BucketSpec


def _examples(lengths):
    return [{"input_ids": [1000 * (i + 1) + t for t in range(n)], "label": i} for i, n in enumerate(lengths)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 40), max_size=80), st.none() | st.integers(0, 3), st.none() | st.integers(1, 5))
def test_rows_hold_their_examples_and_only_long_examples_open_wide_rows(lengths, seed, max_segments):
    plan = plan_packing(lengths, 40, row_lengths=(12, 24, 40), seed=seed, max_segments=max_segments)
    widths = plan.widths()
    assert widths.shape == (plan.num_rows,)
    assert set(widths.tolist()) <= {12, 24, 40}
    fill = np.zeros(plan.num_rows, dtype=np.int64)
    np.add.at(fill, plan.row, plan.lengths)
    assert (fill <= widths).all()
    assert plan.slots == int(widths.sum())
    assert plan.padding_fraction == pytest.approx(1 - sum(lengths) / widths.sum() if lengths else 0.0)
    for row, members in enumerate(plan.rows()):
        longest = max(lengths[i] for i in members)
        # a row is as wide as the narrowest width that holds the example that opened it,
        # the longest in it (decreasing order): never wider than needed for that one
        assert widths[row] == min(w for w in (12, 24, 40) if w >= longest)
        ends = sorted((int(plan.offset[i]), int(plan.offset[i]) + lengths[i]) for i in members)
        assert all(a[1] <= b[0] for a, b in zip(ends, ends[1:]))  # no overlap


def test_one_width_is_the_plain_plan():
    lengths = np.random.default_rng(0).integers(1, 64, 500)
    plain = plan_packing(lengths, 64, seed=1)
    same = plan_packing(lengths, 64, seed=1, row_lengths=(64,))
    assert plain.num_rows == same.num_rows and (plain.row == same.row).all() and same.row_widths is None


@pytest.mark.parametrize("bad", [(), (16, 8, 32), (8, 16), (8, 8, 32), (0, 32)])
def test_bad_row_lengths_are_named(bad):
    with pytest.raises(ValueError, match="row_lengths must be ascending"):
        plan_packing([3, 4], 32, row_lengths=bad)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 32), min_size=1, max_size=120), st.integers(0, 3))
def test_multi_width_batches_are_spec_shapes_and_keep_their_planned_width(lengths, seed):
    spec = BucketSpec((8, 32), (6, 2))
    collator = PackingCollator(spec, max_segments=6)
    examples = _examples(lengths)
    plan = plan_packing(lengths, 32, row_lengths=(8, 32), max_segments=6, seed=seed)
    planned_wide = {i for row, members in enumerate(plan.rows()) if plan.widths()[row] == 32 for i in members}
    seen = []
    for indices in pack_batches(lengths, spec, max_segments=6, seed=seed):
        batch = collator([examples[i] for i in indices])
        assert batch["input_ids"].shape in spec.shapes()
        # a batch of narrow rows stays narrow; one of wide rows holds an example longer than 8
        assert (batch["input_ids"].shape[1] == 32) == any(i in planned_wide for i in indices)
        seen += batch["labels"][batch["labels"] >= 0].tolist()
        assert sorted(batch["input_ids"][batch["segment_ids"] > 0].tolist()) == sorted(
            t for i in indices for t in examples[i]["input_ids"]
        )
    assert sorted(seen) == list(range(len(lengths)))


def test_pack_features_on_a_narrow_batch():
    spec = BucketSpec((8, 32), (4, 2))
    batch = PackingCollator(spec)(_examples([3, 5, 8, 2]))
    assert batch["input_ids"].shape == (4, 8)
    plan = plan_packing([3, 5, 8, 2], 8)
    assert pack_features(_examples([3, 5, 8, 2]), plan)["input_ids"].shape == (plan.num_rows, 8)


def test_row_cost_and_packing_cost():
    assert row_cost(512, None) == 512.0
    assert row_cost(512, 512) == 1024.0
    spec = BucketSpec((16,), (2,))
    # 5 rows of 16 -> 3 batches of 2 rows (one dummy row): 6 rows of cost 16 * (1 + 16 / 32)
    assert packing_cost([16] * 5, spec, 32.0) == 6 * 24.0


def test_fit_without_attention_cost_keeps_one_shape_and_with_it_chooses_the_cheapest():
    lengths = np.minimum(np.random.default_rng(0).lognormal(4.6, 0.8, 4000).astype(int) + 2, 512)
    assert fit_packing_spec(lengths, 512, 4096).boundaries == (512,)
    fitted = fit_packing_spec(lengths, 512, 4096, attention_length=1000.0, max_segments=64)
    assert len(fitted.boundaries) == 2 and fitted.max_length == 512
    candidates = [BucketSpec((512,), (8,))] + [
        BucketSpec((w, 512), (4096 // w, 8)) for w in range(64, 512, 64)
    ]
    costs = [packing_cost(lengths, c, 1000.0, max_segments=64) for c in candidates]
    assert packing_cost(lengths, fitted, 1000.0, max_segments=64) == min(costs)
    assert min(costs) < 0.95 * costs[0]  # narrow rows for short examples save attention
    # and the padding stays that of packing: near the lower bound, dummy rows included
    plan = plan_packing(lengths, 512, max_segments=64, row_lengths=fitted.boundaries)
    assert plan.padding_fraction < 0.01


def test_fit_arguments_are_checked():
    with pytest.raises(ValueError, match="max_shapes must be 1 or 2"):
        fit_packing_spec([3], 8, 16, max_shapes=3)
    with pytest.raises(ValueError, match="tokens_per_batch=4 is less than one row"):
        fit_packing_spec([3], 8, 4)
    with pytest.raises(ValueError, match="attention_length must be > 0"):
        fit_packing_spec([3], 8, 16, attention_length=0)
