"""What ``isinstance`` proves (xlacheck/analysis/type_guards.py), checked against the frameworks.

The model says: no jax tracer, TF tensor (eager or symbolic) or torch tensor is an instance of a builtin
type of ``type_guards._PYTHON_TYPES``, so where ``isinstance(x, T)`` holds ``x`` is a Python value, and
an operand of ``and`` after such a test (``isinstance(p, dict) and k in p``) never sees a tracer: the
tracer fails the ``isinstance`` and short-circuits. Each framework is skipped when it is not installed.
"""

from __future__ import annotations

import os

import pytest

from xlacheck.analysis import type_guards
from xlacheck.api import lint_stdin
from xlacheck.rules.tensor_condition_without_autograph import TensorConditionWithoutAutograph

os.environ.setdefault("JAX_PLATFORMS", "cpu")
_TYPES = sorted(type_guards._PYTHON_TYPES)


def _builtin(name: str) -> type:
    return {"list": list, "tuple": tuple, "dict": dict, "int": int, "float": float, "bool": bool,
            "str": str, "bytes": bytes}[name]


@pytest.mark.parametrize("name", _TYPES)
def test_no_jax_tracer_is_an_instance(name: str) -> None:
    jax = pytest.importorskip("jax")
    seen: list[bool] = []

    def f(x):
        seen.append(isinstance(x, _builtin(name)))
        return x * 2

    jax.jit(f)(jax.numpy.ones(2))
    jax.vmap(f)(jax.numpy.ones(2))
    assert seen == [False, False]


@pytest.mark.parametrize("name", _TYPES)
def test_no_tf_tensor_is_an_instance(name: str) -> None:
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    tf = pytest.importorskip("tensorflow")
    seen: list[bool] = []

    @tf.function(jit_compile=True)
    def f(x):
        seen.append(isinstance(x, _builtin(name)))
        return x * 2

    f(tf.ones(2))
    assert seen == [False] and not isinstance(tf.ones(2), _builtin(name))


@pytest.mark.parametrize("name", _TYPES)
def test_no_torch_tensor_is_an_instance(name: str) -> None:
    torch = pytest.importorskip("torch")
    assert not isinstance(torch.ones(2), _builtin(name))
    assert not isinstance(torch.tensor(3), _builtin(name))


def _valid_examples_with_guards() -> list[str]:
    return [e.code for e in TensorConditionWithoutAutograph.VALID if "isinstance(" in e.code and "jax" in e.code]


@pytest.mark.parametrize("index", range(2))
def test_guarded_and_runs_under_jit_and_is_not_flagged(index: int) -> None:
    """The XLA101 VALID examples that guard a tensor test with ``isinstance(..) and``: they run under
    jax.jit (on a dict tree with array leaves; on an array and an int) and the rule is silent."""
    jax = pytest.importorskip("jax")
    src = _valid_examples_with_guards()[-2:][index]
    found = lint_stdin(src.encode(), "guarded.py").result.files[0].diagnostics
    assert not [d for d in found if d.code == "XLA101"]
    namespace: dict = {}
    exec(compile(src, "guarded.py", "exec"), namespace)  # noqa: S102 - our own snippet
    ones, zeros = jax.numpy.ones, jax.numpy.zeros
    if "step" in namespace:
        tree_a = {"a": ones(2), "b": {"c": ones(1)}}
        out = namespace["step"](tree_a, {"a": zeros(2), "b": {"c": zeros(1)}, "d": zeros(3)})
        assert float(out["a"].sum()) == 2.0 and float(out["d"].sum()) == 0.0
    else:
        assert float(namespace["f"]({"w": 1.0}, ones(3)).sum()) == 3.0


def test_mixed_tuples_prove_nothing() -> None:
    import ast

    assert type_guards.python_type_guard(ast.parse("isinstance(x, (list, int))", mode="eval").body) == []
    assert type_guards.python_type_guard(ast.parse("isinstance(x, (list, dict))", mode="eval").body) == [
        ("x", "sequence")]
    assert type_guards.python_number_names(ast.parse("a and isinstance(n, (int, float))", mode="eval").body) == ["n"]
