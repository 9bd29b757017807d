"""PyTorch DataLoader support: a batch sampler over a map-style dataset, per-replica.

PyTorch is imported only here, and only the ``Sampler`` base class is needed from it.
Usage::

    sampler = BucketBatchSampler(lengths, spec, seed=0, num_replicas=world, rank=rank)
    loader = DataLoader(WithDummyRows(dataset), batch_sampler=sampler,
                        collate_fn=BucketingCollator(spec, pad_token_id=..., return_tensors="pt"))

Dummy slots are :class:`~bucketing.batching.DummyRow` objects: :class:`WithDummyRows` hands
them through to the collator, which turns them into padding rows with weight 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from bucketing.batching import BatchFormer, DummyRow
from bucketing.boundaries import as_lengths
from bucketing.spec import BucketSpec, Overlong

try:
    from torch.utils.data import Sampler
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "bucketing.torch_sampler needs PyTorch: pip install torch (or use bucketing.BatchFormer)"
    ) from error


class BucketBatchSampler(Sampler):  # type: ignore[type-arg]
    """Yields lists of dataset indices (and DummyRows), one fixed-shape batch at a time.

    Each epoch is a fresh permutation of all indices (``shuffle``), grouped into buckets by
    :class:`~bucketing.batching.BatchFormer`, so every rank sees the same bucket at every step.
    Call :meth:`set_epoch` each epoch, as with ``DistributedSampler``.
    """

    def __init__(
        self,
        lengths: Iterable[int] | np.ndarray,
        spec: BucketSpec,
        *,
        shuffle: bool = True,
        seed: int = 0,
        num_replicas: int = 1,
        rank: int = 0,
        overlong: Overlong = "error",
    ) -> None:
        self.lengths = as_lengths(lengths)
        self.shuffle = shuffle
        self.epoch = 0
        self.former = BatchFormer(
            spec, seed=seed, num_replicas=num_replicas, replica_index=rank, overlong=overlong
        )
        self._len = self.former.num_batches(self.lengths)

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def __iter__(self) -> Iterator[list[int | DummyRow]]:
        order = np.arange(len(self.lengths))
        if self.shuffle:
            order = self.former.rng(self.epoch).permutation(order)
        for batch in self.former.form(order.tolist(), self.lengths[order].tolist(), epoch=self.epoch):
            yield list(batch.rows)

    def __len__(self) -> int:
        return self._len


class WithDummyRows:
    """A map-style dataset view that hands DummyRows through to the collator (with their
    template index resolved to the example, so an all-dummy batch still has its keys)."""

    def __init__(self, dataset: Any) -> None:
        self.dataset = dataset

    def __getitem__(self, index: int | DummyRow) -> Any:
        if isinstance(index, DummyRow):
            return DummyRow(index.bucket, self.dataset[index.template])
        return self.dataset[index]

    def __len__(self) -> int:
        return len(self.dataset)
