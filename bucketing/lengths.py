"""Lengths from a dataset, all of them or a uniform sample, to fit boundaries on."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from bucketing.batching import default_length


def sample_lengths(
    examples: Iterable[Any],
    sample_size: int | None = None,
    *,
    seed: int = 0,
    length_of: Callable[[Any], int] = default_length,
) -> np.ndarray:
    """Lengths of all ``examples``, or of a uniform reservoir sample of ``sample_size`` of them
    (one pass, memory O(sample_size): for streams too large to hold)."""
    if sample_size is None:
        return np.fromiter((length_of(e) for e in examples), dtype=np.int64)
    if sample_size < 1:
        raise ValueError(f"sample_lengths: sample_size must be >= 1, got {sample_size}")
    rng = np.random.default_rng(seed)
    reservoir = np.empty(sample_size, dtype=np.int64)
    seen = 0
    for example in examples:
        if seen < sample_size:
            reservoir[seen] = length_of(example)
        else:
            slot = int(rng.integers(seen + 1))
            if slot < sample_size:
                reservoir[slot] = length_of(example)
        seen += 1
    return reservoir[: min(seen, sample_size)].copy()
