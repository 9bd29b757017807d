"""Where XLA computes another result than TensorFlow eager, read from data that TensorFlow produced.

``xlacheck/data/tf_xla_divergence.json`` is written by ``python tools/generate_divergence_table.py``:
each public function was called on edge inputs of one class (NaN, out-of-range indices, integer
overflow, narrowing casts, empty tensors ...) eagerly and under ``tf.function(jit_compile=True)``
on XLA:CPU, and the entry records what each mode returned. This module only reads that file (json
+ functools.cache): no TensorFlow import.

A call spelled differently from the measured entry (``tf.argmax`` for ``tf.math.argmax``,
``tf.keras.backend.argmax``) is matched through the op table (:mod:`xlacheck.op_table`): the same
set of raw ops, apart from graph plumbing, is the same kernel and the same measurement.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from xlacheck import op_table
from xlacheck._data import load_json

_PLUMBING_OPS = frozenset({"Const", "Identity", "NoOp"})
# Outcomes where a compiled run returns something eager would not have returned.
DIVERGENT = frozenset({"differs", "eager_error"})


@dataclass(frozen=True)
class Divergence:
    """One measured probe: ``api`` on an input of ``input_class`` (described by ``input``)."""

    api: str
    input_class: str
    input: str
    outcome: str  # equal / close / differs / eager_error / xla_error / both_error
    how: str | None  # "XLA clamps the index", "XLA ignores NaN" ... (None: no named reading matched)
    eager: Any
    xla: Any
    form: str | None = None  # "constant_first": the first operand was a Python number; None: tensors


@cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = load_json("tf_xla_divergence.json")
    return data


@cache
def _by_signature() -> dict[frozenset[str], str]:
    out: dict[frozenset[str], str] = {}
    for api, entry in _table()["entries"].items():
        ops = frozenset(entry["raw_ops"])
        if ops:
            out.setdefault(ops, api)
    return out


@cache
def measured_api(name: str) -> str | None:
    """The measured entry a call of ``name`` (a canonical dotted name) stands for, or None."""
    if name in _table()["entries"]:
        return name
    verdict = op_table.lookup(name)
    if verdict is None:
        return None
    ops = frozenset(verdict.raw_ops) - _PLUMBING_OPS
    return _by_signature().get(ops) if ops else None


@cache
def probes(name: str, input_class: str) -> tuple[Divergence, ...]:
    """Every probe of ``input_class`` measured for the function ``name`` stands for (empty: none)."""
    api = measured_api(name)
    if api is None:
        return ()
    measured = _table()["entries"][api]["probes"].get(input_class, [])
    return tuple(Divergence(api, input_class, e["input"], e["outcome"], e.get("how"), e["eager"], e["xla"],
                            e.get("form")) for e in measured)


def divergence(name: str, input_class: str, form: str | None = None) -> Divergence | None:
    """The first probe of the call's ``form`` where XLA returned another result than eager for this
    class, or None (also when that form was not measured)."""
    found = [p for p in probes(name, input_class) if p.outcome in DIVERGENT and p.form == form]
    found.sort(key=lambda p: p.how is None)  # a probe that says how XLA differs first
    return found[0] if found else None


def table_info() -> dict[str, Any]:
    """The header: TensorFlow version, backend, generator command, date."""
    return {k: v for k, v in _table().items() if k != "entries"}
