"""The shard format both frameworks read: reference_trainer.tfrecord against TensorFlow itself."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from reference_trainer.tfrecord import CorruptRecord, decode_int64_example, encode_int64_example, read_records, write_records


def _records() -> list[list[int]]:
    rng = random.Random(0)
    rows = [[rng.randrange(0, 50_000) for _ in range(rng.randrange(0, 90))] for _ in range(200)]
    return rows + [[], [0], [127, 128, 16383, 16384, 2**40, 2**63 - 1]]


def test_examples_and_files_are_byte_identical_to_tensorflows(tmp_path: Path) -> None:
    import tensorflow as tf

    rows = _records()
    theirs = [
        tf.train.Example(features=tf.train.Features(feature={
            "input_ids": tf.train.Feature(int64_list=tf.train.Int64List(value=row))})).SerializeToString()
        for row in rows
    ]
    ours = [encode_int64_example("input_ids", row) for row in rows]
    assert ours == theirs
    with tf.io.TFRecordWriter(str(tmp_path / "tf.tfrecord")) as writer:
        for data in theirs:
            writer.write(data)
    with open(tmp_path / "ours.tfrecord", "wb") as handle:
        assert write_records(handle, ours) == len(rows)
    assert (tmp_path / "ours.tfrecord").read_bytes() == (tmp_path / "tf.tfrecord").read_bytes()


def test_tensorflow_reads_ours_and_we_read_tensorflows(tmp_path: Path) -> None:
    import tensorflow as tf

    rows = _records()
    with open(tmp_path / "ours.tfrecord", "wb") as handle:
        write_records(handle, (encode_int64_example("input_ids", row) for row in rows))
    parsed = [
        tf.io.parse_single_example(raw, {"input_ids": tf.io.VarLenFeature(tf.int64)})["input_ids"].values.numpy().tolist()
        for raw in tf.data.TFRecordDataset(str(tmp_path / "ours.tfrecord"))
    ]
    assert parsed == rows
    with tf.io.TFRecordWriter(str(tmp_path / "tf.tfrecord")) as writer:
        for row in rows:
            writer.write(tf.train.Example(features=tf.train.Features(feature={
                "input_ids": tf.train.Feature(int64_list=tf.train.Int64List(value=row))})).SerializeToString())
    with open(tmp_path / "tf.tfrecord", "rb") as handle:
        assert [decode_int64_example(d, "input_ids") for d in read_records(handle)] == rows


def test_a_flipped_byte_or_a_truncated_file_is_a_corrupt_record() -> None:
    buffer = io.BytesIO()
    write_records(buffer, [encode_int64_example("input_ids", [5, 6, 7])] * 3)
    data = bytearray(buffer.getvalue())
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x01
    with pytest.raises(CorruptRecord, match="CRC"):
        list(read_records(io.BytesIO(bytes(flipped)), "x.tfrecord"))
    with pytest.raises(CorruptRecord, match="truncated"):
        list(read_records(io.BytesIO(bytes(data[:-3])), "x.tfrecord"))
