"""The measured retrace table: which call-to-call differences retrace a ``tf.function`` (one home).

``xlacheck/data/tf_retrace.json`` is written by ``tools/generate_tf_retrace_table.py`` from
TensorFlow itself (``experimental_get_tracing_count()`` and XLA compilations counted in an
``--xla_dump_to`` folder, with and without ``jit_compile``); its header names the TensorFlow version.
The retrace rules ask it (:func:`bounded`) whether a difference costs a bounded number of traces
(``input_signature``, ``reduce_retracing``) before they exempt it, cite its rows by name, and
``tests/xlacheck/test_tf_retrace_table.py`` checks each rule's verdict on a per-row example
against the row's ``hazard`` and re-measures a sample of rows with the installed TensorFlow.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from xlacheck._data import load_json


@cache
def table() -> dict[str, Any]:
    """The whole table (``tensorflow_version``, ``command``, ``rows``); empty rows if it is missing."""
    try:
        data: dict[str, Any] = load_json("tf_retrace.json")
    except (FileNotFoundError, OSError):
        return {"rows": []}
    return data


def rows() -> dict[str, dict[str, Any]]:
    """Rows by scenario name."""
    return {r["name"]: r for r in table()["rows"]}


def hazard(name: str) -> str | None:
    """``retrace``, ``recompile`` (only under ``jit_compile``, without a new trace) or ``none``;
    None for a scenario the table does not have."""
    row = rows().get(name)
    return None if row is None else str(row["hazard"])


def retraces(name: str, *, jit_compile: bool = False) -> int | None:
    """Traces beyond the first call's in the row's calls (None: unknown row)."""
    row = rows().get(name)
    return None if row is None else int(row["jit_compile" if jit_compile else "no_jit"]["retraces"])


def bounded(name: str, *, at_most: int = 1, jit_compile: bool = False) -> bool:
    """The row measured at most ``at_most`` retraces over its calls (and, under ``jit_compile``,
    at most that many recompiles): a cost that does not grow with the number of calls. False for
    a row the table lacks, so a rule that asks keeps flagging."""
    row = rows().get(name)
    if row is None:
        return False
    measured = row["jit_compile" if jit_compile else "no_jit"]
    return bool(measured["retraces"] <= at_most and measured.get("recompiles", 0) <= at_most)
