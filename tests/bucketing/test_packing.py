"""The packer: properties of every plan and packed batch, efficiency against the lower bound."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bucketing.packing import IGNORE_INDEX, pack_features, plan_packing

lengths_and_width = st.integers(1, 64).flatmap(
    lambda width: st.tuples(st.lists(st.integers(1, width), min_size=0, max_size=60), st.just(width))
)


def _features(lengths: list[int]) -> list[dict]:
    # token values encode (example, position): any loss, duplicate or reorder is visible
    return [
        {"input_ids": [1000 * (i + 1) + t for t in range(n)], "label": i % 3}
        for i, n in enumerate(lengths)
    ]


@settings(max_examples=150, deadline=None)
@given(lengths_and_width, st.none() | st.integers(1, 6), st.none() | st.integers(0, 3))
def test_every_token_once_segments_contiguous_positions_restart(case, max_segments, seed):
    lengths, width = case
    plan = plan_packing(lengths, width, max_segments=max_segments, seed=seed)
    batch = pack_features(_features(lengths), plan, pad_token_id=0)
    ids, seg, pos = batch["input_ids"], batch["segment_ids"], batch["position_ids"]
    assert ids.shape == (plan.num_rows, width)
    # no token lost or duplicated
    real = ids[seg > 0]
    expected = [1000 * (i + 1) + t for i, n in enumerate(lengths) for t in range(n)]
    assert sorted(real.tolist()) == sorted(expected)
    assert (ids[seg == 0] == 0).all()
    assert plan.real_tokens == sum(lengths)
    for i, n in enumerate(lengths):
        r, s, o = int(plan.row[i]), int(plan.segment[i]), int(plan.offset[i])
        # the example's segment is exactly its tokens, contiguous, in order, in one row
        where = np.argwhere(seg == s)
        assert (where[:, 0] == r).sum() == n
        assert ids[r, o:o + n].tolist() == expected[sum(lengths[:i]):sum(lengths[:i]) + n]
        assert (seg[r, o:o + n] == s).all()
        assert pos[r, o:o + n].tolist() == list(range(n))
        assert batch["segment_starts"][r, s - 1] == o
        assert batch["labels"][r, s - 1] == i % 3
    for r in range(plan.num_rows):
        row_seg = seg[r]
        used = row_seg[row_seg > 0]
        # padding only at the end, segments numbered 1..k in order
        assert (np.diff(used) >= 0).all() and (np.diff(used) <= 1).all()
        assert used.size == 0 or used[0] == 1
        assert (row_seg[used.size:] == 0).all()
        if max_segments is not None:
            assert used.max(initial=0) <= max_segments
    # only dropped examples would be missing; none here
    assert plan.dropped == ()
    assert plan.num_rows >= plan.lower_bound_rows


@settings(max_examples=60, deadline=None)
@given(lengths_and_width, st.integers(0, 5))
def test_deterministic_given_seed(case, seed):
    lengths, width = case
    a = plan_packing(lengths, width, seed=seed)
    b = plan_packing(lengths, width, seed=seed)
    assert a.rows() == b.rows()
    assert np.array_equal(a.offset, b.offset)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 16), min_size=1, max_size=40))
def test_causal_lm_labels_ignore_padding_and_segment_starts(lengths):
    plan = plan_packing(lengths, 16, seed=1)
    batch = pack_features([{"input_ids": list(range(1, n + 1))} for n in lengths], plan, causal_lm=True)
    labels, seg, pos = batch["labels"], batch["segment_ids"], batch["position_ids"]
    ignored = (seg == 0) | ((seg > 0) & (pos == 0))
    assert (labels[ignored] == IGNORE_INDEX).all()
    assert (labels[~ignored] == batch["input_ids"][~ignored]).all()
    # the shifted target of every position never crosses into another segment
    src, tgt = seg[:, :-1], seg[:, 1:]
    counted = labels[:, 1:] != IGNORE_INDEX
    assert (src[counted] == tgt[counted]).all()


def test_best_fit_decreasing_on_a_known_case():
    # BFD: 6 -> row0 (2 left), 5 -> row1 (3 left), 3 -> row1 (tightest that fits), 2 -> row0
    plan = plan_packing([2, 5, 3, 6], 8)
    assert plan.rows() == ((3, 0), (1, 2))
    assert plan.num_rows == plan.lower_bound_rows == 2
    assert plan.padding_fraction == 0.0


def test_near_the_lower_bound_on_a_long_tail():
    lengths = np.minimum(np.random.default_rng(0).lognormal(4.6, 0.8, 20_000).astype(int) + 2, 512)
    plan = plan_packing(lengths, 512, seed=0)
    assert plan.lower_bound_rows <= plan.num_rows <= plan.lower_bound_rows * 1.002 + 1
    assert plan.padding_fraction < 0.005


def test_static_rows_and_segments():
    plan = plan_packing([3, 3, 2], 4, max_segments=2)
    batch = pack_features([{"input_ids": [1] * n, "label": 7} for n in (3, 3, 2)], plan,
                          num_rows=4, max_segments=3)
    assert batch["input_ids"].shape == (4, 4)
    assert batch["labels"].shape == (4, 3)
    assert (batch["segment_ids"][plan.num_rows:] == 0).all()
    assert (batch["labels"][plan.num_rows:] == IGNORE_INDEX).all()


def test_overlong_policies():
    with pytest.raises(ValueError, match="example 1 has 9 tokens.*overlong='truncate'"):
        plan_packing([3, 9], 8)
    truncated = plan_packing([3, 9], 8, overlong="truncate")
    assert truncated.lengths.tolist() == [3, 8]
    dropped = plan_packing([3, 9], 8, overlong="drop")
    assert dropped.dropped == (1,) and dropped.num_rows == 1
    batch = pack_features([{"input_ids": [1, 2, 3]}, {"input_ids": list(range(9))}], dropped)
    assert batch["input_ids"].tolist() == [[1, 2, 3, 0, 0, 0, 0, 0]]
    batch = pack_features([{"input_ids": [1, 2, 3]}, {"input_ids": list(range(1, 10))}], truncated)
    assert sorted(batch["input_ids"][batch["segment_ids"] > 0].tolist()) == sorted([1, 2, 3] + list(range(1, 9)))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lengths": [1, 0], "max_length": 4}, "every length must be >= 1, got 0 at index 1"),
        ({"lengths": [1], "max_length": 0}, "max_length must be a positive integer"),
        ({"lengths": [1], "max_length": 4, "max_segments": 0}, "max_segments must be >= 1"),
        ({"lengths": [[1]], "max_length": 4}, "lengths must be 1-D"),
        ({"lengths": [1], "max_length": 4, "overlong": "wrap"}, "overlong must be one of"),
    ],
)
def test_bad_input_one_line_errors(kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        plan_packing(**kwargs)
    assert "\n" not in str(info.value)


def test_pack_features_errors():
    plan = plan_packing([2, 2], 4)
    with pytest.raises(ValueError, match="2 features for a plan of 1 examples|1 features for a plan of 2"):
        pack_features([{"input_ids": [1, 2]}], plan)
    with pytest.raises(ValueError, match="num_rows=0 is fewer"):
        pack_features([{"input_ids": [1, 2]}] * 2, plan, num_rows=0)
    with pytest.raises(ValueError, match="'labels' and 'input_ids' differ"):
        pack_features([{"input_ids": [1, 2], "labels": [1]}] * 2, plan)
    with pytest.raises(ValueError, match="do not match the length the plan was made with"):
        pack_features([{"input_ids": [1, 2, 3]}, {"input_ids": [1, 2]}], plan)
