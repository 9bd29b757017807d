"""Keywords that ``functools.partial`` binds over a function jax.jit already compiles are traced, checked
against jax itself (the fact behind sofima's ``lax.scan(ft.partial(_update_mesh, x=x, ...), ...)``, three
XLA410 rows judged false in real-code batch 24).

The partial calls the jitted function with those keywords at each call, so jax.jit receives them as
arguments: traced, unless its own ``static_argnames`` name them (then hashed). A partial over a plain
function that a tracer then receives is different: its bound values are closed over, never traced
(``contexts._partial_bound``). Skipped without JAX.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from xlacheck.api import check_paths  # noqa: E402
from xlacheck.config import Settings  # noqa: E402

SCAN_BODY = """\
import functools as ft

import jax
import jax.numpy as jnp


@ft.partial(jax.jit, static_argnames=["stride"])
def step(mesh: jnp.ndarray, nbor: jnp.ndarray, x: jnp.ndarray, stride=(2, 2)):
    return mesh + x * stride[0] + nbor, None


def run(mesh, x, nbors):
    return jax.lax.scan(ft.partial(step, x=x, stride=(2, 2)), mesh, nbors)[0]
"""

# the same keyword named static: jax.jit hashes it, and an array is unhashable
STATIC_ARRAY = SCAN_BODY.replace('static_argnames=["stride"]', 'static_argnames=["stride", "x"]')


def _run(src: str) -> object:
    namespace: dict = {}
    exec(compile(src, "partial_bound.py", "exec"), namespace)  # noqa: S102 - our own snippet
    return namespace["run"](jnp.zeros(4), jnp.ones(4), jnp.ones((3, 4)))


def _codes(tmp_path: Path, src: str) -> list[str]:
    (tmp_path / "partial_bound.py").write_text(src)
    result = check_paths([str(tmp_path / "partial_bound.py")],
                         Settings(cache=False, root=tmp_path, cache_dir=tmp_path / ".cache"))
    return [d.code for d in result.diagnostics]


def test_keywords_a_partial_binds_over_a_jitted_function_are_traced(tmp_path: Path) -> None:
    out = _run(SCAN_BODY)  # runs: `x` reaches jax.jit as a traced argument
    assert jnp.allclose(out, 9.0)
    assert "XLA410" not in _codes(tmp_path, SCAN_BODY)


def test_the_same_keyword_named_static_is_hashed(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="[Nn]on-hashable static arguments"):
        _run(STATIC_ARRAY)
    assert "XLA410" in _codes(tmp_path, STATIC_ARRAY)
