"""Dtype facts of TensorFlow calls, as measured on TensorFlow (``xlacheck/data/tf_dtypes.json``,
written by ``tools/generate_tf_dtype_table.py``; no TensorFlow import here).

``keeps_real_float``: elementwise unary functions that return their input's dtype for a float16,
float32 and float64 input (``tf.abs``, ``tf.nn.relu``), read by :mod:`xlacheck.analysis.dtypes`.

``same_dtype_binary``: functions whose first two tensors must share one dtype, which their result
has (``tf.matmul``, ``tf.maximum``), read by :mod:`xlacheck.analysis.dtypes`.

``literal_operand``: functions that fail in a graph when a Python int comes before a tensor of
another dtype. In graph mode TensorFlow converts a call's inputs in order: the leading Python int
becomes an int32 constant and the tensor after it must then be int32 ("Input 'y' of 'Maximum' Op
has type float32 that does not match type int32 of argument 'x'"); eagerly the same call works. A
row names, per argument form (``"int,tensor"``: ``tf.maximum(0, x)``; ``"bool,int,tensor"``:
``tf.where(c, 0, x)``), the parameters of the literal and of the tensor, the literal's position, and
for each probed dtype of the tensor (float32, int64) the trace's error or null.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from xlacheck._data import load_json


class LiteralOperand(NamedTuple):
    """One measured form of one function: where the literal and the tensor go, and what failed."""

    literal: str  # the literal's parameter
    tensor: str  # the tensor's parameter (the one after it)
    position: int  # the literal's position (the tensor's is the next)
    graph: dict[str, str | None]  # probed dtype of the tensor -> the graph trace's error, or None


@functools.cache
def _table() -> dict[str, Any]:
    table: dict[str, Any] = load_json("tf_dtypes.json")
    return table


@functools.cache
def keeps_real_float() -> frozenset[str]:
    """Public names of the elementwise unary functions measured to keep a real float input's dtype."""
    return frozenset(_table()["keeps_real_float"])


@functools.cache
def same_dtype_binary() -> frozenset[str]:
    """Public names of the functions measured to take two tensors of one dtype and return it."""
    return frozenset(_table()["same_dtype_binary"])


def literal_operand_forms(api_name: str) -> tuple[LiteralOperand, ...]:
    """The measured forms of ``api_name`` (a canonical public name) whose trace failed, () if none."""
    return tuple(LiteralOperand(r["literal"], r["tensor"], int(r["position"]), dict(r["graph"]))
                 for r in _table()["literal_operand"].get(api_name, {}).values())
