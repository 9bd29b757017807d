"""XLA123: a ``tf.Variable`` assigned itself grown by ``tf.concat`` in XLA-compiled code."""

from __future__ import annotations

import ast

from xlacheck import tf_branch_carry
from xlacheck.analysis import argument
from xlacheck.rules.base import Example, Rule, RuleContext

_CONCAT = frozenset({"tf.concat", "tf.experimental.numpy.concatenate"})
_VARIABLE = frozenset({"tf.Variable", "tf.compat.v1.Variable"})


def _same_ref(a: ast.expr, b: ast.expr) -> bool:
    """``a`` and ``b`` name the same variable: one bare name, or one ``self.<attr>``."""
    if isinstance(a, ast.Name) and isinstance(b, ast.Name):
        return a.id == b.id
    return (isinstance(a, ast.Attribute) and isinstance(b, ast.Attribute) and a.attr == b.attr
            and isinstance(a.value, ast.Name) and isinstance(b.value, ast.Name) and a.value.id == b.value.id == "self")


class VariableGrownInPlace(Rule):
    """
    ## What it does
    Flags `v.assign(tf.concat([v, x], axis))` (the variable itself among the joined parts, whole)
    in code compiled with XLA (`jit_compile=True`, a TPU replica function), where this file
    declares `v` as a `tf.Variable` (a module-level name or `self.<attr>`): a buffer, memory or
    cache that grows by one block per call. The message says how `v` was declared
    (`shape=tf.TensorShape(None)`, a shape with `None` dimensions, a fixed shape). A join of a
    slice of `v` (`tf.concat([v[1:], x], 0)`, a sliding window of one length) is not flagged.

    ## Why is this bad?
    A variable's buffer has one shape in XLA. Measured on TensorFlow 2.21, XLA:CPU
    (`xlacheck/data/tf_branch_carry.json`): with `shape=tf.TensorShape(None)` or a `None`
    dimension a plain `tf.function` grows the variable, but under `jit_compile=True` the call fails
    ("InvalidArgumentError: Shape of resource ... cannot be changed after initialization"); with a
    fixed shape it fails in every mode ("Shape mismatch").

    ## Example
    ```python
    memory = tf.Variable(tf.zeros([0, 8]), shape=tf.TensorShape([None, 8]), trainable=False)

    @tf.function(jit_compile=True)
    def remember(x):
        memory.assign(tf.concat([memory, x], axis=0))
    ```

    ## Use instead
    ```python
    memory = tf.Variable(tf.zeros([CAPACITY, 8]), trainable=False)  # a fixed ring buffer
    count = tf.Variable(0)

    @tf.function(jit_compile=True)
    def remember(x):
        slots = (count + tf.range(tf.shape(x)[0])) % CAPACITY
        memory.scatter_nd_update(slots[:, None], x)
        count.assign_add(tf.shape(x)[0])
    ```

    ## Fix safety
    No automatic fix: a bounded buffer needs a capacity and a policy for overflow, which only the
    author can choose.
    """

    code = "XLA123"
    name = "variable-grown-in-place"
    node_types = (ast.Call,)
    fix = None

    VALID = (
        # a sliding window keeps the variable's length
        Example("import tensorflow as tf\nwindow = tf.Variable(tf.zeros([4, 3]))\n@tf.function(jit_compile=True)\n"
                "def push(x):\n    window.assign(tf.concat([window[1:], x], axis=0))\n"
                "    return window.read_value()\n"),
        # a plain tf.function grows a variable of unknown shape
        Example("import tensorflow as tf\nbuf = tf.Variable(tf.zeros([0, 3]), shape=tf.TensorShape([None, 3]))\n"
                "@tf.function\ndef push(x):\n    buf.assign(tf.concat([buf, x], axis=0))\n"
                "    return buf.read_value()\n"),
        # the same shape assigned back
        Example("import tensorflow as tf\nbuf = tf.Variable(tf.zeros([4, 3]), shape=tf.TensorShape(None))\n"
                "@tf.function(jit_compile=True)\ndef push(x):\n    buf.assign(buf * 0.5 + x)\n"
                "    return buf.read_value()\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nbuf = tf.Variable(tf.zeros([0, 3]), shape=tf.TensorShape([None, 3]))\n"
                "@tf.function(jit_compile=True)\ndef push(x):\n    buf.assign(tf.concat([buf, x], axis=0))\n"
                "    return buf.read_value()\n",
                expected=(
                    (5, 5, "`buf` is assigned itself grown by tf.concat in XLA-compiled code: it was declared with "
                           "an unknown (None) shape, so a plain tf.function grows it, but XLA keeps one buffer shape "
                           "and the call fails (InvalidArgumentError); keep a fixed-capacity buffer and write into "
                           "it (scatter_nd_update with a count)"),
                )),
        Example("import tensorflow as tf\nclass Memory(tf.keras.layers.Layer):\n    def build(self, shape):\n"
                "        self.mem = tf.Variable(tf.zeros([0, 8]), shape=tf.TensorShape(None), trainable=False)\n"
                "    @tf.function(jit_compile=True)\n    def call(self, x):\n"
                "        self.mem.assign(tf.concat([x, self.mem], 0))\n        return self.mem\n",
                expected=(
                    (7, 9, "`self.mem` is assigned itself grown by tf.concat in XLA-compiled code: it was declared "
                           "with an unknown (None) shape, so a plain tf.function grows it, but XLA keeps one buffer "
                           "shape and the call fails (InvalidArgumentError); keep a fixed-capacity buffer and write "
                           "into it (scatter_nd_update with a count)"),
                )),
        Example("import tensorflow as tf\nhistory = tf.Variable(tf.zeros([2, 3]))\n@tf.function(jit_compile=True)\n"
                "def push(x):\n    history.assign(tf.concat([history, x], axis=0))\n    return history.read_value()\n",
                expected=(
                    (5, 5, "`history` is assigned itself grown by tf.concat in XLA-compiled code: its shape is "
                           "fixed, so the assignment fails in every mode (ValueError: Cannot assign value to "
                           "variable); keep a fixed-capacity buffer and write into it (scatter_nd_update with a "
                           "count)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "assign" and node.args):
            return
        target = func.value
        if not (isinstance(target, ast.Name) or isinstance(target, ast.Attribute) and isinstance(
                target.value, ast.Name) and target.value.id == "self"):
            return
        value = node.args[0]
        if not (isinstance(value, ast.Call) and ctx.resolve(value.func) in _CONCAT):
            return
        parts = argument(value, 0, "values")
        if not isinstance(parts, (ast.List, ast.Tuple)) or not any(_same_ref(p, target) for p in parts.elts):
            return
        declared = self._declared_shape(target, ctx)
        if declared is None:
            return  # not a tf.Variable this file declares: `assign` of another object
        key = {"none": "variable.shape_none_assign_grown", "partial": "variable.partial_shape_assign_grown",
               "fixed": "variable.fixed_shape_assign_grown"}[declared]
        error = (tf_branch_carry.xla_error(key) or "").split(":", 1)[0]
        if not error:
            return  # the table says it compiles: nothing to report
        if tf_branch_carry.xla_only(key):
            why = ("it was declared with an unknown (None) shape, so a plain tf.function grows it, but XLA keeps "
                   f"one buffer shape and the call fails ({error})")
        else:
            why = (f"its shape is fixed, so the assignment fails in every mode ({error}: Cannot assign value to "
                   "variable)")
        ctx.report(self, node,
                   f"`{ast.unparse(target)}` is assigned itself grown by tf.concat in XLA-compiled code: {why}; "
                   "keep a fixed-capacity buffer and write into it (scatter_nd_update with a count)")

    @staticmethod
    def _declared_shape(target: ast.expr, ctx: RuleContext) -> str | None:
        """"none" / "partial" / "fixed" from the ``tf.Variable(...)`` this file binds to ``target``
        (a module-level name, or ``self.<attr>`` in the class's methods), else None."""
        if isinstance(target, ast.Name):
            value = ctx.module_values.get(target.id)
        else:
            assert isinstance(target, ast.Attribute)
            cls = ctx.function.cls
            value = cls.attrs.get(target.attr) if cls is not None else None
        if not (isinstance(value, ast.Call) and ctx.resolve(value.func) in _VARIABLE):
            return None
        shape = next((k.value for k in value.keywords if k.arg == "shape"), None)
        if shape is None:
            validate = next((k.value for k in value.keywords if k.arg == "validate_shape"), None)
            return "fixed" if validate is None else None
        if isinstance(shape, ast.Call) and ctx.resolve(shape.func) == "tf.TensorShape":
            shape = shape.args[0] if shape.args else None
            if shape is None or isinstance(shape, ast.Constant) and shape.value is None:
                return "none"
        if isinstance(shape, (ast.List, ast.Tuple)):
            return "partial" if any(isinstance(e, ast.Constant) and e.value is None for e in shape.elts) else "fixed"
        return None
