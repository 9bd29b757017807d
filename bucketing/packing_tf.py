"""tf.data input of packed batches: ``pack_batches`` + ``PackingCollator`` behind ``from_generator``.

The packing itself runs in Python on the host (best-fit decreasing over the whole dataset
needs every length first); ``tf.data`` then prefetches the packed batches. Each batch has one
of ``spec.shapes()``; with a one-bucket spec every dimension of the element spec is static,
so Keras and ``jit_compile`` see one shape. Not for a TPU Node (its host runs no Python); on
TPU VMs and GPUs it works as any ``from_generator`` pipeline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
