"""XLA310: an op that XLA supports only for some argument values."""

from __future__ import annotations

import ast

from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name
from xlacheck.rules.op_without_xla_kernel import unsupported_ops


class UnsupportedOpVariant(Rule):
    """
    ## What it does
    Flags op calls whose arguments select a variant with no XLA kernel: `tf.image.resize` with a
    method the op table marks unsupported (`"bicubic"`, `"area"`, `"gaussian"`, given by keyword,
    position or `tf.image.ResizeMethod.*`) or `antialias=True`, and `tf.random.shuffle` (1-D
    shuffles fail at XLA run time).

    ## Why is this bad?
    `ResizeBicubic` and `ScaleAndTranslate` (antialiasing) have no XLA:CPU kernel, so the
    function does not compile. A 1-D float `tf.random.shuffle` compiles but fails when run:
    `FailedPreconditionError: Expected comparison type SIGNED.`

    ## Example
    ```python
    up = tf.image.resize(images, [h * 2, w * 2], method="bicubic")
    ```

    ## Use instead
    ```python
    up = tf.image.resize(images, [h * 2, w * 2], method="bilinear")
    # shuffle: tf.gather(x, tf.argsort(tf.random.uniform(tf.shape(x)[:1])))
    ```

    ## Fix safety
    No automatic fix: changing the interpolation (`bicubic` -> `bilinear`) changes the numbers;
    the message names the variant that has an XLA kernel.
    """

    code = "XLA310"
    fix = None
    name = "unsupported-op-variant"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.image.resize(x, [8, 8], method='bilinear')\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.image.resize(x, [8, 8], method='bicubic')\n",
                expected=(
                    (4, 12, "tf.image.resize(method='bicubic') needs ResizeBicubic, which has no XLA kernel: "
                            "compilation fails; use method 'bilinear' or 'nearest' without antialias"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(y):\n"
                "    return tf.random.shuffle(y, seed=1)\n",
                expected=(
                    (4, 12, "tf.random.shuffle of a 1-D tensor fails at XLA run time ('Expected comparison type "
                            "SIGNED'); use tf.gather(x, tf.argsort(tf.random.uniform(tf.shape(x)[:1])))"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name == "tf.image.resize":
            literals: dict[str, object] = {}
            method = argument(node, 2, "method")  # by keyword, position or ResizeMethod enum
            if isinstance(method, ast.Constant) and isinstance(method.value, str):
                literals["method"] = method.value.lower()
            elif isinstance(method, ast.Attribute):
                literals["method"] = method.attr.lower()
            antialias = argument(node, 4, "antialias")
            if isinstance(antialias, ast.Constant):
                literals["antialias"] = antialias.value
            ops = unsupported_ops(name, node, literals)
            if ops:
                given = ", ".join(f"{k}={v!r}" for k, v in literals.items())
                ctx.report(self, node, f"tf.image.resize({given}) needs {', '.join(ops)}, which has no XLA kernel: "
                                       "compilation fails; use method 'bilinear' or 'nearest' without antialias")
        elif name == "tf.random.shuffle":
            ctx.report(self, node, "tf.random.shuffle of a 1-D tensor fails at XLA run time ('Expected comparison "
                                   "type SIGNED'); use tf.gather(x, tf.argsort(tf.random.uniform(tf.shape(x)[:1])))")
