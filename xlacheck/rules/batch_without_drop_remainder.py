"""XLA402: ``Dataset.batch``/``padded_batch`` without ``drop_remainder=True`` feeding compiled code."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from xlacheck import retrace_table
from xlacheck.analysis.module_index import ModuleIndex, TfFunction, has_kwargs_splat, is_true, keyword, method_name
from xlacheck.analysis.scopes import target_names
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import bound_arguments, in_test, positional_params
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
    when the batched dataset (directly, through a variable, a module-level name, further dataset
    methods, or a function of this file that returns it) is iterated by a loop that calls a
    `tf.function` of this file (or a helper of this file that passes the batch on to one), drawn
    from with `next(iter(ds))` in such a loop, or is handed to `strategy.experimental_distribute_dataset`, or to Keras
    `fit`/`evaluate`/`predict` in a file that compiles with `jit_compile=True` or targets a TPU.
    Only a step that XLA compiles counts (`jit_compile=True`, or a file that targets a TPU): a plain
    `tf.function` traces the smaller batch once more per process and runs no XLA compilation (measured,
    `dataset_partial_batch_epochs` in `xlacheck/data/tf_retrace.json`: three epochs cost 2 traces in
    all), a bounded cost that is not a recompile hazard.
    `ds.repeat().batch(n)` is not flagged (an endless stream has no partial batch), nor are
    test files and test functions (a few steps: one more compilation costs nothing there).
    The check is syntactic: `.batch` is recognised by its method name, and the dataset is
    followed only through names and calls inside this file.

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
                           '`run_step()`) called in the loop over it: the last, smaller batch has a new '
                           'shape, so XLA compiles the step once more per process (measured, TF 2.21 '
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
                sink, row = found
                ctx.report(self, call, f"batch without drop_remainder=True feeds {sink}: the last, smaller batch has a "
                                       f"new shape, so XLA compiles the step once more per process{_cost(row)}, and a "
                                       "TPU needs a static batch dimension; use drop_remainder=True or pad the last "
                                       "batch")

    # -- following the dataset -------------------------------------------------------------
    def _sink(self, index: ModuleIndex, start: ast.expr, keras_compiled: bool) -> tuple[str, str | None] | None:
        """Where the dataset produced by ``start`` ends up, when XLA compiles what it feeds: (a
        description, the retrace-table row that measured the cost, or None where none did)."""
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
            if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) \
                    and parent.func.id in ("iter", "next") and parent.args and parent.args[0] is expr:
                # `it = iter(ds)`, then `batch = next(it)` in a loop: the batches of the dataset
                loops = [loop for loop in index.loops_around(parent) if isinstance(loop, (ast.For, ast.While))]
                if parent.func.id == "next" and loops:
                    sink = self._loop_sink(index, loops[0].body, keras_compiled, _assigned(index, parent))
                    if sink is not None:
                        return sink
                work.append((parent, depth + 1))
            elif isinstance(parent, ast.Call) and expr in parent.args or isinstance(parent, ast.keyword):
                owner = index.parent(parent) if isinstance(parent, ast.keyword) else parent
                sink = self._call_sink(index, owner, keras_compiled) if isinstance(owner, ast.Call) else None
                if sink is not None:
                    return sink
            elif isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is expr:
                body = parent.body if isinstance(parent, ast.For) else [index.parent(parent)]
                sink = self._loop_sink(index, body, keras_compiled, set(target_names(parent.target)))
                if sink is not None:
                    return sink
            elif isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
                name = parent.targets[0].id
                scope = index.function_of(parent) or index.tree
                for node in index.scope_nodes(scope):
                    if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) \
                            and node.lineno >= parent.lineno:
                        work.append((node, depth + 1))
                if scope is index.tree:  # a module-level dataset, read in the functions that iterate it
                    for node in index.loads_of(name, index.tree):
                        if index.function_of(node) is not None and index.module_constant(node) is parent.value:
                            work.append((node, depth + 1))
            elif isinstance(parent, ast.Return):
                func = index.function_of(parent)
                if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for call, _ in index.calls:
                        if isinstance(call.func, ast.Name) and call.func.id == func.name:
                            work.append((call, depth + 1))
        return None

    def _call_sink(self, index: ModuleIndex, call: ast.Call, keras_compiled: bool) -> tuple[str, str | None] | None:
        name = method_name(call)
        if name in _DISTRIBUTE and keras_compiled:
            return f"strategy.{name} (compiled per replica)", None
        if name in _KERAS_LOOPS and keras_compiled:
            return f"Keras {name}() of a jit-compiled/TPU model", "keras_fit_dataset_partial_batch"
        tfn = index.tf_function_called(call)
        if tfn is not None and _compiles(index, tfn):
            return f"tf.function `{tfn.name}`", _row(index, tfn)
        return None

    def _loop_sink(self, index: ModuleIndex, body: Sequence[ast.AST | None], keras_compiled: bool,
                   batches: set[str] = frozenset()) -> tuple[str, str | None] | None:  # type: ignore[assignment]
        """A compiled call in the body of a loop over the dataset: a ``tf.function`` of this file, or a
        function of this file handed a batch (a name in ``batches``, the loop's target) that passes
        it on to one (one level of helpers)."""
        for stmt in body:
            if stmt is None:
                continue
            for sub in ast.walk(stmt):
                if not isinstance(sub, ast.Call):
                    continue
                tfn = index.tf_function_called(sub)
                if tfn is not None:
                    if _compiles(index, tfn):
                        return f"tf.function `{tfn.name}` called in the loop over it", _row(index, tfn)
                    continue
                through = _helper_compiles(index, sub, batches)
                if through is not None:
                    helper, tfn = through
                    return (f"tf.function `{tfn.name}` (through `{helper}()`) called in the loop over it",
                            _row(index, tfn))
                if keras_compiled and method_name(sub) in _STEP_CALLS and (
                        method_name(sub) != "run" or "strategy" in ast.unparse(sub.func).lower()):
                    return f"{ast.unparse(sub.func)}() called in the loop over it", None
        return None


def _assigned(index: ModuleIndex, value: ast.expr) -> set[str]:
    """The names ``value`` is assigned to (``batch = next(it)``, ``x, y = next(it)``)."""
    stmt = index.parent(value)
    if isinstance(stmt, ast.Assign) and stmt.value is value:
        return {name for t in stmt.targets for name in target_names(t)}
    return set()


def _helper_compiles(index: ModuleIndex, call: ast.Call, batches: set[str]) -> tuple[str, TfFunction] | None:
    """``helper(batch)``: a module-level function of this file (not itself a ``tf.function``) handed
    a batch, whose body passes the parameter that receives it to a compiled ``tf.function``:
    (the helper's name, that tf.function)."""
    if not batches or not isinstance(call.func, ast.Name):
        return None
    helper = next((n for n in index.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and n.name == call.func.id), None)
    if helper is None or call.func.id in index.tf_functions:
        return None
    fed = {param for param, arg in bound_arguments(positional_params(helper), call)
           if any(isinstance(n, ast.Name) and n.id in batches for n in ast.walk(arg))}
    for inner in ast.walk(helper):
        if not isinstance(inner, ast.Call):
            continue
        tfn = index.tf_function_called(inner)
        if tfn is not None and _compiles(index, tfn) and any(
                isinstance(n, ast.Name) and n.id in fed for a in [*inner.args, *(k.value for k in inner.keywords)]
                for n in ast.walk(a)):
            return helper.name, tfn
    return None


def _compiles(index: ModuleIndex, tfn: TfFunction) -> bool:
    """XLA compiles ``tfn``: ``jit_compile=True``, or a file that targets a TPU. A plain
    tf.function traces the smaller batch once more per process and compiles nothing with XLA
    (``dataset_partial_batch_epochs`` in xlacheck/data/tf_retrace.json: one retrace over three
    epochs), so it is a sink only while the table says that cost is bounded to one trace."""
    return is_true(tfn.keyword("jit_compile")) or index.uses_tpu or not retrace_table.bounded(
        "dataset_partial_batch_epochs", at_most=1)


def _row(index: ModuleIndex, tfn: TfFunction) -> str | None:
    """The table row that measured a partial last batch reaching ``tfn`` under ``jit_compile``."""
    if not is_true(tfn.keyword("jit_compile")):
        return None  # compiled because the file targets a TPU: not measured on the CPU
    return "dataset_partial_batch_epochs_input_signature" if tfn.has_input_signature else "dataset_partial_batch_epochs"


def _cost(row: str | None) -> str:
    """What the smaller batch cost in the table's row (its ``jit_compile`` run), as a parenthesis."""
    measured = retrace_table.rows().get(row) if row is not None else None
    if measured is None:
        return ""
    run = measured["jit_compile"]
    return (f" (measured, TF 2.21 XLA:CPU: {run['traces']} trace{'s' if run['traces'] != 1 else ''} and "
            f"{run['xla_compiles']} XLA compilations in all, where full batches need one of each)")
