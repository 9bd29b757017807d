"""Counting and grouping ops whose output size depends on the data.

``tf.math.bincount`` with ``minlength == maxlength == K`` has a static size in principle, but
XLA still specializes on the argument values (the oracle labels it ``value_specialized``:
one compilation per new input, and no compilation at all from a variable or random input), so
it is never offered as a fix. The one-hot sum is: ``tf.reduce_sum(tf.one_hot(ids, K, dtype=...),
axis=0)`` counts every value in [0, K) exactly as bincount does, and a value outside [0, K)
gets an all-zero one-hot row, as ``maxlength`` drops values >= K. Negative values differ: the
original raises, the fix ignores them (UNSAFE for that reason only).

``tf.math.segment_sum/mean/prod(data, ids)`` has no XLA kernel; for sorted ids it equals
``tf.math.unsorted_segment_*(data, ids, num_segments=tf.reduce_max(ids) + 1)`` (empty segments
give 0, 0 and 1 in both). The output still has as many rows as the data says, so XLA compiles
once per value of ``num_segments``: the fix is UNSAFE for that, and because unsorted ids no
longer raise; its message recommends a static ``num_segments``. ``segment_max/min`` fill empty
segments differently (0 versus the dtype's lowest value) and get an explanation.

``tf.unique`` and ragged constructors produce as many rows as the data says; no static-shape
program returns the same tensor, so they get an explanation only.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, call_name, kw
from xlacheck.rewrites._fix import explain, make_fix, replace
from xlacheck.rewrites._source import Source

UNIQUE = frozenset({"tf.unique", "tf.math.unique", "tf.unique_with_counts", "tf.math.unique_with_counts"})
SEGMENTS = frozenset(f"tf.math.segment_{op}" for op in ("sum", "mean", "max", "min", "prod"))
RAGGED_PREFIXES = ("tf.RaggedTensor.from_", "tf.ragged.")


def _static_int(src: Source, node: ast.AST) -> bool:
    """A Python int the reader can see: a literal or a module constant bound to one."""
    if isinstance(node, ast.Name):
        bound = src.module_binding(node.id)
        node = bound if bound is not None else node
    return isinstance(node, ast.Constant) and type(node.value) is int


def rewrite_counting(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.Call) or src.tf is None:
        return None
    name = call_name(src, node) or ""
    tf = src.tf
    if name in ("tf.math.bincount", "tf.bincount"):
        low, high = kw(node, "minlength"), kw(node, "maxlength")
        allowed = {"minlength", "maxlength", "dtype"}
        if len(node.args) != 1 or low is None or high is None or any(k.arg not in allowed for k in node.keywords):
            return explain("bincount's output length depends on the largest value, and XLA specializes on the "
                           "values even with minlength == maxlength: count with "
                           "tf.reduce_sum(tf.one_hot(ids, K), axis=0) for a static number of classes K")
        if src.segment(low) != src.segment(high):
            return None
        dtype = kw(node, "dtype")
        dtype_text = src.segment(dtype) if dtype is not None else f"{tf}.int32"
        reasons = ["negative values raise in the original and are not counted by the fix"]
        if not _static_int(src, low):
            reasons.append(f"`{src.segment(low)}` must be a Python int (a tensor depth is value-specialized too)")
        ids = arg(src, node.args[0])
        text = f"{tf}.reduce_sum({tf}.one_hot({tf}.reshape({ids}, [-1]), {src.segment(low)}, dtype={dtype_text}), axis=0)"
        return make_fix("Count with a one-hot sum of static depth (bincount is value-specialized under XLA)",
                        [replace(src, node, text)], reasons)
    if name in UNIQUE:
        return explain("The number of unique values depends on the data, so no fixed-size op returns the same "
                       "tensor. If the values are ids below a known bound K, use "
                       "counts = tf.reduce_sum(tf.one_hot(ids, K), axis=0) and the mask counts > 0 instead of "
                       "the unique list (tf.math.bincount is value-specialized under XLA: avoid it).")
    if name in SEGMENTS and name.rsplit("_", 1)[1] in ("sum", "mean", "prod") and len(node.args) == 2 \
            and not node.keywords:
        data, ids = (arg(src, a) for a in node.args)
        unsorted = name.replace("segment_", "unsorted_segment_")
        text = f"{unsorted}({data}, {ids}, num_segments={tf}.reduce_max({ids}) + 1)"
        reasons = ["the number of segments still comes from the data: XLA compiles once per value (pass a "
                   "static num_segments, e.g. the largest number of segments per batch, to compile once)",
                   "unsorted segment ids no longer raise"]
        return make_fix(f"Use {unsorted}, which has an XLA kernel", [replace(src, node, text)], reasons)
    if name in SEGMENTS:
        return explain("The number of output rows is the largest segment id + 1, known only from the data. "
                       f"Use {name.replace('segment_', 'unsorted_segment_')}(data, ids, num_segments=K) "
                       "with a static K (e.g. the batch's maximum number of graphs) and mask the unused rows.")
    if name.startswith(RAGGED_PREFIXES):
        return explain("Ragged tensors have data-dependent row lengths and have no XLA kernels. Keep the "
                       "data dense and padded to a static length, with a mask of valid positions, and "
                       "reduce with the mask (tf.where(mask, x, 0)).")
    return None
