"""``tf.data`` from the shards in the manifest (local or ``gs://``): shuffle, batch to a finite,
declared set of static shapes, mask TF-natively, prefetch.

Both dataset builders take a ``tf.distribute.InputContext`` (``distribute_datasets_from_function``):
each input pipeline reads its own shard of the records and batches per replica.

- Train: records shuffled with a fixed seed and repeated, batches of exactly one shape per
  bucket (``drop_remainder``), masks seeded by the global batch index. A resumed run skips the
  batches it already trained on and numbers the rest as before, so it sees the same batches and
  masks an uninterrupted run would.
- Eval: every record exactly once; a partial last batch is padded with dummy rows (all padding,
  so every label is -100) and missing batches are whole dummy batches, so nothing is lost, no
  new shape appears, every replica runs the same number of steps, and an eval set smaller than
  one batch works. Masks are fixed by the eval seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bucketing.masking import MaskingSpec, tf_masking_fn
from reference_trainer import storage

EVAL_SEED_OFFSET = 1_000_003


@dataclass(frozen=True)
class DataSpec:
    """The facts a pipeline needs, read from the manifest's `prepare` record."""

    layout: str  # "blocks" or "sequences" (bucketing)
    block_length: int
    pad_token_id: int
    masking: MaskingSpec
    train_files: tuple[str, ...]
    eval_files: tuple[str, ...]
    train_records: int
    eval_records: int
    train_lengths: tuple[tuple[int, int], ...]  # (length, count)
    eval_lengths: tuple[tuple[int, int], ...]

    @classmethod
    def from_manifest(cls, output_dir: str, prepare: dict[str, Any], mlm_probability: float) -> DataSpec:
        tok = prepare["tokenizer"]
        splits = prepare["splits"]
        masking = MaskingSpec(
            mask_token_id=tok["mask_token_id"], vocab_size=tok["vocab_size"], mlm_probability=mlm_probability,
            special_token_ids=(tok["bos_token_id"], tok["eos_token_id"], tok["unk_token_id"], tok["mask_token_id"]),
            pad_token_id=tok["pad_token_id"],
        )

        def files(split: str) -> tuple[str, ...]:
            return tuple(storage.join(output_dir, s["file"]) for s in splits[split]["shards"])

        def lengths(split: str) -> tuple[tuple[int, int], ...]:
            return tuple((int(k), int(v)) for k, v in splits[split]["length_histogram"].items())

        return cls(
            layout=prepare["layout"], block_length=prepare["block_length"], pad_token_id=tok["pad_token_id"],
            masking=masking, train_files=files("train"), eval_files=files("eval"),
            train_records=splits["train"]["records"], eval_records=splits["eval"]["records"],
            train_lengths=lengths("train"), eval_lengths=lengths("eval"),
        )

    @property
    def bucketed(self) -> bool:
        return self.layout == "sequences"


def bucket_spec(data: DataSpec, per_replica_batch: int, max_shapes: int, pad_to_multiple_of: int) -> Any:
    """The bucketing package's shape set, fitted to the train length histogram."""
    import numpy as np

    from bucketing import BucketSpec

    lengths = np.repeat([length for length, _ in data.train_lengths], [count for _, count in data.train_lengths])
    return BucketSpec.fit(
        lengths, max_shapes=max_shapes, pad_to_multiple_of=pad_to_multiple_of,
        batch_size=per_replica_batch, max_length=data.block_length,
    )


def _records(files: tuple[str, ...], ctx: Any) -> Any:
    import tensorflow as tf

    def parse(serialized: tf.Tensor) -> dict[str, tf.Tensor]:
        parsed = tf.io.parse_single_example(serialized, {"input_ids": tf.io.VarLenFeature(tf.int64)})
        ids = tf.cast(tf.sparse.to_dense(parsed["input_ids"]), tf.int32)
        return {"input_ids": ids, "attention_mask": tf.ones_like(ids)}

    # Files are read in manifest order and records sharded round-robin: deterministic, and
    # each input pipeline (worker/host) sees a disjoint share.
    records = tf.data.TFRecordDataset(list(files))
    if ctx.num_input_pipelines > 1:
        records = records.shard(ctx.num_input_pipelines, ctx.input_pipeline_id)
    return records.map(parse, num_parallel_calls=tf.data.AUTOTUNE)


def _pad_to_block(block_length: int, pad_id: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
    import tensorflow as tf

    def fn(features: dict[str, tf.Tensor]) -> dict[str, tf.Tensor]:
        missing = block_length - tf.shape(features["input_ids"])[0]
        ids = tf.pad(features["input_ids"], [[0, missing]], constant_values=pad_id)
        mask = tf.pad(features["attention_mask"], [[0, missing]])
        ids.set_shape([block_length])
        mask.set_shape([block_length])
        return {"input_ids": ids, "attention_mask": mask}

    return fn


def _pad_rows(batch: int, pad_id: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
    import tensorflow as tf

    def fn(features: dict[str, tf.Tensor]) -> dict[str, tf.Tensor]:
        missing = batch - tf.shape(features["input_ids"])[0]
        out = {}
        for key, value in features.items():
            padded = tf.pad(value, [[0, missing], [0, 0]], constant_values=pad_id if key == "input_ids" else 0)
            padded.set_shape([batch, value.shape[1]])
            out[key] = padded
        return out

    return fn


def _dummy_batch(shape: tuple[int, int], pad_id: int) -> Any:
    import tensorflow as tf

    return tf.data.Dataset.from_tensors(
        {"input_ids": tf.fill(shape, tf.constant(pad_id, tf.int32)), "attention_mask": tf.zeros(shape, tf.int32)}
    ).repeat()


def _keep_model_inputs(features: dict[str, Any]) -> dict[str, Any]:
    return {"input_ids": features["input_ids"], "attention_mask": features["attention_mask"]}


def train_dataset(
    data: DataSpec, *, global_batch: int, seed: int, shuffle_buffer: int, start_step: int,
    max_shapes: int, pad_to_multiple_of: int, ctx: Any,
) -> Any:
    import tensorflow as tf

    batch = ctx.get_per_replica_batch_size(global_batch)
    # One global step takes one batch per replica; each pipeline feeds this many replicas.
    batches_per_step = ctx.num_replicas_in_sync // ctx.num_input_pipelines
    records = _records(data.train_files, ctx)
    records = records.shuffle(shuffle_buffer, seed=seed, reshuffle_each_iteration=True).repeat()
    if data.bucketed:
        from bucketing.tf_data import bucket_batch

        spec = bucket_spec(data, batch, max_shapes, pad_to_multiple_of)
        batches = bucket_batch(records, spec, pad_values={"input_ids": data.pad_token_id}, seed=seed)
        batches = batches.map(_keep_model_inputs)
    else:
        batches = records.map(_pad_to_block(data.block_length, data.pad_token_id)).batch(batch, drop_remainder=True)
    first = start_step * batches_per_step
    masking = tf_masking_fn(data.masking, seed=seed * 7919 + ctx.input_pipeline_id + 1)
    return batches.skip(first).enumerate(start=first).map(masking, num_parallel_calls=tf.data.AUTOTUNE).prefetch(
        tf.data.AUTOTUNE
    )


def eval_batch_shapes(data: DataSpec, per_replica_batch: int, max_shapes: int, pad_to_multiple_of: int) -> tuple[tuple[int, int], ...]:
    if data.bucketed:
        return tuple(bucket_spec(data, per_replica_batch, max_shapes, pad_to_multiple_of).shapes())
    return ((per_replica_batch, data.block_length),)


def eval_steps(data: DataSpec, *, global_batch: int, num_replicas: int, max_shapes: int, pad_to_multiple_of: int) -> int:
    """Steps that cover every eval record on every input pipeline (extra batches are dummies).

    Blocks: a pipeline holds at most ceil(N / P) records and takes B / P per step, so
    ceil((N + P - 1) / B) steps suffice; P <= replicas gives the bound used here. Buckets: a
    pipeline may hold every record of a bucket, so each bucket is counted in full.
    """
    if not data.bucketed:
        return max(1, math.ceil((data.eval_records + num_replicas - 1) / global_batch))
    per_replica = global_batch // num_replicas
    spec = bucket_spec(data, per_replica, max_shapes, pad_to_multiple_of)
    per_bucket = [0] * len(spec.boundaries)
    for length, count in data.eval_lengths:
        per_bucket[spec.bucket_index(length)] += count
    return max(1, sum(math.ceil(n / size) for n, size in zip(per_bucket, spec.batch_sizes)))


def eval_dataset(
    data: DataSpec, *, global_batch: int, seed: int, steps: int, max_shapes: int, pad_to_multiple_of: int,
    ctx: Any,
) -> Any:
    import tensorflow as tf

    batch = ctx.get_per_replica_batch_size(global_batch)
    batches_per_step = ctx.num_replicas_in_sync // ctx.num_input_pipelines
    records = _records(data.eval_files, ctx)
    if data.bucketed:
        from bucketing.tf_data import bucket_batch

        spec = bucket_spec(data, batch, max_shapes, pad_to_multiple_of)
        batches = bucket_batch(records, spec, pad_values={"input_ids": data.pad_token_id}).map(_keep_model_inputs)
        dummy_shape = tuple(spec.shapes()[0])
    else:
        batches = (
            records.map(_pad_to_block(data.block_length, data.pad_token_id))
            .batch(batch)
            .map(_pad_rows(batch, data.pad_token_id))
        )
        dummy_shape = (batch, data.block_length)
    batches = batches.concatenate(_dummy_batch(dummy_shape, data.pad_token_id)).take(steps * batches_per_step)
    masking = tf_masking_fn(data.masking, seed=seed + EVAL_SEED_OFFSET + ctx.input_pipeline_id)
    return batches.enumerate().map(masking).prefetch(tf.data.AUTOTUNE)
