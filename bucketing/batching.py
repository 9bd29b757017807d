"""The batch former: groups sequences of similar length into full, fixed-shape batches.

Bucketing has to happen where batches are formed: with random batches nearly every batch
holds one long sequence, so padding each batch to its longest still wastes about half.

Every replica (process, host) runs the same former over the same stream with the same seed,
so all of them form the same *global* batches (B x num_replicas rows, B the bucket's batch
size) in the same order; replica r keeps rows r, r + num_replicas, ... of each. Every replica is thus on
the same shape at every step, as synchronous data parallelism needs. A bucket's last, partial
global batch is filled with :class:`DummyRow` slots (the collator turns them into rows with
attention_mask 0, labels -100, sample weight 0), so nothing is dropped and no shape is added.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np

from bucketing.spec import BucketSpec, Overlong, check_overlong, overlong_error

T = TypeVar("T")


@dataclass(frozen=True)
class DummyRow:
    """A placeholder row of ``bucket``: padding only, weight 0. Collators accept it in place of
    an example. ``template`` is a real row of the same global batch: a replica whose share
    holds no real row still learns the batch's keys and dtypes from it (never its values)."""

    bucket: int
    template: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class FormedBatch(Generic[T]):
    """One replica's share of a global batch: ``rows`` (examples or indices, then DummyRows)
    all belonging to ``bucket``; ``len(rows)`` is always ``spec.batch_sizes[bucket]``."""

    bucket: int
    rows: tuple[T | DummyRow, ...]

    @property
    def num_real(self) -> int:
        return sum(not isinstance(r, DummyRow) for r in self.rows)


def default_length(example: Any, length_key: str = "input_ids") -> int:
    """Length of a dict example's ``length_key`` or of a plain sequence."""
    if isinstance(example, dict):
        return len(example[length_key])
    return len(example)


@dataclass(frozen=True)
class BatchFormer:
    """Group a stream of sequences into fixed-shape batches of ``spec``.

    ``shuffle_buffer`` > 1 draws each next sequence at random from a buffer of that many (as
    ``tf.data.Dataset.shuffle`` does); buckets fill in data order, so batches of different
    buckets interleave. The same ``seed`` and ``epoch`` give the same batches everywhere.
    ``overlong``: what to do with a sequence longer than the largest boundary: ``"error"``
    (default), ``"truncate"`` (it joins the last bucket; the collator cuts it) or ``"drop"``.
    """

    spec: BucketSpec
    shuffle_buffer: int = 0
    seed: int | None = None
    num_replicas: int = 1
    replica_index: int = 0
    overlong: Overlong = "error"

    def __post_init__(self) -> None:
        check_overlong(self.overlong, "BatchFormer")
        if self.shuffle_buffer < 0:
            raise ValueError(f"BatchFormer.shuffle_buffer must be >= 0, got {self.shuffle_buffer}")
        if self.num_replicas < 1 or not 0 <= self.replica_index < self.num_replicas:
            raise ValueError(
                f"BatchFormer: replica_index must be in [0, num_replicas), got "
                f"{self.replica_index} of {self.num_replicas}"
            )

    def rng(self, epoch: int = 0) -> np.random.Generator:
        """The generator for ``epoch``: independent of the replica, so all replicas agree."""
        return np.random.default_rng(None if self.seed is None else [self.seed, epoch])

    def form(
        self,
        items: Iterable[T],
        lengths: Iterable[int] | None = None,
        *,
        length_of: Callable[[T], int] = default_length,
        epoch: int = 0,
    ) -> Iterator[FormedBatch[T]]:
        """Yield this replica's batches of ``items`` (examples or indices).

        Lengths come from ``lengths`` (parallel to ``items``) or ``length_of(item)``.
        """
        pairs: Iterable[tuple[T, int]] = (
            zip(items, lengths, strict=True) if lengths is not None
            else ((item, length_of(item)) for item in items)
        )
        spec = self.spec
        boundaries = list(spec.boundaries)
        global_sizes = [b * self.num_replicas for b in spec.batch_sizes]
        queues: list[list[T]] = [[] for _ in spec.boundaries]
        rng = self.rng(epoch)
        buffer: list[tuple[T, int]] = []

        def route(item: T, length: int) -> FormedBatch[T] | None:
            bucket = bisect_left(boundaries, length)
            if bucket == len(boundaries):
                if self.overlong == "error":
                    raise overlong_error(length, spec, "BatchFormer")
                if self.overlong == "drop":
                    return None
                bucket -= 1
            queue = queues[bucket]
            queue.append(item)
            if len(queue) == global_sizes[bucket]:
                queues[bucket] = []
                return self._share(bucket, queue)
            return None

        uniforms: list[float] = []

        def draw() -> tuple[T, int]:
            if not uniforms:  # one generator call per 1024 draws: per-call overhead dominates
                uniforms.extend(rng.random(1024).tolist())
            i = int(uniforms.pop() * len(buffer))
            # swap-remove keeps each draw O(1)
            buffer[i], buffer[-1] = buffer[-1], buffer[i]
            return buffer.pop()

        for pair in pairs:
            if self.shuffle_buffer <= 1:
                batch = route(*pair)
            else:
                buffer.append(pair)
                batch = route(*draw()) if len(buffer) >= self.shuffle_buffer else None
            if batch is not None:
                yield batch
        while buffer:
            batch = route(*draw())
            if batch is not None:
                yield batch
        for bucket, queue in enumerate(queues):
            if queue:
                yield self._share(bucket, queue)

    def _share(self, bucket: int, global_rows: Sequence[T]) -> FormedBatch[T]:
        size = self.spec.batch_sizes[bucket]
        # strided, so a partial batch's real rows spread over the replicas
        mine: list[T | DummyRow] = list(global_rows[self.replica_index::self.num_replicas])
        mine.extend([DummyRow(bucket, global_rows[0])] * (size - len(mine)))
        return FormedBatch(bucket, tuple(mine))

    def num_batches(self, lengths: Iterable[int] | np.ndarray) -> int:
        """How many batches :meth:`form` yields for these lengths (the same on every replica)."""
        index = self.spec.bucket_indices(lengths)
        overlong = index == self.spec.num_buckets
        if overlong.any():
            if self.overlong == "error":
                raise overlong_error(int(np.asarray(lengths)[overlong].max()), self.spec, "BatchFormer")
            last = self.spec.num_buckets - 1
            index = index[~overlong] if self.overlong == "drop" else np.minimum(index, last)
        counts = np.bincount(index, minlength=self.spec.num_buckets)
        sizes = np.asarray(self.spec.batch_sizes) * self.num_replicas
        return int((-(-counts // sizes)).sum())
