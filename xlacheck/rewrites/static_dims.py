"""A Python ``range`` over a tensor's dimension in compiled TensorFlow code -> over its static size.

``for t in range(tf.shape(x)[k])`` (or over a name bound once to ``tf.shape(x)[k]``) hands Python's
``range`` a tensor. AutoGraph then stages the loop as a ``tf.while_loop``, in which a Python list
appended to holds tensors of the loop's inner graph and a tensor grown by ``tf.concat`` changes
shape per iteration (XLA111, XLA206); without AutoGraph, ``range`` of a symbolic tensor fails to
trace (XLA302). Inside ``tf.function`` a tensor's shape is known when traced, and ``x.shape[k]`` is
that dimension as a Python int: ``range(x.shape[k])`` unrolls the loop while tracing, as Python
does, with the same trip count and the same values (eagerly ``tf.shape(x)[k] == x.shape[k]``).

UNSAFE, and the message says why: where dimension ``k`` of ``x`` is unknown when traced (an
``input_signature`` or a Keras ``Input`` with ``None`` there) ``x.shape[k]`` is ``None`` and
``range`` raises ``TypeError``; and the loop is unrolled, one copy of its body per step.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import call_name, static_int
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source

UNROLLED = ("the loop is unrolled while tracing (one copy of its body per step); where that dimension is unknown "
            "when traced (None in an input_signature or a Keras Input), x.shape[k] is None and range raises "
            "TypeError")


def _dimension(src: Source, node: ast.expr, depth: int = 0) -> tuple[ast.Name, int] | None:
    """``(x, k)`` when ``node`` is ``tf.shape(x)[k]`` (k an int the reader can see), or a name bound once
    in its function to one, with ``x`` a name not rebound in that function after the shape is read."""
    if isinstance(node, ast.Name) and depth == 0:
        bound = src.local_binding(node.id, node)
        return _dimension(src, bound, 1) if bound is not None else None
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call)
            and call_name(src, node.value) == "tf.shape" and len(node.value.args) == 1 and not node.value.keywords):
        return None
    x, k = node.value.args[0], static_int(src, node.slice)
    if not isinstance(x, ast.Name) or k is None:
        return None
    func = src.function_of(node)
    if func is None:
        return None
    here = (node.lineno, node.col_offset)
    if any((s.lineno, s.col_offset) > here for s in src.stores_in(func).get(x.id, [])):
        return None  # x is rebound after its shape is read: the static shape may be another tensor's
    return x, k


def _is_range(src: Source, node: ast.AST) -> bool:
    """A call of the builtin ``range`` (not rebound in the module)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
        and not src.stores_in(src.tree).get("range")


def _loop_range(src: Source, node: ast.AST) -> ast.Call | None:
    """The ``range(...)`` call iterated by the ``for`` loop at or around ``node`` (the finding may be
    on the call itself, or on a statement in the loop's body)."""
    for sub in [node, *src.ancestors(node)]:
        if _is_range(src, sub):
            return sub  # type: ignore[return-value]
        if isinstance(sub, ast.For) and _is_range(src, sub.iter):
            return sub.iter  # type: ignore[return-value]
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return None
    return None


@rewriter(ast.Call, ast.Expr, ast.Assign, ast.AugAssign, ast.For)
def rewrite_static_dim_range(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None:
        return None
    call = _loop_range(src, node)
    if call is None or call.keywords or not 1 <= len(call.args) <= 3:
        return None
    edits = []
    for bound in call.args:
        found = _dimension(src, bound)
        if found is not None:
            x, k = found
            edits.append(replace(src, bound, f"{x.id}.shape[{k}]"))
    if not edits:
        return None
    return make_fix("Loop over the dimension's static size (x.shape[k], a Python int when traced), so Python "
                    "unrolls the loop instead of staging a tf.while_loop over a tensor", edits, [UNROLLED])
