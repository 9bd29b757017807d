"""XLA405: ``dataset.batch(n)`` without ``drop_remainder=True`` in a file with compiled code."""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, ModuleContext, Rule

_DATASET_METHODS = frozenset({"from_tensor_slices", "from_tensors", "map", "shuffle", "prefetch", "repeat",
                              "cache", "interleave", "filter", "take", "skip", "TFRecordDataset", "zip"})


def _is_dataset_chain(node: ast.expr, ctx: ModuleContext) -> bool:
    while True:
        if isinstance(node, ast.Call):
            name = ctx.resolve(node.func) or ""
            if name.startswith("tf.data."):
                return True
            node = node.func
        elif isinstance(node, ast.Attribute):
            if node.attr in _DATASET_METHODS:
                return True
            node = node.value
        else:
            return False


_CONSUMERS = frozenset({"fit", "evaluate", "predict"})


def _consumed_here(call: ast.Call, fn: ast.AST) -> bool:
    """Is the batched dataset iterated (or fed to fit/evaluate/predict) in the same function?"""
    names = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) and n.value is call
             for t in n.targets if isinstance(t, ast.Name)}
    for n in ast.walk(fn):
        iters: list[ast.expr] = []
        if isinstance(n, (ast.For, ast.comprehension)):
            iters = [n.iter]
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _CONSUMERS:
            iters = list(n.args[:1])
        for it in iters:
            if it is call or isinstance(it, ast.Name) and it.id in names:
                return True
    return False


class BatchWithoutDropRemainder(Rule):
    """
    ## What it does
    Flags `tf.data` pipelines batched with `.batch(n)` without `drop_remainder=True` and consumed
    in the same function (iterated, or passed to `fit`/`evaluate`/`predict`), in a file that also
    defines compiled functions (a model, a `tf.function` step). A function that only builds and
    returns the dataset is not flagged: its caller decides.

    ## Why is this bad?
    The last batch is smaller: a new input shape, so the compiled step is traced and compiled
    again for it (and on TPUs shapes must be static). With several datasets and epochs this adds
    compilations that take longer than the steps.

    ## Example
    ```python
    ds = tf.data.Dataset.from_tensor_slices(features).batch(32)
    ```

    ## Use instead
    ```python
    ds = tf.data.Dataset.from_tensor_slices(features).batch(32, drop_remainder=True)
    # at evaluation, pad the last batch to the full size instead of dropping it
    ```

    ## Fix safety
    Adding `drop_remainder=True` drops up to n-1 examples: unsafe.
    """

    code = "XLA405"
    name = "batch-without-drop-remainder"
    severity = Severity.RECOMPILE
    module_level = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    return x * 2.0\n"
                "ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0]).batch(2, drop_remainder=True)\n"),
        Example("import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices([1.0, 2.0]).batch(2)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    return x * 2.0\n"
                "def evaluate(xs):\n    ds = tf.data.Dataset.from_tensor_slices(xs).batch(4)\n"
                "    return [f(x) for x in ds]\n"),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        from xlacheck.analysis.contexts import Certainty

        if not any(f.certainty is Certainty.COMPILED for f in ctx.facts.functions):
            return
        for call, func in ctx.facts.sites.get("batch", ()):
            if func is None or isinstance(func.node, ast.Lambda):
                continue
            drop = next((kw.value for kw in call.keywords if kw.arg == "drop_remainder"), None)
            if drop is None and len(call.args) > 1:
                drop = call.args[1]
            if isinstance(drop, ast.Constant) and drop.value is True or drop is not None and not isinstance(drop, ast.Constant):
                continue
            receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
            if receiver is not None and _is_dataset_chain(receiver, ctx) and _consumed_here(call, func.node):
                ctx.report(self, call,
                           "dataset batched without drop_remainder=True: the smaller last batch is a new shape, so "
                           "compiled steps retrace and recompile for it; drop or pad the remainder")
