"""XLA113: the two branches of a tensor ``if`` give a variable different dtypes or structures."""

from __future__ import annotations

import ast
import re

from xlacheck.analysis import argument
from xlacheck.analysis.scopes import last_assigned_values
from xlacheck.analysis.values import PARAM, is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext

_FLOAT_OPS = ("tf.one_hot", "tf.nn.softmax", "tf.nn.sigmoid", "tf.nn.log_softmax", "tf.random.uniform",
              "tf.random.normal", "tf.math.log", "tf.exp", "tf.math.exp", "tf.sigmoid", "tf.tanh", "tf.nn.relu")
_INT_OPS = ("tf.argmax", "tf.argmin", "tf.math.argmax", "tf.math.argmin", "tf.shape", "tf.size", "tf.rank",
            "tf.range", "tf.math.count_nonzero")
# Parameter names that conventionally hold integer ids (the dtype of a bare parameter is unknown).
_INT_PARAM = re.compile(r"^(labels?|targets?_ids|.*_ids|ids|.*_idx|indices|.*_indices|positions|.*_labels|token_ids?)$")


def dtype_of(e: ast.expr, ctx: RuleContext) -> str | None:
    """'float', 'int' or 'bool' when the expression's dtype is evident, else None."""
    if isinstance(e, ast.Constant):
        if isinstance(e.value, bool):
            return None
        return "int" if isinstance(e.value, int) else "float" if isinstance(e.value, float) else None
    if isinstance(e, ast.Name):
        if ctx.flags(e) & PARAM and _INT_PARAM.match(e.id):
            return "int"
        return None
    if isinstance(e, ast.UnaryOp):
        return dtype_of(e.operand, ctx)
    if isinstance(e, ast.BinOp):
        left, right = dtype_of(e.left, ctx), dtype_of(e.right, ctx)
        if isinstance(e.op, ast.Div) or "float" in (left, right):
            return "float"
        return "int" if left == right == "int" else None
    if isinstance(e, ast.Call):
        name = ctx.resolve(e.func)
        if name in _FLOAT_OPS:
            return "float"
        if name in _INT_OPS:
            return "int"
        if name == "tf.cast" and len(e.args) > 1:
            target = ctx.resolve(e.args[1]) or ""
            for word in ("float", "int", "bool"):
                if target.startswith(f"tf.{word}") or target.startswith(f"tf.u{word}"):
                    return word
    return None


def _family(dtype: str) -> str:
    return "bool" if dtype == "bool" else "float" if dtype.startswith(("float", "bfloat", "half")) else \
        "complex" if dtype.startswith("complex") else "int" if dtype.startswith(("int", "uint")) else dtype


def _proven_pair(a: ast.expr, b: ast.expr, ctx: RuleContext) -> tuple[str, str] | None:
    """The two branch values' dtypes when the shared dtype model proves both (``tf.cast``,
    factories' ``dtype=``, documented defaults, names bound once: ``float32`` / ``int32``), or
    one of them and the other is a Python number, which AutoGraph converts to int32 / float32
    (only the family is compared then). None when not proven."""
    da, db = ctx.values.dtype(a), ctx.values.dtype(b)
    if da and db:
        return da, db
    for proven, other in ((da, b), (db, a)):
        if proven and isinstance(other, ast.Constant) and not isinstance(other.value, bool) \
                and isinstance(other.value, (int, float)):
            literal = "int" if isinstance(other.value, int) else "float"
            pair = (_family(proven), literal)
            return pair if proven is da else (literal, _family(proven))
    return None


def _structure_mismatch(a: ast.expr, b: ast.expr, ctx: RuleContext) -> str | None:
    """'a tuple of 2 / of 3' or 'a tuple / a tensor' when the two values evidently differ."""
    ta, tb = isinstance(a, ast.Tuple), isinstance(b, ast.Tuple)
    if ta and tb and len(a.elts) != len(b.elts):  # type: ignore[attr-defined]
        return f"a tuple of {len(a.elts)} / a tuple of {len(b.elts)}"  # type: ignore[attr-defined]
    for tup, other in ((a, b), (b, a)):
        if isinstance(tup, ast.Tuple) and isinstance(other, ast.Call) and (ctx.resolve(other.func) or "").startswith("tf."):
            return "a tuple / a single tensor"
    return None


class BranchTypeMismatch(Rule):
    """
    ## What it does
    Flags a variable assigned in both branches of an `if` on a tensor when the two values have
    evidently different dtypes (a float computation in one, integer ids or an int literal in the
    other; or two dtypes the shared dtype model proves, such as `tf.cast(x, tf.float32)` and
    `tf.zeros([3], tf.int32)`, or a proven dtype and a Python number) or structures (a tuple in
    one, a single tensor or a tuple of another length in the other), in AutoGraph-converted code;
    and a `tf.cond` whose two lambdas return such values (or `None` in one and a value in the other
    at one position of their tuples).

    ## Why is this bad?
    AutoGraph stages the `if` as `tf.cond`, whose branches must return the same dtypes and
    nested structures. Tracing fails: `TypeError: 'targets' has dtype float32 in the main branch,
    but dtype int32 in the else branch` (or "must have the same nested structure"). Eagerly only
    one branch runs, so the bug hides until compilation.

    ## Example
    ```python
    if smoothing > 0.0:
        targets = tf.one_hot(labels, NUM_CLASSES) * (1.0 - smoothing) + smoothing / NUM_CLASSES
    else:
        targets = labels
    ```

    ## Use instead
    ```python
    targets = tf.one_hot(labels, NUM_CLASSES) * (1.0 - smoothing) + smoothing / NUM_CLASSES
    ```

    ## Fix safety
    Unsafe: the fix computes the `if` value, then selects with
    `tf.where(c, value, tf.cast(other, value.dtype))`. Where the condition is false, the
    original keeps the else value's dtype, and the fix casts it. `tf.where` also broadcasts the
    two shapes.
    """

    code = "XLA113"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_if",)
    name = "branch-type-mismatch"
    node_types = (ast.If, ast.Call)
    in_helpers = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.reduce_sum(x) > 0:\n        y = x * 2.0\n    else:\n        y = x / 2.0\n    return y\n"),
        # both proven float32 by the dtype model
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    p = tf.cast(x, tf.float32)\n    if tf.reduce_sum(p) > 0:\n        y = p\n    else:\n"
                "        y = tf.zeros([3])\n    return y\n"),
        # tf.cond branches of one structure and dtype
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, p):\n"
                "    return tf.cond(p, lambda: (x, x), lambda: (x * 2.0, x))\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\ndef targets(labels, smoothing):\n    if smoothing > 0.0:\n"
                "        t = tf.one_hot(labels, 4) * (1.0 - smoothing) + smoothing / 4\n    else:\n        t = labels\n"
                "    return t\n"
                "@tf.function(jit_compile=True)\ndef step(labels, s):\n    return targets(labels, tf.reduce_mean(s))\n",
                expected=(
                    (3, 5, "'t' is float in one branch and int in the other of an `if` on a tensor: AutoGraph makes "
                           'it a tf.cond, whose branches must have the same dtype, so tracing fails; cast both '
                           'branches to one dtype'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.reduce_sum(x) > 0:\n        n = 1\n    else:\n        n = 0.5\n    return x * n\n",
                expected=(
                    (4, 5, "'n' is int in one branch and float in the other of an `if` on a tensor: AutoGraph makes "
                           'it a tf.cond, whose branches must have the same dtype, so tracing fails; cast both '
                           'branches to one dtype'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.reduce_sum(x) > 0:\n        out = (x, x)\n    else:\n        out = tf.identity(x)\n"
                "    return out\n",
                expected=(
                    (4, 5, "'out' is a tuple / a single tensor in the two branches of an `if` on a tensor: AutoGraph "
                           'makes it a tf.cond, whose branches must have the same nested structure, so tracing fails'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    p = tf.cast(x, tf.float32)\n    if tf.reduce_sum(p) > 0:\n        y = p\n    else:\n"
                "        y = tf.zeros([3], tf.int32)\n    return y\n",
                expected=(
                    (5, 5, "'y' is float32 in one branch and int32 in the other of an `if` on a tensor: AutoGraph "
                           "makes it a tf.cond, whose branches must have the same dtype, so tracing fails; cast both "
                           "branches to one dtype"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    scores = tf.cast(x, tf.float16)\n    if tf.reduce_sum(x) > 0:\n        y = scores\n    else:\n"
                "        y = 0\n    return y\n",
                expected=(
                    (5, 5, "'y' is float in one branch and int in the other of an `if` on a tensor: AutoGraph makes "
                           "it a tf.cond, whose branches must have the same dtype, so tracing fails; cast both "
                           "branches to one dtype"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, p):\n"
                "    return tf.cond(p, lambda: (x, None), lambda: (x, x))\n",
                expected=(
                    (4, 12, "the branches of this tf.cond return None / a value at one position of their tuples: "
                            "tf.cond needs the same nested structure from both, so tracing fails"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, p):\n"
                "    return tf.cond(p, lambda: tf.cast(x, tf.float32), lambda: tf.zeros([3], tf.int32))\n",
                expected=(
                    (4, 12, "the branches of this tf.cond return float32 and int32: tf.cond needs the same dtype "
                            "from both, so tracing fails; cast both branches to one dtype"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, p):\n"
                "    return tf.cond(p, lambda: (x, x), lambda: tf.identity(x))\n",
                expected=(
                    (4, 12, "the branches of this tf.cond return a tuple / a single tensor: tf.cond needs the same "
                            "nested structure from both, so tracing fails"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if isinstance(node, ast.Call):
            self._check_cond(node, ctx)
            return
        assert isinstance(node, ast.If)
        if not ctx.converted or not node.orelse or not is_tensor(ctx.flags(node.test)):
            return
        body, orelse = last_assigned_values(node.body), last_assigned_values(node.orelse)
        for name in sorted(body.keys() & orelse.keys()):
            shape = _structure_mismatch(body[name], orelse[name], ctx)
            if shape:
                ctx.report(self, node,
                           f"'{name}' is {shape} in the two branches of an `if` on a tensor: AutoGraph makes it a "
                           "tf.cond, whose branches must have the same nested structure, so tracing fails")
                return
            a, b = _proven_pair(body[name], orelse[name], ctx) or (dtype_of(body[name], ctx),
                                                                   dtype_of(orelse[name], ctx))
            if a and b and a != b:
                ctx.report(self, node,
                           f"'{name}' is {a} in one branch and {b} in the other of an `if` on a tensor: AutoGraph "
                           "makes it a tf.cond, whose branches must have the same dtype, so tracing fails; cast both "
                           "branches to one dtype")
                return

    def _check_cond(self, node: ast.Call, ctx: RuleContext) -> None:
        """``tf.cond(p, lambda: a, lambda: b)`` whose two lambdas return values of evidently different
        structure (a tuple of 2 / of 3, a tuple / one tensor, None / a tensor at one position) or dtype:
        tf.cond needs both branches' outputs to match (TF 2.21, every graph: tf_branch_carry.json
        ``cond.structure_differs``, ``cond.none_vs_tensor``, ``cond.dtype_differs``)."""
        if ctx.resolve(node.func) not in ("tf.cond", "tf.compat.v1.cond"):
            return
        fns = [argument(node, 1, "true_fn"), argument(node, 2, "false_fn")]
        if not all(isinstance(f, ast.Lambda) and not f.args.args for f in fns):
            return
        a, b = fns[0].body, fns[1].body  # type: ignore[union-attr]
        shape = _structure_mismatch(a, b, ctx) or _none_mismatch(a, b)
        if shape:
            ctx.report(self, node, f"the branches of this tf.cond return {shape}: tf.cond needs the same nested "
                                   "structure from both, so tracing fails")
            return
        pair = _proven_pair(a, b, ctx) or (dtype_of(a, ctx), dtype_of(b, ctx))
        if pair[0] and pair[1] and pair[0] != pair[1]:
            ctx.report(self, node, f"the branches of this tf.cond return {pair[0]} and {pair[1]}: tf.cond needs the "
                                   "same dtype from both, so tracing fails; cast both branches to one dtype")


def _none_mismatch(a: ast.expr, b: ast.expr) -> str | None:
    """'None / a tensor' when two tuples of one length hold a literal None and a call at one position."""
    if not (isinstance(a, ast.Tuple) and isinstance(b, ast.Tuple) and len(a.elts) == len(b.elts)):
        return None
    for x, y in zip(a.elts, b.elts):
        for none, other in ((x, y), (y, x)):
            if isinstance(none, ast.Constant) and none.value is None and not (
                    isinstance(other, ast.Constant) and other.value is None):
                return "None / a value at one position of their tuples"
    return None
