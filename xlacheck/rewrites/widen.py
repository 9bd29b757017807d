"""A cumulative sum or product of a narrow integer tensor (no XLA kernel) -> the same in int32, cast back.

``tf.math.cumsum``/``tf.math.cumprod`` have XLA kernels for int32/int64 and floats only (the op
table's ``dtypes``, measured by compiling): an int8, uint8 or int16 tensor fails. The rewrite is
``tf.cast(tf.math.cumsum(tf.cast(x, tf.int32), ...), tf.int8)``. SAFE: every partial sum and
product is computed modulo 2^32 instead of 2^8 (2^16), and reduction modulo 2^k commutes with
addition and multiplication, so the low 8 (16) bits that the cast back keeps are the original's
wrapped-around result, bit for bit; ``axis``, ``exclusive`` and ``reverse`` only choose which
elements are summed. Integer tensors have no gradient. Applied only when the rewrite's own
reading of the code (:func:`xlacheck.rewrites.dtypes.certain_dtype`) proves the dtype too and
the op table says int32 compiles and that dtype fails.
"""

from __future__ import annotations

import ast

from xlacheck import op_table
from xlacheck.analysis.dtypes import INT_DTYPES
from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import call_name
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import certain_dtype

# Functions whose integer result is a ring homomorphism image of its inputs (sums, products).
WRAPPING = frozenset({"tf.math.cumsum", "tf.cumsum", "tf.math.cumprod", "tf.cumprod"})
# The integer dtypes narrower than int32 (int8, uint8, int16, uint16).
NARROW_INTS = frozenset(d for d in INT_DTYPES if int(d.removeprefix("u").removeprefix("int")) < 32)


@rewriter(ast.Call, pointed=True)
def rewrite_widen_int_dtype(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Call):
        return None
    name = call_name(src, node)
    if name not in WRAPPING:
        return None
    verdict = op_table.dtype_verdict(name)
    if verdict is None or "int32" not in verdict.compile or verdict.position != 0:
        return None
    if not node.args or isinstance(node.args[0], ast.Starred) or any(kw.arg == verdict.param for kw in node.keywords):
        return None
    operand = node.args[0]
    dtype = certain_dtype(src, operand)
    if dtype not in NARROW_INTS or not verdict.failing_ops(dtype):
        return None
    tf = src.tf
    start, op_start, op_end, end = (src.offset(src.start(node)), src.offset(src.start(operand)),
                                    src.offset(src.end(operand)), src.offset(src.end(node)))
    widened = f"{src.text[start:op_start]}{tf}.cast({src.text[op_start:op_end]}, {tf}.int32){src.text[op_end:end]}"
    return make_fix(f"Compute {name} in int32 and cast back to {dtype} (bit-for-bit equal)",
                    [replace(src, node, f"{tf}.cast({widened}, {tf}.{dtype})")])
