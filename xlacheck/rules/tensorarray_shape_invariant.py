"""XLA209: a ``tf.while_loop`` shape invariant that gives a TensorArray loop variable an element shape."""

from __future__ import annotations

import ast

from xlacheck.analysis.tables import TENSOR_ARRAYS, TF_TENSOR_SHAPES
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name


def _is_tensor_array(e: ast.expr, ctx: RuleContext) -> bool:
    """A ``tf.TensorArray(...)`` call, or a name this function binds only to such calls."""
    if isinstance(e, ast.Call):
        return call_name(e, ctx) in TENSOR_ARRAYS
    if not isinstance(e, ast.Name):
        return False
    bound = [n.value for n in ast.walk(ctx.function.node) if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == e.id for t in n.targets)]
    return bool(bound) and all(isinstance(v, ast.Call) and call_name(v, ctx) in TENSOR_ARRAYS for v in bound)


def _ranked_shape(e: ast.expr, ctx: RuleContext) -> bool:
    """``tf.TensorShape([d, ...])`` with at least one dimension (a rank >= 1 invariant)."""
    if not isinstance(e, ast.Call) or call_name(e, ctx) not in TF_TENSOR_SHAPES or not e.args:
        return False
    dims = e.args[0]
    return isinstance(dims, (ast.List, ast.Tuple)) and bool(dims.elts)


class TensorArrayShapeInvariant(Rule):
    """
    ## What it does
    Flags `tf.while_loop(..., shape_invariants=[...])` where the invariant of a loop variable
    that is a `tf.TensorArray` is a `tf.TensorShape` with dimensions (the shape of its elements
    or of its stacked result).

    ## Why is this bad?
    Inside a graph a TensorArray loop variable is carried as its scalar flow tensor, so any
    ranked invariant contradicts the shape after one iteration: `ValueError: Input tensor
    'TensorArrayV2:0' enters the loop with shape (None, 1, 8), but has shape () after one
    iteration`. Eager mode runs the loop in Python and never checks, so the code works until it
    is traced (every `tf.function`, with or without `jit_compile`; measured on TF 2.21).

    ## Example
    ```python
    _, ta = tf.while_loop(cond, body, [tf.constant(0), ta],
                          shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 1, 8])])
    ```

    ## Use instead
    ```python
    _, ta = tf.while_loop(cond, body, [tf.constant(0), ta],
                          shape_invariants=[tf.TensorShape([]), tf.TensorShape(None)])
    # the element shape belongs to tf.TensorArray(..., element_shape=[1, 8])
    ```

    ## Fix safety
    The fix gives the TensorArray loop variable `tf.TensorShape(None)` (the invariant of its
    flow). Safe: the loop computes the values the eager run computes; the element shapes stay
    the TensorArray's own. A one-row slice in the loop's body that starts at a loop variable
    (`x[i:i + 1, :]`) has a padded, data-dependent size under XLA, so the fix also writes it as
    an index with a new axis (`x[i, tf.newaxis, :]`, static size 1): safe when the loop condition
    keeps `i` within that axis (`i < tf.shape(x)[0]`, counting up from 0); otherwise unsafe, since
    where `i` is past the axis the slice is empty and the index raises eagerly.
    """

    code = "XLA209"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_tensorarray_invariant",)
    name = "tensorarray-shape-invariant"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    ta = tf.TensorArray(tf.float32, size=3)\n"
                "    _, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, x[i])),\n"
                "                          [0, ta], shape_invariants=[tf.TensorShape([]), tf.TensorShape(None)])\n"
                "    return ta.stack()\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    ta = tf.TensorArray(tf.float32, size=3)\n"
                "    _, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, x[i])),\n"
                "                          [0, ta], shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 4])])\n"
                "    return ta.stack()\n",
                expected=(
                    (5, 13, 'tf.while_loop gives the TensorArray loop variable `ta` the shape invariant '
                            'tf.TensorShape([None, 4]): a graph carries a TensorArray as its scalar flow tensor, so '
                            'tracing fails ("enters the loop with shape ..., but has shape () after one iteration"); '
                            'give it tf.TensorShape(None) and put the element shape on the TensorArray'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        if call_name(node, ctx) not in ("tf.while_loop", "tf.compat.v1.while_loop"):
            return
        loop_vars = argument(node, 2, "loop_vars")
        invariants = argument(node, 3, "shape_invariants")
        if not isinstance(loop_vars, (ast.List, ast.Tuple)) or not isinstance(invariants, (ast.List, ast.Tuple)):
            return
        if len(loop_vars.elts) != len(invariants.elts):
            return
        for var, invariant in zip(loop_vars.elts, invariants.elts):
            if _is_tensor_array(var, ctx) and _ranked_shape(invariant, ctx):
                label = f"`{var.id}`" if isinstance(var, ast.Name) else "(a tf.TensorArray)"
                ctx.report(self, node,
                           f"tf.while_loop gives the TensorArray loop variable {label} the shape invariant "
                           f"{ast.unparse(invariant)}: a graph carries a TensorArray as its scalar flow tensor, so "
                           "tracing fails (\"enters the loop with shape ..., but has shape () after one iteration\"); "
                           "give it tf.TensorShape(None) and put the element shape on the TensorArray")
                return
