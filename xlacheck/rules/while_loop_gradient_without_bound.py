"""XLA210: a ``tf.while_loop`` without ``maximum_iterations`` differentiated in jit-compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.dtypes import TF_REAL_FLOATS_AND_ALIASES
from xlacheck.analysis.values import TENSOR, is_python
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name
from xlacheck.rules.op_without_xla_kernel import trainable_upstream, under_tape

# Ops whose gradient does not read their inputs (TensorFlow's registered gradients): a loop
# variable that only flows through these needs no per-iteration accumulator.
_LINEAR_APIS = frozenset({
    "tf.add", "tf.math.add", "tf.subtract", "tf.math.subtract", "tf.add_n", "tf.math.add_n", "tf.identity",
    "tf.reshape", "tf.cast", "tf.reduce_sum", "tf.math.reduce_sum", "tf.transpose", "tf.squeeze", "tf.expand_dims",
    "tf.concat", "tf.stack", "tf.gather", "tf.shape", "tf.size", "tf.negative", "tf.math.negative",
})
_NONLINEAR_BINOPS = (ast.Mult, ast.Div, ast.Pow, ast.MatMult, ast.FloorDiv, ast.Mod)


def _body_function(body: ast.expr | None, ctx: RuleContext) -> ast.Lambda | ast.FunctionDef | None:
    if isinstance(body, ast.Lambda):
        return body
    if isinstance(body, ast.Name):
        for node in ast.walk(ctx.function.node):
            if isinstance(node, ast.FunctionDef) and node.name == body.id:
                return node
        found = ctx.module_funcs.get(body.id)
        if found is not None and isinstance(found.node, ast.FunctionDef):
            return found.node
    return None


def _compared(cond: ast.expr | None, ctx: RuleContext) -> set[int]:
    """Positions of the loop variables the condition compares (the counters)."""
    fn = _body_function(cond, ctx)
    if fn is None:
        return set()
    params = [a.arg for a in fn.args.args]
    names = {n.id for c in ast.walk(fn) if isinstance(c, ast.Compare) for n in ast.walk(c) if isinstance(n, ast.Name)}
    return {i for i, p in enumerate(params) if p in names}


def _read_nonlinearly(tree: ast.AST, params: set[str], ctx: RuleContext) -> str | None:
    """One of the loop variables ``params`` that is an input of an op whose gradient reads it in
    ``tree``: a product, quotient or power (``s *= a`` too), or a TensorFlow call outside
    :data:`_LINEAR_APIS`. Returns its name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.AugAssign) and isinstance(node.op, _NONLINEAR_BINOPS) \
                and isinstance(node.target, ast.Name) and node.target.id in params:
            return node.target.id
        operands: list[ast.expr] = []
        if isinstance(node, ast.BinOp) and isinstance(node.op, _NONLINEAR_BINOPS):
            operands = [node.left, node.right]
        elif isinstance(node, ast.Call):
            name = call_name(node, ctx)
            if name is not None and name.startswith("tf.") and name not in _LINEAR_APIS:
                operands = [*node.args, *(kw.value for kw in node.keywords)]
        for operand in operands:
            if isinstance(operand, ast.Name) and operand.id in params:
                return operand.id
    return None


_MAPPING_APIS = frozenset({"tf.map_fn", "tf.vectorized_map", "tf.scan", "tf.foldl", "tf.foldr"})


def _names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _counter_value(e: ast.AST, counters: set[str], ctx: RuleContext) -> bool:
    """``e`` turns a counter into a value that an op's gradient can read: a float cast of it
    (``tf.cast(i, tf.float32)``), a one-hot of it, or a tensor read at it (``x[i]``,
    ``x[i * 2:i * 2 + 2]``, ``tf.gather(x, i)``). Integer index arithmetic (``i * 2``) is not."""
    for node in ast.walk(e):
        if isinstance(node, ast.Subscript) and not _names(node.value) & counters and _names(node.slice) & counters:
            return True
        if isinstance(node, ast.Call) and _names(node) & counters:
            name = call_name(node, ctx)
            if name in ("tf.cast", "tf.dtypes.cast"):
                dtype = argument(node, 1, "dtype")
                if dtype is not None and ctx.resolve(dtype) in TF_REAL_FLOATS_AND_ALIASES:
                    return True
            elif name in ("tf.one_hot", "tf.gather", "tf.gather_nd"):
                return True
    return False


def _literal(e: ast.expr, ctx: RuleContext) -> bool:
    """A Python number (or arithmetic of them, or a name proven to hold a Python value)."""
    if isinstance(e, ast.Constant):
        return True
    if isinstance(e, ast.UnaryOp):
        return _literal(e.operand, ctx)
    if isinstance(e, ast.BinOp):
        return _literal(e.left, ctx) and _literal(e.right, ctx)
    return isinstance(e, ast.Name) and is_python(ctx.flags(e))


def _counter_read(tree: ast.AST, counters: set[str], ctx: RuleContext) -> str | None:
    """A counter of the loop (a variable its condition compares) that reaches an operand of a
    product, quotient or power with a non-literal other operand as a value (see
    :func:`_counter_value`): ``tf.cast(i, tf.float32) * w``, ``x[i] * w``. That operand changes per
    iteration, so the gradient keeps it per iteration as a loop variable read nonlinearly is kept.
    Returns the operand's source (the counter's name when it is long)."""
    if not counters:
        return None
    valued: set[str] = set()  # names bound to values read at the counter
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and (_counter_value(node.value, counters, ctx) or _names(node.value) & valued):
            valued.update(t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name))
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, _NONLINEAR_BINOPS):
            for side, other in ((node.left, node.right), (node.right, node.left)):
                if (_counter_value(side, counters, ctx) or _names(side) & valued) and not _literal(other, ctx):
                    text = ast.unparse(side)
                    return text if len(text) <= 40 else next(iter(sorted(counters)))
    return None


def _inner_loop_read(tree: ast.AST, ctx: RuleContext) -> str | None:
    """A ``tf.map_fn``/``tf.vectorized_map``/``tf.scan`` in the loop body whose function reads its
    own element or accumulator nonlinearly (``lambda x: x * w``): that inner loop's values are kept
    per outer iteration too (measured: fails without maximum_iterations; ``lambda x: x + w``
    compiles). Returns the inner parameter's name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_name(node, ctx) in _MAPPING_APIS:
            fn = _body_function(argument(node, 0, "fn"), ctx)
            if fn is not None:
                found = _read_nonlinearly(fn, {a.arg for a in fn.args.args}, ctx)
                if found is not None:
                    return found
    return None


class WhileLoopGradientWithoutBound(Rule):
    """
    ## What it does
    Flags `tf.while_loop(...)` without `maximum_iterations`, and a `while` loop on a tensor
    condition (AutoGraph makes it one), inside a `tf.GradientTape` block of a jit-compiled
    function, when the loop body reads a loop variable in an op whose gradient
    needs it (a product, a quotient, `tf.tanh`, `tf.matmul` ...; counters the condition compares
    are left out, unless their value is read: `tf.cast(i, tf.float32) * w`, `x[i] * w`,
    `tf.one_hot(i, n) * w`), or runs a `tf.map_fn`/`tf.vectorized_map`/`tf.scan` whose function
    reads its element nonlinearly (`lambda x: x * w`), and something trainable reaches the loop
    (a watched tensor, a layer call or a `self.<attr>` weight).

    ## Why is this bad?
    The backward pass of such a loop needs each iteration's value of that variable: TensorFlow
    keeps them in a TensorList sized by the loop's maximum number of iterations. Without one
    XLA fails: `XLA compilation requires a fixed tensor list size. Set the max number of
    elements.` The same holds for any value the body computes per iteration that such an op
    reads (a value read at the counter, an inner map's elements). The forward pass alone
    compiles, and a loop that only adds (`s + a`, `s + tf.one_hot(i, n) * 2.0`, an inner
    `lambda x: x + w`) needs no accumulator and compiles (all measured on TF 2.21;
    `for i in tf.range(n)` sets the bound itself and compiles).

    ## Example
    ```python
    with tf.GradientTape() as tape:
        _, h = tf.while_loop(lambda i, h: i < steps, lambda i, h: (i + 1, tf.tanh(h @ w)), (0, h0))
    ```

    ## Use instead
    ```python
    with tf.GradientTape() as tape:
        _, h = tf.while_loop(lambda i, h: i < steps, lambda i, h: (i + 1, tf.tanh(h @ w)), (0, h0),
                             maximum_iterations=MAX_STEPS)
    ```

    ## Fix safety
    When the loop counts (its condition is `i < B` or `i <= B` on a counter that starts at a
    non-negative int and goes up by a literal step of at least 1), the fix passes that bound:
    `maximum_iterations=B` to `tf.while_loop`, or
    `tf.autograph.experimental.set_loop_options(maximum_iterations=B)` first in the body of a
    `while` statement. The cap is never smaller than the trip count, so values and gradients are
    unchanged: safe when `B` is known while tracing (a literal, a module constant, a shape), unsafe
    when it is a parameter or an attribute (exact, but XLA compiles it only if that value is a
    Python number or a shape). Any other loop gets no fix: the bound must come from the model (a
    smaller one stops the loop early).
    """

    code = "XLA210"
    fix = ("rewrite_loop_bound",)
    name = "while-loop-gradient-without-bound"
    node_types = (ast.Call, ast.While)
    levels = frozenset({Level.CERTAIN})

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(a):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(a)\n"
                "        _, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * a), (0, a),\n"
                "                             maximum_iterations=3)\n    return tape.gradient(s, a)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(a):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(a)\n"
                "        _, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + a), (0, a))\n"
                "    return tape.gradient(s, a)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(w):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(w)\n        def body(i, s):\n"
                "            inner = tf.vectorized_map(lambda x: x + w, tf.ones([3]))\n"
                "            return i + 1, s + tf.one_hot(i, 3) * 2.0 + inner\n"
                "        _, s = tf.while_loop(lambda i, s: i < 3, body, (0, tf.zeros([3])))\n"
                "    return tape.gradient(s, w)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(a):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(a)\n"
                "        _, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * a), (0, a))\n"
                "    return tape.gradient(s, a)\n",
                expected=(
                    (6, 16, "tf.while_loop without maximum_iterations under a GradientTape: its gradient keeps each "
                            "iteration's `s` in a TensorList that XLA needs a fixed size for, so compilation fails "
                            "('XLA compilation requires a fixed tensor list size'); pass maximum_iterations (a static "
                            "bound) (compiled: decorated with tf.function(jit_compile=True) at line 2)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(a, n):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(a)\n        s, i = a, tf.constant(0)\n"
                "        while i < n:\n            s = tf.tanh(s) + a\n            i += 1\n"
                "    return tape.gradient(s, a)\n",
                expected=(
                    (7, 9, "a while loop on a tensor condition without a bound under a GradientTape: its gradient "
                           "keeps each iteration's `s` in a TensorList that XLA needs a fixed size for, so "
                           "compilation fails ('XLA compilation requires a fixed tensor list size'); loop with "
                           "`for _ in tf.range(max_steps)` and a break, or tf.while_loop(..., maximum_iterations=...) "
                           "(compiled: decorated with tf.function(jit_compile=True) at line 2)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(w, x):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(w)\n"
                "        _, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + x[i] * w), (0, 0.0))\n"
                "    return tape.gradient(s, w)\n",
                expected=(
                    (6, 16, "tf.while_loop without maximum_iterations under a GradientTape: its gradient keeps each "
                            "iteration's `x[i]` in a TensorList that XLA needs a fixed size for, so compilation fails "
                            "('XLA compilation requires a fixed tensor list size'); pass maximum_iterations (a static "
                            "bound) (compiled: decorated with tf.function(jit_compile=True) at line 2)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(w):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(w)\n        def body(i, s):\n"
                "            return i + 1, s + tf.reduce_sum(tf.vectorized_map(lambda x: x * w, tf.ones([3])))\n"
                "        _, s = tf.while_loop(lambda i, s: i < 3, body, (0, 0.0))\n"
                "    return tape.gradient(s, w)\n",
                expected=(
                    (8, 16, "tf.while_loop without maximum_iterations under a GradientTape: its gradient keeps each "
                            "iteration's `x` in a TensorList that XLA needs a fixed size for, so compilation fails "
                            "('XLA compilation requires a fixed tensor list size'); pass maximum_iterations (a static "
                            "bound) (compiled: decorated with tf.function(jit_compile=True) at line 2)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if isinstance(node, ast.While):
            self._while_statement(node, ctx)
            return
        assert isinstance(node, ast.Call)
        if call_name(node, ctx) not in ("tf.while_loop", "tf.compat.v1.while_loop", "tf.compat.v2.while_loop"):
            return
        if argument(node, 7, "maximum_iterations") is not None or any(kw.arg is None for kw in node.keywords):
            return
        back_prop = argument(node, 5, "back_prop")
        if isinstance(back_prop, ast.Constant) and back_prop.value is False:
            return
        if not under_tape(ctx):
            return
        body = _body_function(argument(node, 1, "body"), ctx)
        if body is None:
            return
        counters = _compared(argument(node, 0, "cond"), ctx)
        variable = _read_nonlinearly(body, {a.arg for i, a in enumerate(body.args.args) if i not in counters}, ctx) \
            or _counter_read(body, {a.arg for i, a in enumerate(body.args.args) if i in counters}, ctx) \
            or _inner_loop_read(body, ctx)
        if variable is None:
            return
        if not trainable_upstream(node, ctx.function.node, ctx.resolve) and \
                not trainable_upstream(body, body, ctx.resolve) and \
                not trainable_upstream(body, ctx.function.node, ctx.resolve):  # a watched name read in the body
            return
        ctx.report(self, node,
                   f"tf.while_loop without maximum_iterations under a GradientTape: its gradient keeps each "
                   f"iteration's `{variable}` in a TensorList that XLA needs a fixed size for, so compilation fails "
                   "('XLA compilation requires a fixed tensor list size'); pass maximum_iterations (a static bound) "
                   f"(compiled: {ctx.function.evidence})")

    def _while_statement(self, node: ast.While, ctx: RuleContext) -> None:
        if not ctx.converted or not ctx.flags(node.test) & TENSOR or not ctx.tensor_value(ctx.flags(node.test)):
            return
        if not under_tape(ctx):
            return
        carried = {t.id for stmt in node.body for n in ast.walk(stmt)
                   if isinstance(n, (ast.Assign, ast.AugAssign))
                   for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
        carried -= {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}  # the counters
        variable = next((v for stmt in node.body if (v := _read_nonlinearly(stmt, carried, ctx))), None)
        if variable is None or not any(trainable_upstream(stmt, ctx.function.node, ctx.resolve)
                                       for stmt in node.body):
            return
        ctx.report(self, node,
                   "a while loop on a tensor condition without a bound under a GradientTape: its gradient keeps "
                   f"each iteration's `{variable}` in a TensorList that XLA needs a fixed size for, so compilation "
                   "fails ('XLA compilation requires a fixed tensor list size'); loop with `for _ in "
                   "tf.range(max_steps)` and a break, or tf.while_loop(..., maximum_iterations=...) "
                   f"(compiled: {ctx.function.evidence})")
