"""Defects a review of the thirty-third session's merges found on the TF/JAX side, each pinned with a snippet.

- XLA404: a tf.function built in a loop over configurations is one program per item only when the loop passes the
  item itself; a tensor the body derives from it (``tf.convert_to_tensor(data[name])``) traces once.
- XLA330: a literal shape with a starred part (``jnp.ones((*batch, 4))``) has at least the rank of its other parts,
  not their count plus one: ``batch`` may be empty.
- The JAX ``lax.cond`` fix of an ``and``/``or`` test: ``np.dot(x, x)`` is a NumPy function of an imported module, not
  a JAX array's method, so the fix (which would hand a tracer to NumPy) is not offered.
"""

from __future__ import annotations

import ast
import textwrap

from xlacheck.engine import check_source
from xlacheck.rewrites import attach_fixes

PER_ITEM = """
import tensorflow as tf


def _step(v):
    return v * 2.0


def run(data):
    for name in ("train", "valid", "test"):
        batch = {arg}
        fast = tf.function(_step, jit_compile=True)
        fast({call})
"""


def _codes(src: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in check_source(textwrap.dedent(src).lstrip("\n"), "t.py").diagnostics]


def _fixes(src: str) -> list[bool]:
    """Per XLA101 finding of ``src``: whether a fix is offered."""
    text = textwrap.dedent(src).lstrip("\n")
    found = [d for d in check_source(text, "t.py").diagnostics if d.code == "XLA101"]
    return [d.fix is not None for d in attach_fixes(text, ast.parse(text), found)]


def test_a_tensor_derived_from_the_item_is_one_program() -> None:
    derived = PER_ITEM.format(arg="tf.convert_to_tensor(data[name])", call="batch")
    assert ("XLA404", 11) in _codes(derived)
    # the item itself, a Python string: one trace (and program) per item, wherever the tf.function is built
    assert "XLA404" not in {c for c, _ in _codes(PER_ITEM.format(arg="data[name]", call="name"))}


def test_a_starred_shape_part_may_be_empty() -> None:
    src = """
    import jax.numpy as jnp
    from jax import lax


    def f(v, batch=()):
        return lax.fori_loop(0, 3, lambda i, c: c + jnp.ones(({star}, 4)), jnp.zeros(4))
    """
    assert _codes(src.format(star="*batch")) == []
    assert [c for c, _ in _codes(src.format(star="2"))] == ["XLA330"]


def test_a_numpy_function_in_an_and_test_gets_no_jax_fix() -> None:
    src = """
    import jax
    import numpy as np


    @jax.jit
    def f(x):
        if x.sum() > 0 and {second} < 2.0:
            return x * 2.0
        return -x
    """
    assert _fixes(src.format(second="np.dot(x, x)")) == [False]
    assert _fixes(src.format(second="x.max()")) == [True]
