"""What XLA:CPU does with a tf.RaggedTensor in compiled code, read from data TensorFlow produced.

``xlacheck/data/tf_ragged.json`` is written by ``python tools/generate_ragged_table.py``: each probe
built a 2-D ragged tensor inside a compiled function with one constructor (its ``form``; ``argument``
when the ragged tensor was the function's argument), applied one consumer, and ran it eagerly, under
``tf.function(jit_compile=True)`` and as shapes-only HLO. This module only reads that file (json +
functools.cache): no TensorFlow import.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from xlacheck._data import load_json

# Outcomes where the compiled function does not give what eager gives for every input of its shapes.
FAILING = frozenset({"xla_error", "value_specialized", "differs"})


@dataclass(frozen=True)
class Probe:
    """One measured probe of ``api`` (the consumer) on a ragged tensor built with ``form``."""

    api: str
    form: str  # the constructor: "from_row_lengths" ... or "argument"
    call: str  # which calls of the consumer: "any", or a reduction's "axis1" / "axis0" / "no_axis"
    input: str
    outcome: str  # ok / xla_error / value_specialized / differs / eager_error
    eager: Any
    xla: Any


@cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = load_json("tf_ragged.json")
    return data


def table_info() -> dict[str, Any]:
    """The table's header (generator command, TensorFlow version, backend)."""
    return {k: v for k, v in _table().items() if k != "entries"}


@cache
def failing_probes(api: str, form: str, call: str = "any") -> tuple[Probe, ...]:
    """The measured probes of consumer ``api`` (called as ``call`` describes) on a ragged tensor built
    with ``form`` whose compiled run failed, needed the argument values, or differed from eager;
    empty when none did (or none was measured: :func:`measured`)."""
    rows = _table()["entries"].get(api, [])
    return tuple(Probe(api, r["form"], r["call"], r["input"], r["outcome"], r["eager"], r["xla"])
                 for r in rows if r["form"] == form and r["call"] == call and r["outcome"] in FAILING)


@cache
def measured(api: str, form: str, call: str = "any") -> bool:
    """Whether the table holds a probe of ``api`` called as ``call`` on a ragged tensor built with ``form``."""
    return any(r["form"] == form and r["call"] == call for r in _table()["entries"].get(api, []))


def probed() -> frozenset[str]:
    """Every consumer the table measured."""
    return frozenset(_table()["entries"])


@cache
def forms() -> frozenset[str]:
    """Every constructor form the table measured (``argument`` included)."""
    return frozenset(r["form"] for rows in _table()["entries"].values() for r in rows)
