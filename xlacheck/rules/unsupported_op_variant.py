"""XLA310: an op that XLA supports only for some argument values."""

from __future__ import annotations

import ast

from xlacheck import op_table
from xlacheck.analysis.dtypes import TF_REAL_FLOATS
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name
from xlacheck.rules.op_without_xla_kernel import unsupported_ops, variant_literals

# Measured on TF 2.21 XLA:CPU: tf.random.shuffle fails at run time for a 1-D float32 tensor only
# (int32/int64 1-D and every rank >= 2 compile and run). These make 1-D tensors from a one-element
# shape list ([n]) and are float unless `dtype` says otherwise.
_FLOAT_BY_SHAPE = frozenset({
    "tf.random.uniform", "tf.random.normal", "tf.random.truncated_normal", "tf.random.stateless_uniform",
    "tf.random.stateless_normal", "tf.random.stateless_truncated_normal", "tf.zeros", "tf.ones",
})


def _float_dtype(node: ast.Call, ctx: RuleContext, default: bool) -> bool:
    dtype = next((kw.value for kw in node.keywords if kw.arg == "dtype"), None)
    if dtype is None:
        return default
    if isinstance(dtype, ast.Constant) and isinstance(dtype.value, str):
        return dtype.value.startswith(("float", "bfloat"))
    return ctx.resolve(dtype) in TF_REAL_FLOATS


def _one_d_float(e: ast.expr, ctx: RuleContext, depth: int = 0) -> bool:
    """``e`` is certainly a 1-D float tensor: made by a call above from a one-element shape list,
    ``tf.linspace``, a float ``tf.range`` or ``tf.constant`` of a flat list with a float in it,
    directly or through names this function binds only to such values. A parameter or anything
    else is unknown (2-D row shuffles and integer index shuffles are the common, fine uses)."""
    if depth > 3:
        return False
    if isinstance(e, ast.Name):
        bound = [n.value for n in ast.walk(ctx.function.node) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == e.id]
        return bool(bound) and all(_one_d_float(v, ctx, depth + 1) for v in bound)
    if not isinstance(e, ast.Call):
        return False
    name = call_name(e, ctx)
    if name in _FLOAT_BY_SHAPE:
        shape = argument(e, 0, "shape")
        return isinstance(shape, (ast.List, ast.Tuple)) and len(shape.elts) == 1 and _float_dtype(e, ctx, True)
    if name == "tf.linspace":
        return True
    if name == "tf.range":
        floats = any(isinstance(a, ast.Constant) and isinstance(a.value, float) for a in e.args)
        return _float_dtype(e, ctx, floats)
    if name in ("tf.constant", "tf.convert_to_tensor") and e.args and isinstance(e.args[0], (ast.List, ast.Tuple)):
        elts = e.args[0].elts
        flat = bool(elts) and all(isinstance(x, ast.Constant) and type(x.value) in (int, float) for x in elts)
        return flat and _float_dtype(e, ctx, any(type(x.value) is float for x in elts))  # type: ignore[attr-defined]
    return False


def _compiling_values(verdict: op_table.OpVerdict, argument: str) -> str:
    """What compiles instead: the measured values of ``argument`` whose forward compiles, and the default."""
    values = [repr(c.value) for c in verdict.conditions
              if c.argument == argument and not c.unsupported and c.compiles is not False]
    return " or ".join([*(f"{argument}={v}" for v in values), f"the default {argument}"])


class UnsupportedOpVariant(Rule):
    """
    ## What it does
    Flags op calls whose literal arguments select a variant that does not compile while the
    default call does, from the op table's measured `conditions` (`tools/generate_op_table.py`
    flips every bool argument, tries the string choices TensorFlow's own validation lists and
    numeric flags such as `dilations`, and compiles each variant under `jit_compile=True`): a
    variant with no XLA kernel (`tf.image.resize` with `"bicubic"`, `"area"`, `"gaussian"` or
    `antialias=True`, given by keyword, position or `tf.image.ResizeMethod.*`;
    `K.resize_images(..., interpolation="bicubic")`; `tf.linalg.lstsq(..., fast=False)`), or one
    the compiler rejects although it runs eagerly. The message names the variant and what
    compiles instead. A value that is not a literal is not flagged.
    Also `tf.random.shuffle` of a tensor this function makes 1-D and float (1-D float shuffles
    fail at XLA run time; integer and 2-D shuffles run, so a tensor of unknown rank or dtype is
    not flagged).

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
        Example("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n"
                "@tf.function(jit_compile=True)\ndef f(x, mode):\n"
                "    return K.resize_images(x, 2, 2, 'channels_last', interpolation=mode), "
                "tf.linalg.lstsq(x, x, fast=True)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(rows, n):\n"
                "    order = tf.random.shuffle(tf.range(n))\n    return tf.random.shuffle(rows), order\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.image.resize(x, [8, 8], method='bicubic')\n",
                expected=(
                    (4, 12, "tf.image.resize(method='bicubic') needs ResizeBicubic, which has no XLA kernel: "
                            "compilation fails; use method 'bilinear' or 'nearest' without antialias"),
                )),
        Example("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return K.resize_images(x, 2, 2, 'channels_last', 'bicubic')\n",
                expected=(
                    (5, 12, "tf.keras.backend.resize_images(interpolation='bicubic') needs ResizeBicubic, which has "
                            "no XLA kernel, while the default call compiles: compilation fails; use "
                            "interpolation='bilinear' or the default interpolation"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(a, b):\n"
                "    return tf.linalg.lstsq(a, b, 0.1, False)\n",
                expected=(
                    (4, 12, "tf.linalg.lstsq(fast=False) needs MatrixSolveLs, which has no XLA kernel, while the "
                            "default call compiles: compilation fails; use the default fast"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(y):\n"
                "    noise = tf.random.uniform([8])\n    return tf.random.shuffle(noise, seed=1)\n",
                expected=(
                    (5, 12, "tf.random.shuffle of a 1-D tensor fails at XLA run time ('Expected comparison type "
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
        elif name is not None and name.startswith("tf.") and name != "tf.random.shuffle":
            self._measured_variant(node, name, ctx)
        elif name == "tf.random.shuffle" and _one_d_float(argument(node, 0, "value") or ast.Constant(None), ctx):
            ctx.report(self, node, "tf.random.shuffle of a 1-D tensor fails at XLA run time ('Expected comparison "
                                   "type SIGNED'); use tf.gather(x, tf.argsort(tf.random.uniform(tf.shape(x)[:1])))")

    def _measured_variant(self, node: ast.Call, name: str, ctx: RuleContext) -> None:
        """A literal argument selects a variant the op table measured failing where the default compiles."""
        verdict = op_table.lookup(name)
        if verdict is None or not verdict.conditions or verdict.unsupported:
            return  # no variants, or the default call already fails (XLA309's finding)
        selected = verdict.selected(variant_literals(verdict, node, ctx.resolve))
        ops = verdict.unsupported_for({c.argument: c.value for c in selected})
        failing = [c for c in selected if c.unsupported] if ops else [c for c in selected if c.compiles is False]
        if not failing:
            return
        given = ", ".join(f"{c.argument}={c.value!r}" for c in failing)
        instead = " / ".join(dict.fromkeys(_compiling_values(verdict, c.argument) for c in failing))
        if ops:
            ctx.report(self, node, f"{name}({given}) needs {', '.join(ops)}, which has no XLA kernel, while the "
                                   f"default call compiles: compilation fails; use {instead}")
        else:
            ctx.report(self, node, f"{name}({given}) does not compile under XLA although it runs eagerly "
                                   f"({failing[0].compile_error}), while the default call compiles; use {instead}")
