"""``jnp.iinfo``/``jnp.finfo`` under ``jax.jit`` are Python/NumPy values, measured.

``tools/generate_jax_api_table.py`` builds each JAX class under ``jax.jit`` from a traced array's
dtype (``probe_class``); where neither the instance nor its public attributes are arrays, the table
says ``returns: "python"``, ``by: "class_jit"`` and :mod:`xlacheck.analysis.values` takes the result
for a Python value: a bound from it is no traced array. The snippet is written here.
"""

from __future__ import annotations

import pytest

from xlacheck import api_table
from xlacheck.engine import check_source

SNIPPET = '''
import jax
import jax.numpy as jnp


@jax.jit
def saturate(x, y):
    top = jnp.iinfo(y.dtype).max
    floor = jnp.finfo(x.dtype).tiny
    if top > 1000:
        y = jnp.minimum(y, top - 1)
    while floor < 1e-30:
        floor = floor * 10
    for _ in range(jnp.iinfo(jnp.int8).bits // 4):
        x = x + floor
    return x, y
'''


def test_the_table_measured_them_as_python_values() -> None:
    for name in ("jnp.iinfo", "jnp.finfo"):
        fact = api_table.fact_for(name)
        assert fact is not None and (fact.returns, fact.returns_by) == ("python", "class_jit")
    # a class that is an array type when called stays what it was (jnp.float32(x) is an array)
    fact = api_table.fact_for("jnp.float32")
    assert fact is not None and fact.returns_by == "class"


def test_no_finding_on_bounds_read_from_them() -> None:
    assert check_source(SNIPPET, "saturate.py").diagnostics == ()


def test_a_comparison_with_the_traced_array_itself_is_still_reported() -> None:
    flagged = SNIPPET.replace("if top > 1000:", "if y.max() > top:")
    assert [d.code for d in check_source(flagged, "saturate.py").diagnostics] == ["XLA101"]


def test_the_snippet_runs_under_jax_jit() -> None:
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    namespace: dict[str, object] = {}
    exec(compile(SNIPPET, "saturate.py", "exec"), namespace)  # noqa: S102 - the snippet above
    x, y = namespace["saturate"](jnp.ones((3,), jnp.float32), jnp.arange(3, dtype=jnp.int32))  # type: ignore[operator]
    assert x.shape == (3,) and y.shape == (3,)
