"""tf.data input of packed batches, two ways.

- :func:`pack_dataset`: a tf.data transformation in TensorFlow ops only (no ``py_function``),
  so it runs where the pipeline runs, a TPU Node's host included. It packs a stream: each
  window of ``window`` consecutive examples is packed by best-fit decreasing (the placement of
  :func:`bucketing.packing.plan_packing`, in a ``tf.while_loop``), and the rows are batched
  ``batch_size`` at a time into one static shape ``(batch_size, max_length)``.
- :func:`packed_dataset`: ``pack_batches`` + ``PackingCollator`` behind ``from_generator``. The
  packing runs in Python on the host over the whole dataset (every length first), and batches
  may take any of ``spec.shapes()``. Not for a TPU Node (its host runs no Python); on TPU VMs
  and GPUs it works as any ``from_generator`` pipeline.

Both give ``input_ids``, ``segment_ids`` (1, 2, ... per example in a row, 0 = padding),
``position_ids`` (restarting at 0 per example) and the other keys packed the same way; build
the attention mask from ``segment_ids`` (:mod:`bucketing.packing_masks`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from bucketing.packing import pack_batches
from bucketing.packing_collator import PackingCollator


def packed_dataset(
    features: Sequence[Mapping[str, Any]], collator: PackingCollator, *, seed: int | None = 0
) -> Any:
    """A ``tf.data.Dataset`` of the packed batches of ``features`` (numpy-collated by
    ``collator``, whose ``return_tensors`` must be "np"); a new ``seed`` gives new batches."""
    import tensorflow as tf

    if collator.return_tensors != "np":
        raise ValueError("packed_dataset: give a PackingCollator with return_tensors='np' (tf.data converts)")
    if not features:
        raise ValueError("packed_dataset: got no features")
    lengths = np.fromiter((len(f["input_ids"]) for f in features), dtype=np.int64, count=len(features))
    batches = pack_batches(lengths, collator.spec, max_segments=collator.max_segments, seed=seed,
                           overlong=collator.overlong)
    sample = collator.collate_np([features[i] for i in batches[0]])
    one_shape = collator.spec.num_buckets == 1
    signature = {
        key: tf.TensorSpec(
            value.shape if one_shape else (None,) * value.ndim, tf.as_dtype(value.dtype)
        )
        for key, value in sample.items()
    }

    def generate():
        for indices in batches:
            yield collator.collate_np([features[i] for i in indices])

    return tf.data.Dataset.from_generator(generate, output_signature=signature)


_PAD_VALUES = {"input_ids": 0, "token_type_ids": 0, "special_tokens_mask": 1, "labels": -100}
_LABEL_KEYS = frozenset({"labels", "label", "label_ids"})


def pack_dataset(
    dataset: Any,
    max_length: int,
    batch_size: int,
    *,
    window: int = 1024,
    max_segments: int | None = None,
    pad_values: Mapping[str, int] | None = None,
    length_key: str = "input_ids",
    overlong: Literal["error", "truncate", "drop"] = "error",
) -> Any:
    """Pack a ``tf.data.Dataset`` of dicts (1-D sequences, and scalars such as a class label)
    into batches of shape ``(batch_size, max_length)``, with TensorFlow ops only.

    Each ``window`` of consecutive examples is packed by best-fit decreasing (longest first,
    each into the open row whose free space is the smallest that holds it); a larger window
    packs tighter (the whole dataset in one window gives the rows of ``plan_packing``). Every
    1-D key is packed like ``input_ids`` (padding: ``pad_values[key]``, else 0; labels -100;
    ``label``/``label_ids`` become ``labels`` unless there is one); ``attention_mask`` is dropped (use
    ``segment_ids``). Scalar keys need ``max_segments``: they come out ``(batch_size,
    max_segments)``, column ``s - 1`` for segment ``s``, with ``segment_starts`` (each
    segment's first token) for segment-indexed pooling. The last batch is filled with rows of
    padding (``segment_ids`` 0), so every batch has the one static shape.
    """
    import tensorflow as tf

    element_spec = dataset.element_spec
    if not isinstance(element_spec, Mapping) or length_key not in element_spec:
        raise ValueError(f"pack_dataset: expected a dataset of dicts holding {length_key!r} (set length_key=)")
    ranks = {key: s.shape.rank for key, s in element_spec.items() if key != "attention_mask"}
    bad = sorted(k for k, r in ranks.items() if r not in (0, 1))
    if bad:
        raise ValueError(f"pack_dataset: features must be scalars or 1-D sequences; {bad} are not")
    scalars = sorted(k for k, r in ranks.items() if r == 0)
    if scalars and max_segments is None:
        raise ValueError(f"pack_dataset: scalar keys {scalars} are packed one per segment; give max_segments=")
    for name, value in (("max_length", max_length), ("batch_size", batch_size), ("window", window),
                        ("max_segments", max_segments or 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"pack_dataset: {name} must be a positive integer, got {value!r}")
    if overlong not in ("error", "truncate", "drop"):
        raise ValueError(f"pack_dataset: overlong must be 'error', 'truncate' or 'drop', got {overlong!r}")
    pads = {**_PAD_VALUES, **dict(pad_values or {})}
    # Hugging Face's collators call every label key "labels" (unless that name is taken)
    out_name = {key: "labels" if key in _LABEL_KEYS and "labels" not in ranks else key for key in ranks}
    cap = max_segments if max_segments is not None else max_length

    def pad_for(name: str) -> int:
        return pads.get(name, pads["labels"] if name in _LABEL_KEYS else 0)

    id_dtype = element_spec[length_key].dtype

    def length_of(features: Mapping[str, Any]) -> Any:
        return tf.shape(features[length_key], out_type=tf.int64)[0]

    def prepare(features: Mapping[str, Any]) -> dict[str, Any]:
        out = {key: features[key] for key in ranks}
        if overlong == "truncate":
            return {k: v[:max_length] if ranks[k] == 1 else v for k, v in out.items()}
        check = tf.debugging.assert_less_equal(
            length_of(out), tf.constant(max_length, tf.int64),
            message=f"pack_dataset: an example is longer than max_length={max_length}; pass "
            "overlong='truncate' or overlong='drop'",
        )
        with tf.control_dependencies([check]):
            out[length_key] = tf.identity(out[length_key])
        return out

    if overlong == "drop":
        dataset = dataset.filter(lambda f: length_of(f) <= max_length)
    dataset = dataset.map(prepare).filter(lambda f: length_of(f) > 0)

    def place(lengths: Any) -> tuple[Any, Any, Any, Any]:
        """Best-fit decreasing: (row, segment, offset) of every example, and the row count."""
        n = tf.shape(lengths, out_type=tf.int64)[0]
        order = tf.argsort(-lengths, stable=True)
        rows = tf.range(n)

        def body(i: Any, fill: Any, count: Any, row: Any, segment: Any, offset: Any, used: Any) -> tuple:
            index = tf.reshape(tf.gather(order, i), [1, 1])
            length = tf.gather(lengths, tf.gather(order, i))
            fits = (rows < used) & (max_length - fill >= length) & (count < cap)
            best = tf.argmin(tf.where(fits, max_length - fill, max_length + 1), output_type=tf.int64)
            found = tf.reduce_any(fits)
            target = tf.where(found, best, used)
            at = tf.reshape(target, [1, 1])
            row = tf.tensor_scatter_nd_update(row, index, tf.reshape(target, [1]))
            offset = tf.tensor_scatter_nd_update(offset, index, tf.gather_nd(fill, at))
            segment = tf.tensor_scatter_nd_update(segment, index, tf.gather_nd(count, at) + 1)
            fill = tf.tensor_scatter_nd_add(fill, at, tf.reshape(length, [1]))
            count = tf.tensor_scatter_nd_add(count, at, tf.ones([1], tf.int64))
            return i + 1, fill, count, row, segment, offset, tf.where(found, used, used + 1)

        zeros = tf.zeros([n], tf.int64)
        _, _, _, row, segment, offset, used = tf.while_loop(
            lambda i, *_: i < n, body, (tf.constant(0, tf.int64), zeros, zeros, zeros, zeros, zeros,
                                        tf.constant(0, tf.int64)),
        )
        return row, segment, offset, used

    def pack_window(batch: Mapping[str, Any]) -> dict[str, Any]:
        # a window of equal-length sequences comes out of ragged_batch as a dense tensor
        batch = {k: tf.RaggedTensor.from_tensor(v) if ranks[k] == 1 and not isinstance(v, tf.RaggedTensor) else v
                 for k, v in batch.items()}
        lengths = batch[length_key].row_lengths()
        row, segment, offset, used = place(lengths)
        total = tf.reduce_sum(lengths)
        within = tf.range(total) - tf.repeat(batch[length_key].row_starts(), lengths)
        destination = (tf.repeat(row * max_length + offset, lengths) + within)[:, None]

        def scatter(values: Any, fill: Any) -> Any:
            flat = tf.fill([used * max_length], tf.cast(fill, values.dtype))
            return tf.reshape(tf.tensor_scatter_nd_update(flat, destination, values), [-1, max_length])

        packed = {"segment_ids": scatter(tf.cast(tf.repeat(segment, lengths), id_dtype), 0),
                  "position_ids": scatter(tf.cast(within, id_dtype), 0)}
        if max_segments is not None:
            where = tf.stack([row, segment - 1], axis=1)
            packed["segment_starts"] = tf.tensor_scatter_nd_update(
                tf.zeros([used, max_segments], id_dtype), where, tf.cast(offset, id_dtype))
        for key, rank in ranks.items():
            fill = pad_for(out_name[key])
            if rank == 1:
                packed[out_name[key]] = scatter(batch[key].values, fill)
            else:
                value = batch[key]
                packed[out_name[key]] = tf.tensor_scatter_nd_update(
                    tf.fill([used, max_segments], tf.cast(fill, value.dtype)), where, value)
        return packed

    def fill_rows(rows: Mapping[str, Any]) -> dict[str, Any]:
        missing = batch_size - tf.shape(rows["segment_ids"])[0]
        out = {}
        for key, value in rows.items():
            fill = 0 if key in ("segment_ids", "position_ids", "segment_starts") else pad_for(key)
            padded = tf.pad(value, [[0, missing], [0, 0]], constant_values=tf.cast(fill, value.dtype))
            out[key] = tf.ensure_shape(padded, [batch_size, value.shape[1]])
        return out

    packed = dataset.ragged_batch(window).map(pack_window)
    return packed.unbatch().batch(batch_size).map(fill_rows)
