"""pack_dataset: packing as a tf.data transformation in TensorFlow ops only (issue 16, item 2)."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
tf = pytest.importorskip("tensorflow")

from bucketing.packing import plan_packing  # noqa: E402
from bucketing.packing_tf import pack_dataset  # noqa: E402


def _examples(seed: int, count: int, longest: int = 60) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.integers(5, 1000, n) for n in rng.integers(1, longest, count)]


def _dataset(examples: list[np.ndarray]):  # noqa: ANN202
    ragged = tf.ragged.constant([e.tolist() for e in examples], dtype=tf.int64)
    return tf.data.Dataset.from_tensor_slices(
        {"input_ids": ragged, "labels": ragged + 1, "label": tf.range(len(examples), dtype=tf.int64)}
    )


def _segments(batches: list[dict[str, np.ndarray]]) -> list[tuple[int, list[int], list[int], list[int]]]:
    """(example label, its tokens, its token labels, its positions) of every packed segment."""
    found = []
    for batch in batches:
        for r in range(batch["input_ids"].shape[0]):
            segments = batch["segment_ids"][r]
            for s in range(1, int(segments.max(initial=0)) + 1):
                at = segments == s
                start = int(np.flatnonzero(at)[0])
                assert batch["segment_starts"][r, s - 1] == start
                found.append((int(batch["label"][r, s - 1]), batch["input_ids"][r, at].tolist(),
                              batch["labels"][r, at].tolist(), batch["position_ids"][r, at].tolist()))
    return found


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_example_once_intact_with_positions_and_static_shapes(seed: int) -> None:
    examples = _examples(seed, 150)
    ds = pack_dataset(_dataset(examples), 64, 8, window=40, max_segments=16)
    assert ds.element_spec["input_ids"].shape == (8, 64) and ds.element_spec["label"].shape == (8, 16)
    batches = list(ds.as_numpy_iterator())
    segments = _segments(batches)
    assert sorted(label for label, *_ in segments) == list(range(len(examples)))
    for label, tokens, token_labels, positions in segments:
        assert tokens == examples[label].tolist()
        assert token_labels == (examples[label] + 1).tolist()
        assert positions == list(range(len(tokens)))
    for batch in batches:  # padding: pad id 0, label -100, segment 0, and no label for an empty segment
        pad = batch["segment_ids"] == 0
        assert (batch["input_ids"][pad] == 0).all() and (batch["labels"][pad] == -100).all()
        assert (batch["position_ids"][pad] == 0).all()
        used = np.arange(16)[None, :] < batch["segment_ids"].max(axis=1)[:, None]
        assert (batch["label"][~used] == -100).all()


def test_one_window_over_the_dataset_gives_as_many_rows_as_plan_packing() -> None:
    examples = _examples(3, 300, longest=120)
    lengths = np.array([len(e) for e in examples])
    batches = list(pack_dataset(_dataset(examples), 128, 4, window=len(examples), max_segments=32).as_numpy_iterator())
    rows = sum(int((b["segment_ids"] > 0).any(axis=1).sum()) for b in batches)
    plan = plan_packing(lengths, 128, max_segments=32)
    assert rows == plan.num_rows  # the same best-fit decreasing placement
    assert len(batches) == -(-rows // 4)


def test_it_is_tensorflow_ops_only_no_python_in_the_graph() -> None:
    """A TPU Node's host runs no Python: the dataset's graph holds no PyFunc (from_generator,
    the other packer's input, does: the control that the check can see one)."""
    packed = pack_dataset(_dataset(_examples(0, 20)), 64, 2, max_segments=8)
    assert b"PyFunc" not in packed._as_serialized_graph().numpy()
    generated = tf.data.Dataset.from_generator(lambda: iter([[1, 2]]), output_signature=tf.TensorSpec([None], tf.int64))
    assert b"PyFunc" in generated._as_serialized_graph().numpy()


def test_equal_lengths_overlong_and_bad_arguments() -> None:
    dense = tf.data.Dataset.from_tensor_slices({"input_ids": tf.ones([10, 8], tf.int32)})  # ragged_batch: dense
    batch = next(iter(pack_dataset(dense, 16, 8)))
    assert batch["input_ids"].dtype == tf.int32 and int(tf.reduce_sum(tf.cast(batch["segment_ids"] > 0, tf.int32))) == 80
    overlong = tf.data.Dataset.from_tensor_slices({"input_ids": tf.ones([3, 20], tf.int64)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="longer than max_length=16"):
        list(pack_dataset(overlong, 16, 2))
    cut = next(iter(pack_dataset(overlong, 16, 4, overlong="truncate")))
    assert int(tf.reduce_sum(tf.cast(cut["segment_ids"] > 0, tf.int32))) == 48
    assert not list(pack_dataset(overlong, 16, 2, overlong="drop"))
    with pytest.raises(ValueError, match="give max_segments="):
        pack_dataset(_dataset(_examples(0, 3)), 64, 2)
    with pytest.raises(ValueError, match="batch_size must be a positive integer"):
        pack_dataset(dense, 16, 0)


def test_packed_rows_give_each_sequence_its_logits_alone_under_jit_compile() -> None:
    """The rows pack_dataset makes, through RoBERTa with the segment mask (bucketing.packing_models),
    equal each sequence run alone: attention stays inside each segment (tolerance as in
    tests/bucketing/test_packing_equivalence_tf.py)."""
    transformers = pytest.importorskip("transformers")
    from bucketing.packing_models import tf_packed_masked_lm_logits

    width, vocab = 48, 97
    tf.random.set_seed(0)
    model = transformers.TFRobertaForMaskedLM(transformers.RobertaConfig(
        vocab_size=vocab, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, initializer_range=0.2,
        max_position_embeddings=width + 2, pad_token_id=1,
    ))
    rng = np.random.default_rng(0)
    examples = [rng.integers(5, vocab, n) for n in rng.integers(2, 24, 9)]
    ragged = tf.ragged.constant([e.tolist() for e in examples], dtype=tf.int64)
    ds = tf.data.Dataset.from_tensor_slices({"input_ids": ragged, "label": tf.range(9, dtype=tf.int64)})
    batch = next(iter(pack_dataset(ds, width, 8, max_segments=8, pad_values={"input_ids": 1})))
    assert int(tf.reduce_max(batch["segment_ids"])) >= 2  # a row with neighbours, or the test proves nothing
    packed = tf.function(lambda ids, seg, pos: tf_packed_masked_lm_logits(model, ids, seg, pos), jit_compile=True)(
        batch["input_ids"], batch["segment_ids"], batch["position_ids"]).numpy()
    segments, labels = batch["segment_ids"].numpy(), batch["labels"].numpy()  # "label" renamed, as HF does
    checked = 0
    for r in range(segments.shape[0]):
        for s in range(1, int(segments[r].max(initial=0)) + 1):
            example = examples[int(labels[r, s - 1])]
            alone = model(tf.constant([example.tolist()]), training=False).logits.numpy()[0]
            assert np.abs(packed[r, segments[r] == s] - alone).max() < 1e-5
            checked += 1
    assert checked == len(examples)
