"""xlacheck/data/jax_weak_types.json against JAX: the generator re-measures every function and the
file must match; the evaluator (xlacheck.analysis.weak_types) answers from it. The table test is
skipped without JAX."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck.analysis.scopes import ScopeTree
from xlacheck.analysis.weak_types import WeakTypes, mixed_result_weak, result_kind, returns_integer

ROOT = Path(__file__).resolve().parents[2]


def test_table_matches_jax():
    pytest.importorskip("jax")
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_jax_weak_type_table.py"), "--check"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.parametrize(("name", "kind"), [
    # what the evaluator relies on: reductions and draws are strongly typed, elementwise math propagates
    ("jnp.sum", "strong"), ("jnp.mean", "strong"), ("jax.random.normal", "strong"), ("jax.random.uniform", "strong"),
    ("jnp.exp", "propagates"), ("jnp.add", "propagates"), ("jnp.multiply", "propagates"), ("jnp.where", "propagates"),
    ("jnp.maximum", "propagates"), ("jnp.nonexistent_function", None),
])
def test_result_kinds(name: str, kind: str | None):
    assert result_kind(name) == kind


@pytest.mark.parametrize(("name", "integer"), [
    ("jnp.sum", True), ("jnp.max", True), ("jnp.add", True), ("jax.random.randint", True),
    ("jax.random.bernoulli", True), ("jnp.mean", False), ("jnp.exp", False), ("jax.random.normal", False),
])
def test_integer_results(name: str, integer: bool):
    # measured: the result of integer inputs (a draw: its default dtype) is an integer or boolean array
    assert returns_integer(name) is integer


@pytest.mark.parametrize(("name", "int_first", "weak"), [
    ("jnp.multiply", True, True), ("jnp.multiply", False, True), ("jnp.add", False, True),
    ("jnp.power", True, True), ("jnp.power", False, False), ("jnp.nonexistent_function", True, None),
])
def test_mixed_integer_and_weak_float(name: str, int_first: bool, weak: bool | None):
    # measured inside jax.jit: a weakly typed float raised to an int32 power is strongly typed
    assert mixed_result_weak(name, int_first) is weak


def test_power_of_python_float_by_integer_array_is_strong_under_jit():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    @jax.jit
    def f(count):
        return 0.9 ** count, count ** 0.5, 0.9 * count

    assert [r.weak_type for r in f(jnp.ones((), jnp.int32))] == [False, True, True]


def test_mixed_integer_and_python_float_is_weakly_typed_under_jax():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    @jax.jit
    def f(m):
        return jnp.sum(m > 0) * 0.5, jnp.arange(3) * 0.5, jnp.int32(2) * 0.5, jnp.mean(m > 0) * 0.5

    weak = [r.weak_type for r in f(jnp.ones(3))]
    assert weak == [True, True, True, False]


def _strength_of_last(src: str) -> tuple[str, str] | None:
    tree = ast.parse(src)
    scopes = ScopeTree(tree)

    def resolve(e: ast.expr) -> str | None:
        parts = []
        while isinstance(e, ast.Attribute):
            parts.append(e.attr)
            e = e.value
        if isinstance(e, ast.Name) and e.id in ("jnp", "jax", "np"):
            return ".".join([e.id, *reversed(parts)])
        return None

    func = tree.body[-1]
    assert isinstance(func, ast.FunctionDef)
    ret = func.body[-1]
    assert isinstance(ret, ast.Return) and ret.value is not None
    return WeakTypes(scopes, resolve).strength(ret.value)


@pytest.mark.parametrize(("src", "expected"), [
    ("def f(x):\n    return 0.5 * 2\n", "weakly"),
    ("def f(x):\n    y = jnp.sum(x)\n    return 0.5 * y\n", "strongly"),
    ("def f(key):\n    return 1.0 + jax.random.normal(key, (3,))\n", "strongly"),
    ("def f(x):\n    return jnp.exp(x.shape[0] * 0.5)\n", "weakly"),
    ("def f(x):\n    return x * 2.0\n", None),  # a parameter: unknown
    ("def f(x):\n    y = 1.0\n    y += x\n    return y\n", None),  # rebound: no single binding
    ("def f(x):\n    return jnp.asarray(-jnp.inf)\n", "weakly"),
    ("def f(x):\n    return jnp.asarray(x, jnp.float32)\n", "strongly"),
    # a strongly typed integer array with a Python float is a weakly typed float32 (measured:
    # jnp.int32(2) * 0.5, jnp.arange(3) * 0.5 and jnp.sum(mask) + 0.5 have weak_type=True): unknown
    ("def f(m):\n    return jnp.sum(m > 0) * 0.5\n", None),
    ("def f(x):\n    return jnp.arange(3) * 0.5\n", None),
    ("def f(x):\n    return jnp.int32(2) * 0.5\n", None),
    ("def f(x):\n    return x.astype(jnp.int32) + 1.0\n", None),
    # ... with a Python int, or as a float, it stays strongly typed
    ("def f(m):\n    return jnp.sum(m > 0) + 1\n", "strongly"),
    ("def f(m):\n    return jnp.mean(m > 0) * 0.5\n", "strongly"),
    ("def f(x):\n    return x.astype(jnp.float32) + 1.0\n", "strongly"),
    # ... except raised by it: 0.9 ** count is strongly typed inside jax.jit (int_then_weak_float table field)
    ("def f(x):\n    count = jnp.zeros((), jnp.int32)\n    return 0.9 ** count\n", "strongly"),
    ("def f(x):\n    count = jnp.zeros((), jnp.int32)\n    return count ** 0.5\n", None),
])
def test_evaluator(src: str, expected: str | None):
    found = _strength_of_last(src)
    assert (found[0] if found else None) == expected


def test_numpy_int_times_python_float_is_strongly_typed():
    # np.int64(3) * 0.5 is a NumPy float64 (not a Python float): jax.jit takes it as a strongly typed
    # float32 (measured on jax 0.10.2), and the evaluator says so
    jax = pytest.importorskip("jax")
    np_ = pytest.importorskip("numpy")
    assert not jax.jit(lambda x: x)(np_.int64(3) * 0.5).weak_type
    found = _strength_of_last("def f(x):\n    return np.int64(3) * 0.5\n")
    assert found is not None and found[0] == "strongly"
