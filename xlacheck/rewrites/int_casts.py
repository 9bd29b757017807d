"""``int(t)`` mixed with a tensor in AutoGraph code (XLA303) -> the same number in that tensor's dtype.

Eagerly ``int(t)`` is a Python int ``k``, and ``x / k`` (any arithmetic operator, either side)
converts ``k`` to ``x``'s dtype: TensorFlow's binary operators convert a Python number to the
other operand's dtype. AutoGraph turns ``int(t)`` into ``tf.cast(t, tf.int32)``, an int32 tensor,
and ``x / k`` then fails ("x and y must have the same dtype") unless ``x`` is int32. The fix
casts the int operand to the other operand's dtype, which is the conversion eager code made:

    n = int(tf.reduce_sum(mask))          n = int(tf.reduce_sum(mask))
    return total / n              ->      return total / tf.cast(n, total.dtype)

Run eagerly the cast turns the Python int into that same tensor; under AutoGraph it casts the
int32 tensor. The dtype is written as a literal where the value model proves the other operand's
dtype (``certain_dtype``), else read as ``w.dtype`` of a name or attribute chain ``w`` that
provably has the other operand's dtype (``dtype_witness``: the operand itself, or what a reduction
or elementwise op in it keeps the dtype of); anything else gets no fix.

SAFE when the value ``int()`` reads is an integer or bool tensor of at most 32 bits
(int8/16/32, uint8/16, bool): the int32 cast AutoGraph makes of it is exact, so both runs convert
the same number. Otherwise UNSAFE, and the message says where it differs: AutoGraph's ``int(t)``
is an int32 cast, which wraps (int64, uint32) or, for floats, is undefined/saturating past
2**31 - 1, where Python's ``int`` is exact; the fix keeps that cast (the author may want
``tf.cast(t, x.dtype)`` of the untruncated value instead, which is another computation).
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import DTYPES, certain_dtype, dtype_witness

_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow, ast.Mod)
_EXACT_IN_INT32 = frozenset({"int8", "int16", "int32", "uint8", "uint16", "bool"})
WRAPS = ("AutoGraph's int(t) is tf.cast(t, tf.int32): past 2**31 - 1 it wraps (or, for floats, saturates) where "
         "Python's int, which eager code uses, is exact; the fix keeps that cast")


def _int_call(src: Source, node: ast.AST) -> ast.Call | None:
    """``int(v)`` (the builtin, one argument), written here or bound once to the name read here."""
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return _int_call(src, bound) if isinstance(bound, ast.Call) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int" \
            and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred) \
            and "int" not in src.stores_in(src.tree):
        return node
    return None


@rewriter(ast.BinOp, pointed=True)
def rewrite_int_cast_operand(src: Source, node: ast.AST) -> Fix | None:
    tf = src.tf
    if tf is None or not isinstance(node, ast.BinOp) or not isinstance(node.op, _ARITH):
        return None
    for mine, other in ((node.left, node.right), (node.right, node.left)):
        cast = _int_call(src, mine)
        if cast is None or _int_call(src, other) is not None:
            continue
        dtype, witness = certain_dtype(src, other), dtype_witness(src, other)
        if dtype in DTYPES:
            target = f"{tf}.{dtype}"
        elif witness is not None:
            target = f"{src.segment(witness)}.dtype"
        else:
            return None
        reasons = [] if certain_dtype(src, cast.args[0]) in _EXACT_IN_INT32 else [WRAPS]
        return make_fix(f"Cast `{src.segment(mine)}` to the other operand's dtype, as eager code converts the Python "
                        f"int: under AutoGraph int(t) is an int32 tensor, which `{src.segment(other)}` cannot be "
                        "mixed with", [replace(src, mine, f"{tf}.cast({src.segment(mine)}, {target})")], reasons)
    return None
