"""Bucket boundaries: the exact minimum-padding choice for at most K shapes, and baselines.

Padding a sequence of length ``n`` to its bucket's boundary ``b`` (the smallest boundary
``>= n``) costs ``b - n`` pad tokens. Over a length histogram, a bucket covering the lengths in
``(a, b]`` costs ``b * count - tokens``. The optimum for at most K buckets is an exact dynamic
program over the distinct lengths (optimal boundaries always sit on a length that occurs,
rounded up to ``pad_to_multiple_of``), with prefix sums making each bucket's cost O(1).
Its cost matrix is Monge, but O(K * L^2) over L distinct lengths, vectorized with numpy, is
already fast for the L <= a few thousand that real tokenized text gives.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

_DP_COLUMN_BLOCK = 512  # columns of the (L x L) cost matrix held at once: bounds memory


@dataclass(frozen=True)
class LengthHistogram:
    """Distinct padded-to-multiple lengths (``values``, ascending), how many sequences fall on
    each (``counts``) and their real tokens (``tokens``)."""

    values: np.ndarray
    counts: np.ndarray
    tokens: np.ndarray

    @classmethod
    def from_lengths(
        cls, lengths: Iterable[int] | np.ndarray, pad_to_multiple_of: int = 1, max_length: int | None = None
    ) -> LengthHistogram:
        array = as_lengths(lengths)
        _check_multiple_and_cap(pad_to_multiple_of, max_length)
        if max_length is not None:
            # sequences longer than the cap are truncated to it: they cost max_length real tokens
            array = np.minimum(array, max_length)
        rounded = round_up(array, pad_to_multiple_of)
        if max_length is not None:
            rounded = np.minimum(rounded, max_length)
        values, inverse = np.unique(rounded, return_inverse=True)
        counts = np.bincount(inverse, minlength=len(values)).astype(np.int64)
        tokens = np.bincount(inverse, weights=array, minlength=len(values)).astype(np.int64)
        return cls(values.astype(np.int64), counts, tokens)


_LENGTHS_FIX = "pass one length per sequence, e.g. [len(ids) for ids in token_lists] or bucketing.sample_lengths(examples)"


def as_lengths(lengths: Iterable[int] | np.ndarray) -> np.ndarray:
    """Lengths as a non-empty 1-D int64 array of positive values (a clear error otherwise)."""
    if isinstance(lengths, (str, bytes)):
        raise TypeError(f"lengths: got a {type(lengths).__name__}, not lengths; {_LENGTHS_FIX}")
    items = lengths if isinstance(lengths, np.ndarray) else list(lengths)
    if not isinstance(items, np.ndarray):
        # token lists (or texts) where lengths belong: name the mistake instead of numpy's error
        for item in items[:1] + items[-1:]:
            if isinstance(item, (str, bytes)):
                raise TypeError(f"lengths: got text ({item[:20]!r}...), not lengths; tokenize first and {_LENGTHS_FIX}")
            if isinstance(item, (list, tuple, np.ndarray)) or isinstance(item, dict):
                raise TypeError(
                    f"lengths: got {type(item).__name__} items (token lists or examples?), not lengths; {_LENGTHS_FIX}"
                )
    try:
        array = np.asarray(items)
    except ValueError as error:  # ragged nested sequences
        raise TypeError(f"lengths: got nested sequences, not lengths; {_LENGTHS_FIX}") from error
    if array.ndim == 2:
        raise TypeError(f"lengths: got a 2-D array {array.shape} (token ids?), not lengths; {_LENGTHS_FIX}")
    if array.ndim != 1 or array.size == 0:
        raise ValueError("lengths: expected a non-empty 1-D sequence of sequence lengths")
    if not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"lengths: expected integers, got dtype {array.dtype}; {_LENGTHS_FIX}")
    if array.min() < 1:
        raise ValueError(f"lengths: every length must be >= 1, got {int(array.min())}")
    return array.astype(np.int64)


def round_up(values: np.ndarray | int, multiple: int) -> np.ndarray:
    return -(-np.asarray(values, dtype=np.int64) // multiple) * multiple


def _check_multiple_and_cap(pad_to_multiple_of: int, max_length: int | None) -> None:
    if pad_to_multiple_of < 1:
        raise ValueError(f"pad_to_multiple_of must be >= 1, got {pad_to_multiple_of}")
    if max_length is not None and max_length < 1:
        raise ValueError(f"max_length must be >= 1, got {max_length}")


@dataclass(frozen=True)
class _Solution:
    """Minimum padded tokens with at most k buckets for every k <= max_shapes, and how to
    recover the boundaries."""

    histogram: LengthHistogram
    min_pad: np.ndarray  # min_pad[k - 1]: least padding with at most k buckets
    parents: np.ndarray  # parents[k - 1, j]: last group before a k-th bucket ending at group j

    def boundaries(self, max_shapes: int) -> tuple[int, ...]:
        k = min(max_shapes, len(self.min_pad))
        # fewest shapes that reach the optimum: an extra shape that saves nothing costs a compile
        k = int(np.flatnonzero(self.min_pad[:k] == self.min_pad[k - 1])[0]) + 1
        ends: list[int] = []
        j = len(self.histogram.values)
        for level in range(k, 0, -1):
            ends.append(j - 1)
            j = int(self.parents[level - 1, j])
        values = self.histogram.values
        return tuple(int(values[e]) for e in reversed(ends))


def check_max_shapes(max_shapes: object) -> None:
    # bool is an int subclass; "4" (from a config file or argv) would compare as str
    if isinstance(max_shapes, bool) or not isinstance(max_shapes, (int, np.integer)):
        raise TypeError(f"max_shapes must be an int, got {max_shapes!r} ({type(max_shapes).__name__})")
    if max_shapes < 1:
        raise ValueError(f"max_shapes must be >= 1, got {max_shapes}")


def _warn_overlong(array: np.ndarray, max_length: int | None) -> None:
    if max_length is None:
        return
    over = int((array > max_length).sum())
    if over:
        warnings.warn(
            f"{over} of {array.size} lengths exceed max_length={max_length} (longest {int(array.max())}): the "
            "boundaries treat them as truncated to max_length; batching them needs overlong='truncate' or "
            "'drop' (the default 'error' raises), or raise max_length",
            UserWarning, stacklevel=3,
        )


def _solve(histogram: LengthHistogram, max_shapes: int) -> _Solution:
    check_max_shapes(max_shapes)
    u = histogram.values
    n = len(u)
    levels = min(max_shapes, n)
    count_prefix = np.concatenate([[0], np.cumsum(histogram.counts)])
    token_prefix = np.concatenate([[0], np.cumsum(histogram.tokens)])
    # best[j]: least padding covering groups 0..j-1 (j groups) with the current number of buckets
    best = u * count_prefix[1:] - token_prefix[1:]
    best = np.concatenate([[0], best])
    parents = np.zeros((levels, n + 1), dtype=np.int64)
    min_pad = np.empty(levels, dtype=np.int64)
    min_pad[0] = best[n]
    big = np.iinfo(np.int64).max // 4
    rows = np.arange(n + 1)[:, None]
    for level in range(2, levels + 1):
        new_best = np.full(n + 1, big, dtype=np.int64)
        for start in range(1, n + 1, _DP_COLUMN_BLOCK):
            cols = np.arange(start, min(start + _DP_COLUMN_BLOCK, n + 1))
            # a bucket over groups i..j-1 ends at value u[j-1] and costs
            # u[j-1] * (C[j] - C[i]) - (T[j] - T[i]); i ranges over split points < j
            cost = (
                best[:, None]
                + u[cols - 1][None, :] * (count_prefix[cols][None, :] - count_prefix[:, None])
                - (token_prefix[cols][None, :] - token_prefix[:, None])
            )
            cost = np.where((rows < cols[None, :]) & (rows >= level - 1), cost, big)
            arg = cost.argmin(axis=0)
            new_best[cols] = cost[arg, np.arange(len(cols))]
            parents[level - 1, cols] = arg
        best = new_best
        min_pad[level - 1] = best[n]
    return _Solution(histogram, min_pad, parents)


def optimal_boundaries(
    lengths: Iterable[int] | np.ndarray,
    max_shapes: int,
    pad_to_multiple_of: int = 1,
    max_length: int | None = None,
) -> tuple[int, ...]:
    """Inclusive bucket upper bounds (ascending, at most ``max_shapes``) minimizing pad tokens.

    Every boundary is a multiple of ``pad_to_multiple_of`` except a cap at ``max_length``;
    lengths above ``max_length`` count as truncated to it. The largest boundary covers the
    longest (capped) length, and no boundary is added that saves no padding. Lengths above
    ``max_length`` give a ``UserWarning`` (they need an ``overlong`` policy when batched).
    """
    check_max_shapes(max_shapes)
    array = as_lengths(lengths)
    _warn_overlong(array, max_length)
    histogram = LengthHistogram.from_lengths(array, pad_to_multiple_of, max_length)
    return _solve(histogram, max_shapes).boundaries(max_shapes)


def optimal_padding_by_num_shapes(
    lengths: Iterable[int] | np.ndarray,
    max_shapes: int,
    pad_to_multiple_of: int = 1,
    max_length: int | None = None,
) -> tuple[int, ...]:
    """Least pad tokens with at most k shapes, for k = 1..max_shapes (one DP run)."""
    histogram = LengthHistogram.from_lengths(lengths, pad_to_multiple_of, max_length)
    solution = _solve(histogram, max_shapes)
    pads = [int(solution.min_pad[min(k, len(solution.min_pad)) - 1]) for k in range(1, max_shapes + 1)]
    return tuple(pads)


def bucket_indices(lengths: np.ndarray, boundaries: tuple[int, ...] | np.ndarray) -> np.ndarray:
    """Index of the smallest boundary >= each length (len(boundaries) where none is)."""
    return np.searchsorted(np.asarray(boundaries, dtype=np.int64), lengths, side="left")


def padded_tokens(lengths: Iterable[int] | np.ndarray, boundaries: tuple[int, ...]) -> int:
    """Pad tokens when each sequence is padded to its bucket's boundary (no dummy rows)."""
    array = as_lengths(lengths)
    index = bucket_indices(array, boundaries)
    if (index >= len(boundaries)).any():
        raise ValueError(
            f"padded_tokens: a length {int(array.max())} exceeds the largest boundary {boundaries[-1]}"
        )
    return int(np.asarray(boundaries, dtype=np.int64)[index].sum() - array.sum())


def padding_fraction(lengths: Iterable[int] | np.ndarray, boundaries: tuple[int, ...]) -> float:
    """Pad tokens over all tokens in the padded sequences."""
    array = as_lengths(lengths)
    pad = padded_tokens(array, boundaries)
    return pad / (pad + int(array.sum()))


def quantile_boundaries(
    lengths: Iterable[int] | np.ndarray, num_shapes: int, pad_to_multiple_of: int = 1,
    max_length: int | None = None,
) -> tuple[int, ...]:
    """Baseline: boundaries at equal-mass length quantiles (what tf.data users usually pick)."""
    array = as_lengths(lengths)
    if max_length is not None:
        array = np.minimum(array, max_length)
    cuts = np.quantile(array, np.arange(1, num_shapes + 1) / num_shapes, method="higher")
    return _finish_baseline(cuts, pad_to_multiple_of, max_length)


def power_of_two_boundaries(
    lengths: Iterable[int] | np.ndarray, num_shapes: int, pad_to_multiple_of: int = 1,
    max_length: int | None = None,
) -> tuple[int, ...]:
    """Baseline: the ``num_shapes`` largest powers of two up to the one covering the longest
    length (the last capped at ``max_length``)."""
    array = as_lengths(lengths)
    longest = int(array.max()) if max_length is None else min(int(array.max()), max_length)
    top = 1 << int(np.ceil(np.log2(longest)))
    cuts = np.array([top >> i for i in range(num_shapes - 1, -1, -1) if top >> i >= 1])
    cuts[-1] = longest if max_length is not None and top > max_length else top
    return _finish_baseline(cuts, pad_to_multiple_of, max_length)


def _finish_baseline(cuts: np.ndarray, pad_to_multiple_of: int, max_length: int | None) -> tuple[int, ...]:
    rounded = round_up(cuts, pad_to_multiple_of)
    if max_length is not None:
        rounded = np.minimum(rounded, max_length)
    return tuple(int(v) for v in np.unique(rounded))


@dataclass(frozen=True)
class ShapeBudget:
    """The number of shapes that minimizes compile time plus time spent on padded tokens."""

    num_shapes: int
    boundaries: tuple[int, ...]
    total_seconds: float
    # (num_shapes, padding fraction, estimated seconds) for every candidate considered
    candidates: tuple[tuple[int, float, float], ...]


def choose_num_shapes(
    lengths: Iterable[int] | np.ndarray,
    steps: int,
    seconds_per_compile: float,
    padded_tokens_per_second: float,
    *,
    batch_size: int = 1,
    max_shapes: int = 64,
    pad_to_multiple_of: int = 1,
    max_length: int | None = None,
) -> ShapeBudget:
    """Pick K trading compiles (``K * seconds_per_compile``) against compute on padded tokens.

    ``lengths`` is a sample of the sequence lengths the model will see; training runs ``steps``
    steps of ``batch_size`` sequences (``batch_size=1`` makes ``steps`` a count of sequences),
    and the model processes ``padded_tokens_per_second`` tokens (pad included) per second.
    Estimated time(K) = K * seconds_per_compile + steps * batch_size * E[padded length | K]
    / padded_tokens_per_second.
    """
    if steps < 1 or batch_size < 1:
        raise ValueError("choose_num_shapes: steps and batch_size must be >= 1")
    if seconds_per_compile < 0 or padded_tokens_per_second <= 0:
        raise ValueError(
            "choose_num_shapes: seconds_per_compile must be >= 0 and padded_tokens_per_second > 0"
        )
    array = as_lengths(lengths)
    histogram = LengthHistogram.from_lengths(array, pad_to_multiple_of, max_length)
    solution = _solve(histogram, max_shapes)
    real = int(histogram.tokens.sum())
    sequences = steps * batch_size
    candidates = []
    for k in range(1, len(solution.min_pad) + 1):
        pad = int(solution.min_pad[k - 1])
        mean_padded_length = (real + pad) / len(array)
        seconds = k * seconds_per_compile + sequences * mean_padded_length / padded_tokens_per_second
        candidates.append((k, pad / (real + pad), seconds))
    best_k, _, best_seconds = min(candidates, key=lambda row: (row[2], row[0]))
    return ShapeBudget(best_k, solution.boundaries(best_k), best_seconds, tuple(candidates))
