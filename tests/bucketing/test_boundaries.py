"""The DP is exact: brute force over every boundary set on small inputs agrees with it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bucketing import (
    choose_num_shapes,
    optimal_boundaries,
    optimal_padding_by_num_shapes,
    padded_tokens,
    power_of_two_boundaries,
    quantile_boundaries,
)
from bucketing.boundaries import round_up


def brute_force_padding(lengths: list[int], max_shapes: int, multiple: int, max_length: int | None) -> int:
    """Least padding over every admissible boundary set, by enumeration."""
    capped = np.minimum(lengths, max_length) if max_length else np.asarray(lengths)
    candidates = np.unique(round_up(capped, multiple))
    if max_length:
        candidates = np.unique(np.minimum(candidates, max_length))
    top = int(candidates.max())
    best = None
    for k in range(1, max_shapes + 1):
        for inner in itertools.combinations([int(c) for c in candidates if c < top], k - 1):
            cost = padded_tokens(capped, (*inner, top))
            best = cost if best is None else min(best, cost)
    assert best is not None
    return best


lengths_strategy = st.lists(st.integers(1, 60), min_size=1, max_size=40)


@pytest.mark.filterwarnings("ignore:.*exceed max_length:UserWarning")  # truncation is the case tested
@settings(max_examples=150, deadline=None)
@given(
    lengths=lengths_strategy,
    max_shapes=st.integers(1, 4),
    multiple=st.sampled_from([1, 2, 4, 8]),
    max_length=st.one_of(st.none(), st.integers(8, 64)),
)
def test_dp_matches_brute_force(lengths: list[int], max_shapes: int, multiple: int, max_length: int | None) -> None:
    boundaries = optimal_boundaries(lengths, max_shapes, multiple, max_length)
    capped = np.minimum(lengths, max_length) if max_length else np.asarray(lengths)
    assert padded_tokens(capped, boundaries) == brute_force_padding(lengths, max_shapes, multiple, max_length)
    assert 1 <= len(boundaries) <= max_shapes
    assert list(boundaries) == sorted(set(boundaries))
    assert boundaries[-1] >= capped.max()
    for b in boundaries:
        assert b % multiple == 0 or b == max_length
        assert max_length is None or b <= max_length
    # no shape that saves nothing: dropping any inner boundary costs padding
    for i in range(len(boundaries) - 1):
        fewer = boundaries[:i] + boundaries[i + 1:]
        assert padded_tokens(capped, fewer) > padded_tokens(capped, boundaries)


@settings(max_examples=50, deadline=None)
@given(lengths=st.lists(st.integers(1, 200), min_size=1, max_size=300), max_shapes=st.integers(1, 8))
def test_dp_never_loses_to_baselines(lengths: list[int], max_shapes: int) -> None:
    best = padded_tokens(lengths, optimal_boundaries(lengths, max_shapes))
    for baseline in (quantile_boundaries, power_of_two_boundaries):
        other = baseline(lengths, max_shapes)
        assert len(other) <= max_shapes
        assert best <= padded_tokens(lengths, other)


def test_padding_by_num_shapes_is_the_dp_optimum_and_nonincreasing() -> None:
    rng = np.random.default_rng(0)
    lengths = np.minimum(rng.lognormal(4.0, 0.9, 5000).astype(int) + 1, 512)
    pads = optimal_padding_by_num_shapes(lengths, 16, 8, 512)
    assert all(a >= b for a, b in zip(pads, pads[1:]))
    for k in (1, 3, 16):
        assert pads[k - 1] == padded_tokens(lengths, optimal_boundaries(lengths, k, 8, 512))


def test_choose_num_shapes_minimizes_the_estimated_time() -> None:
    rng = np.random.default_rng(1)
    lengths = np.minimum(rng.lognormal(4.0, 0.9, 5000).astype(int) + 1, 512)
    free = choose_num_shapes(lengths, 1000, 0.0, 1e6, batch_size=32, max_shapes=16)
    assert free.num_shapes == 16  # compiles are free: take every shape offered
    dear = choose_num_shapes(lengths, 10, 1e6, 1e6, batch_size=32, max_shapes=16)
    assert dear.num_shapes == 1 and len(dear.boundaries) == 1
    middle = choose_num_shapes(lengths, 20_000, 30.0, 2e5, batch_size=32, max_shapes=16)
    assert middle.total_seconds == min(seconds for _, _, seconds in middle.candidates)
    assert middle.boundaries == optimal_boundaries(lengths, middle.num_shapes)
    assert 1 < middle.num_shapes < 16


def test_bad_input_gives_one_line_errors() -> None:
    with pytest.raises(ValueError, match="max_shapes"):
        optimal_boundaries([3, 4], 0)
    with pytest.raises(ValueError, match="pad_to_multiple_of"):
        optimal_boundaries([3, 4], 2, pad_to_multiple_of=0)
    with pytest.raises(ValueError, match="non-empty"):
        optimal_boundaries([], 2)
    with pytest.raises(ValueError, match=">= 1"):
        optimal_boundaries([0, 4], 2)
    with pytest.raises(TypeError, match="integers"):
        optimal_boundaries(np.array([1.5]), 2)
