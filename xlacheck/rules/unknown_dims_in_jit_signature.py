"""XLA408: a ``jit_compile=True`` function declared to take inputs of varying shape."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import is_true, keyword
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_SPECS = frozenset({"tf.TensorSpec", "tf.RaggedTensorSpec", "tf.SparseTensorSpec"})
_RELAX = ("reduce_retracing", "experimental_relax_shapes")


def _spec_with_unknown_dims(node: ast.expr, ctx: ModuleContext) -> ast.Call | None:
    """The first ``tf.TensorSpec`` in ``node`` whose shape has a ``None`` dimension (or no shape)."""
    resolve = ctx.facts.aliases.resolve
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Call) or resolve(sub.func) not in _SPECS:
            continue
        kw = keyword(sub, "shape")
        shape = kw.value if kw is not None else (sub.args[0] if sub.args else None)
        if shape is None or (isinstance(shape, ast.Constant) and shape.value is None):
            return sub
        if isinstance(shape, (ast.List, ast.Tuple)) and any(
                isinstance(d, ast.Constant) and d.value is None for d in shape.elts):
            return sub
    return None


class UnknownDimsInJitSignature(ModuleRule):
    """
    ## What it does
    Flags a `tf.function(jit_compile=True)` of this file that is called in a loop here and is
    declared to take varying shapes: its `input_signature` holds a `tf.TensorSpec` with a `None`
    dimension (or no shape), or it sets `reduce_retracing=True` (`experimental_relax_shapes`).
    A jit function that this file never calls in a loop (a serving entry point, a step called
    from elsewhere) is not flagged: whether its shapes vary is decided elsewhere, and a function
    fed one padded shape compiles once (the compiler-labelled corpus has such a case).

    ## Why is this bad?
    `None` dimensions and relaxed shapes stop *tracing* once per shape, but XLA compiles for
    concrete shapes only: the function is still compiled again for every new batch size or
    sequence length that arrives (measured: `input_signature` with `None` dims traces once and
    compiles 3 times for 3 shapes; `reduce_retracing=True` traces twice and compiles 4 times for
    4 shapes). The signature hides the recompiles instead of preventing them.

    ## Example
    ```python
    @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])
    def encode(ids):
        ...
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([32, 128], tf.int32)])
    def encode(ids):  # feed batches padded to a fixed (or bucketed) shape
        ...
    ```

    ## Fix safety
    No automatic fix: the fixed shapes depend on how the data is padded and batched.
    """

    code = "XLA408"
    fix = None
    name = "unknown-dims-in-jit-signature"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([32, 128], tf.int32)])\n"
                "def f(ids):\n    return ids + 1\ndef run(batches):\n    return [f(b) for b in batches]\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "def serving(ids):\n    return ids + 1\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.float32)])\n"
                "def encode(x):\n    return tf.reduce_sum(x, axis=1)\n"
                "def encode_padded(x):\n    return encode(tf.pad(x, [[0, 0], [0, 8 - x.shape[1]]]))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 128], tf.int32)])\n"
                "def eval_step(ids):\n    return tf.reduce_sum(ids, axis=1)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "def f(ids):\n    return ids + 1\ndef run(batches):\n    return [f(b) for b in batches]\n",
                expected=(
                    (2, 49, 'input_signature with None dimensions on jit_compile=True function `f`, called in a '
                            'loop: it traces once, but XLA still compiles once per concrete shape that arrives; feed '
                            'fixed (or bucketed) shapes and declare them'),
                )),
        Example("import tensorflow as tf\ndef _f(x):\n    return x * 2.0\n"
                "f = tf.function(_f, jit_compile=True, reduce_retracing=True)\n"
                "def run(batches):\n    for b in batches:\n        f(b)\n",
                expected=(
                    (4, 39, 'reduce_retracing=True on jit_compile=True function `f`, called in a loop: tracing is '
                            'relaxed but XLA still compiles once per concrete shape; feed fixed (or bucketed) shapes'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        looped = {id(tfn.wrapper) for call, _ in index.calls
                  if (tfn := index.tf_function_called(call)) is not None and index.loops_around(call)}
        if not looped:
            return
        for tfns in index.tf_functions.values():
            for tfn in tfns:
                if id(tfn.wrapper) not in looped or not is_true(tfn.keyword("jit_compile")):
                    continue
                signature = tfn.keyword("input_signature")
                spec = _spec_with_unknown_dims(signature, ctx) if signature is not None else None
                if spec is not None:
                    ctx.report(self, spec, f"input_signature with None dimensions on jit_compile=True function "
                                           f"`{tfn.name}`, called in a loop: it traces once, but XLA still compiles "
                                           "once per concrete shape that arrives; feed fixed (or bucketed) shapes and "
                                           "declare them")
                    continue
                relax = next((kw for kw in tfn.wrapper.keywords if kw.arg in _RELAX and is_true(kw.value)), None)  # type: ignore[union-attr]
                if relax is not None:
                    ctx.report(self, relax, f"{relax.arg}=True on jit_compile=True function `{tfn.name}`, called in a "
                                            "loop: tracing is relaxed but XLA still compiles once per concrete shape; "
                                            "feed fixed (or bucketed) shapes")
