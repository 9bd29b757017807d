"""``bucket_batch``: the tf.data twin of BatchFormer + BucketingCollator, TF-native ops only.

Built from ``group_by_window`` (one window per bucket, as long as that bucket's batch size),
``padded_batch`` to the bucket's boundary, and a final ``tf.pad`` that fills a partial batch
with dummy rows. No ``py_function``/``numpy_function``, so the pipeline runs on a TPU Node's
host as well. TensorFlow is imported only when this module's function is called.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bucketing.spec import BucketSpec

if TYPE_CHECKING:  # pragma: no cover
    import tensorflow as tf

DEFAULT_PAD_VALUES: dict[str, int] = {
    "input_ids": 0,
    "attention_mask": 0,
    "token_type_ids": 0,
    "special_tokens_mask": 1,
    "labels": -100,
    "label": -100,
}


def bucket_batch(
    dataset: tf.data.Dataset,
    spec: BucketSpec,
    *,
    length_key: str = "input_ids",
    pad_values: Mapping[str, int] | None = None,
    shuffle_buffer: int = 0,
    seed: int | None = None,
    drop_overlong: bool = False,
    truncate_overlong: bool = False,
    sample_weight_key: str | None = "sample_weight",
) -> tf.data.Dataset:
    """Batch a dataset of dicts (rank-1 sequences and scalars) into ``spec.shapes()`` only.

    Each element goes to the bucket of ``len(element[length_key])`` and is padded to its
    boundary (``pad_values[key]``, defaults in :data:`DEFAULT_PAD_VALUES`, 0 for other keys).
    Every batch has its bucket's batch size: partial batches at the end get dummy rows
    (attention_mask 0, labels -100, ``sample_weight`` 0), so evaluation drops nothing.
    ``attention_mask`` and ``sample_weight`` are added when absent. A sequence longer than the
    largest boundary fails the pipeline unless ``drop_overlong`` or ``truncate_overlong``.
    Compose MLM masking after it: ``.enumerate().map(bucketing.tf_masking_fn(...))``.
    """
    import tensorflow as tf

    element_spec = dataset.element_spec
    if not isinstance(element_spec, Mapping) or length_key not in element_spec:
        raise ValueError(
            f"bucket_batch: expected a dataset of dicts holding {length_key!r} (set length_key=)"
        )
    if drop_overlong and truncate_overlong:
        raise ValueError("bucket_batch: pass at most one of drop_overlong= and truncate_overlong=")
    ranks = {key: s.shape.rank for key, s in element_spec.items()}
    bad = sorted(k for k, r in ranks.items() if r not in (0, 1))
    if bad:
        raise ValueError(f"bucket_batch: features must be scalars or 1-D sequences; {bad} are not")
    pads = {**DEFAULT_PAD_VALUES, **dict(pad_values or {})}
    max_length = spec.max_length
    boundaries = tf.constant(spec.boundaries, dtype=tf.int64)
    batch_sizes = tf.constant(spec.batch_sizes, dtype=tf.int64)
    length_dtype = element_spec[length_key].dtype

    def length_of(features: Mapping[str, tf.Tensor]) -> tf.Tensor:
        return tf.shape(features[length_key], out_type=tf.int64)[0]

    def prepare(features: Mapping[str, tf.Tensor]) -> dict[str, tf.Tensor]:
        out = dict(features)
        if "attention_mask" not in out:
            out["attention_mask"] = tf.ones_like(out[length_key], dtype=length_dtype)
        if sample_weight_key is not None and sample_weight_key not in out:
            out[sample_weight_key] = tf.constant(1.0, tf.float32)
        if truncate_overlong:
            out = {k: v[:max_length] if v.shape.rank == 1 else v for k, v in out.items()}
        elif not drop_overlong:
            check = tf.debugging.assert_less_equal(
                length_of(out), tf.constant(max_length, tf.int64),
                message=(
                    f"bucket_batch: a sequence exceeds the largest bucket boundary {max_length}; "
                    "pass drop_overlong=True or truncate_overlong=True"
                ),
            )
            with tf.control_dependencies([check]):
                out[length_key] = tf.identity(out[length_key])
        return out

    if shuffle_buffer > 1:
        dataset = dataset.shuffle(shuffle_buffer, seed=seed)
    if drop_overlong:
        dataset = dataset.filter(lambda f: length_of(f) <= max_length)
    dataset = dataset.map(prepare)
    prepared_spec = dataset.element_spec

    def pad_value(key: str) -> tf.Tensor:
        return tf.constant(pads.get(key, 0), dtype=prepared_spec[key].dtype)

    def bucket_of(length: tf.Tensor) -> tf.Tensor:
        return tf.searchsorted(boundaries, tf.reshape(length, [1]), side="left", out_type=tf.int64)[0]

    def reduce(bucket: tf.Tensor, window: tf.data.Dataset) -> tf.data.Dataset:
        width = tf.gather(boundaries, bucket)
        shapes = {
            k: (tf.reshape(width, [1]) if s.shape.rank == 1 else tf.constant([], tf.int64))
            for k, s in prepared_spec.items()
        }
        return window.padded_batch(
            tf.gather(batch_sizes, bucket), padded_shapes=shapes,
            padding_values={k: pad_value(k) for k in prepared_spec},
        )

    # one batch size for every bucket: say so statically (Keras and TPU replicas like it)
    static_rows = spec.batch_sizes[0] if len(set(spec.batch_sizes)) == 1 else None

    def fill_rows(batch: Mapping[str, tf.Tensor]) -> dict[str, tf.Tensor]:
        ids = batch[length_key]
        bucket = bucket_of(tf.shape(ids, out_type=tf.int64)[1])
        missing = tf.gather(batch_sizes, bucket) - tf.shape(ids, out_type=tf.int64)[0]
        out = {}
        for key, value in batch.items():
            padding = [[0, missing]] + [[0, 0]] * (value.shape.rank - 1)
            padded = tf.pad(value, padding, constant_values=pad_value(key))
            out[key] = tf.ensure_shape(padded, [static_rows] + [None] * (value.shape.rank - 1))
        return out

    dataset = dataset.group_by_window(
        key_func=lambda f: bucket_of(length_of(f)),
        reduce_func=reduce,
        window_size_func=lambda bucket: tf.gather(batch_sizes, bucket),
    )
    return dataset.map(fill_rows)
