"""What a ``lax`` loop accepts as its carry, as measured on JAX (``xlacheck/data/jax_loop_carry.json``,
written by ``tools/generate_jax_loop_carry_table.py``; no JAX import here).

Each probe runs one ``lax.fori_loop``/``while_loop``/``scan`` whose body returns the carry changed
in one respect (a Python scalar that comes back as a vector, ``None`` that comes back as an array, a
carry grown by concatenation, a tuple of another length, another dtype) and records whether the
loop raised. XLA330 asks ``raises(key)`` instead of hard-coding what the loop accepts.
"""

from __future__ import annotations

import functools
from typing import Any

from xlacheck._data import load_json


@functools.cache
def _probes() -> dict[str, dict[str, Any]]:
    probes: dict[str, dict[str, Any]] = load_json("jax_loop_carry.json")["probes"]
    return probes


def probe(key: str) -> dict[str, Any]:
    """The measured entry ``key`` (``loop``, ``init``, ``body``, ``raises``, ``jit_error``,
    ``eager_error``); KeyError names the missing probe."""
    try:
        return _probes()[key]
    except KeyError:
        raise KeyError(f"{key!r} is not a probe of xlacheck/data/jax_loop_carry.json; "
                       "add it to tools/generate_jax_loop_carry_table.py and regenerate") from None


def raises(key: str) -> bool:
    """The loop of probe ``key`` raised under ``jax.jit``."""
    return bool(probe(key)["raises"])


def error(key: str) -> str | None:
    """The exception class and first line the loop of probe ``key`` raised under ``jax.jit``."""
    value = probe(key)["jit_error"]
    return str(value) if value is not None else None
