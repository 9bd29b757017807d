"""Generate xlacheck/data/tf_dataset_cardinality.json: how many elements a written-out tf.data pipeline has, measured.

One command (needs TensorFlow; xlacheck itself never imports it):

    python tools/generate_tf_dataset_table.py           # writes xlacheck/data/tf_dataset_cardinality.json
    python tools/generate_tf_dataset_table.py --check   # re-measures, exit 1 when the table differs

Every row is one pipeline as model code writes it (a source: ``Dataset.range``,
``from_tensor_slices`` of a literal, a NumPy or a TensorFlow array; then the dataset methods model
code chains) and the value of ``dataset.cardinality()`` that TensorFlow gives it: a count, ``-1``
(``tf.data.INFINITE_CARDINALITY``) or ``-2`` (``tf.data.UNKNOWN_CARDINALITY``: ``filter``,
``from_generator``, files, ``flat_map``, ...). :mod:`xlacheck.analysis.datasets` computes the same
number from the code alone, and ``tests/xlacheck/test_dataset_cardinality.py`` checks it against every
row (no TensorFlow needed), so a method the analyzer treats as keeping the count (``map``, ``shuffle``)
is one that TensorFlow says keeps it. XLA402 (``batch`` without ``drop_remainder=True``) asks it
whether the last batch is partial: only when the count is not a multiple of the batch size, or unknown.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_dataset_cardinality.json"
COMMAND = "python tools/generate_tf_dataset_table.py"

D = "tf.data.Dataset"
R10 = f"{D}.range(10)"
# Pipelines, written as model code writes them (names: tf, np, D is spelled out). One per row.
PIPELINES: tuple[str, ...] = (
    # sources
    f"{D}.range(10)",
    f"{D}.range(1, 7)",
    f"{D}.range(0, 10, 3)",
    f"{D}.range(10, 0, -2)",
    f"{D}.range(0)",
    f"{D}.from_tensor_slices([1, 2, 3, 4, 5])",
    f"{D}.from_tensor_slices([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])",
    f"{D}.from_tensor_slices(np.zeros((10, 3)))",
    f"{D}.from_tensor_slices(np.ones([6, 2], dtype=np.float32))",
    f"{D}.from_tensor_slices(np.arange(7))",
    f"{D}.from_tensor_slices(np.arange(2, 11, 2))",
    f"{D}.from_tensor_slices(np.random.rand(10, 3))",
    f"{D}.from_tensor_slices(np.array([[1, 2], [3, 4], [5, 6]]))",
    f"{D}.from_tensor_slices(tf.zeros([10, 3]))",
    f"{D}.from_tensor_slices(tf.ones((8, 2)))",
    f"{D}.from_tensor_slices(tf.range(7))",
    f"{D}.from_tensor_slices(tf.constant([1, 2, 3]))",
    f"{D}.from_tensor_slices(tf.reshape(tf.range(30, dtype=tf.float32), [10, 3]) / 10.0)",
    f"{D}.from_tensor_slices(tf.random.normal([9, 4]))",
    f"{D}.from_tensor_slices((np.zeros((10, 3)), np.zeros(10)))",
    f"{D}.from_tensor_slices({{'x': np.zeros((10, 3)), 'y': np.zeros(10)}})",
    f"{D}.from_tensors(np.zeros((10, 3)))",
    # slices of an array of known length (Python's len(range(n)[a:b]); retrace26)
    f"{D}.from_tensor_slices(np.zeros((10, 3))[:8])",
    f"{D}.from_tensor_slices(np.zeros((10, 3))[2:])",
    f"{D}.from_tensor_slices(np.zeros((10, 3))[:-3])",
    f"{D}.from_tensor_slices(np.zeros((10, 3))[4:40])",
    f"{D}.from_tensor_slices(tf.zeros([10, 3])[1:9])",
    f"{D}.from_tensor_slices(np.zeros((10, 3))[::2])",
    f"{D}.from_generator(lambda: iter(range(5)), output_signature=tf.TensorSpec([], tf.int64))",
    "tf.data.TextLineDataset([TEXT_FILE])",
    "tf.data.TFRecordDataset([RECORD_FILE])",
    # methods that keep the count
    f"{R10}.map(lambda x: x * 2)",
    f"{R10}.map(lambda x: x * 2, num_parallel_calls=tf.data.AUTOTUNE)",
    f"{D}.range(1, 7).map(lambda n: tf.range(n))",
    f"{R10}.shuffle(4)",
    f"{R10}.shuffle(100, reshuffle_each_iteration=True)",
    f"{R10}.prefetch(2)",
    f"{R10}.prefetch(tf.data.AUTOTUNE)",
    f"{R10}.cache()",
    f"{R10}.with_options(tf.data.Options())",
    f"{R10}.enumerate()",
    # methods whose count the code does not show
    f"{R10}.filter(lambda x: x % 2 == 0)",
    f"{R10}.flat_map(lambda x: {D}.range(x))",
    f"{R10}.interleave(lambda x: {D}.range(x))",
    f"{R10}.batch(4).unbatch()",
    f"{R10}.ignore_errors()",
    f"{R10}.apply(lambda d: d)",
    # counting methods
    f"{R10}.take(4)",
    f"{R10}.take(20)",
    f"{R10}.take(-1)",
    f"{R10}.skip(3)",
    f"{R10}.skip(20)",
    f"{R10}.skip(-1)",
    f"{R10}.repeat(3)",
    f"{R10}.repeat()",
    f"{R10}.repeat(-1)",
    f"{R10}.repeat(None)",
    f"{D}.range(0).repeat()",
    f"{R10}.repeat().take(25)",
    f"{R10}.repeat().skip(3)",
    f"{R10}.shard(3, 0)",
    f"{R10}.shard(3, 2)",
    f"{R10}.shard(num_shards=4, index=1)",
    f"{R10}.concatenate({D}.range(5))",
    f"{D}.zip(({R10}, {D}.range(7)))",
    f"{R10}.filter(lambda x: x > 2).take(3)",
    f"{R10}.filter(lambda x: x > 2).repeat()",
    # batching
    f"{R10}.batch(4)",
    f"{R10}.batch(5)",
    f"{R10}.batch(4, drop_remainder=True)",
    f"{R10}.batch(4, True)",
    f"{R10}.batch(20)",
    f"{R10}.batch(20, drop_remainder=True)",
    f"{D}.range(1, 7).map(lambda n: tf.range(n)).padded_batch(2)",
    f"{D}.range(1, 7).map(lambda n: tf.range(n)).padded_batch(4)",
    f"{D}.range(1, 7).map(lambda n: tf.range(n)).padded_batch(4, padded_shapes=[8], drop_remainder=True)",
    f"{R10}.repeat().batch(4)",
    f"{R10}.shuffle(10).batch(4).prefetch(1)",
    f"{R10}.filter(lambda x: x > 2).batch(4)",
    f"{D}.from_tensor_slices(np.zeros((10, 3))).batch(4)",
    f"{D}.from_tensor_slices(np.zeros((12, 3))).shuffle(12).batch(4)",
)


def measure() -> dict[str, Any]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf

    folder = tempfile.mkdtemp(prefix="xlacheck_dataset_table_")
    text_file = os.path.join(folder, "lines.txt")
    Path(text_file).write_text("a\nb\nc\n")
    record_file = os.path.join(folder, "records.tfrecord")
    with tf.io.TFRecordWriter(record_file) as w:
        for b in (b"a", b"b"):
            w.write(b)
    rows = []
    for code in PIPELINES:
        ds = eval(code, {"tf": tf, "np": np, "TEXT_FILE": text_file, "RECORD_FILE": record_file})  # noqa: S307
        rows.append({"pipeline": code, "cardinality": int(ds.cardinality())})
    return {"command": COMMAND, "tensorflow_version": tf.__version__, "infinite": int(tf.data.INFINITE_CARDINALITY),
            "unknown": int(tf.data.UNKNOWN_CARDINALITY), "rows": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="re-measure and exit 1 when the table differs")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    table = measure()
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        old = args.out.read_text() if args.out.exists() else ""
        if old != text:
            print(f"{args.out}: out of date (TF {table['tensorflow_version']}); run {COMMAND}", file=sys.stderr)
            return 1
        print(f"{args.out}: up to date ({len(table['rows'])} rows)")
        return 0
    args.out.write_text(text)
    print(f"wrote {args.out} ({len(table['rows'])} rows, TF {table['tensorflow_version']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
