"""XLA326 against jax.jit itself: its examples run as JAX runs them, and for a spread of the JAX table's
``numpy_on_tracer`` names the rule flags a call iff jax.jit raises a tracer error on it. Skipped without JAX."""

from __future__ import annotations

import importlib
import os
import textwrap
from typing import Any

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")
np = pytest.importorskip("numpy")

from xlacheck import api_table  # noqa: E402
from xlacheck.engine import check_source  # noqa: E402
from xlacheck.rules.numpy_on_jax_array import NumpyOnJaxArray  # noqa: E402

_TRACER_ERRORS = (jax.errors.TracerArrayConversionError, jax.errors.TracerIntegerConversionError,
                  jax.errors.ConcretizationTypeError)


def _arrays(n: int) -> tuple[Any, ...]:
    return tuple(jax.numpy.arange(1.0, 5.0).reshape(2, 2) / (i + 2.0) for i in range(n))


# example -> (function to call, its arguments)
_INVALID_CALLS = {
    0: ("reward", lambda: _arrays(2)),
    1: ("noisy", lambda: (_arrays(1)[0], jax.numpy.int32(3))),
    2: ("lookup", lambda: (jax.numpy.array([1, 3]),)),
    3: ("steady", lambda: (_arrays(1)[0], jax.numpy.ones(2))),
    4: ("reward", lambda: (jax.numpy.ones(2), jax.numpy.zeros(2))),
    5: ("predict", lambda: (jax.numpy.array([0, 2]), jax.numpy.ones(2))),
}
_VALID_CALLS = {
    0: ("f", lambda: _arrays(1)),
    1: ("f", lambda: _arrays(1)),
    2: ("f", lambda: (_arrays(1)[0], 3)),
    3: ("report", lambda: _arrays(1)),
    4: ("f", lambda: (jax.numpy.ones(2),)),
}


def _run(source: str, entry: str, args: tuple[Any, ...]) -> None:
    namespace: dict[str, Any] = {}
    exec(compile(textwrap.dedent(source), "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    jax.block_until_ready(namespace[entry](*args))


def test_every_example_has_a_call():
    assert set(_INVALID_CALLS) == set(range(len(NumpyOnJaxArray.INVALID)))
    assert set(_VALID_CALLS) == set(range(len(NumpyOnJaxArray.VALID)))


@pytest.mark.parametrize("index", sorted(_INVALID_CALLS))
def test_invalid_example_fails_under_jit(index: int):
    entry, args = _INVALID_CALLS[index]
    with pytest.raises(_TRACER_ERRORS):
        _run(NumpyOnJaxArray.INVALID[index].code, entry, args())


@pytest.mark.parametrize("index", sorted(_VALID_CALLS))
def test_valid_example_runs_under_jit(index: int):
    entry, args = _VALID_CALLS[index]
    _run(NumpyOnJaxArray.VALID[index].code, entry, args())


def _spread(names: list[str], count: int) -> list[str]:
    names = sorted(names)
    step = max(1, len(names) // count)
    return names[::step][:count]


def _measured_form(name: str) -> str:
    return api_table._jax_table()["numpy_on_tracer"].get("called_with", {}).get(name, "array")


_FORM_ARGS = {"array": "jnp.tanh(x)", "array,array": "jnp.tanh(x), x", "[array,array]": "[jnp.tanh(x), x]",
              "array,-1": "jnp.tanh(x), -1", "seed": "jnp.int32(7) + n"}
_FAILS = _spread([n for n in api_table.numpy_fails_under_jit() if _measured_form(n) != "[array,array]"], 24)
_TRACEABLE = _spread(sorted(api_table.numpy_traceable_under_jit()), 8)


def _import(name: str) -> tuple[str, str]:
    """The import line and the callee spelling for ``np.linalg.norm`` / ``scipy.special.erf``."""
    if name.startswith("np."):
        return "import numpy as np", name
    module, _ = name.rsplit(".", 1)
    return f"import {module}", name


@pytest.mark.parametrize("name", _FAILS + _TRACEABLE)
def test_table_name_flagged_iff_jit_raises(name: str):
    """The table's verdict holds for this call (measured again), and XLA326 follows it."""
    line, callee = _import(name)
    form = _measured_form(name)
    src = (f"import jax\nimport jax.numpy as jnp\n{line}\n@jax.jit\ndef f(x, n):\n"
           f"    return {callee}({_FORM_ARGS[form]})\n")
    flagged = "XLA326" in {d.code for d in check_source(src, "case.py").diagnostics}
    assert flagged is (name in api_table.numpy_fails_under_jit()), src
    importlib.import_module(line.split()[1])
    x, n = _arrays(1)[0], jax.numpy.int32(0)
    if flagged:
        with pytest.raises(_TRACER_ERRORS):
            _run(src, "f", (x, n))
    else:
        try:
            _run(src, "f", (x, n))
        except _TRACER_ERRORS as error:  # pragma: no cover - the assertion's message
            pytest.fail(f"{name} is traceable in the table but raised {type(error).__name__}")
        except Exception:  # noqa: BLE001 - another error (an output jax cannot return) is no tracer error
            pass
