"""XLA503: input pipelines that call back into Python, in code that targets a TPU."""

from __future__ import annotations

from xlacheck.analysis.module_index import method_name
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_PYTHON_SOURCES = {
    "tf.data.Dataset.from_generator": "Dataset.from_generator",
    "tf.py_function": "tf.py_function",
    "tf.numpy_function": "tf.numpy_function",
    "tf.compat.v1.py_func": "tf.compat.v1.py_func",
}
# Hugging Face conversions that feed a tf.data pipeline from Python (a generator underneath).
_HF_METHODS = frozenset({"to_tf_dataset", "prepare_tf_dataset"})


class PythonInputPipelineOnTpu(ModuleRule):
    """
    ## What it does
    In a file that sets up a TPU (`TPUStrategy`, `TPUClusterResolver`), flags input pipelines
    that run Python per element: `tf.data.Dataset.from_generator`, `tf.py_function` and
    `tf.numpy_function` outside compiled code (inside compiled code XLA306 reports them), and
    Hugging Face `dataset.to_tf_dataset(...)` / `model.prepare_tf_dataset(...)`.

    ## Why is this bad?
    On a TPU Node the input pipeline runs on the TPU's own host, which has no access to your
    Python process: a graph that calls back into Python cannot run there at all. On a TPU VM it
    runs, but one Python thread feeds the whole accelerator and the TPU waits on the GIL. The
    guide's checklist: keep data TF-native (TFRecord files read with `tf.data`) or, for small
    data, in memory (`Dataset.from_tensor_slices`).

    ## Example
    ```python
    strategy = tf.distribute.TPUStrategy(resolver)
    train = hf_dataset.to_tf_dataset(columns=["input_ids"], batch_size=64, collate_fn=collator)
    ```

    ## Use instead
    ```python
    strategy = tf.distribute.TPUStrategy(resolver)
    files = tf.io.gfile.glob("gs://bucket/train-*.tfrecord")
    train = tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=tf.data.AUTOTUNE)
    ```

    ## Fix safety
    No automatic fix: the data has to be converted (to TFRecord shards, or to tensors).
    """

    code = "XLA503"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = None
    name = "python-input-pipeline-on-tpu"
    severity = Severity.WARNING

    VALID = (
        Example("import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\n"
                "ds = tf.data.TFRecordDataset(tf.io.gfile.glob('gs://b/train-*.tfrecord'))\n"),
        Example("import tensorflow as tf\ndef gen():\n    yield 1\n"
                "ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int32))\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\ndef gen():\n    yield 1\nstrategy = tf.distribute.TPUStrategy()\n"
                "ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int32))\n",
                expected=(
                    (5, 6, 'Dataset.from_generator in the input pipeline of TPU code: it runs Python per element, '
                           "which a TPU Node's host cannot run and which starves a TPU VM; write TFRecord shards "
                           'read with tf.data (or keep small data in memory with from_tensor_slices)'),
                )),
        Example("import tensorflow as tf\nresolver = tf.distribute.cluster_resolver.TPUClusterResolver()\n"
                "train = hf_dataset.to_tf_dataset(columns=['input_ids'], batch_size=64, shuffle=True)\n",
                expected=(
                    (3, 9, '.to_tf_dataset() in the input pipeline of TPU code: it runs Python per element, which a '
                           "TPU Node's host cannot run and which starves a TPU VM; write TFRecord shards read with "
                           'tf.data (or keep small data in memory with from_tensor_slices)'),
                )),
        Example("import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\ndef tok(t):\n    return t\n"
                "ds = tf.data.TextLineDataset(['gs://b/x.txt']).map(lambda t: tf.py_function(tok, [t], tf.string))\n",
                expected=(
                    (5, 62, 'tf.py_function in the input pipeline of TPU code: it runs Python per element, which a '
                            "TPU Node's host cannot run and which starves a TPU VM; write TFRecord shards read with "
                            'tf.data (or keep small data in memory with from_tensor_slices)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not index.uses_tpu:
            return
        for call, name in index.calls:
            what = _PYTHON_SOURCES.get(name or "")
            if what is None and method_name(call) in _HF_METHODS:
                what = f".{method_name(call)}()"
            if what is None and method_name(call) == "from_generator" and name is None:
                what = "Dataset.from_generator"
            if what is None:
                continue
            func = index.function_of(call)
            info = ctx.facts.by_node.get(id(func)) if func is not None else None
            if info is not None and info.compiled:
                continue  # inside compiled code: XLA306 python-callback-op
            ctx.report(self, call, f"{what} in the input pipeline of TPU code: it runs Python per element, which a "
                                   "TPU Node's host cannot run and which starves a TPU VM; write TFRecord shards read "
                                   "with tf.data (or keep small data in memory with from_tensor_slices)")
