"""XLA210: a ``tf.while_loop`` without ``maximum_iterations`` differentiated in jit-compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.values import TENSOR
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


class WhileLoopGradientWithoutBound(Rule):
    """
    ## What it does
    Flags `tf.while_loop(...)` without `maximum_iterations`, and a `while` loop on a tensor
    condition (AutoGraph makes it one), inside a `tf.GradientTape` block of a jit-compiled
    function, when the loop body reads a loop variable in an op whose gradient
    needs it (a product, a quotient, `tf.tanh`, `tf.matmul` ...; counters the condition compares
    are left out) and something trainable reaches the loop (a watched tensor, a layer call or a
    `self.<attr>` weight).

    ## Why is this bad?
    The backward pass of such a loop needs each iteration's value of that variable: TensorFlow
    keeps them in a TensorList sized by the loop's maximum number of iterations. Without one
    XLA fails: `XLA compilation requires a fixed tensor list size. Set the max number of
    elements.` The forward pass alone compiles, and a loop that only adds (`s + a`) needs no
    accumulator and compiles (both measured on TF 2.21; `for i in tf.range(n)` sets the bound
    itself and compiles).

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
        variable = _read_nonlinearly(body, {a.arg for i, a in enumerate(body.args.args) if i not in counters}, ctx)
        if variable is None:
            return
        if not trainable_upstream(node, ctx.function.node, ctx.resolve) and \
                not trainable_upstream(body, body, ctx.resolve):
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
