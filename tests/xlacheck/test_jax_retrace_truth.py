"""The JAX recompile rules against JAX itself: each snippet is flagged by the rule, and running it
shows the behaviour the message claims (one compile per call, per value, per shape, or an error).
Skipped without JAX."""

from __future__ import annotations

import os
from typing import Any

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")

from xlacheck.engine import check_source  # noqa: E402


def _codes(src: str) -> set[str]:
    result = check_source(src, "case.py")
    assert result.error is None, result.error
    return {d.code for d in result.diagnostics}


def _run(src: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    return namespace


def test_partial_jitted_per_iteration_traces_every_time():
    src = ("import jax\nimport jax.numpy as jnp\nfrom functools import partial\nTRACES = []\n"
           "def _loss(scale, x):\n    TRACES.append(1)\n    return (x * scale).sum()\n"
           "def evaluate(batches):\n    return [jax.jit(partial(_loss, 2.0))(x) for x in batches]\n")
    assert "XLA404" in _codes(src)
    ns = _run(src)
    ns["evaluate"]([jax.numpy.ones(3)] * 3)
    assert len(ns["TRACES"]) == 3


def test_unhashable_static_argument_raises():
    src = ("import jax\nimport jax.numpy as jnp\ndef grid(half):\n    return jnp.arange(-half, half)\n"
           "grid_jit = jax.jit(grid, static_argnums=0)\ndef grid_for(r):\n    return grid_jit(jnp.add(r, 1))\n")
    assert "XLA410" in _codes(src)
    ns = _run(src)
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        ns["grid_for"](2)


def test_static_argument_per_iteration_compiles_per_value():
    src = ("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
           "def sample(key, n):\n    return jax.random.normal(key, (n,)).mean()\n"
           "def run(key):\n    return [sample(key, n) for n in range(1, 5)]\n")
    assert "XLA411" in _codes(src)
    ns = _run(src)
    ns["run"](jax.random.PRNGKey(0))
    assert ns["sample"]._cache_size() == 4


def test_growing_array_to_jitted_function_compiles_per_shape():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef next_token(ids):\n    return jnp.argmax(ids[-1:])\n"
           "def generate(ids, n):\n    for _ in range(n):\n"
           "        ids = jnp.concatenate([ids, next_token(ids)[None]])\n    return ids\n")
    assert "XLA409" in _codes(src)
    ns = _run(src)
    ns["generate"](jax.numpy.zeros(2, jax.numpy.int32), 3)
    assert ns["next_token"]._cache_size() == 3


def test_factory_called_and_dropped_compiles_per_call():
    src = ("import jax\nTRACES = []\ndef make_update(lr):\n    @jax.jit\n    def update(p, g):\n"
           "        TRACES.append(1)\n        return p - lr * g\n    return update\n"
           "def run_trial(p, g, lr):\n    return make_update(lr)(p, g)\n")
    assert "XLA404" in _codes(src)
    ns = _run(src)
    for _ in range(3):
        ns["run_trial"](jax.numpy.ones(2), jax.numpy.ones(2), 0.1)
    assert len(ns["TRACES"]) == 3
