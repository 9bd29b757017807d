"""What XLA accepts where graph TF merges shapes, as measured on TensorFlow
(``xlacheck/data/tf_branch_carry.json``, written by ``tools/generate_tf_branch_carry_table.py``; no
TensorFlow import here).

Each probe is one small function whose ``tf.cond``/``tf.case``/``tf.switch_case``/AutoGraph ``if``
branches, ``tf.while_loop``/AutoGraph loop carry, ``tf.TensorArray`` or variable assignment differs
in one respect (rank, one dim, static vs unknown dim, dtype, None vs tensor, nesting, a ``tf.concat``
growth, a ``tf.boolean_mask``); the table records whether it raised under
``tf.function(jit_compile=True)`` on XLA:CPU, in a plain ``tf.function`` and eagerly. ``xla_only(key)``
is the question a rule asks: the failure shows under XLA and not in graph TF.

What TF 2.21 measured (the table is the authority; this is its summary): branches whose outputs
differ in one DIM (``x`` against ``x[:, :2]``, a ``tf.concat`` growth, a ``tf.boolean_mask`` in both)
compile under XLA (bounded dynamic shapes); branches whose outputs differ in RANK (``x`` against
``tf.reduce_sum(x, axis=1)``, a matrix against a scalar, ``x`` against ``tf.boolean_mask(x, ...)``)
fail under XLA only, and ``tf.switch_case`` with such branches aborts the process; a
``tf.while_loop`` carry grown under a relaxed ``shape_invariants`` (or AutoGraph's
``set_loop_options(shape_invariants=...)``) fails under XLA only, as does assigning a grown value to a
variable made with ``shape=tf.TensorShape(None)`` or a partly unknown shape.
"""

from __future__ import annotations

import functools
from typing import Any

from xlacheck._data import load_json


@functools.cache
def _probes() -> dict[str, dict[str, Any]]:
    probes: dict[str, dict[str, Any]] = load_json("tf_branch_carry.json")["probes"]
    return probes


def probe(key: str) -> dict[str, Any]:
    """The measured entry ``key`` (``construct``, ``source``, ``xla_error``, ``graph_error``,
    ``eager_error``, ``xla_only``, ``xla_output_shapes_match_graph``); KeyError names the missing probe."""
    try:
        return _probes()[key]
    except KeyError:
        raise KeyError(f"{key!r} is not a probe of xlacheck/data/tf_branch_carry.json; "
                       "add it to tools/generate_tf_branch_carry_table.py and regenerate") from None


def xla_only(key: str) -> bool:
    """The function of probe ``key`` raised under ``jit_compile=True`` and not in a plain ``tf.function``."""
    return bool(probe(key)["xla_only"])


def xla_error(key: str) -> str | None:
    """The exception class and message head the function of probe ``key`` raised under XLA, else None."""
    value = probe(key)["xla_error"]
    return str(value) if value is not None else None
