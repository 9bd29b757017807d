"""What changes ``jax.jit``'s cache key, as measured on JAX (``xlacheck/data/jax_cache_key.json``,
written by ``tools/generate_jax_cache_table.py``; no JAX import here).

Each probe names two calls of one jitted function that differ in one respect (a new lambda as a
static argument, ``None`` then an array, a mutated attribute of a ``self`` marked static). The JAX
recompile rules ask the table whether that difference traces and compiles again, raises, or
silently keeps the first call's value, instead of hard-coding what the cache does.
"""

from __future__ import annotations

import functools
from typing import Any

from xlacheck._data import load_json


@functools.cache
def _probes() -> dict[str, dict[str, Any]]:
    probes: dict[str, dict[str, Any]] = load_json("jax_cache_key.json")["probes"]
    return probes


def probe(key: str) -> dict[str, Any]:
    """The measured entry ``key`` (``first``/``then`` call forms, ``traces``, ``compiles``,
    ``recompiles``, ``error``, ``stale``); KeyError names the missing probe."""
    try:
        return _probes()[key]
    except KeyError:
        raise KeyError(f"{key!r} is not a probe of xlacheck/data/jax_cache_key.json; "
                       "add it to tools/generate_jax_cache_table.py and regenerate") from None


def recompiles(key: str) -> bool:
    """The ``then`` call of probe ``key`` traced or compiled again (a cache miss)."""
    return bool(probe(key)["recompiles"])


def raises(key: str) -> bool:
    """A call of probe ``key`` raised (an unhashable static argument)."""
    return probe(key)["error"] is not None


def stale(key: str) -> bool:
    """The ``then`` call of probe ``key`` hit the cache and returned the first call's result
    although a value the function reads had changed."""
    return bool(probe(key).get("stale", False))
