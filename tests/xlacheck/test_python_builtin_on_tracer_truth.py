"""XLA124 against JAX: each INVALID example raises TracerBoolConversionError when its function is traced, each
VALID one runs (jax.jit on CPU). Skipped without JAX."""

from __future__ import annotations

import os
import textwrap
from typing import Any

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")

from xlacheck.rules.python_builtin_on_tracer import PythonBuiltinOnTracer  # noqa: E402

# example -> (function to call, its arguments)
_INVALID_CALLS = {
    0: ("step", lambda: (jax.numpy.arange(1.0, 4.0),)),
    1: ("run", lambda: (jax.numpy.arange(1.0, 4.0),)),
    2: ("clip", lambda: (jax.numpy.arange(1.0, 4.0),)),
}
_VALID_CALLS = {
    0: ("f", lambda: (jax.numpy.arange(1.0, 4.0),)),
    1: ("f", lambda: ({"a": jax.numpy.ones(2), "b": jax.numpy.zeros(2)},)),
    2: ("report", lambda: (jax.numpy.arange(1.0, 4.0),)),
    3: ("f", lambda: (jax.numpy.arange(1.0, 4.0), 3)),
    4: ("f", lambda: (jax.numpy.arange(1.0, 5.0),)),
    5: ("f", lambda: (jax.numpy.arange(1.0, 4.0),)),
    6: ("g", lambda: (jax.numpy.arange(1.0, 4.0)[None],)),
}


def _run(source: str, entry: str, args: tuple[Any, ...]) -> None:
    namespace: dict[str, Any] = {}
    exec(compile(textwrap.dedent(source), "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    jax.block_until_ready(namespace[entry](*args))


def test_every_example_has_a_call() -> None:
    assert set(_INVALID_CALLS) == set(range(len(PythonBuiltinOnTracer.INVALID)))
    assert set(_VALID_CALLS) == set(range(len(PythonBuiltinOnTracer.VALID)))


@pytest.mark.parametrize("index", sorted(_INVALID_CALLS))
def test_invalid_example_fails_when_traced(index: int) -> None:
    entry, args = _INVALID_CALLS[index]
    with pytest.raises(jax.errors.TracerBoolConversionError):
        _run(PythonBuiltinOnTracer.INVALID[index].code, entry, args())


@pytest.mark.parametrize("index", sorted(_VALID_CALLS))
def test_valid_example_runs(index: int) -> None:
    entry, args = _VALID_CALLS[index]
    _run(PythonBuiltinOnTracer.VALID[index].code, entry, args())
