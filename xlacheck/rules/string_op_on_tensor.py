"""XLA308: ``tf.strings.*`` applied to non-constant tensors in compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import CONST, TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext, call_name


class StringOpOnTensor(Rule):
    """
    ## What it does
    Flags `tf.strings.*` and `tf.as_string` called on tensors that are not compile-time
    constants, in compiled code.

    ## Why is this bad?
    XLA has no string type: string ops (`StringJoin`, `StringToHashBucketFast`, `AsString`, ...)
    have no XLA kernel, and a string argument alone fails compilation. On constants TensorFlow
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
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None or not (name.startswith("tf.strings.") or name == "tf.as_string"):
            return
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            k = ctx.flags(arg)
            if k & TENSOR and not k & CONST:
                ctx.report(self, node,
                           f"{name} on a non-constant tensor in compiled code: XLA has no string kernels, so "
                           "compilation fails; do string work in the input pipeline and feed ids")
                return
