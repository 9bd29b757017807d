"""What XLA:CPU does with a tf.SparseTensor in compiled code, read from data TensorFlow produced.

``xlacheck/data/tf_sparse.json`` is written by ``python tools/generate_sparse_table.py``: each probe
built a 3 x 4 sparse matrix inside a compiled function with one constructor (its ``form``;
``argument`` when the sparse tensor was the function's argument), applied one consumer, and ran it
eagerly, under ``tf.function(jit_compile=True)`` and as shapes-only HLO. This module only reads that
file (json + functools.cache): no TensorFlow import.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from xlacheck._data import load_json

# Outcomes where the compiled function does not give what eager gives for every input of its shapes.
FAILING = frozenset({"xla_error", "value_specialized", "differs"})


@cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = load_json("tf_sparse.json")
    return data


def table_info() -> dict[str, Any]:
    """The table's header (generator command, TensorFlow version, backend)."""
    return {k: v for k, v in _table().items() if k != "entries"}


def probed() -> frozenset[str]:
    """Every consumer the table measured."""
    return frozenset(_table()["entries"])


@cache
def constructors() -> frozenset[str]:
    """The APIs that made the sparse tensor of a probe (``tf.sparse.from_dense``, ``tf.SparseTensor``,
    ``tf.keras.backend.ctc_label_dense_to_sparse``)."""
    return frozenset(r["constructor"] for rows in _table()["entries"].values() for r in rows if r.get("constructor"))


@cache
def returns_sparse() -> frozenset[str]:
    """Consumers that returned a ``tf.SparseTensor`` for a sparse input in every probe (measured eagerly)."""
    def whole_call(api: str, text: str) -> bool:  # the probe is the call itself, not ``f(s)[0]``
        consumer = text.split("; ", 1)[1]
        return consumer.startswith(api + "(") and consumer.endswith(")")

    return frozenset(api for api, rows in _table()["entries"].items()
                     if rows and all(r.get("returns") == "sparse" and whole_call(api, r["input"]) for r in rows))


@cache
def missing_kernels(api: str) -> tuple[str, ...]:
    """The raw ops XLA reported without a kernel when ``api`` read a sparse tensor, for every form
    measured (empty unless every probe of ``api`` failed that way)."""
    rows = _table()["entries"].get(api, [])
    if not rows or any(r["outcome"] != "xla_error" or not r.get("ops") for r in rows):
        return ()
    return tuple(sorted({op for r in rows for op in r["ops"]}))
