"""PyTorch batches from the prepared TFRecord shards, read without TensorFlow.

One batching path for both layouts: fixed blocks are a one-bucket
:class:`~bucketing.BucketSpec` ``((block_length,), (per_device_batch,))``, and ``--bucketing``
uses the spec the TF path fits to the same length histogram. Batches are formed by
:class:`bucketing.torch_sampler.BucketBatchSampler` (a fresh permutation per epoch, the same
global batches on every replica, replica r takes its strided share, partial batches filled
with dummy rows), padded by :class:`bucketing.BucketingCollator` and masked by
:func:`bucketing.masking.mask_tokens_np`: the numpy twin of the TF path's masking, one
algorithm and one :class:`~bucketing.masking.MaskingSpec` (``tests/bucketing/
test_masking_statistics.py`` holds both twins to the same rates).

Determinism: the masks of a train batch depend only on (seed, step, replica) and the batches on
(seed, epoch), so a resumed run sees the batches and masks an uninterrupted one would. Eval
masks depend on (seed, batch index, replica) only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from bucketing.batching import DummyRow
from bucketing.collator import BucketingCollator
from bucketing.masking import mask_tokens_np
from bucketing.spec import BucketSpec
from reference_trainer import storage
from reference_trainer.manifest import StageError
from reference_trainer.pipeline import EVAL_SEED_OFFSET, DataSpec, bucket_spec
from reference_trainer.tfrecord import CorruptRecord, decode_int64_example, read_records


def read_split(files: tuple[str, ...]) -> list[np.ndarray]:
    """Every record of the shards, in manifest order (CRCs checked)."""
    records: list[np.ndarray] = []
    for path in files:
        try:
            with storage.gfile().GFile(path, "rb") as handle:
                for data in read_records(handle, path):
                    records.append(np.asarray(decode_int64_example(data, "input_ids"), dtype=np.int64))
        except CorruptRecord as error:
            raise StageError(f"shard {path} is corrupt ({error}); run `prepare` again into a new --output-dir") from error
    return records


def batch_spec(data: DataSpec, per_device_batch: int, max_shapes: int, pad_to_multiple_of: int) -> BucketSpec:
    """Every (batch, length) shape this run's steps see: one for blocks, the fitted set for buckets."""
    if data.bucketed:
        return bucket_spec(data, per_device_batch, max_shapes, pad_to_multiple_of)
    return BucketSpec((data.block_length,), (per_device_batch,))


@dataclass(frozen=True)
class _Item:
    step: int
    row: int | DummyRow


class _Records:
    """Map-style dataset: ``_Item(step, index)`` -> ``(step, {"input_ids": ids})`` (or the DummyRow)."""

    def __init__(self, records: list[np.ndarray]) -> None:
        self.records = records

    def __getitem__(self, item: _Item) -> tuple[int, Any]:
        if isinstance(item.row, DummyRow):
            template = item.row.template
            return item.step, DummyRow(item.row.bucket, {"input_ids": self.records[template]} if template is not None else None)
        return item.step, {"input_ids": self.records[item.row]}

    def __len__(self) -> int:
        return len(self.records)


class _StepSampler:
    """Batch sampler: epochs of a BucketBatchSampler, numbered by global step, from ``start``."""

    def __init__(self, sampler: Any, start: int, stop: int | None) -> None:
        self.sampler, self.start, self.stop = sampler, start, stop

    def __iter__(self) -> Iterator[list[_Item]]:
        step, epoch = 0, 0
        per_epoch = len(self.sampler)
        if per_epoch == 0:
            return
        if self.stop is not None:  # skip whole epochs without forming their batches
            epoch = self.start // per_epoch
            step = epoch * per_epoch
        while self.stop is None or step < self.stop:
            self.sampler.set_epoch(epoch)
            for rows in self.sampler:
                if self.stop is not None and step >= self.stop:
                    return
                if step >= self.start:
                    yield [_Item(step, row) for row in rows]
                step += 1
            epoch += 1
            if self.stop is None:
                return

    def __len__(self) -> int:
        if self.stop is None:
            return len(self.sampler)
        return max(0, self.stop - self.start)


class MaskingCollate:
    """``collate_fn``: pad with the BucketingCollator, mask with a (seed, step, replica) generator."""

    def __init__(self, spec: BucketSpec, data: DataSpec, seed: int, replica: int) -> None:
        self.collator = BucketingCollator(spec, pad_token_id=data.pad_token_id, return_tensors="np",
                                          sample_weight_key=None)
        self.masking, self.seed, self.replica = data.masking, seed, replica

    def __call__(self, items: list[tuple[int, Any]]) -> dict[str, Any]:
        import torch

        step = items[0][0]
        batch = self.collator.collate_np([features for _, features in items])
        rng = np.random.default_rng([self.seed, step, self.replica])
        batch["input_ids"], batch["labels"] = mask_tokens_np(batch["input_ids"], self.masking, rng)
        return {key: torch.from_numpy(value) for key, value in batch.items()}


def lengths_of(records: list[np.ndarray]) -> np.ndarray:
    return np.fromiter(map(len, records), dtype=np.int64, count=len(records))


def train_loader(
    data: DataSpec, records: list[np.ndarray], spec: BucketSpec, *, seed: int, start_step: int, total_steps: int,
    num_replicas: int, rank: int,
) -> Any:
    """A DataLoader of this replica's masked train batches for steps [start_step, total_steps)."""
    from torch.utils.data import DataLoader

    from bucketing.torch_sampler import BucketBatchSampler

    sampler = BucketBatchSampler(lengths_of(records), spec, shuffle=True, seed=seed, num_replicas=num_replicas,
                                 rank=rank)
    return DataLoader(_Records(records), batch_sampler=_StepSampler(sampler, start_step, total_steps),
                      collate_fn=MaskingCollate(spec, data, seed, rank), num_workers=0)


def eval_loader(data: DataSpec, records: list[np.ndarray], spec: BucketSpec, *, seed: int, num_replicas: int,
                rank: int) -> Any:
    """Every eval record exactly once over the replicas (dummy rows fill partial batches);
    every replica gets the same number of batches."""
    from torch.utils.data import DataLoader

    from bucketing.torch_sampler import BucketBatchSampler

    sampler = BucketBatchSampler(lengths_of(records), spec, shuffle=False, seed=seed, num_replicas=num_replicas,
                                 rank=rank)
    return DataLoader(_Records(records), batch_sampler=_StepSampler(sampler, 0, None),
                      collate_fn=MaskingCollate(spec, data, seed + EVAL_SEED_OFFSET, rank), num_workers=0)
