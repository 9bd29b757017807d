"""The one home of "every return of this function is a reduction" (analysis/reductions.py)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from xlacheck.analysis.imports import AliasTable
from xlacheck.analysis.reductions import returns_one_reduction, returns_scalar_reduction


def _function(body: str) -> tuple[ast.FunctionDef, AliasTable]:
    tree = ast.parse("import tensorflow as tf\ndef f(a, b):\n" + textwrap.indent(textwrap.dedent(body), "    "))
    imports, function = tree.body
    assert isinstance(imports, ast.Import) and isinstance(function, ast.FunctionDef)
    aliases = AliasTable()
    aliases.add(imports)
    return function, aliases


@pytest.mark.parametrize(("body", "one", "scalar"), [
    ("return tf.reduce_mean(a)\n", True, True),
    ("return tf.reduce_max(a, axis=1)\n", True, False),  # a reduction, not a scalar
    ("return tf.cast(tf.argmax(a), tf.int32)\n", True, False),
    ("return tf.reduce_sum(a) / tf.reduce_sum(b)\n", False, True),  # a scalar of two reductions
    ("s = tf.reduce_sum(a)\nreturn s + 1\n", True, True),
    ("s = tf.reduce_sum(a)\ns += tf.reduce_sum(b)\nreturn s\n", False, True),  # two values: not one reduction
    ("s: tf.Tensor = tf.reduce_sum(a)\nreturn s\n", True, True),
    ("s, t = a, b\nreturn s\n", False, False),  # unpacked: its value is not read
    ("s = tf.reduce_sum(a)\nfor s in b:\n    pass\nreturn s\n", False, False),
    ("def g():\n    return a\nreturn tf.reduce_sum(a)\n", True, True),  # a nested function's return is its own
    ("if a:\n    return tf.reduce_sum(a)\nreturn a\n", False, False),
    ("pass\n", False, False),  # no return
])
def test_every_return_is_one_reduction_or_a_scalar_reduction(body: str, one: bool, scalar: bool) -> None:
    function, aliases = _function(body)
    assert returns_one_reduction(function, aliases) is one
    assert bool(returns_scalar_reduction(function, aliases)) is scalar
