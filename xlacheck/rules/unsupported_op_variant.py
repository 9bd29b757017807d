"""XLA310: an op that XLA supports only for some argument values."""

from __future__ import annotations

import ast

from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name

_RESIZE_BAD = frozenset({"bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic"})
_RESIZE_ENUM = {"BICUBIC": "bicubic", "AREA": "area", "LANCZOS3": "lanczos3", "LANCZOS5": "lanczos5",
                "GAUSSIAN": "gaussian", "MITCHELLCUBIC": "mitchellcubic"}


class UnsupportedOpVariant(Rule):
    """
    ## What it does
    Flags op calls whose arguments select a variant with no XLA kernel:
    `tf.image.resize(..., method="bicubic"|"area"|"lanczos*"|"gaussian"|"mitchellcubic")` or
    `antialias=True`, and `tf.random.shuffle` (1-D shuffles fail at XLA run time).

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
    Changing the interpolation changes the numbers: unsafe, offered for display only.
    """

    code = "XLA310"
    name = "unsupported-op-variant"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.image.resize(x, [8, 8], method='bilinear')\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.image.resize(x, [8, 8], method='bicubic')\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(y):\n"
                "    return tf.random.shuffle(y, seed=1)\n"),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name in ("tf.image.resize", "tf.compat.v1.image.resize"):
            method = argument(node, 2, "method")
            value = None
            if isinstance(method, ast.Constant) and isinstance(method.value, str):
                value = method.value.lower()
            elif isinstance(method, ast.Attribute):
                value = _RESIZE_ENUM.get(method.attr)
            antialias = argument(node, 4, "antialias")
            if value in _RESIZE_BAD:
                ctx.report(self, node, f"tf.image.resize with method='{value}' has no XLA kernel (ResizeBicubic/"
                                       "ScaleAndTranslate): compilation fails; use 'bilinear' or 'nearest'")
            elif isinstance(antialias, ast.Constant) and antialias.value is True:
                ctx.report(self, node, "tf.image.resize with antialias=True needs ScaleAndTranslate, which has no "
                                       "XLA kernel: compilation fails; drop antialias inside compiled code")
        elif name == "tf.random.shuffle":
            ctx.report(self, node, "tf.random.shuffle of a 1-D tensor fails at XLA run time ('Expected comparison "
                                   "type SIGNED'); use tf.gather(x, tf.argsort(tf.random.uniform(tf.shape(x)[:1])))")
