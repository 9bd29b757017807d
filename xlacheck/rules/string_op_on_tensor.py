"""XLA308: string tensors computed from non-constant tensors in compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import CONST, TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

# Ops that move values without looking at them: their result has the dtype of the value
# arguments named here (position, keyword), so a string there makes a string tensor. Measured on
# TF 2.21 XLA:CPU with the other argument a non-constant tensor: SelectV2, GatherV2, GatherNd
# and Fill/Pack/Tile/Reshape of strings fail ("No registered 'SelectV2' OpKernel for XLA_CPU_JIT
# devices"; a string result alone fails at its _Retval).
_VALUE_ARGUMENTS: dict[str, tuple[tuple[int, str], ...]] = {
    "tf.where": ((1, "x"), (2, "y")),
    "tf.compat.v1.where_v2": ((1, "x"), (2, "y")),
    "tf.keras.backend.switch": ((1, "then_expression"), (2, "else_expression")),
    "tf.gather": ((0, "params"),),
    "tf.gather_nd": ((0, "params"),),
    "tf.fill": ((1, "value"),),
}
_CONSTANT_MAKERS = frozenset({"tf.constant", "tf.convert_to_tensor"})


def _string_value(e: ast.expr | None, ctx: RuleContext, depth: int = 0) -> bool:
    """A Python string, a non-empty list/tuple of them, a module-level name bound to one, or
    ``tf.constant``/``tf.convert_to_tensor`` of one."""
    if e is None or depth > 2:
        return False
    if isinstance(e, ast.Constant):
        return isinstance(e.value, str)
    if isinstance(e, (ast.List, ast.Tuple)):
        return bool(e.elts) and all(_string_value(x, ctx, depth + 1) for x in e.elts)
    if isinstance(e, ast.Name) and e.id in ctx.module_values:
        return _string_value(ctx.module_values[e.id], ctx, depth + 1)
    if isinstance(e, ast.Call) and e.args and call_name(e, ctx) in _CONSTANT_MAKERS:
        return _string_value(e.args[0], ctx, depth + 1)
    return False


def _argument(node: ast.Call, position: int, keyword: str) -> ast.expr | None:
    for kw in node.keywords:
        if kw.arg == keyword:
            return kw.value
    return node.args[position] if position < len(node.args) else None


class StringOpOnTensor(Rule):
    """
    ## What it does
    Flags `tf.strings.*` and `tf.as_string` called on tensors that are not compile-time
    constants, in compiled code; and ops that move values without reading them (`tf.where`'s
    `x`/`y`, `tf.keras.backend.switch`, `tf.gather`/`tf.gather_nd` params, `tf.fill`'s value)
    given Python strings (or `tf.constant` of strings) next to a non-constant tensor: they build
    a string tensor from data, such as class names picked by a prediction.

    ## Why is this bad?
    XLA has no string type: string ops (`StringJoin`, `StringToHashBucketFast`, `AsString`, ...)
    have no XLA kernel, and a string argument alone fails compilation. Selecting strings fails
    the same way (`No registered 'SelectV2' OpKernel for XLA_CPU_JIT devices`; `GatherV2` for
    class names indexed by an argmax), measured on TF 2.21. On constants TensorFlow
    folds them before XLA sees them, so `tf.strings.to_number(tf.constant([...]))` compiles.

    ## Example
    ```python
    crossed = tf.strings.join([country, device], separator="_")
    ```

    ## Use instead
    ```python
    # hash/lookup strings in the tf.data pipeline; feed integer ids to the compiled model
    ```

    ## Fix safety
    No automatic fix.
    """

    code = "XLA308"
    fix = None
    name = "string-op-on-tensor"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\nTABLE = ['1.0', '2.5']\n@tf.function(jit_compile=True)\ndef f(labels):\n"
                "    w = tf.strings.to_number(tf.constant(TABLE), out_type=tf.float32)\n    return tf.gather(w, labels)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(country, device):\n"
                "    crossed = tf.strings.join([country, device], separator='_')\n"
                "    return tf.strings.to_hash_bucket_fast(crossed, 100)\n",
                expected=(
                    (4, 15, 'tf.strings.join on a non-constant tensor in compiled code: XLA has no string kernels, '
                            'so compilation fails; do string work in the input pipeline and feed ids'),
                    (5, 12, 'tf.strings.to_hash_bucket_fast on a non-constant tensor in compiled code: XLA has no '
                            'string kernels, so compilation fails; do string work in the input pipeline and feed ids'),
                )),
        Example("import tensorflow as tf\nCLASSES = ['cat', 'dog']\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    label = tf.where(x > 0.5, 'high', 'low')\n"
                "    return label, tf.gather(CLASSES, tf.argmax(x))\n",
                expected=(
                    (5, 13, 'tf.where makes a string tensor from a non-constant tensor in compiled code: XLA has no '
                            'string type, so compilation fails; return ids (or indices into the names) and map '
                            'them to strings outside the compiled function'),
                    (6, 19, 'tf.gather makes a string tensor from a non-constant tensor in compiled code: XLA has no '
                            'string type, so compilation fails; return ids (or indices into the names) and map '
                            'them to strings outside the compiled function'),
                )),
        # the TF1 module's own string functions (tf.compat.v1.strings.length is not tf.strings.length)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(words):\n"
                "    return tf.compat.v1.strings.length(words)\n",
                expected=(
                    (4, 12, 'tf.compat.v1.strings.length on a non-constant tensor in compiled code: XLA has no string '
                            'kernels, so compilation fails; do string work in the input pipeline and feed ids'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name in _VALUE_ARGUMENTS:
            self._string_values(node, name, ctx)
            return
        # tf.compat.v1.strings.X that is not tf.strings.X (its own `unit`/`keepdims` signature) is the
        # same string op family; the aliases are named as tf.strings.X already (call_name)
        if name is None or not (name.startswith(("tf.strings.", "tf.compat.v1.strings.")) or name == "tf.as_string"):
            return
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            k = ctx.flags(arg)
            if k & TENSOR and not k & CONST:
                ctx.report(self, node,
                           f"{name} on a non-constant tensor in compiled code: XLA has no string kernels, so "
                           "compilation fails; do string work in the input pipeline and feed ids")
                return

    def _string_values(self, node: ast.Call, name: str, ctx: RuleContext) -> None:
        values = [_argument(node, position, keyword) for position, keyword in _VALUE_ARGUMENTS[name]]
        if not any(_string_value(v, ctx) for v in values):
            return
        others = [a for a in [*node.args, *(kw.value for kw in node.keywords)] if not any(a is v for v in values)]
        if any(ctx.flags(a) & TENSOR and not ctx.flags(a) & CONST for a in others):
            ctx.report(self, node,
                       f"{name} makes a string tensor from a non-constant tensor in compiled code: XLA has no string "
                       "type, so compilation fails; return ids (or indices into the names) and map them to strings "
                       "outside the compiled function")
