"""XLA408: a ``jit_compile=True`` function declared to take inputs of varying shape."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import ModuleIndex, is_true, keyword
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


_SERVING_NAMES = frozenset({"serving", "serve", "serving_fn", "serve_fn", "serving_default", "serving_function"})


class UnknownDimsInJitSignature(ModuleRule):
    """
    ## What it does
    Flags a `tf.function(jit_compile=True)` of this file that is declared to take varying
    shapes (its `input_signature` holds a `tf.TensorSpec` with a `None` dimension or no shape,
    or it sets `reduce_retracing=True` / `experimental_relax_shapes`) and that is called in a
    loop here, or is an entry point this file neither calls nor exports (a train or eval step
    called from elsewhere, where the declared shapes arrive). Serving functions (named like one,
    or exported through `get_concrete_function`/`signatures=`) and functions this file calls
    only outside loops are not flagged.

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
                "def f(ids):\n    return ids + 1\ndef run(batches):\n    return [f(b) for b in batches]\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "def serving(ids):\n    return ids + 1\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.float32)])\n"
                "def encode(x):\n    return tf.reduce_sum(x, axis=1)\n"
                "def encode_padded(x):\n    return encode(tf.pad(x, [[0, 0], [0, 8 - x.shape[1]]]))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 4], tf.float32)])\n"
                "def predict(x):\n    return x * 2.0\nconcrete = predict.get_concrete_function()\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "def f(ids):\n    return ids + 1\ndef run(batches):\n    return [f(b) for b in batches]\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 128], tf.int32)])\n"
                "def eval_step(ids):\n    return tf.reduce_sum(ids, axis=1)\n"),
        Example("import tensorflow as tf\ndef _f(x):\n    return x * 2.0\n"
                "f = tf.function(_f, jit_compile=True, reduce_retracing=True)\n"
                "def run(batches):\n    for b in batches:\n        f(b)\n"),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not index.tf_functions:
            return
        looped, called = set(), set()
        for call, _ in index.calls:
            tfn = index.tf_function_called(call)
            if tfn is not None:
                called.add(id(tfn.wrapper))
                if index.loops_around(call):
                    looped.add(id(tfn.wrapper))
        exported = {id(t.wrapper) for name, tfns in index.tf_functions.items() for t in tfns
                    if name in _SERVING_NAMES or name in self._exported_names(index)}
        for tfns in index.tf_functions.values():
            for tfn in tfns:
                if not is_true(tfn.keyword("jit_compile")):
                    continue
                # Called in a loop here, or an entry point this file neither calls nor exports (a
                # train/eval step called from elsewhere): the declared varying shapes will arrive.
                if id(tfn.wrapper) not in looped and (id(tfn.wrapper) in called or id(tfn.wrapper) in exported):
                    continue
                where = ", called in a loop" if id(tfn.wrapper) in looped else ""
                signature = tfn.keyword("input_signature")
                spec = _spec_with_unknown_dims(signature, ctx) if signature is not None else None
                if spec is not None:
                    ctx.report(self, spec, f"input_signature with None dimensions on jit_compile=True function "
                                           f"`{tfn.name}`{where}: it traces once, but XLA still compiles "
                                           "once per concrete shape that arrives; feed fixed (or bucketed) shapes and "
                                           "declare them")
                    continue
                relax = next((kw for kw in tfn.wrapper.keywords if kw.arg in _RELAX and is_true(kw.value)), None)  # type: ignore[union-attr]
                if relax is not None:
                    ctx.report(self, relax, f"{relax.arg}=True on jit_compile=True function `{tfn.name}`{where}: "
                                            "tracing is relaxed but XLA still compiles once per concrete shape; "
                                            "feed fixed (or bucketed) shapes")

    @staticmethod
    def _exported_names(index: ModuleIndex) -> set[str]:
        """tf.functions this file exports (``f.get_concrete_function``, ``signatures=f``)."""
        out: set[str] = set()
        for call, _ in index.calls:
            targets = []
            if isinstance(call.func, ast.Attribute) and call.func.attr == "get_concrete_function":
                targets.append(call.func.value)
            for kw in call.keywords:
                if kw.arg == "signatures":
                    targets.extend(kw.value.values if isinstance(kw.value, ast.Dict) else [kw.value])
            for t in targets:
                if isinstance(t, ast.Call) and isinstance(t.func, ast.Attribute) and t.func.attr == "get_concrete_function":
                    t = t.func.value
                if isinstance(t, ast.Name):
                    out.add(t.id)
                elif isinstance(t, ast.Attribute):
                    out.add(t.attr)
        return out
