"""The truth value of a Python condition on tensors, as a tensor: what ``if``, ``assert`` and
``raise`` rewrites need to know about a condition (is it a bool, a number, a scalar; does
Python skip some of its operands).
"""

from __future__ import annotations

import ast

from xlacheck.rewrites._expr import FULL_REDUCTIONS, call_name, is_scalar, tf_name
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.builtins import condition

NOT_SCALAR = "cannot prove the condition is a scalar; a one-element condition of higher rank would broadcast"
NOT_BOOL = ("cannot prove the condition is a boolean: tf.where needs one, and tf.cast reads a number as it is "
            "where Python's `if` takes its truth value")
LAZY = ("the original stops evaluating `and`/`or` operands once the outcome is decided, also on inputs "
        "where it goes on normally; the fix evaluates all of them (their side effects and errors)")

BOOL_CALLS = frozenset(
    f"{prefix}{op}" for prefix in ("tf.", "tf.math.")
    for op in ("reduce_all", "reduce_any", "logical_and", "logical_or", "logical_not", "logical_xor", "is_nan",
               "is_inf", "is_finite", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
)
# Full reductions other than any/all: numbers (they reject bool and string tensors; tf.size,
# tf.rank and count_nonzero count), never booleans.
NUMBER_CALLS = FULL_REDUCTIONS - BOOL_CALLS


def boolean(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Provably bool-typed (a bool tensor or a Python bool), and so are the operands of every
    ``and``/``or``/``not`` in it (``condition`` turns those into ``tf.logical_*``, which need bools)."""
    if depth > 8:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, bool)
    if isinstance(node, ast.Compare):  # tensor comparisons give bool tensors; `in` becomes reduce_any
        return True
    if isinstance(node, ast.BoolOp):
        return all(boolean(src, v, depth + 1) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return boolean(src, node.operand, depth + 1)
    if isinstance(node, ast.Call):
        name = call_name(src, node)
        if name == "tf.cast" and len(node.args) == 2:
            return tf_name(src, node.args[1]) == "tf.bool"
        return name in BOOL_CALLS or (isinstance(node.func, ast.Name) and node.func.id in ("any", "all"))
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and boolean(src, bound, depth + 1)
    return False


def number(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Provably a real or complex number tensor (a full reduction), never a bool or a string."""
    if depth > 8:
        return False
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and number(src, bound, depth + 1)
    return isinstance(node, ast.Call) and call_name(src, node) in NUMBER_CALLS


def reduced(src: Source, node: ast.AST) -> bool:
    """``condition`` turns it into a reduction (``x in (...)``, ``any(...)``): a scalar."""
    if isinstance(node, ast.Compare):
        return any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("any", "all")


def lazy_operands(node: ast.AST, raising: bool) -> bool:
    """Some ``and``/``or`` (or chained comparison) in the condition can stop early with the
    truth value ``not raising``, i.e. on a path where the original goes on normally without
    evaluating the rest; the tensor form evaluates every operand (their side effects and errors)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return lazy_operands(node.operand, not raising)
    if isinstance(node, ast.BoolOp):
        stops_with = not isinstance(node.op, ast.And)  # `and` stops at a false operand, `or` at a true one
        return stops_with != raising or any(lazy_operands(v, raising) for v in node.values)
    if isinstance(node, ast.Compare) and len(node.ops) > 1:
        return raising  # a chain stops at its first false comparison
    return False  # kept as written: Python evaluates it the same way in both


def truth(src: Source, node: ast.expr, raising: bool, reasons: list[str]) -> str:
    """A scalar bool tensor equal to Python's ``bool(node)`` wherever the original computes it
    without raising; ``raising`` is the truth value on which the original raises (False for
    ``assert``). Checked by running it (TF 2.21): a bool condition is used as it is; a full
    reduction (a number) becomes ``tf.not_equal(c, 0)``, which is ``bool()`` for every real and
    complex dtype, NaN (true) and -0.0 (false) included (``tf.cast(c, tf.bool)`` is not: it
    reads only the real part, so ``1j`` casts to False); a condition not provably rank-0 is
    wrapped in ``tf.reduce_any``: ``bool()`` of a one-element tensor is its element, of an empty
    tensor False, and raises for more elements, which is ``reduce_any`` wherever ``bool()``
    returns (``tf.debugging.Assert`` itself takes a shape-[1] condition eagerly but raises for
    it in a ``tf.function``)."""
    text = condition(src, node, reasons)
    if not boolean(src, node):
        if number(src, node):
            text = f"{src.tf}.not_equal({text}, 0)"
        else:
            reasons.append("cannot prove the condition is a boolean or a number: tf.debugging.Assert needs a bool "
                           "tensor, and Python's truth value of other objects has no tensor form here")
    if not (is_scalar(src, node) or reduced(src, node)):
        if isinstance(node, (ast.BoolOp, ast.UnaryOp)):
            reasons.append(NOT_SCALAR)
        else:
            text = f"{src.tf}.reduce_any({text})"
    if lazy_operands(node, raising):
        reasons.append(LAZY)
    return text
