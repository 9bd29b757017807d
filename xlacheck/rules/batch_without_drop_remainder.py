"""XLA402: ``Dataset.batch``/``padded_batch`` without ``drop_remainder=True`` feeding compiled code."""

from __future__ import annotations

import ast

from xlacheck import retrace_table
from xlacheck.analysis.datasets import INFINITE, dataset_facts
from xlacheck.analysis.module_index import ModuleIndex, has_kwargs_splat, is_true, keyword, method_name
from xlacheck.diagnostics import Severity
from xlacheck.rules._dataset_flow import compiled_consumer, keras_compiled
from xlacheck.rules._recompile_scope import in_test
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Position of drop_remainder in each batching method.
_BATCH_METHODS = {"batch": 1, "padded_batch": 3}


def _drop_remainder(call: ast.Call, position: int) -> ast.expr | None:
    kw = keyword(call, "drop_remainder")
    if kw is not None:
        return kw.value
    if len(call.args) > position:
        return call.args[position]
    return None


def _repeats_forever_before(call: ast.Call) -> bool:
    """``ds.repeat().batch(n)``: an endless stream has no last, partial batch."""
    node = call.func.value if isinstance(call.func, ast.Attribute) else None
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "repeat" and (not node.args or (isinstance(node.args[0], ast.Constant)
                                                             and node.args[0].value in (None, -1))):
            return True
        node = node.func.value
    return False


class BatchWithoutDropRemainder(ModuleRule):
    """
    ## What it does
    Flags `dataset.batch(n)` and `dataset.padded_batch(n, ...)` without `drop_remainder=True`
    when the batched dataset (directly, through a variable, a module-level name, further dataset
    methods, or a function of this file that returns it) is iterated by a loop that calls a
    `tf.function` of this file (or a helper of this file that passes the batch on to one), drawn
    from with `next(iter(ds))` in such a loop, or is handed to `strategy.experimental_distribute_dataset`, or to Keras
    `fit`/`evaluate`/`predict` in a file that compiles with `jit_compile=True` or targets a TPU.
    Only a step that XLA compiles counts (`jit_compile=True`, or a file that targets a TPU): a plain
    `tf.function` traces the smaller batch once more per process and runs no XLA compilation (measured,
    `dataset_partial_batch_epochs` in `xlacheck/data/tf_retrace.json`: three epochs cost 2 traces in
    all), a bounded cost that is not a recompile hazard.
    `ds.repeat().batch(n)` is not flagged (an endless stream has no partial batch), nor is a
    dataset whose count the code shows to be a multiple of the batch size
    (`Dataset.range(12).batch(4)`, `from_tensor_slices(np.zeros((12, 3))).shuffle(12).batch(4)`: the
    count is computed as `dataset.cardinality()` gives it, checked against TensorFlow on the pipelines
    of `xlacheck/data/tf_dataset_cardinality.json`; `filter`, files, generators and datasets passed in
    have an unknown count and are still flagged), nor are
    test files and test functions (a few steps: one more compilation costs nothing there).
    The check is syntactic: `.batch` is recognised by its method name, and the dataset is
    followed only through names and calls inside this file.
    The same partial batch made by Keras itself is flagged too: `model.fit(x, y, batch_size=n)` in
    a file that compiles a Keras model with `jit_compile=True` (`batch_size` is refused for datasets,
    generators and Sequences, so `x` is arrays), unless the code shows the sample count to be a
    multiple of `n` (`x[:8]`, `np.zeros((64, 3))`).

    ## Why is this bad?
    Unless the number of examples is a multiple of the batch size, the last batch is smaller.
    Its new shape makes XLA compile the step again: a whole compilation for one batch, paid once
    per process (the later epochs find it in the cache). Measured on TF 2.21 (rows of
    `xlacheck/data/tf_retrace.json`): 3 epochs of 10 rows in batches of 4 cost a `jit_compile`
    step 2 traces and 2 XLA compilations (1 trace and 2 compilations with an `input_signature`,
    1 and 2 through Keras `fit`) where full batches cost one of each. On a large model that is
    minutes; on a TPU, a batch dimension that is not static can fail outright.

    ## Example
    ```python
    ds = tf.data.Dataset.from_tensor_slices(features).batch(4)
    scores = [model.score(x) for x in ds]
    ```

    ## Use instead
    ```python
    ds = tf.data.Dataset.from_tensor_slices(features).batch(4, drop_remainder=True)
    # or pad the last batch with dummy rows (weight 0) to keep every example
    ```

    ## Fix safety
    No automatic fix: dropping the remainder drops examples, which is wrong for evaluation;
    padding the last batch needs a mask.
    """

    code = "XLA402"
    fix = None
    name = "batch-without-drop-remainder"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x):\n    return x * 2.0\n"
                "def run(features):\n    ds = tf.data.Dataset.from_tensor_slices(features).batch(4, drop_remainder=True)\n"
                "    return [step(x) for x in ds]\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x):\n    return x * 2.0\n"
                "def run(features):\n    ds = tf.data.Dataset.from_tensor_slices(features).repeat().batch(4)\n"
                "    for x in ds.take(100):\n        step(x)\n"),
        Example("import tensorflow as tf\ndef show(features):\n    for x in tf.data.Dataset.from_tensor_slices(features).batch(4):\n"
                "        print(x)\n"),
        Example("import tensorflow as tf\n@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])\n"
                "def step(x):\n    return tf.reduce_sum(x)\n"
                "def run(features):\n    for x in tf.data.Dataset.from_tensor_slices(features).batch(4):\n"
                "        step(x)\n"),
        # a plain tf.function: one more trace per process, no XLA compilation (unless on a TPU)
        Example("import tensorflow as tf\n@tf.function\ndef step(x):\n    return tf.reduce_sum(x)\n"
                "def run(features):\n    for x in tf.data.Dataset.from_tensor_slices(features).batch(4):\n"
                "        step(x)\n"),
        # a module-level dataset read by a loop that calls nothing compiled (tf-retrace13)
        Example("""
            import tensorflow as tf
            DATA = tf.data.Dataset.from_tensor_slices(tf.zeros([10, 3])).batch(4)
            @tf.function(jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def show():
                for x in DATA:
                    print(x)
                step(tf.zeros([4, 3]))
        """),
        # 12 rows in batches of 4: every batch is full (the count is measured like dataset.cardinality())
        Example("""
            import numpy as np
            import tensorflow as tf
            ROWS = np.zeros((12, 3), dtype=np.float32)
            @tf.function(jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def train():
                for x in tf.data.Dataset.from_tensor_slices(ROWS).shuffle(12).batch(4):
                    step(x)
        """),
        # Keras fit on arrays whose count is a multiple of batch_size, and fit where nothing compiles with XLA
        Example("""
            import numpy as np
            import tensorflow as tf
            def train(model):
                model.compile(optimizer="sgd", loss="mse", jit_compile=True)
                x = np.zeros((64, 3), np.float32)
                model.fit(x, x[:, :2], batch_size=32, epochs=2)
                model.fit(x[:48], x[:48, :2], batch_size=16, epochs=2)
        """),
        Example("""
            import tensorflow as tf
            def train(model, x, y):
                model.compile(optimizer="sgd", loss="mse")
                model.fit(x, y, batch_size=32, epochs=2)
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass Scorer(tf.keras.Model):\n    @tf.function(jit_compile=True)\n"
                "    def score(self, x):\n        return x * 2.0\n"
                "def evaluate(model, features):\n    ds = tf.data.Dataset.from_tensor_slices(features).batch(4)\n"
                "    return [model.score(x) for x in ds]\n",
                expected=(
                    (7, 10, 'batch without drop_remainder=True feeds tf.function `score` called in the loop over it: '
                            'the last, smaller batch has a new shape, so XLA compiles the step once more per process '
                            '(measured, TF 2.21 XLA:CPU: 2 traces and 2 XLA compilations in all, where full batches '
                            'need one of each), and a TPU needs a static batch dimension; use drop_remainder=True or '
                            'pad the last batch'),
                )),
        Example("import tensorflow as tf\ndef make(features):\n    return tf.data.Dataset.from_tensor_slices(features).batch(32).prefetch(2)\n"
                "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nmodel.compile(loss='mse', jit_compile=True)\n"
                "model.fit(make(x_train), epochs=3)\n",
                expected=(
                    (3, 12, 'batch without drop_remainder=True feeds Keras fit() of a jit-compiled/TPU model: the '
                            'last, smaller batch has a new shape, so XLA compiles the step once more per process '
                            '(measured, TF 2.21 XLA:CPU: 1 trace and 2 XLA compilations in all, where full batches '
                            'need one of each), and a TPU needs a static batch dimension; use drop_remainder=True or '
                            'pad the last batch'),
                )),
        # a module-level dataset, its batches handed to a helper that calls the compiled step (tf-retrace13)
        Example("""
            import tensorflow as tf
            DATA = tf.data.Dataset.from_tensor_slices(tf.zeros([10, 3])).batch(4)
            @tf.function(jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def run_step(x):
                return step(x)
            def train():
                for x in DATA:
                    run_step(x)
        """,
                expected=(
                    (2, 8, 'batch without drop_remainder=True feeds tf.function `step` (through '
                           '`run_step()`) called in the loop over it: the last, smaller batch (10 elements in '
                           'batches of 4: the last has 2) has a new shape, so XLA compiles the step once more per process (measured, TF 2.21 '
                           'XLA:CPU: 2 traces and 2 XLA compilations in all, where full batches need one of '
                           'each), and a TPU needs a static batch dimension; use drop_remainder=True or pad '
                           'the last batch'),
                )),
        # batches drawn with next() from iter(dataset) in a loop (tf-retrace13)
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def train(features, steps):
                batches = iter(tf.data.Dataset.from_tensor_slices(features).batch(4))
                for _ in range(steps):
                    x = next(batches)
                    step(x)
        """,
                expected=(
                    (6, 20, 'batch without drop_remainder=True feeds tf.function `step` called in the loop '
                            'over it: the last, smaller batch has a new shape, so XLA compiles the step once '
                            'more per process (measured, TF 2.21 XLA:CPU: 2 traces and 2 XLA compilations in '
                            'all, where full batches need one of each), and a TPU needs a static batch '
                            'dimension; use drop_remainder=True or pad the last batch'),
                )),
        # the count is written out: the message says how small the last batch is
        Example("""
            import tensorflow as tf
            DATA = tf.data.Dataset.range(10).map(lambda i: tf.fill([3], tf.cast(i, tf.float32))).batch(4)
            @tf.function(jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def train():
                for x in DATA:
                    step(x)
        """,
                expected=(
                    (2, 8, 'batch without drop_remainder=True feeds tf.function `step` called in the loop over '
                           'it: the last, smaller batch (10 elements in batches of 4: the last has 2) has a new '
                           'shape, so XLA compiles the step once more per process (measured, TF 2.21 XLA:CPU: 2 '
                           'traces and 2 XLA compilations in all, where full batches need one of each), and a TPU '
                           'needs a static batch dimension; use drop_remainder=True or pad the last batch'),
                )),
        # Keras cuts the arrays into batches itself: the last one is smaller (retrace26)
        Example("""
            import tensorflow as tf
            def train(model, x_train, y_train):
                model.compile(optimizer="adam", loss="mse", jit_compile=True)
                model.fit(x_train, y_train, batch_size=64, epochs=10)
        """, expected=(
            (4, 5, 'fit() of a model compiled with jit_compile=True cuts its arrays into batches of batch_size: the '
                   'last, smaller batch has a new shape, so XLA compiles the train step once more per process '
                   '(measured, TF 2.21 XLA:CPU: 1 trace and 2 XLA compilations in all, where full batches need one '
                   'of each); trim the arrays to a multiple of batch_size, or feed a dataset batched with '
                   'drop_remainder=True'),
        )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        self._fit_on_arrays(ctx)
        index = ctx.index
        candidates = []
        for call, _ in index.calls:
            position = _BATCH_METHODS.get(method_name(call) or "")
            if position is None or not call.args or has_kwargs_splat(call) or in_test(index, ctx.path, call):
                continue  # (a test runs a few steps: one more compile is no hazard there)
            drop = _drop_remainder(call, position)
            if drop is not None and not (isinstance(drop, ast.Constant) and drop.value is False):
                continue  # drop_remainder=True, or a setting the author chose (drop_remainder=is_training)
            if _repeats_forever_before(call):
                continue
            candidates.append(call)
        if not candidates:
            return
        compiled = keras_compiled(index)
        for call in candidates:
            partial = _partial_last_batch(index, call)
            if partial is None:
                continue
            found = compiled_consumer(index, call, compiled)
            if found is not None:
                sink, row = found
                ctx.report(self, call, f"batch without drop_remainder=True feeds {sink}: the last, smaller batch"
                                       f"{partial} has a new shape, so XLA compiles the step once more per process"
                                       f"{_cost(row)}, and a TPU needs a static batch dimension; use "
                                       "drop_remainder=True or pad the last batch")


    def _fit_on_arrays(self, ctx: ModuleContext) -> None:
        """Keras ``fit(x, y, batch_size=n)`` in a file that compiles a Keras model with
        ``jit_compile=True``: ``batch_size`` is refused for datasets, generators and Sequences, so ``x``
        is arrays, which Keras cuts into batches of ``n`` and a smaller last one (measured:
        ``keras_fit_partial_last_batch`` in ``xlacheck/data/tf_retrace.json``, one trace and two XLA
        compilations where ``keras_fit_full_batches`` needs one). Not flagged where the code shows
        the sample count to be a multiple of ``n``."""
        index = ctx.index
        if retrace_table.hazard("keras_fit_partial_last_batch") in ("none", None):
            return
        if not any(method_name(c) == "compile" and is_true(kw.value) for c, _ in index.calls
                   for kw in c.keywords if kw.arg == "jit_compile"):
            return
        facts = dataset_facts(index)
        for call, _ in index.calls:
            size_kw = keyword(call, "batch_size")
            if method_name(call) != "fit" or size_kw is None or not isinstance(call.func, ast.Attribute) \
                    or has_kwargs_splat(call) or in_test(index, ctx.path, call):
                continue
            x = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "x"), None)
            if x is None:
                continue
            count, size = facts.length(x), facts.integer(size_kw.value)
            if count is not None and size is not None and size > 0 and count % size == 0:
                continue
            partial = f" ({count} samples in batches of {size}: the last has {count % size})" \
                if count is not None and size is not None and size > 0 else ""
            ctx.report(self, call, "fit() of a model compiled with jit_compile=True cuts its arrays into batches of "
                                   f"batch_size: the last, smaller batch{partial} has a new shape, so XLA compiles "
                                   f"the train step once more per process{_cost('keras_fit_partial_last_batch')}; "
                                   "trim the arrays to a multiple of batch_size, or feed a dataset batched with "
                                   "drop_remainder=True")


def _partial_last_batch(index: ModuleIndex, call: ast.Call) -> str | None:
    """None when the code shows that every batch of ``call`` is full (the dataset's count, as
    ``dataset.cardinality()`` gives it, is a multiple of the batch size, or infinite: measured in
    ``xlacheck/data/tf_dataset_cardinality.json``); else "" (the count is unknown) or a
    parenthesis that says how small the last batch is."""
    facts = dataset_facts(index)
    count = facts.cardinality(call.func.value)  # type: ignore[attr-defined]
    size = facts.integer(call.args[0])
    if _joins_datasets(index):
        return ""  # its full batches may be joined with another dataset's partial ones on the way to the step
    if count == INFINITE or count is not None and size is not None and size > 0 and count % size == 0:
        return None
    if count is None or size is None or size <= 0:
        return ""
    return f" ({count} elements in batches of {size}: the last has {count % size})"


_JOINS = frozenset({"concatenate", "zip", "sample_from_datasets", "choose_from_datasets"})


def _joins_datasets(index: ModuleIndex) -> bool:
    """The file joins datasets (``a.concatenate(b)``, ``Dataset.zip``, ``sample_from_datasets``, ...):
    the count of one ``batch`` does not say what reaches the step, so no batch is taken as full."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _JOINS
               for n in ast.walk(index.tree))


def _cost(row: str | None) -> str:
    """What the smaller batch cost in the table's row (its ``jit_compile`` run), as a parenthesis."""
    measured = retrace_table.rows().get(row) if row is not None else None
    if measured is None:
        return ""
    run = measured["jit_compile"]
    return (f" (measured, TF 2.21 XLA:CPU: {run['traces']} trace{'s' if run['traces'] != 1 else ''} and "
            f"{run['xla_compiles']} XLA compilations in all, where full batches need one of each)")
