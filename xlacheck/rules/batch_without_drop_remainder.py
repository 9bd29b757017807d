"""XLA402: ``Dataset.batch``/``padded_batch`` without ``drop_remainder=True`` feeding compiled code."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from xlacheck import retrace_table
from xlacheck.analysis.module_index import ModuleIndex, TfFunction, has_kwargs_splat, is_true, keyword, method_name
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import in_test
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Position of drop_remainder in each batching method.
_BATCH_METHODS = {"batch": 1, "padded_batch": 3}
# Dataset methods that keep the batch structure: the dataset flows through them.
_PASS_THROUGH = frozenset({"prefetch", "cache", "map", "filter", "shuffle", "take", "skip", "repeat", "with_options",
                           "apply", "enumerate", "ignore_errors", "shard", "concatenate"})
# Where a dataset enters compiled code.
_KERAS_LOOPS = frozenset({"fit", "evaluate", "predict"})
_DISTRIBUTE = frozenset({"experimental_distribute_dataset", "distribute_datasets_from_function"})
_STEP_CALLS = frozenset({"train_on_batch", "test_on_batch", "predict_on_batch", "run"})


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
    when the batched dataset (directly, through a variable, further dataset methods, or a
    function of this file that returns it) is iterated by a loop that calls a `tf.function` of
    this file, or is handed to `strategy.experimental_distribute_dataset`, or to Keras
    `fit`/`evaluate`/`predict` in a file that compiles with `jit_compile=True` or targets a TPU.
    A `tf.function` with an `input_signature` and no `jit_compile` is not a sink: the smaller
    batch runs its one trace (measured, `xlacheck/data/tf_retrace.json`).
    `ds.repeat().batch(n)` is not flagged (an endless stream has no partial batch), nor are
    test files and test functions (a few steps: one more compilation costs nothing there).
    The check is syntactic: `.batch` is recognised by its method name, and the dataset is
    followed only through names and calls inside this file.

    ## Why is this bad?
    Unless the number of examples is a multiple of the batch size, the last batch is smaller.
    Its new shape traces the step again, and where XLA compiles the step (`jit_compile=True`, a
    TPU) compiles it again: a whole compilation for one batch, paid once per process (the later
    epochs find both in the cache; measured on TF 2.21: 10 examples, batch 4, 4 epochs: 2 traces
    and 2 XLA compilations in all, and no XLA compilation for a plain `tf.function`). On a TPU, a
    batch dimension that is not static can fail outright.

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
    )
    INVALID = (
        Example("import tensorflow as tf\nclass Scorer(tf.keras.Model):\n    @tf.function(jit_compile=True)\n"
                "    def score(self, x):\n        return x * 2.0\n"
                "def evaluate(model, features):\n    ds = tf.data.Dataset.from_tensor_slices(features).batch(4)\n"
                "    return [model.score(x) for x in ds]\n",
                expected=(
                    (7, 10, 'batch without drop_remainder=True feeds tf.function `score` called in the loop over it: '
                            'the last, smaller batch has a new shape, so the step traces and XLA compiles again (and '
                            'a TPU needs a static batch dimension); use drop_remainder=True or pad the last batch'),
                )),
        Example("import tensorflow as tf\ndef make(features):\n    return tf.data.Dataset.from_tensor_slices(features).batch(32).prefetch(2)\n"
                "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nmodel.compile(loss='mse', jit_compile=True)\n"
                "model.fit(make(x_train), epochs=3)\n",
                expected=(
                    (3, 12, 'batch without drop_remainder=True feeds Keras fit() of a jit-compiled/TPU model: the '
                            'last, smaller batch has a new shape, so the step traces and XLA compiles again (and a '
                            'TPU needs a static batch dimension); use drop_remainder=True or pad the last batch'),
                )),
        # a plain tf.function: one more trace, no XLA compilation (unless on a TPU)
        Example("import tensorflow as tf\n@tf.function\ndef step(x):\n    return tf.reduce_sum(x)\n"
                "def run(features):\n    for x in tf.data.Dataset.from_tensor_slices(features).batch(4):\n"
                "        step(x)\n",
                expected=(
                    (6, 14, 'batch without drop_remainder=True feeds tf.function `step` called in the loop over it: '
                            'the last, smaller batch has a new shape, so the step traces again (and XLA compiles it '
                            'again under jit_compile or on a TPU, which needs a static batch dimension); use '
                            'drop_remainder=True or pad the last batch'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
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
        keras_compiled = index.uses_tpu or any(
            is_true(kw.value) for c, _ in index.calls for kw in c.keywords if kw.arg == "jit_compile")
        for call in candidates:
            found = self._sink(index, call, keras_compiled)
            if found is not None:
                sink, compiled = found
                cost = "traces and XLA compiles again (and a TPU needs a static batch dimension)" if compiled else \
                    "traces again (and XLA compiles it again under jit_compile or on a TPU, which needs a static " \
                    "batch dimension)"
                ctx.report(self, call, f"batch without drop_remainder=True feeds {sink}: the last, smaller batch has a "
                                       f"new shape, so the step {cost}; use drop_remainder=True or pad the last batch")

    # -- following the dataset -------------------------------------------------------------
    def _sink(self, index: ModuleIndex, start: ast.expr, keras_compiled: bool) -> tuple[str, bool] | None:
        """(what the batches feed, whether XLA surely compiles it) or None."""
        """Where the dataset produced by ``start`` ends up (a description), or None."""
        work: list[tuple[ast.expr, int]] = [(start, 0)]
        seen: set[int] = set()
        while work:
            expr, depth = work.pop()
            if id(expr) in seen or depth > 6:
                continue
            seen.add(id(expr))
            # climb through chained dataset methods: ds.batch(4).prefetch(2)
            while True:
                parent = index.parent(expr)
                if isinstance(parent, ast.Attribute) and parent.value is expr and parent.attr in _PASS_THROUGH:
                    call = index.parent(parent)
                    if isinstance(call, ast.Call) and call.func is parent:
                        expr = call
                        continue
                break
            parent = index.parent(expr)
            if isinstance(parent, ast.Call) and expr in parent.args or isinstance(parent, ast.keyword):
                owner = index.parent(parent) if isinstance(parent, ast.keyword) else parent
                sink = self._call_sink(index, owner, keras_compiled) if isinstance(owner, ast.Call) else None
                if sink is not None:
                    return sink
            elif isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is expr:
                body = parent.body if isinstance(parent, ast.For) else [index.parent(parent)]
                sink = self._loop_sink(index, body, keras_compiled)
                if sink is not None:
                    return sink
            elif isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
                name = parent.targets[0].id
                scope = index.function_of(parent) or index.tree
                for node in index.scope_nodes(scope):
                    if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) \
                            and node.lineno >= parent.lineno:
                        work.append((node, depth + 1))
            elif isinstance(parent, ast.Return):
                func = index.function_of(parent)
                if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for call, _ in index.calls:
                        if isinstance(call.func, ast.Name) and call.func.id == func.name:
                            work.append((call, depth + 1))
        return None

    def _call_sink(self, index: ModuleIndex, call: ast.Call, keras_compiled: bool) -> tuple[str, bool] | None:
        name = method_name(call)
        if name in _DISTRIBUTE:
            return f"strategy.{name} (compiled per replica)", keras_compiled
        if name in _KERAS_LOOPS and keras_compiled:
            return f"Keras {name}() of a jit-compiled/TPU model", True
        tfn = index.tf_function_called(call)
        if tfn is not None and not _signature_absorbs_batch(tfn):
            return f"tf.function `{tfn.name}`", _xla_compiled(index, tfn)
        return None

    def _loop_sink(self, index: ModuleIndex, body: Sequence[ast.AST | None], keras_compiled: bool
                   ) -> tuple[str, bool] | None:
        for stmt in body:
            if stmt is None:
                continue
            for sub in ast.walk(stmt):
                if not isinstance(sub, ast.Call):
                    continue
                tfn = index.tf_function_called(sub)
                if tfn is not None and _signature_absorbs_batch(tfn):
                    continue
                if tfn is not None:
                    return f"tf.function `{tfn.name}` called in the loop over it", _xla_compiled(index, tfn)
                if method_name(sub) in _STEP_CALLS and (method_name(sub) != "run" or "strategy" in ast.unparse(sub.func).lower()):
                    return f"{ast.unparse(sub.func)}() called in the loop over it", keras_compiled
        return None


def _xla_compiled(index: ModuleIndex, tfn: TfFunction) -> bool:
    """XLA compiles ``tfn`` for sure: ``jit_compile=True``, or a file that targets a TPU. A plain
    tf.function only traces again for the smaller batch (measured, TF 2.21: 10 examples, batch 4,
    4 epochs: 2 traces, no XLA compilation)."""
    return is_true(tfn.keyword("jit_compile")) or index.uses_tpu


def _signature_absorbs_batch(tfn: TfFunction) -> bool:
    """A ``tf.function`` with an ``input_signature`` and no ``jit_compile``: the smaller last batch
    runs the one trace (measured: ``tensor_shape_changes_input_signature_none`` in
    xlacheck/data/tf_retrace.json, no retrace without jit_compile; one XLA compilation per shape with it)."""
    return tfn.has_input_signature and not is_true(tfn.keyword("jit_compile")) and retrace_table.bounded(
        "tensor_shape_changes_input_signature_none", at_most=0)
