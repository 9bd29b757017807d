"""What XLA:CPU does with a tensor whose length depends on data, read from data TensorFlow produced.

``xlacheck/data/tf_bounded_dynamic.json`` is written by ``python tools/generate_bounded_dynamic_table.py``:
each probed public function was applied to a bounded dynamic tensor (the output of
``tf.boolean_mask`` / one-argument ``tf.where``) eagerly and under ``tf.function(jit_compile=True)``,
and the entry records what each mode returned. This module only reads that file (json +
functools.cache): no TensorFlow import.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from xlacheck._data import load_json

# Outcomes where the compiled run does not give what eager gives.
FAILING = frozenset({"xla_error", "wrong_shape", "differs"})


@dataclass(frozen=True)
class Probe:
    """One measured probe of ``api`` on a bounded dynamic input, for the calls ``form`` describes."""

    api: str
    form: str  # "any", or "no_axis" (called without an axis) ...
    input: str
    outcome: str  # ok / xla_error / wrong_shape / differs / eager_error
    eager: Any
    xla: Any


@cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = load_json("tf_bounded_dynamic.json")
    return data


def table_info() -> dict[str, Any]:
    """The table's header (generator command, TensorFlow version, backend)."""
    return {k: v for k, v in _table().items() if k != "entries"}


@cache
def failing_probes(api: str, form: str) -> tuple[Probe, ...]:
    """The measured probes of ``api`` (canonical dotted name) for calls of ``form`` whose compiled
    run failed or differed from eager; empty when none did or ``api`` was not probed."""
    rows = _table()["entries"].get(api, [])
    return tuple(Probe(api, r["form"], r["input"], r["outcome"], r["eager"], r["xla"])
                 for r in rows if r["form"] == form and r["outcome"] in FAILING)


def probed() -> frozenset[str]:
    """Every function the table measured."""
    return frozenset(_table()["entries"])
