"""The shared "runs per step" evidence (xlacheck.analysis.per_step): what a file shows of how often a
function runs, which XLA404, XLA411, XLA414, XLA419 and XLA427 read."""

from __future__ import annotations

import ast
import textwrap

import pytest

from xlacheck.analysis.contexts import analyze_module
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.per_step import repeats, runs_step_fixed_times


def _index(source: str) -> tuple[ModuleIndex, dict[str, ast.FunctionDef]]:
    tree = ast.parse(textwrap.dedent(source))
    index = ModuleIndex(tree, analyze_module(tree))
    return index, {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize(("source", "expected"), [
    # called in a comprehension: line of the comprehension
    ("def fit(x):\n    return x\ndef sweep(xs):\n    return [fit(x) for x in xs]\n",
     "which this file calls in a loop at line 4"),
    # through one caller that runs outside loops
    ("def fit(x):\n    return x\ndef run(x):\n    y = fit(x)\n    return y\n"
     "def train(xs):\n    for x in xs:\n        run(x)\n",
     "which this file calls through `run()` in a loop at line 7"),
    # called once, outside loops: a one-off
    ("def fit(x):\n    return x\ndef main():\n    fit(1)\n", None),
    # not called in this file
    ("def fit(x):\n    return x\n", None),
    # a loop in a test is no evidence
    ("def fit(x):\n    return x\ndef test_fit():\n    for x in (1, 2):\n        fit(x)\n", None),
    # a loop traced by jax.jit runs once per trace
    ("import jax\ndef fit(x):\n    return x\n@jax.jit\ndef step(xs):\n    for i in range(3):\n        xs = fit(xs)\n"
     "    return xs\n", None),
    # a function that runs once per object
    ("class M:\n    def build(self):\n        return 1\ndef f(ms):\n    for m in ms:\n        m.build()\n", None),
])
def test_repeats(source: str, expected: str | None) -> None:
    index, funcs = _index(source)
    target = funcs["build"] if "build" in funcs else funcs["fit"]
    assert repeats(index, target) == expected


@pytest.mark.parametrize(("source", "expected"), [
    ("def step(x):\n    return x\ndef optimize(x):\n    for _ in range(3):\n        x = step(x)\n    return x\n", True),
    # a step count it is given: a driver, which may run once
    ("def step(x):\n    return x\ndef optimize(x, n):\n    for _ in range(n):\n        x = step(x)\n    return x\n",
     False),
    # called once, outside loops
    ("def step(x):\n    return x\ndef optimize(x):\n    for _ in range(3):\n        x = step(x)\n    return x\n"
     "def main():\n    print(optimize(1))\n", False),
])
def test_runs_step_fixed_times(source: str, expected: bool) -> None:
    index, funcs = _index(source)
    call = next(c for c, _ in index.calls if isinstance(c.func, ast.Name) and c.func.id == "step")
    assert runs_step_fixed_times(index, call, funcs["optimize"]) is expected
