"""``tnp.arange`` on a tensor (XLA205) -> ``tf.range``, the op it calls.

``tf.experimental.numpy.arange(start, stop, step)`` compares its arguments in Python (``if
step > 0 and start > stop``) before it calls ``tf.range``, so a tensor argument fails while
tracing ("Using a symbolic tf.Tensor as a Python bool"). Eagerly it returns
``tf.cast(tf.range(start, limit=stop, delta=step), dtype)`` (or an empty array where the bounds
are reversed, which ``tf.range`` returns too); the fix calls ``tf.range`` with the same arguments:

    positions = tnp.arange(seq_len)      ->      positions = tf.range(seq_len)

Only calls without ``dtype=`` and with an integer-literal ``step`` (or none) get a fix.

Always UNSAFE, for what the reader cannot see: tnp's result dtype is NumPy's promotion of the
arguments (``np_utils.result_type``), ``tf.range``'s the widest of their dtypes; the two agree on
an int32 or int64 tensor with Python ints (measured on TF 2.21) and can differ where Python floats
meet integer tensors or NumPy behaviour is enabled (``tnp.experimental_enable_numpy_behavior``).
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import int_literal
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source, dotted, module_alias

_UNSAFE = ("tnp.arange's dtype is NumPy's promotion of its arguments, tf.range's the widest of their dtypes: the same "
           "for integer tensors and Python ints, not always with Python floats or with NumPy behaviour enabled")


def _is_tnp_arange(src: Source, func: ast.AST) -> bool:
    name = dotted(func)
    if name is None:
        return False
    tnp = module_alias(src.tree, "tensorflow.experimental.numpy")
    return (tnp is not None and name == f"{tnp}.arange") or \
        (src.tf is not None and name == f"{src.tf}.experimental.numpy.arange")


@rewriter(ast.Call, pointed=True)
def rewrite_numpy_arange(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.Call) or src.tf is None or not _is_tnp_arange(src, node.func):
        return None
    if any(isinstance(a, ast.Starred) for a in node.args) or len(node.args) > 3:
        return None
    slots = ["start", "stop", "step"]
    given: dict[str, ast.expr] = dict(zip(slots, node.args))
    for k in node.keywords:
        if k.arg not in slots or k.arg in given:
            return None  # dtype= (tnp casts after the range, tf.range before), **kwargs, a repeat
        given[k.arg] = k.value
    if "start" not in given or ("step" in given and int_literal(given["step"]) in (None, 0)):
        return None
    start = src.segment(given["start"])
    if "stop" in given:
        parts = [start, src.segment(given["stop"])]
    else:  # tnp.arange(n[, step=s]) is range(0, n[, s])
        parts = ["0", start] if "step" in given else [start]
    if "step" in given:
        parts.append(src.segment(given["step"]))
    text = f"{src.tf}.range({', '.join(parts)})"
    return make_fix(f"use {src.tf}.range, which takes tensors (tnp.arange tests its arguments in Python)",
                    [replace(src, node, text)], unsafe=[_UNSAFE])
