"""XLA504: a local file path read by the input pipeline of TPU code."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import ModuleIndex, callee_text, keyword
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Readers whose files are opened by the tf.data runtime (on a TPU Node: the TPU's host), with the
# keyword that names the path argument.
_READERS = {
    "tf.data.TFRecordDataset": "filenames",
    "tf.data.TextLineDataset": "filenames",
    "tf.data.FixedLengthRecordDataset": "filenames",
    "tf.data.Dataset.list_files": "file_pattern",
    "tf.data.Dataset.load": "path",
    "tf.data.experimental.load": "path",
    "tf.io.gfile.glob": "pattern",
    "tf.io.matching_files": "pattern",
}
_REMOTE = ("gs://",)


def _literal_paths(node: ast.expr | None, index: ModuleIndex, at: ast.AST, depth: int = 0) -> list[tuple[ast.expr, str]]:
    """String literals (or the literal head of an f-string / os.path.join) a path argument is built from."""
    if node is None or depth > 3:
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [(node, node.value)]
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return [(node, str(node.values[0].value))]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [p for elt in node.elts for p in _literal_paths(elt, index, at, depth + 1)]
    if isinstance(node, ast.Call) and callee_text(node.func) == "join" and node.args:
        return _literal_paths(node.args[0], index, at, depth + 1)  # os.path.join("data", ...)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _literal_paths(node.left, index, at, depth + 1)
    if isinstance(node, ast.Name):
        scope = index.function_of(at) or index.tree
        found: list[tuple[ast.expr, str]] = []
        for sub in index.scope_nodes(scope):
            if isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id for t in sub.targets):
                found.extend(_literal_paths(sub.value, index, at, depth + 1))
        return found
    return []


class LocalPathInTpuPipeline(ModuleRule):
    """
    ## What it does
    In a file that sets up a TPU (`TPUStrategy`, `TPUClusterResolver`), flags path literals that
    do not start with `gs://` given to `tf.data` readers (`TFRecordDataset`, `TextLineDataset`,
    `FixedLengthRecordDataset`, `Dataset.list_files`, `Dataset.load`), to `tf.io.gfile.glob` /
    `tf.io.matching_files`, and to `load_dataset(..., data_files=...)`. A path is followed
    through a variable assigned in the same function, an f-string's literal head,
    `os.path.join`'s first part and `+` concatenation.

    ## Why is this bad?
    On a TPU Node the input pipeline runs on the TPU's host, not on your VM: it sees only Google
    Cloud Storage. A local path fails there with `UNIMPLEMENTED: File system scheme '[local]'
    not implemented` (or `NotFoundError`), minutes into the job. On a TPU VM local files work,
    but the same script then breaks when it moves to a Pod or a Node.

    ## Example
    ```python
    strategy = tf.distribute.TPUStrategy(resolver)
    ds = tf.data.TFRecordDataset(tf.io.gfile.glob("data/train-*.tfrecord"))
    ```

    ## Use instead
    ```python
    strategy = tf.distribute.TPUStrategy(resolver)
    ds = tf.data.TFRecordDataset(tf.io.gfile.glob("gs://my-bucket/data/train-*.tfrecord"))
    ```

    ## Fix safety
    No automatic fix: the data has to be copied to a bucket first.
    """

    code = "XLA504"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = None
    name = "local-path-in-tpu-pipeline"
    severity = Severity.WARNING

    VALID = (
        Example("import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\n"
                "ds = tf.data.TFRecordDataset(tf.io.gfile.glob('gs://bucket/train-*.tfrecord'))\n"),
        Example("import tensorflow as tf\nds = tf.data.TFRecordDataset(tf.io.gfile.glob('data/train-*.tfrecord'))\n"),
        Example("import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\n"
                "def load(pattern):\n    return tf.data.TFRecordDataset(tf.io.gfile.glob(pattern))\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\n"
                "ds = tf.data.TFRecordDataset(tf.io.gfile.glob('data/train-*.tfrecord'))\n",
                expected=(
                    (3, 47, "local path 'data/train-*.tfrecord' read by tf.io.gfile.glob in TPU code: a TPU Node's "
                            'input pipeline runs on the TPU host, which reads only gs:// (UNIMPLEMENTED: File system '
                            "scheme '[local]'); put the data in a bucket and pass a gs:// path"),
                )),
        Example("import tensorflow as tf\nresolver = tf.distribute.cluster_resolver.TPUClusterResolver()\n"
                "def load():\n    path = '/mnt/data/train.txt'\n    return tf.data.TextLineDataset(path)\n",
                expected=(
                    (4, 12, "local path '/mnt/data/train.txt' read by tf.data.TextLineDataset in TPU code: a TPU "
                            "Node's input pipeline runs on the TPU host, which reads only gs:// (UNIMPLEMENTED: File "
                            "system scheme '[local]'); put the data in a bucket and pass a gs:// path"),
                )),
        Example("import tensorflow as tf\nfrom datasets import load_dataset\nstrategy = tf.distribute.TPUStrategy()\n"
                "raw = load_dataset('text', data_files={'train': 'corpus/train.txt'})\n",
                expected=(
                    (4, 49, "local path 'corpus/train.txt' read by load_dataset(data_files=...) in TPU code: a TPU "
                            "Node's input pipeline runs on the TPU host, which reads only gs:// (UNIMPLEMENTED: File "
                            "system scheme '[local]'); put the data in a bucket and pass a gs:// path"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not index.uses_tpu:
            return
        reported: set[int] = set()  # one literal may feed several readers
        for call, name in index.calls:
            if name in _READERS:
                kw = keyword(call, _READERS[name])
                arg = kw.value if kw is not None else (call.args[0] if call.args else None)
                what = name
            elif callee_text(call.func) == "load_dataset":
                kw = keyword(call, "data_files")
                arg = kw.value if kw is not None else None
                if isinstance(arg, ast.Dict):
                    arg = ast.List([v for v in arg.values if v is not None], ast.Load())
                what = "load_dataset(data_files=...)"
            else:
                continue
            for node, text in _literal_paths(arg, index, call):
                if not text or text.startswith(_REMOTE) or id(node) in reported:
                    continue
                reported.add(id(node))
                ctx.report(self, node, f"local path {text!r} read by {what} in TPU code: a TPU Node's input pipeline "
                                       "runs on the TPU host, which reads only gs:// (UNIMPLEMENTED: File system scheme "
                                       "'[local]'); put the data in a bucket and pass a gs:// path")
