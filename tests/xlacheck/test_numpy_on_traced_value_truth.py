"""XLA326 against the frameworks: its examples run as JAX and TensorFlow run them, and for a spread of the
JAX table's ``numpy_on_tracer`` and the TF table's ``numpy_on_symbolic`` names the rule flags a call iff
tracing raises on it. Skipped without JAX (the TensorFlow tests: without TensorFlow)."""

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
from xlacheck._data import load_json  # noqa: E402
from xlacheck.engine import check_source  # noqa: E402
from xlacheck.rules.numpy_on_traced_value import NumpyOnTracedValue  # noqa: E402

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
    7: ("shifted", lambda: ({"a": jax.numpy.arange(3.0), "b": jax.numpy.ones(2)},)),
    8: ("energy", lambda: _arrays(1)),
    9: ("step", lambda: ({"angles": jax.numpy.zeros(3)}, jax.numpy.ones(3))),
    10: ("f", lambda: ({"perm": jax.numpy.array([2, 0, 1])},)),
    11: ("step", lambda: (jax.numpy.zeros(3), jax.numpy.ones(3))),
    13: ("one_hot", lambda: (jax.numpy.arange(10.0),)),
    14: ("potential", lambda: (jax.numpy.arange(1.0, 4.0),)),
    15: ("grad_fn", lambda: (jax.numpy.float32(2.0), jax.numpy.arange(1.0, 4.0))),
    16: ("log_step", lambda: (jax.numpy.arange(1.0, 4.0),)),
}
# the TensorFlow examples: (function to call, its arguments as NumPy values)
_TF_INVALID_CALLS = {6: ("eval_step", lambda: (np.ones((2, 3), np.float32), np.array([0, 2], np.int32))),
                     12: ("summarize", lambda: (np.ones((2, 3), np.float32),))}
_TF_VALID_CALLS = {5: ("f", lambda: (np.ones((2, 3), np.float32),)),
                   6: ("Pool", lambda: (np.ones((2, 3), np.float32),))}
_VALID_CALLS = {
    0: ("f", lambda: _arrays(1)),
    1: ("f", lambda: _arrays(1)),
    2: ("f", lambda: (_arrays(1)[0], 3)),
    3: ("report", lambda: _arrays(1)),
    4: ("f", lambda: (jax.numpy.ones(2),)),
    7: ("f", lambda: (jax.numpy.ones(2),)),
}


def _load(source: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compile(textwrap.dedent(source), "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    return namespace


def _run(source: str, entry: str, args: tuple[Any, ...]) -> None:
    jax.block_until_ready(_load(source)[entry](*args))


def test_every_example_has_a_call():
    assert set(_INVALID_CALLS) | set(_TF_INVALID_CALLS) == set(range(len(NumpyOnTracedValue.INVALID)))
    assert set(_VALID_CALLS) | set(_TF_VALID_CALLS) == set(range(len(NumpyOnTracedValue.VALID)))


def _tf() -> Any:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    return pytest.importorskip("tensorflow")


@pytest.mark.parametrize("index", sorted(_TF_INVALID_CALLS))
def test_tf_invalid_example_fails_in_a_graph(index: int):
    tf = _tf()
    entry, args = _TF_INVALID_CALLS[index]
    with pytest.raises(NotImplementedError, match="symbolic"):
        _load(NumpyOnTracedValue.INVALID[index].code)[entry](*(tf.constant(a) for a in args()))


@pytest.mark.parametrize("index", sorted(_TF_VALID_CALLS))
def test_tf_valid_example_runs(index: int):
    tf = _tf()
    entry, args = _TF_VALID_CALLS[index]
    target = _load(NumpyOnTracedValue.VALID[index].code)[entry]
    target = target() if isinstance(target, type) else target  # a Keras layer called eagerly
    target(*(tf.constant(a) for a in args()))



@pytest.mark.parametrize("index", sorted(_INVALID_CALLS))
def test_invalid_example_fails_under_jit(index: int):
    entry, args = _INVALID_CALLS[index]
    with pytest.raises(_TRACER_ERRORS):
        _run(NumpyOnTracedValue.INVALID[index].code, entry, args())


@pytest.mark.parametrize("index", sorted(_VALID_CALLS))
def test_valid_example_runs_under_jit(index: int):
    entry, args = _VALID_CALLS[index]
    _run(NumpyOnTracedValue.VALID[index].code, entry, args())


def _spread(names: list[str], count: int) -> list[str]:
    names = sorted(names)
    step = max(1, len(names) // count)
    return names[::step][:count]


def _form(table: str, probe: str, name: str) -> str:
    """The call form the generator measured ``name`` in (``called_with``; one array where not named)."""
    return load_json(table)[probe].get("called_with", {}).get(name, "array")


def _measured_form(name: str) -> str:
    return _form("jax_api.json", "numpy_on_tracer", name)


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


def _tf_form(name: str) -> str:
    return _form("tf_api.json", "numpy_on_symbolic", name)


_TF_ARGS = {"array": "tf.nn.relu(x)", "array,array": "tf.nn.relu(x), x", "array,-1": "tf.nn.relu(x), -1",
            "seed": "tf.math.abs(n) + 7"}
_TF_TRACEABLE = sorted(n for n in load_json("tf_api.json")["numpy_on_symbolic"]["traceable"] if _tf_form(n) == "array")
_TF_NAMES = _spread([n for n in api_table.numpy_fails_on_symbolic() if _tf_form(n) in _TF_ARGS], 16) + _TF_TRACEABLE


@pytest.mark.parametrize("name", _TF_NAMES)
def test_tf_table_name_flagged_iff_tracing_raises(name: str):
    """The TF table's verdict holds for this call in a tf.function (measured again), and XLA326 follows it."""
    tf = _tf()
    line, callee = _import(name)
    src = (f"import numpy as np\nimport tensorflow as tf\n{line}\n@tf.function\ndef f(x, n):\n"
           f"    {callee}({_TF_ARGS[_tf_form(name)]})\n    return x\n")
    flagged = "XLA326" in {d.code for d in check_source(src, "case.py").diagnostics}
    assert flagged is (name in api_table.numpy_fails_on_symbolic()), src
    namespace = _load(src)
    x, n = tf.ones((2, 2)), tf.constant(0)
    if flagged:
        # the generator's verdict: NotImplementedError ("Cannot convert a symbolic tf.Tensor"), or another
        # error that names the symbolic tensor (int() of one: scipy.signal.besselap's order)
        with pytest.raises((NotImplementedError, TypeError), match="[Ss]ymbolic"):
            namespace["f"](x, n)
    else:
        try:
            namespace["f"](x, n)
        except NotImplementedError as error:  # pragma: no cover - the assertion's message
            pytest.fail(f"{name} is traceable in the table but raised {error}")
        except Exception:  # noqa: BLE001 - another error (an output a graph cannot hold) is not the verdict
            pass
