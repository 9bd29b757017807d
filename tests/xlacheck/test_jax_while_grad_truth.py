"""XLA329's examples against JAX itself: every INVALID example raises JAX's reverse-mode while_loop
error when its jitted `g` runs, every VALID one runs (custom derivative rule, forward mode, a static
fori_loop, an integer-only loop). Skipped without JAX."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")

from xlacheck.rules.while_loop_under_reverse_mode import WhileLoopUnderReverseMode  # noqa: E402


def _g(code: str):
    namespace: dict = {}
    exec(compile(code, "example.py", "exec"), namespace)  # noqa: S102 - our own example
    return namespace["g"]


@pytest.mark.parametrize("index", range(len(WhileLoopUnderReverseMode.INVALID)))
def test_invalid_example_raises(index: int):
    g = _g(WhileLoopUnderReverseMode.INVALID[index].code)
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for lax.while_loop"):
        g(jax.numpy.float32(3.0))


@pytest.mark.parametrize("index", range(len(WhileLoopUnderReverseMode.VALID)))
def test_valid_example_runs(index: int):
    g = _g(WhileLoopUnderReverseMode.VALID[index].code)
    jax.block_until_ready(g(jax.numpy.float32(3.0)))
