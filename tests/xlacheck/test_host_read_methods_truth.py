"""XLA301's measured host reads against JAX: the no-argument ``jax.Array`` methods that
``tools/generate_tensor_members_table.py`` recorded as ``method:host_read`` raise
ConcretizationTypeError on a tracer under ``jax.jit`` and are flagged; methods measured otherwise are
not. The rule's JAX examples run as JAX runs them. Skipped without JAX."""

from __future__ import annotations

import os
import textwrap
from typing import Any

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")

from xlacheck import api_table  # noqa: E402
from xlacheck._data import load_json  # noqa: E402
from xlacheck.engine import check_source  # noqa: E402
from xlacheck.rules.tensor_to_host_method import TensorToHostMethod  # noqa: E402

_HOST_READS = sorted(api_table.tensor_host_read_methods(True))
# methods the same probe measured as giving an array or a Python value on a tracer: traceable
_TRACEABLE = sorted(n for n, kind in load_json("tensor_members.json")["probes"]["jax.Array"].items()
                    if kind in ("method:tensor", "method:python"))


def _load(source: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compile(textwrap.dedent(source), "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    return namespace


def _source(method: str) -> str:
    return f"import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    y = jnp.tanh(x)\n    return y.{method}()\n"


def _flagged(source: str) -> bool:
    return "XLA301" in {d.code for d in check_source(source, "case.py").diagnostics}


def test_the_table_holds_the_reads_jax_documents():
    assert {"item", "tolist", "delete", "tobytes"} <= set(_HOST_READS)
    assert "sum" in _TRACEABLE and "item" not in _TRACEABLE


@pytest.mark.parametrize("method", _HOST_READS)
def test_host_read_method_flagged_and_raises(method: str):
    source = _source(method)
    assert _flagged(source), source
    with pytest.raises(jax.errors.ConcretizationTypeError):
        _load(source)["f"](jax.numpy.ones((2, 3)))


@pytest.mark.parametrize("method", _TRACEABLE[:: max(1, len(_TRACEABLE) // 12)])
def test_traceable_method_not_flagged(method: str):
    source = _source(method)
    assert not _flagged(source), source
    _load(source)["f"](jax.numpy.ones((2, 3)))


# the rule's JAX examples: (index, function, arguments)
_INVALID = [(3, "normalize", lambda: (jax.numpy.ones(2), jax.numpy.float32(2.0))),
            (4, "step", lambda: (jax.numpy.ones(2), jax.numpy.ones(2))),
            (5, "key", lambda: (jax.numpy.ones(2),))]
_VALID = [(4, "first", lambda: (jax.numpy.array([0.0, 1.0, -2.0]),)),
          (5, "f", lambda: (jax.numpy.ones(2),))]


@pytest.mark.parametrize(("index", "entry", "args"), _INVALID)
def test_invalid_jax_example_fails_under_jit(index: int, entry: str, args: Any):
    with pytest.raises(jax.errors.ConcretizationTypeError):
        _load(TensorToHostMethod.INVALID[index].code)[entry](*args())


@pytest.mark.parametrize(("index", "entry", "args"), _VALID)
def test_valid_jax_example_runs_under_jit(index: int, entry: str, args: Any):
    jax.block_until_ready(_load(TensorToHostMethod.VALID[index].code)[entry](*args()))
