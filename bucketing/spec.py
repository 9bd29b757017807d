"""BucketSpec: the finite, declared set of (batch, length) shapes a model will see."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from bucketing.boundaries import as_lengths, bucket_indices, optimal_boundaries

Overlong = Literal["error", "truncate", "drop"]
OVERLONG_CHOICES: tuple[str, ...] = ("error", "truncate", "drop")


@dataclass(frozen=True)
class BucketSpec:
    """Inclusive bucket upper bounds and the batch size of each bucket.

    A sequence of length n goes to the first bucket whose boundary is >= n and is padded to
    that boundary; every batch of bucket i has exactly ``batch_sizes[i]`` rows (partial
    batches are filled with dummy rows), so ``shapes()`` is every shape the model can see.
    """

    boundaries: tuple[int, ...]
    batch_sizes: tuple[int, ...]

    def __post_init__(self) -> None:
        boundaries = tuple(int(b) for b in self.boundaries)
        batch_sizes = tuple(int(b) for b in self.batch_sizes)
        object.__setattr__(self, "boundaries", boundaries)
        object.__setattr__(self, "batch_sizes", batch_sizes)
        if not boundaries:
            raise ValueError("BucketSpec.boundaries must hold at least one boundary")
        if any(b < 1 for b in boundaries) or any(a >= b for a, b in zip(boundaries, boundaries[1:])):
            raise ValueError(
                f"BucketSpec.boundaries must be positive and strictly ascending, got {boundaries}"
            )
        if len(batch_sizes) != len(boundaries):
            raise ValueError(
                f"BucketSpec: {len(batch_sizes)} batch_sizes for {len(boundaries)} boundaries; "
                "give one batch size per bucket"
            )
        if any(b < 1 for b in batch_sizes):
            raise ValueError(f"BucketSpec.batch_sizes must be >= 1, got {batch_sizes}")

    @classmethod
    def fit(
        cls,
        lengths: Iterable[int] | np.ndarray,
        max_shapes: int,
        pad_to_multiple_of: int = 1,
        batch_size: int | None = None,
        max_length: int | None = None,
        *,
        tokens_per_batch: int | None = None,
        batch_multiple: int = 1,
    ) -> BucketSpec:
        """Fit minimum-padding boundaries to ``lengths`` (all of them or a sample).

        Give either ``batch_size`` (the same for every bucket) or ``tokens_per_batch``: each
        bucket then gets ``tokens_per_batch // boundary`` rows, rounded down to a multiple of
        ``batch_multiple`` (e.g. the number of replicas, or 8 for tensor cores).
        """
        boundaries = optimal_boundaries(lengths, max_shapes, pad_to_multiple_of, max_length)
        return cls.from_boundaries(
            boundaries, batch_size=batch_size, tokens_per_batch=tokens_per_batch,
            batch_multiple=batch_multiple,
        )

    @classmethod
    def from_boundaries(
        cls,
        boundaries: Iterable[int],
        *,
        batch_size: int | None = None,
        tokens_per_batch: int | None = None,
        batch_multiple: int = 1,
    ) -> BucketSpec:
        bounds = tuple(int(b) for b in boundaries)
        if (batch_size is None) == (tokens_per_batch is None):
            raise ValueError("BucketSpec: give exactly one of batch_size= or tokens_per_batch=")
        if batch_multiple < 1:
            raise ValueError(f"BucketSpec: batch_multiple must be >= 1, got {batch_multiple}")
        if batch_size is not None:
            if batch_size % batch_multiple:
                raise ValueError(
                    f"BucketSpec: batch_size {batch_size} is not a multiple of batch_multiple "
                    f"{batch_multiple}"
                )
            return cls(bounds, (batch_size,) * len(bounds))
        assert tokens_per_batch is not None
        sizes = tuple((tokens_per_batch // b) // batch_multiple * batch_multiple for b in bounds)
        if min(sizes) < 1:
            raise ValueError(
                f"BucketSpec: tokens_per_batch={tokens_per_batch} holds fewer than "
                f"batch_multiple={batch_multiple} rows of the longest bucket ({max(bounds)}); "
                f"raise tokens_per_batch to at least {max(bounds) * batch_multiple}"
            )
        return cls(bounds, sizes)

    @property
    def max_length(self) -> int:
        return self.boundaries[-1]

    @property
    def num_buckets(self) -> int:
        return len(self.boundaries)

    def bucket_index(self, length: int) -> int:
        """The bucket of a sequence of ``length`` tokens; ValueError if it exceeds every boundary."""
        index = int(bucket_indices(np.asarray([length]), self.boundaries)[0])
        if index == len(self.boundaries):
            raise ValueError(
                f"length {length} exceeds the largest bucket boundary {self.max_length}; "
                "pass overlong='truncate' or overlong='drop' (or fit the spec with a larger max_length)"
            )
        return index

    def bucket_indices(self, lengths: Iterable[int] | np.ndarray) -> np.ndarray:
        """Vectorized :meth:`bucket_index`; overlong lengths get ``num_buckets``."""
        return bucket_indices(as_lengths(lengths), self.boundaries)

    def shapes(self) -> tuple[tuple[int, int], ...]:
        """Every (batch, length) input shape the model can see, one per bucket."""
        return tuple(zip(self.batch_sizes, self.boundaries))

    def to_dict(self) -> dict[str, list[int]]:
        """JSON-ready form, e.g. for a run manifest; :meth:`from_dict` reads it back."""
        return {"boundaries": list(self.boundaries), "batch_sizes": list(self.batch_sizes)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BucketSpec:
        unknown = set(data) - {"boundaries", "batch_sizes"}
        if unknown:
            raise ValueError(f"BucketSpec.from_dict: unknown keys {sorted(unknown)}")
        return cls(tuple(data["boundaries"]), tuple(data["batch_sizes"]))


def check_overlong(overlong: str, where: str) -> None:
    if overlong not in OVERLONG_CHOICES:
        raise ValueError(f"{where}: overlong must be one of {OVERLONG_CHOICES}, got {overlong!r}")


def overlong_error(length: int, spec: BucketSpec, where: str) -> ValueError:
    return ValueError(
        f"{where}: a sequence of length {length} exceeds the largest bucket boundary "
        f"{spec.max_length}; pass overlong='truncate' or overlong='drop'"
    )
