"""XLA120: an op XLA:CPU rejects (or compiles only per value) on a tf.RaggedTensor built in compiled code."""

from __future__ import annotations

import ast

from xlacheck import ragged_table
from xlacheck.analysis import argument
from xlacheck.analysis.scopes import own_nodes
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

# Ragged constructors the table measured, by canonical name: the probe form.
_CONSTRUCTORS = {
    "tf.RaggedTensor.from_row_lengths": "from_row_lengths",
    "tf.RaggedTensor.from_row_splits": "from_row_splits",
    "tf.RaggedTensor.from_value_rowids": "from_value_rowids",
}
# Reductions the table measured along the ragged axis (axis=1), by every public name of each.
_REDUCTIONS = {
    "tf.reduce_sum": "tf.reduce_sum", "tf.math.reduce_sum": "tf.reduce_sum",
    "tf.reduce_mean": "tf.reduce_mean", "tf.math.reduce_mean": "tf.reduce_mean",
    "tf.reduce_max": "tf.reduce_max", "tf.math.reduce_max": "tf.reduce_max",
}
_ADVICE = {
    "RaggedTensor.to_tensor": "pad on the host (or in the tf.data pipeline) and pass a dense tensor with a mask",
    "tf.map_fn": "pass a dense padded tensor with its lengths and reduce with a mask",
    "tf.reduce_sum": "reduce with tf.math.unsorted_segment_sum(values, segment_ids, num_segments=ROWS)",
}


def _from_tensor_form(call: ast.Call) -> str | None:
    """``tf.RaggedTensor.from_tensor`` with ``lengths=`` or ``padding=`` (the measured forms)."""
    keys = {kw.arg for kw in call.keywords}
    if "lengths" in keys:
        return "from_tensor_lengths"
    if "padding" in keys:
        return "from_tensor_padding"
    return None


def ragged_form(e: ast.expr, ctx: RuleContext, depth: int = 0) -> str | None:
    """The constructor form of ``e`` when it certainly is a tf.RaggedTensor built in this function: a
    measured constructor call, `tf.gather` at ragged indices, arithmetic with a ragged operand, or a
    name this function's own scope binds only to such values (all with one form); else None."""
    if depth > 8:
        return None
    if isinstance(e, ast.Call):
        name = call_name(e, ctx)
        if name in _CONSTRUCTORS:
            return _CONSTRUCTORS[name]
        if name == "tf.RaggedTensor.from_tensor":
            return _from_tensor_form(e)
        if name == "tf.gather" and len(e.args) >= 2:
            return ragged_form(e.args[1], ctx, depth + 1)
        return None
    if isinstance(e, ast.BinOp):
        return ragged_form(e.left, ctx, depth + 1) or ragged_form(e.right, ctx, depth + 1)
    if isinstance(e, ast.Name):
        return _bound_form(e.id, ctx, depth)
    return None


def _bound_form(name: str, ctx: RuleContext, depth: int) -> str | None:
    forms: set[str | None] = set()
    for node in own_nodes(ctx.function.node):
        if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr, ast.With)):
            targets = [node.target] if not isinstance(node, ast.With) else [
                i.optional_vars for i in node.items if i.optional_vars is not None]
            if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
                return None
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == name:
                forms.add(ragged_form(node.value, ctx, depth + 1))
            elif any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target)):
                return None
    if len(forms) != 1:
        return None
    return forms.pop()


def _consumer(node: ast.Call, ctx: RuleContext) -> tuple[str, ast.expr | None]:
    """The measured consumer this call is, and the expression it reads as a ragged tensor."""
    if isinstance(node.func, ast.Attribute) and node.func.attr == "to_tensor" and call_name(node, ctx) is None:
        return "RaggedTensor.to_tensor", node.func.value
    name = call_name(node, ctx)
    if name == "tf.map_fn":
        return "tf.map_fn", argument(node, 1, "elems")
    if name in _REDUCTIONS:
        axis = argument(node, 1, "axis")
        if isinstance(axis, ast.Constant) and axis.value == 1 and type(axis.value) is int:
            return _REDUCTIONS[name], argument(node, 0, "input_tensor")
    return "", None


def _what(probe: ragged_table.Probe) -> str:
    if probe.outcome == "xla_error":
        message = probe.xla["message"]
        if "unsupported operations" in message:
            return "XLA has no kernel for it"
        if "Range" in message:
            return ("XLA rejects it (its segment ids come from a tf.range over the row partition, not a "
                    "compile-time constant)")
        return "XLA rejects it"
    if probe.outcome == "value_specialized":
        return "it compiles only with the argument values as constants (a recompile per value)"
    return "XLA returned other values than eager"


class OpOnRaggedTensor(Rule):
    """
    ## What it does
    Flags, in compiled code, an op that XLA:CPU measurably rejects (or compiles only for fixed
    argument values) when it reads a `tf.RaggedTensor` this function builds: a
    `tf.RaggedTensor.from_row_lengths` / `from_row_splits` / `from_value_rowids` /
    `from_tensor(lengths=...)` / `from_tensor(padding=...)` result, `tf.gather` at such indices,
    arithmetic on one, or a name this function binds only to one of these. Which ops, and for which
    constructor, comes from `xlacheck/data/tf_ragged.json`, written by `tools/generate_ragged_table.py`,
    which builds each form inside a compiled function from its dense arguments, applies each probed
    op, and runs it eagerly, under `jit_compile=True` and as shapes-only HLO. Measured on TensorFlow
    2.21: `.to_tensor()` has no XLA kernel (`RaggedTensorToTensor`) for every form; `tf.map_fn` over
    the rows has none either; `tf.reduce_sum` / `reduce_mean` / `reduce_max` along the ragged axis
    (`axis=1`) build a `tf.range` from the row partition and fail ("must be a compile-time
    constant") for every form but `from_row_splits`, where they compile only for fixed splits.
    Reading `.flat_values`, `.row_lengths()` or `.nrows()` compiles (except after
    `from_value_rowids`) and is not flagged, and a ragged tensor received as an argument is not
    followed.

    ## Why is this bad?
    A ragged tensor is dense values plus a row partition that depends on the data. XLA needs every
    shape at compile time: the conversion to a padded tensor and the per-row loop have no XLA
    kernels, and a per-row reduction needs a segment count computed from the partition.

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def pool(frames, lengths):
        clips = tf.RaggedTensor.from_row_lengths(frames, lengths)
        return tf.reduce_max(clips, axis=1)
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True)
    def pool(frames, lengths):
        ids = tf.repeat(tf.range(NUM_CLIPS), lengths, total_repeat_length=NUM_FRAMES)
        return tf.math.unsorted_segment_max(frames, ids, num_segments=NUM_CLIPS)
    ```

    ## Fix safety
    No automatic fix: the dense rewrite needs a static bound (the number of rows or the padded length)
    that only the author knows.
    """

    code = "XLA120"
    name = "op-on-ragged-tensor"
    node_types = (ast.Call,)
    fix = None  # the dense rewrite needs a static bound only the author knows (see Fix safety)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(v, n):\n"
                "    r = tf.RaggedTensor.from_row_lengths(v, n)\n    return r.flat_values * 2.0\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x.to_tensor()\n"),
        Example("import tensorflow as tf\ndef f(v, n):\n"
                "    return tf.RaggedTensor.from_row_lengths(v, n).to_tensor()\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(v, n):\n"
                "    r = tf.RaggedTensor.from_row_lengths(v, n)\n    return tf.reduce_sum(r)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(v, n):\n"
                "    r = tf.RaggedTensor.from_row_lengths(v, n)\n    return r.to_tensor()\n",
                expected=(
                    (5, 12, "RaggedTensor.to_tensor of a tf.RaggedTensor built here (from_row_lengths): XLA has "
                            "no kernel for it; measured: r = tf.RaggedTensor.from_row_lengths(vals, lens); "
                            "r.to_tensor(); pad on the host (or in the tf.data pipeline) and pass a dense tensor "
                            "with a mask"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(table, ids, n):\n"
                "    bags = tf.RaggedTensor.from_row_lengths(ids, n)\n"
                "    return tf.reduce_mean(tf.gather(table, bags), axis=1)\n",
                expected=(
                    (5, 12, "tf.reduce_mean along the ragged axis of a tf.RaggedTensor built here (from_row_lengths): "
                            "XLA rejects it (its segment ids come from a tf.range over the row partition, not a "
                            "compile-time constant); measured: r = tf.RaggedTensor.from_row_lengths(vals, lens); "
                            "tf.reduce_mean(r, axis=1); reduce with tf.math.unsorted_segment_sum(values, "
                            "segment_ids, num_segments=ROWS)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        consumer, read = _consumer(node, ctx)
        if not consumer or read is None:
            return
        form = ragged_form(read, ctx)
        if form is None:
            return
        probes = ragged_table.failing_probes(consumer, form)
        if not probes:
            return
        probe = probes[0]
        where = " along the ragged axis" if consumer in _REDUCTIONS.values() else ""
        advice = _ADVICE.get(consumer, _ADVICE["tf.reduce_sum"])
        severity = Severity.RECOMPILE if probe.outcome == "value_specialized" else Severity.ERROR
        ctx.report(self, node,
                   f"{consumer}{where} of a tf.RaggedTensor built here ({form}): {_what(probe)}; "
                   f"measured: {probe.input}; {advice}",
                   severity=severity)
