"""XLA314: a sign test (or floor division) of an integer square or absolute value, which XLA folds."""

from __future__ import annotations

import ast

from xlacheck import divergence_table
from xlacheck.analysis.contexts import Level
from xlacheck.analysis.dtypes import local_bindings
from xlacheck.analysis.values import TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_CLASS = "int_overflow"
_SIGN_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
# tf.math comparison functions: (name suffix, the operator they compute)
_COMPARE_CALLS = {"less": ast.Lt, "less_equal": ast.LtE, "greater": ast.Gt, "greater_equal": ast.GtE}


def _zero(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) and not isinstance(e.value, bool) and e.value == 0


def _same(a: ast.expr, b: ast.expr) -> bool:
    return ast.dump(a) == ast.dump(b)


def _measured(api: str, form: str, dtype: str | None) -> divergence_table.Divergence | None:
    """The measured probe of ``form`` where XLA differs, on ``dtype`` when that was probed."""
    found = [p for p in divergence_table.probes(api, _CLASS)
             if p.form == form and p.outcome in divergence_table.DIVERGENT]
    return next((p for p in found if dtype and p.input.startswith(dtype + " ")), found[0] if found else None)


def _straight_line_value(function: ast.AST, name: ast.Name) -> ast.expr | None:
    """The value of the last ``name = value`` before ``name`` in ``function``'s top-level body,
    when the name is bound nowhere else (no parameter, loop, branch or nested binding)."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    args = function.args
    if any(a.arg == name.id for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
           if a is not None):
        return None
    top = {id(stmt) for stmt in function.body}
    last: ast.expr | None = None
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name.id and not isinstance(node.ctx, ast.Load):
            owner = next((s for s in function.body if isinstance(s, ast.Assign) and len(s.targets) == 1
                          and s.targets[0] is node), None)
            if owner is None or id(owner) not in top:
                return None  # bound in a branch, a loop, a tuple target ...
            if owner.lineno < name.lineno and (last is None or owner.lineno > last.lineno):
                last = owner.value
    return last


class IntegerSignAssumedByXla(Rule):
    """
    ## What it does
    In code compiled with `jit_compile=True`, flags a sign test (`p < 0`, `p >= 0`,
    `tf.math.less(p, 0)` ...) of an integer tensor `p` that is a square (`x * x`, `tf.square(x)`,
    `x ** 2`) or an absolute value (`tf.abs(x)`), and a floor division (`p // k`) of an integer
    square. Which forms XLA changes is read from the measured table
    (`xlacheck/data/tf_xla_divergence.json`, class `int_overflow`, `python
    tools/generate_divergence_table.py`): each form compiled on int8/int16/int32/int64 values
    that overflow.

    ## Why is this bad?
    Integer arithmetic wraps: eagerly, `int8` 12 * 12 is -112, and `tf.abs` of the smallest value
    (-128) stays negative. XLA's simplifier treats the square and the absolute value of a signed
    integer as never negative, so under XLA the sign test is folded to a constant and a floor
    division by a positive constant becomes a shift: the compiled step returns another result than
    eager mode for exactly the values the test was written for (quantized activations, hashed
    ids, accumulators).

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def energy(q):  # int8
        p = q * q
        return tf.where(p < 0, tf.abs(p), p)
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True)
    def energy(q):
        q32 = tf.cast(q, tf.int32)  # wide enough that the square cannot wrap
        return q32 * q32
    ```

    ## Fix safety
    No automatic fix: the intended result (saturate, widen, wrap) is the author's choice.
    """

    code = "XLA314"
    fix = None
    name = "integer-sign-assumed-by-xla"
    node_types = (ast.Compare, ast.BinOp, ast.Call)
    levels = frozenset({Level.CERTAIN})  # a plain tf.function or a Keras method may never meet XLA

    VALID = (
        # a clamp is computed, not folded (measured equal)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(q):\n"
                "    return tf.maximum(q * q, 0)\n"),
        # floats: the square is never negative in either mode
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    p = tf.cast(x, tf.float32) ** 2\n    return tf.where(p < 0, -p, p)\n"),
        # unsigned integers cannot be negative
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    q = tf.cast(x, tf.uint8)\n    return tf.where(q * q > 0, q, 1)\n"),
        # not compiled by XLA
        Example("import tensorflow as tf\n@tf.function\ndef f(q):\n    p = q * q\n"
                "    return tf.where(p < 0, tf.abs(p), p)\n"),
        # a product of two different tensors may be negative
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(a, b):\n"
                "    return tf.where(a * b < 0, 0, a)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef energy(q):\n"
                "    p = tf.multiply(q, q)\n    return tf.where(p < 0, tf.abs(p), p)\n",
                expected=(
                    (5, 21, "sign test of an integer square (tf.multiply(q, q)) under XLA (decorated with "
                            "tf.function(jit_compile=True)): XLA treats it as never negative and folds the test, "
                            "while eagerly the square wraps (measured, xlacheck/data/tf_xla_divergence.json: int8 "
                            "[12, 20, -128, 3]: x * x < 0: XLA folds the test to False); widen the dtype before "
                            "squaring or clamp explicitly"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(ids):\n"
                "    h = tf.abs(tf.cast(ids, tf.int32))\n    return tf.where(tf.math.less(h, 0), 0, h)\n",
                expected=(
                    (5, 21, "sign test of an integer absolute value (tf.abs(tf.cast(ids, tf.int32))) under XLA "
                            "(decorated with tf.function(jit_compile=True)): XLA treats it as never negative and "
                            "folds the test, while eagerly tf.abs of the smallest value stays negative (measured, "
                            "xlacheck/data/tf_xla_divergence.json: int32 [65536, 50000, -2147483648, 3]: "
                            "tf.abs(x) < 0: XLA folds the test to False); widen the dtype first or clamp explicitly"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    q = tf.cast(x, tf.int16)\n    return (q * q) // 4\n",
                expected=(
                    (5, 12, "floor division of an integer square (q * q) under XLA (decorated with "
                            "tf.function(jit_compile=True)): XLA treats the square as never negative and divides "
                            "with a shift, while eagerly the square wraps (measured, "
                            "xlacheck/data/tf_xla_divergence.json: int16 [200, 300, -32768, 3]: (x * x) // 2); "
                            "widen the dtype before squaring"),
                )),
    )

    def __init__(self) -> None:
        # the one-assignment bindings of the function being walked (one context per function walk)
        self._bindings: tuple[RuleContext, dict[str, ast.expr | None]] | None = None

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if ctx.function.jax:
            return
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1 or not isinstance(node.ops[0], _SIGN_OPS):
                return
            left, right = node.left, node.comparators[0]
            self._sign_test(node, right if _zero(left) else left if _zero(right) else None, ctx)
        elif isinstance(node, ast.Call):
            name = call_name(node, ctx)
            if name is None or not name.startswith("tf.") or name.rsplit(".", 1)[-1] not in _COMPARE_CALLS \
                    or len(node.args) != 2 or node.keywords:
                return
            a, b = node.args
            self._sign_test(node, b if _zero(a) else a if _zero(b) else None, ctx)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
            self._floordiv(node, ctx)

    # -- forms -------------------------------------------------------------------------------
    def _origin(self, e: ast.expr, ctx: RuleContext) -> ast.expr:
        """``e``, or the value of the local name ``e`` that reaches it: its one binding in the
        function, or the last plain assignment before ``e`` when every binding of the name is a
        plain assignment in the function's straight-line top-level body."""
        if not isinstance(e, ast.Name):
            return e
        if self._bindings is None or self._bindings[0] is not ctx:
            self._bindings = (ctx, local_bindings(ctx.function.node))
        value = self._bindings[1].get(e.id)
        if value is not None:
            return value
        return _straight_line_value(ctx.function.node, e) or e

    def _form(self, e: ast.expr, ctx: RuleContext) -> tuple[str, str, ast.expr] | None:
        """(measured api, form kind, squared/abs operand) when ``e`` is a square or an abs."""
        if isinstance(e, ast.BinOp):
            if isinstance(e.op, ast.Mult) and _same(e.left, e.right):
                return "tf.math.multiply", "square", e.left
            if isinstance(e.op, ast.Pow) and isinstance(e.right, ast.Constant) and e.right.value == 2:
                return "tf.math.pow", "square", e.left
            return None
        if not isinstance(e, ast.Call) or e.keywords:
            return None
        name = call_name(e, ctx)
        api = divergence_table.measured_api(name) if name else None
        if api == "tf.math.multiply" and len(e.args) == 2 and _same(e.args[0], e.args[1]):
            return api, "square", e.args[0]
        if api == "tf.math.pow" and len(e.args) == 2 and isinstance(e.args[1], ast.Constant) and e.args[1].value == 2:
            return api, "square", e.args[0]
        if api in ("tf.math.square", "tf.math.abs") and len(e.args) == 1:
            return api, "square" if api == "tf.math.square" else "abs", e.args[0]
        return None

    def _integer(self, value: ast.expr, ctx: RuleContext, *, proven: bool) -> bool:
        """A signed-integer tensor (``proven``: the dtype must be known; else unknown counts too,
        because the sign test of a float square or abs is never true in either mode)."""
        if not ctx.flags(value) & TENSOR:
            return False
        dtype = ctx.values.dtype(value)
        if dtype is None:
            return not proven
        return dtype.startswith("int")

    def _sign_test(self, node: ast.expr, tested: ast.expr | None, ctx: RuleContext) -> None:
        if tested is None:
            return
        value = self._origin(tested, ctx)
        form = self._form(value, ctx)
        if form is None:
            return
        api, kind, operand = form
        probe = _measured(api, f"sign_test_of_{kind}", ctx.values.dtype(value) or ctx.values.dtype(operand))
        if probe is None or not (self._integer(value, ctx, proven=False)
                                 and self._integer(operand, ctx, proven=False)):
            return
        what = "square" if kind == "square" else "absolute value"
        eager = ("the square wraps" if kind == "square" else "tf.abs of the smallest value stays negative")
        ctx.report(self, node,
                   f"sign test of an integer {what} ({ast.unparse(value)}) under XLA ({ctx.function.why}): XLA "
                   f"treats it as never negative and folds the test, while eagerly {eager} (measured, "
                   f"xlacheck/data/tf_xla_divergence.json: {probe.input}: {probe.how}); "
                   + ("widen the dtype before squaring or clamp explicitly" if kind == "square"
                      else "widen the dtype first or clamp explicitly"))

    def _floordiv(self, node: ast.BinOp, ctx: RuleContext) -> None:
        if not (isinstance(node.right, ast.Constant) and isinstance(node.right.value, int)
                and not isinstance(node.right.value, bool) and node.right.value > 0):
            return
        value = self._origin(node.left, ctx)
        form = self._form(value, ctx)
        if form is None or form[1] != "square":
            return
        probe = _measured("tf.math.multiply", "floordiv_of_square", ctx.values.dtype(value))
        if probe is None or not (self._integer(value, ctx, proven=True)
                                 or self._integer(form[2], ctx, proven=True)):
            return
        ctx.report(self, node,
                   f"floor division of an integer square ({ast.unparse(value)}) under XLA ({ctx.function.why}): "
                   "XLA treats the square as never negative and divides with a shift, while eagerly the square "
                   f"wraps (measured, xlacheck/data/tf_xla_divergence.json: {probe.input}); widen the dtype "
                   "before squaring")
