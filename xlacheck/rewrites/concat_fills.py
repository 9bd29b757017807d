"""A concatenation of two pieces whose sizes are cut from one static length by a tensor value (XLA205)
-> one ``tf.where`` over whole pieces of that length.

``tf.concat([tf.ones([n]), tf.zeros([L - n])], axis=0)`` builds a length-``L`` vector from two
pieces whose sizes are data: XLA needs each size at compile time, so this fails to compile (or
recompiles for every ``n``), although the result's shape is the static ``L``. Entry ``i`` of the
result is entry ``i`` of the first piece where ``i < n`` and of the second piece otherwise, and a
fill (``tf.zeros``, ``tf.ones``, ``tf.fill``) holds the same value at every position, so the result
is ``tf.where(tf.sequence_mask(n, L), tf.ones([L]), tf.zeros([L]))``, which has static shapes.

Pieces covered (axis 0 of the concatenation, ``L`` a static length: an int literal or module
constant, ``tf.shape(v)[i]`` or ``v.shape[i]`` with a literal ``i``, or arithmetic of those):

* both fills, one of size ``s`` and the other of size ``L - s`` (either order; trailing dimensions
  written the same in both shapes), ``s`` from tensor values;
* a prefix ``v[:n]`` of a tensor ``v`` whose length is ``L`` (``L`` written ``tf.shape(v)[0]`` or
  ``v.shape[0]``), then a fill of size ``L - n``: the first ``n`` rows of ``v``, padded, are ``v``
  with the rows from ``n`` on replaced by the fill.

Always UNSAFE: a size outside ``[0, L]`` raises in the original (a negative dimension) and is
clamped by the mask here; a negative prefix bound ``v[:n]`` counts back from the end in the slice
(the original's pieces then do not add up to ``L``), not in the mask.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import call_name, full_slice, int_literal, kw, static_int
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source, dotted

_FILLS = {"tf.zeros": "shape", "tf.ones": "shape", "tf.fill": "dims"}
_CONCAT = frozenset({"tf.concat"})
OUTSIDE = "a size outside [0, L] raises in the original (a negative dimension) and is clamped by the mask here"
NEGATIVE_BOUND = "a negative bound counts back from the end in the slice, not in the mask"


def _static(src: Source, node: ast.AST) -> bool:
    """A length XLA knows at compile time: an int the reader sees, a static dimension of a tensor
    (``tf.shape(v)[i]``, ``v.shape[i]`` with a literal ``i``), or ``+ - *`` of those."""
    if static_int(src, node) is not None:
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        return _static(src, node.left) and _static(src, node.right)
    return _dimension_of(src, node) is not None


def _dimension_of(src: Source, node: ast.AST) -> tuple[str, int] | None:
    """(tensor text, axis) of ``tf.shape(v)[i]`` / ``v.shape[i]``."""
    if not (isinstance(node, ast.Subscript) and int_literal(node.slice) is not None):
        return None
    axis = int_literal(node.slice)
    assert axis is not None
    base = node.value
    if isinstance(base, ast.Call) and call_name(src, base) == "tf.shape" and len(base.args) == 1 \
            and not base.keywords and dotted(base.args[0]):
        return dotted(base.args[0]) or "", axis
    if isinstance(base, ast.Attribute) and base.attr == "shape" and dotted(base.value):
        return dotted(base.value) or "", axis
    return None


def _fill(src: Source, node: ast.AST) -> tuple[ast.expr, list[ast.expr]] | None:
    """(size on axis 0, the whole shape's elements) of a fill call with a literal shape."""
    if not isinstance(node, ast.Call):
        return None
    name = call_name(src, node)
    if name not in _FILLS:
        return None
    shape = node.args[0] if node.args else kw(node, _FILLS[name])
    if not isinstance(shape, (ast.List, ast.Tuple)) or not shape.elts \
            or any(isinstance(e, ast.Starred) for e in shape.elts):
        return None
    return shape.elts[0], list(shape.elts)


def _complement(src: Source, size: ast.expr, other: ast.expr) -> ast.expr | None:
    """``L`` when ``size`` is written ``L - other`` with a static ``L``."""
    if isinstance(size, ast.BinOp) and isinstance(size.op, ast.Sub) \
            and ast.dump(size.right) == ast.dump(other) and _static(src, size.left):
        return size.left
    return None


def _with_size(src: Source, call: ast.Call, size: ast.expr, length: str) -> str:
    """The fill call's text with its axis-0 size replaced by ``length``."""
    start, end = src.offset(src.start(call)), src.offset(src.end(call))
    cut, stop = src.offset(src.start(size)), src.offset(src.end(size))
    return src.text[start:cut] + length + src.text[stop:end]


@rewriter(ast.Call, pointed=True)
def rewrite_concat_fills(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Call) or call_name(src, node) not in _CONCAT:
        return None
    values = node.args[0] if node.args else kw(node, "values")
    axis = node.args[1] if len(node.args) > 1 else kw(node, "axis")
    if not isinstance(values, (ast.List, ast.Tuple)) or len(values.elts) != 2 or axis is None \
            or len(node.args) + len(node.keywords) != 2:
        return None
    first, second = values.elts
    tail = _fill(src, second)
    if tail is None:
        return None
    tail_size, tail_shape = tail
    rank = len(tail_shape)
    axis_value = int_literal(axis)
    if not (axis_value == 0 or rank == 1 and isinstance(axis, ast.UnaryOp) and isinstance(axis.op, ast.USub)
            and int_literal(axis.operand) == 1):
        return None
    reasons = [OUTSIDE]
    head = _fill(src, first)
    if head is not None:
        head_size, head_shape = head
        if len(head_shape) != rank or any(ast.dump(a) != ast.dump(b) for a, b in zip(head_shape[1:], tail_shape[1:])):
            return None  # trailing dimensions must be the same
        length = _complement(src, tail_size, head_size)
        if length is None:
            length = _complement(src, head_size, tail_size)
        if length is None:
            return None
        assert isinstance(first, ast.Call)
        whole_first = _with_size(src, first, head_size, src.segment(length))
        cut = head_size
    else:
        if not (isinstance(first, ast.Subscript) and isinstance(first.ctx, ast.Load) and dotted(first.value)):
            return None
        parts = first.slice.elts if isinstance(first.slice, ast.Tuple) else [first.slice]
        cut_part = parts[0]
        if not (isinstance(cut_part, ast.Slice) and cut_part.upper is not None and cut_part.step is None
                and (cut_part.lower is None or int_literal(cut_part.lower) == 0)
                and all(full_slice(p) for p in parts[1:])):
            return None
        cut = cut_part.upper
        length = _complement(src, tail_size, cut)
        if length is None or _dimension_of(src, length) != (dotted(first.value), 0):
            return None  # the prefix's tensor must be as long as the result
        whole_first = src.segment(first.value)
        reasons.append(NEGATIVE_BOUND)
    assert isinstance(second, ast.Call)
    tf = src.tf
    mask = f"{tf}.sequence_mask({src.segment(cut)}, {src.segment(length)})"
    if rank > 1:
        mask += "[:" + f", {tf}.newaxis" * (rank - 1) + "]"
    whole_second = _with_size(src, second, tail_size, src.segment(length))
    text = f"{tf}.where({mask}, {whole_first}, {whole_second})"
    return make_fix("Select from whole pieces of the static length with a mask instead of concatenating "
                    "data-sized pieces", [replace(src, node, text)], reasons)
