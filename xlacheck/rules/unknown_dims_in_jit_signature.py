"""XLA408: a ``jit_compile=True`` function declared to take inputs of varying shape."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import is_true, keyword
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_TF_FUNCTION = frozenset({"tf.function", "tf.compat.v1.function", "tf.compat.v2.function"})
_SPECS = frozenset({"tf.TensorSpec", "tf.RaggedTensorSpec", "tf.SparseTensorSpec"})


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
    Flags `tf.function(jit_compile=True)` (decorator or call) whose `input_signature` holds a
    `tf.TensorSpec` with a `None` dimension (or no shape).

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
    name = "unknown-dims-in-jit-signature"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([32, 128], tf.int32)])\n"
                "def f(ids):\n    return ids + 1\n"),
        Example("import tensorflow as tf\n@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "def serving(ids):\n    return ids + 1\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "def f(ids):\n    return ids + 1\n"),
        Example("import tensorflow as tf\ndef _f(x):\n    return x * 2.0\n"
                "f = tf.function(_f, jit_compile=True, input_signature=[tf.TensorSpec(None, tf.float32)])\n"),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        for call, name in ctx.index.calls:
            if name not in _TF_FUNCTION:
                continue
            jit = keyword(call, "jit_compile")
            if jit is None or not is_true(jit.value):
                continue
            signature = keyword(call, "input_signature")
            spec = _spec_with_unknown_dims(signature.value, ctx) if signature is not None else None
            if spec is not None:  # (reduce_retracing=True is not flagged: removing it would not help)
                ctx.report(self, spec, "input_signature with None dimensions on a jit_compile=True function: it traces "
                                       "once, but XLA still compiles once per concrete shape that arrives; feed fixed "
                                       "(or bucketed) shapes and declare them")

