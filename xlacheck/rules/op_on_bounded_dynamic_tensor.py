"""XLA119: an op XLA:CPU gets wrong (or rejects) on a tensor whose length depends on data."""

from __future__ import annotations

import ast

from xlacheck import bounded_dynamic_table
from xlacheck.analysis import argument
from xlacheck.diagnostics import Severity
from xlacheck.rules._data_length import data_length
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

# The argument that carries the tensor, per measured function (position, keyword).
_INPUT = {"tf.squeeze": (0, "input"), "tf.ones_like": (0, "input"), "tf.unique": (0, "x"),
          "tf.linalg.diag": (0, "diagonal"), "tf.image.resize": (0, "images")}


def _form(name: str, node: ast.Call) -> str:
    """Which measured calls of ``name`` this call is (the table's ``form``)."""
    if name == "tf.squeeze":
        return "axis" if argument(node, 1, "axis") is not None or any(
            kw.arg in ("squeeze_dims", None) for kw in node.keywords) else "no_axis"
    return "any"


def _what(probe: bounded_dynamic_table.Probe) -> str:
    if probe.outcome == "xla_error":
        return f"XLA rejects it ({probe.xla['message'].split('. Input shape')[0]})"
    if probe.outcome == "wrong_shape":
        return (f"XLA returned shape {probe.xla['shape']} (the padded bound) where eager returned "
                f"{probe.eager['shape']}")
    return "XLA returned other values than eager"


class OpOnBoundedDynamicTensor(Rule):
    """
    ## What it does
    Flags a call, in compiled code, of a function that XLA:CPU measurably gets wrong or rejects
    when its input certainly has a length that depends on data (the output of `tf.boolean_mask`,
    `x[mask]`, one-argument `tf.where`, `tf.unique`, `tf.gather` at such indices, a slice keeping
    its whole first dimension, or a name this function binds only to one of these; a value merely
    computed from one, such as a reduction, does not count): which
    functions, and for which calls, comes from `xlacheck/data/tf_bounded_dynamic.json`, written by
    `tools/generate_bounded_dynamic_table.py`, which applies each probed function to such a tensor
    eagerly and under `jit_compile=True`. Measured on TensorFlow 2.21: `tf.squeeze` without an
    `axis` fails to compile ("Squeeze op does not support bounded dynamic dimensions", also when
    the squeezed axis is static); `tf.ones_like` returns the padded bound's shape, so
    `tf.reduce_sum(tf.ones_like(t))` counts the padding; `tf.unique` and `tf.linalg.diag` return the
    wrong shape; `tf.image.resize` returns other values. The 32 other probed functions (reshape,
    concat, sort, top_k, reductions, softmax, matmul, gather, scatter, `tf.zeros_like`, `tf.fill`
    ...) agree with eager and are not flagged.

    ## Why is this bad?
    XLA compiles the data-dependent length as a *bounded dynamic* dimension: the buffer has the
    static bound, and each op must carry the true size along. The ops above do not: they fail to
    compile, or compute over the bound (the padding rows included) and silently return another
    result than eager execution.

    ## Example
    ```python
    fg = tf.squeeze(tf.where(mask > 0.5))
    n_kept = tf.reduce_sum(tf.ones_like(tf.boolean_mask(scores, keep)))
    ```

    ## Use instead
    ```python
    fg = tf.where(mask > 0.5)[:, 0]          # or tf.squeeze(..., axis=1)
    n_kept = tf.reduce_sum(tf.cast(keep, tf.float32))   # count the mask, not the kept rows
    ```

    ## Fix safety
    Fixed only where the data-dependent tensor ends in reductions (the shared masked-reduction model,
    `docs/fixes.md`): the reductions then run on the full tensor masked with `tf.where`, so no
    data-dependent length is left. `tf.squeeze(tf.where(m))` used as the indices of a `tf.gather`
    whose rows are only reduced (through names too), and `tf.ones_like` of a selection summed (a
    count of the mask), are rewritten so; the fix is unsafe, and says why: a mask of another rank than
    the values (a lower-rank mask broadcasts against other axes; `tf.squeeze` lists rows only for a
    1-D mask). Elsewhere no fix: the right rewrite depends on what the code does with the result
    (name the axis, count the mask, or keep the full tensor and weight it by the mask).
    """

    code = "XLA119"
    name = "op-on-bounded-dynamic-tensor"
    node_types = (ast.Call,)
    fix = ("rewrite_masked",)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(m):\n"
                "    return tf.squeeze(tf.where(m), axis=1)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, m):\n"
                "    return tf.zeros_like(tf.boolean_mask(x, m))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.squeeze(x)\n"),
        Example("import tensorflow as tf\ndef f(m):\n    return tf.squeeze(tf.where(m))\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(m, p):\n"
                "    fg = tf.squeeze(tf.where(m > 0.5))\n    return tf.gather(p, fg)\n",
                expected=(
                    (4, 10, "tf.squeeze without an axis of a tensor whose length depends on data (boolean mask / "
                           "tf.where / tf.unique): XLA rejects it (Squeeze op does not support bounded dynamic "
                           "dimensions); measured: tf.squeeze(tf.where(m)); name the axis (tf.squeeze(t, "
                           "axis=1)) or index it (t[:, 0])"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(s, keep):\n"
                "    kept = tf.boolean_mask(s, keep)\n    return tf.reduce_sum(tf.ones_like(kept))\n",
                expected=(
                    (5, 26, "tf.ones_like of a tensor whose length depends on data (boolean mask / tf.where / "
                            "tf.unique): XLA returned shape [8] (the padded bound) where eager returned [4]; "
                            "measured: tf.ones_like(v[m]); count or weight with the mask itself "
                            "(tf.cast(mask, dtype))"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name not in _INPUT:
            return
        position, keyword = _INPUT[name]
        arg = argument(node, position, keyword)
        if arg is None or not data_length(arg, ctx):
            return
        form = _form(name, node)
        probes = bounded_dynamic_table.failing_probes(name, form)
        if not probes:
            return
        probe = probes[0]
        how = " without an axis" if form == "no_axis" else ""
        advice = ("name the axis (tf.squeeze(t, axis=1)) or index it (t[:, 0])" if name == "tf.squeeze"
                  else "count or weight with the mask itself (tf.cast(mask, dtype))" if name == "tf.ones_like"
                  else "keep the full tensor and weight it by the mask")
        severity = Severity.ERROR if probe.outcome == "xla_error" else Severity.WRONG_RESULT
        ctx.report(self, node,
                   f"{name}{how} of a tensor whose length depends on data (boolean mask / tf.where / tf.unique): "
                   f"{_what(probe)}; measured: {probe.input}; {advice}",
                   severity=severity)
