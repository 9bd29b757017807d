"""Bounds on the values of integer tensors, read from the code that computes them.

A data-dependent size (``tf.math.bincount``'s ``max(ids) + 1`` bins) has a static bound when the
code bounds the values where it computes them: a clip, a minimum, a remainder. The rewrites use
the bound as a static length (:mod:`xlacheck.rewrites.counting`).
"""

from __future__ import annotations

import ast
import math

from xlacheck.analysis.dtypes import INT_DTYPES
from xlacheck.rewrites._expr import call_name, kw, number_value, tf_name
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import certain_dtype


_INT_CASTS = frozenset({"tf.cast", "tf.dtypes.cast"})
_ELEMENT_PRESERVING = frozenset({"tf.reshape", "tf.squeeze", "tf.expand_dims", "tf.identity", "tf.stop_gradient",
                                 "tf.transpose", "tf.reverse"})


_MODULI = frozenset({"tf.math.floormod", "tf.math.mod", "tf.math.truncatemod", "tf.truncatemod",
                     "tf.floormod", "tf.mod"})


def _below_modulus(src: Source, dividend: ast.AST, modulus: ast.AST) -> int | None:
    """A bound of ``x mod k`` (floored or truncated) for a positive number ``k``: below ``k`` for
    integer ``x`` (at most ``k - 1``); for float ``x`` at most ``k``, since the floored remainder of a
    tiny negative float rounds up to ``k`` itself (``-1e-20 % 10.0 == 10.0``). NaN stays NaN."""
    value = number_value(modulus)
    if value is None or not 0 < value < 2**31:
        return None
    if type(value) is int and certain_dtype(src, dividend) in INT_DTYPES:
        return value - 1
    return math.floor(value)


def int_upper_bound(src: Source, node: ast.AST, depth: int = 0) -> int | None:
    """A Python int no element of the integer tensor ``node`` exceeds, wherever it is computed, from
    what the code shows: ``tf.clip_by_value(x, lo, hi)`` and ``tf.minimum(x, hi)`` with a number
    ``hi`` hold every element at most ``hi`` (NaN stays NaN); ``x % k``, ``tf.math.floormod(x, k)``
    and ``truncatemod`` with a positive number ``k`` below ``k`` (the hashing of ids into buckets); an integer ``tf.cast`` truncates toward
    zero, so it keeps a bound ``floor(hi)`` for ``hi >= 0`` (NaN and out-of-range floats cast to the
    dtype's minimum, which is below it); ops that only move, select or reshape elements
    (``tf.reshape``, subscripts, ...) keep it; a name bound once (:meth:`Source.local_binding`)
    has its value's bound. None when no such bound shows."""
    if depth > 8:
        return None
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return int_upper_bound(src, bound, depth + 1) if bound is not None else None
    if isinstance(node, ast.Subscript):
        return int_upper_bound(src, node.value, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):  # a tensor `x % k`: floormod
        return _below_modulus(src, node.left, node.right)
    if not isinstance(node, ast.Call) or not node.args:
        return None
    name = call_name(src, node)
    if name in _MODULI and len(node.args) == 2:
        return _below_modulus(src, node.args[0], node.args[1])
    if name in _ELEMENT_PRESERVING:
        return int_upper_bound(src, node.args[0], depth + 1)
    if name in _INT_CASTS:
        dtype = node.args[1] if len(node.args) > 1 else kw(node, "dtype")
        if dtype is None or tf_name(src, dtype) not in ("tf.int32", "tf.int64"):
            return None
        return int_upper_bound(src, node.args[0], depth + 1)
    limit: ast.AST | None = None
    if name == "tf.clip_by_value" and len(node.args) == 3:
        limit = node.args[2]
    elif name in ("tf.minimum", "tf.math.minimum") and len(node.args) == 2:
        limit = node.args[1]
    value = number_value(limit) if limit is not None else None
    if value is None or isinstance(value, complex) or value != value or value < 0 or value >= 2**31:
        return None
    return int(value)  # the elements of a tf.clip_by_value of ints are ints: at most floor(hi) as well
