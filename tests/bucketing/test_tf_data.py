"""The tf.data path: same properties as the Python path, TF-native ops only."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bucketing import BucketSpec

tf = pytest.importorskip("tensorflow")
pytestmark = pytest.mark.tf

from bucketing.tf_data import bucket_batch  # noqa: E402

PAD = 0


def dataset_of(lengths: list[int], with_labels: bool = False) -> tf.data.Dataset:
    rows = [[1000 * (i + 1) + p for p in range(n)] for i, n in enumerate(lengths)]

    def gen():  # test input only; the pipeline under test must not need it
        for i, row in enumerate(rows):
            item = {"input_ids": np.asarray(row, np.int64), "idx": np.int64(i)}
            if with_labels:
                item["labels"] = np.asarray(row, np.int64) + 1
            yield item

    signature = {"input_ids": tf.TensorSpec([None], tf.int64), "idx": tf.TensorSpec([], tf.int64)}
    if with_labels:
        signature["labels"] = tf.TensorSpec([None], tf.int64)
    return tf.data.Dataset.from_generator(gen, output_signature=signature)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    boundaries=st.sets(st.integers(1, 30), min_size=1, max_size=3).map(sorted),
    batch_size=st.integers(1, 4),
    data=st.data(),
    shuffle_buffer=st.sampled_from([0, 5]),
)
def test_every_token_once_in_order_in_declared_shapes(boundaries, batch_size, data, shuffle_buffer) -> None:
    spec = BucketSpec(tuple(boundaries), (batch_size,) * len(boundaries))
    lengths = data.draw(st.lists(st.integers(1, boundaries[-1]), min_size=1, max_size=25))
    seen = []
    for batch in bucket_batch(dataset_of(lengths, with_labels=True), spec, shuffle_buffer=shuffle_buffer, seed=1):
        b = {k: v.numpy() for k, v in batch.items()}
        assert b["input_ids"].shape in spec.shapes()
        mask = b["attention_mask"].astype(bool)
        assert (b["input_ids"][~mask] == PAD).all()
        assert (b["labels"][~mask] == -100).all()
        np.testing.assert_array_equal(b["labels"][mask], b["input_ids"][mask] + 1)
        for row, m, weight in zip(b["input_ids"], mask, b["sample_weight"]):
            n = int(m.sum())
            assert m[:n].all() and not m[n:].any()
            if weight == 0:
                assert n == 0
            else:
                seen.append(tuple(row[:n].tolist()))
    expected = [tuple(1000 * (i + 1) + p for p in range(n)) for i, n in enumerate(lengths)]
    assert sorted(seen) == sorted(expected)


def test_pipeline_is_tf_native() -> None:
    spec = BucketSpec((4, 8), (2, 2))
    ds = tf.data.Dataset.from_tensor_slices({"input_ids": tf.ragged.constant([[1, 2], [3, 4, 5, 6, 7]])})
    ds = ds.map(lambda f: {"input_ids": f["input_ids"]})
    graph = bucket_batch(ds, spec)._as_serialized_graph().numpy()
    for forbidden in (b"PyFunc", b"EagerPyFunc", b"NumpyFunction", b"Generator"):
        assert forbidden not in graph


def test_partial_batches_get_dummy_rows_and_pad_values_apply() -> None:
    spec = BucketSpec((4,), (3,))
    ds = tf.data.Dataset.from_tensor_slices({"input_ids": tf.constant([[7, 7], [8, 8]], tf.int32)})
    (batch,) = list(bucket_batch(ds, spec, pad_values={"input_ids": 1}))
    assert batch["input_ids"].numpy().tolist() == [[7, 7, 1, 1], [8, 8, 1, 1], [1, 1, 1, 1]]
    assert batch["attention_mask"].numpy().tolist() == [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]]
    assert batch["sample_weight"].numpy().tolist() == [1.0, 1.0, 0.0]


def test_overlong_error_drop_truncate() -> None:
    spec = BucketSpec((4,), (2,))
    ds = dataset_of([2, 6])
    with pytest.raises(tf.errors.InvalidArgumentError, match="drop_overlong=True or truncate_overlong=True"):
        list(bucket_batch(ds, spec))
    (dropped,) = list(bucket_batch(ds, spec, drop_overlong=True))
    assert dropped["idx"].numpy().tolist() == [0, 0] and dropped["sample_weight"].numpy().tolist() == [1, 0]
    (cut,) = list(bucket_batch(ds, spec, truncate_overlong=True))
    assert cut["input_ids"].numpy()[1].tolist() == [2000, 2001, 2002, 2003]


def test_rejects_a_dataset_without_the_length_key() -> None:
    ds = tf.data.Dataset.from_tensor_slices({"tokens": tf.constant([[1, 2]])})
    with pytest.raises(ValueError, match="length_key"):
        bucket_batch(ds, BucketSpec((4,), (2,)))


def test_composes_with_tf_native_mlm_masking() -> None:
    from bucketing import MaskingSpec, tf_masking_fn

    masking = MaskingSpec(mask_token_id=3, vocab_size=10_000, mlm_probability=0.5, pad_token_id=PAD)
    spec = BucketSpec((8, 16), (3, 3))
    ds = bucket_batch(dataset_of([2, 5, 9, 16, 1]), spec).enumerate().map(tf_masking_fn(masking, seed=0))
    for features, labels in ds:
        mask = features["attention_mask"].numpy().astype(bool)
        labels = labels.numpy()
        assert (labels[~mask] == -100).all()
        assert (labels[features["sample_weight"].numpy() == 0] == -100).all()


def test_uniform_batch_size_is_static() -> None:
    spec = BucketSpec((4, 8), (2, 2))
    out = bucket_batch(dataset_of([1, 5]), spec)
    assert out.element_spec["input_ids"].shape.as_list() == [2, None]
    mixed = bucket_batch(dataset_of([1, 5]), BucketSpec((4, 8), (4, 2)))
    assert mixed.element_spec["input_ids"].shape.as_list() == [None, None]
