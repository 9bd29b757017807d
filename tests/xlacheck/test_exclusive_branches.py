"""The value model keeps the two branches of an ``if``/``else`` apart (xlacheck/analysis/flow.py):
the else branch starts from the values before the ``if``, not from what the body assigned, and a
branch that returns or raises hands nothing to the code after the ``if``.

Found on ott-jax/ott 6aace50f (src/ott/geometry/segment.py:120, XLA207, judged false in
docs/real-code-judgments-17.md's batch): ``max(num_per_segment)`` in the else branch was taken to
read the ``jax.ops.segment_sum`` result assigned in the other branch. Each form below is also run
under ``jax.jit`` (jax 0.10.2): the ones the linter passes run, the one it flags fails.
"""

from __future__ import annotations

import pytest

from xlacheck.engine import check_source


def codes(source: str) -> list[tuple[int, str]]:
    result = check_source(source, "t.py")
    assert result.error is None, result.error
    return [(d.line, d.code) for d in result.diagnostics]


def _defined(source: str, filename: str) -> dict:
    """The names ``source`` defines, run as a module (to call what the linter judged)."""
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - the source under test
    return namespace


_HEAD = "import functools\n\nimport jax\nimport jax.numpy as jnp\n\n\n"

# ott's segment_point_cloud: the segment-id branch computes the sizes as an array, the other
# branch takes the maximum of the caller's static tuple before converting it
SEGMENT = _HEAD + (
    "@functools.partial(jax.jit, static_argnames=('num_segments', 'max_size', 'sizes'))\n"
    "def segment(x, ids=None, num_segments=None, max_size=None, sizes=(2, 3)):\n"
    "    num, dim = x.shape\n"
    "    if ids is not None:\n"
    "        assert max_size is not None\n"
    "        sizes = jax.ops.segment_sum(jnp.ones_like(ids), ids, num_segments=num_segments)\n"
    "    else:\n"
    "        if max_size is None:\n"
    "            max_size = max(sizes)\n"
    "        sizes = jnp.array(sizes)\n"
    "    max_size = min(max_size, num)\n"
    "    return jax.lax.dynamic_slice(x, (0, 0), (max_size, dim)), sizes\n")

# the traced value is assigned in a branch that returns: it never reaches the code after the `if`
RETURNS = _HEAD + (
    "@jax.jit\n"
    "def head(x, sizes=(2, 3)):\n"
    "    if x.ndim > 1:\n"
    "        sizes = jnp.sum(x)\n"
    "        return sizes\n"
    "    size = max(sizes)\n"
    "    return jax.lax.dynamic_slice(x, (0,), (size,))\n")

# the same branch without the return: the traced sum does reach the slice size
FALLS_THROUGH = RETURNS.replace("        return sizes\n", "")


def test_the_else_branch_does_not_see_the_bindings_of_the_body() -> None:
    assert codes(SEGMENT) == []
    jax = pytest.importorskip("jax")
    segment = _defined(SEGMENT, "segment.py")["segment"]
    x = jax.numpy.ones((5, 2))
    assert segment(x, sizes=(2, 3))[0].shape == (3, 2)
    ids = jax.numpy.array([0, 0, 1, 1, 1])
    assert segment(x, ids, num_segments=2, max_size=3)[0].shape == (3, 2)


def test_a_binding_in_a_branch_that_returns_does_not_reach_the_code_after_it() -> None:
    assert codes(RETURNS) == []
    assert codes(FALLS_THROUGH) == [(12, "XLA207")]
    jax = pytest.importorskip("jax")
    assert _defined(RETURNS, "returns.py")["head"](jax.numpy.ones(5)).shape == (3,)
    with pytest.raises(TypeError):  # jax 0.10.2: a traced slice size
        _defined(FALLS_THROUGH, "falls_through.py")["head"](jax.numpy.ones((5, 2)))


@pytest.mark.parametrize(("source", "expected"), [
    # a traced value assigned in either branch still reaches the code after the `if`
    (_HEAD + "@jax.jit\ndef f(x, n=(2, 3)):\n    if x.ndim > 1:\n        n = jnp.sum(x)\n    else:\n"
             "        n = max(n)\n    return jax.lax.dynamic_slice(x, (0,), (n,))\n", [(13, "XLA207")]),
    (_HEAD + "@jax.jit\ndef f(x, n=(2, 3)):\n    if x.ndim > 1:\n        n = max(n)\n    else:\n"
             "        n = jnp.sum(x)\n    return jax.lax.dynamic_slice(x, (0,), (n,))\n", [(13, "XLA207")]),
    # the else branch returns: after the `if`, only the body's (traced) value is left
    (_HEAD + "@jax.jit\ndef f(x, n=(2, 3)):\n    if x.ndim > 1:\n        n = jnp.sum(x)\n    else:\n"
             "        return x\n    return jax.lax.dynamic_slice(x, (0,), (n,))\n", [(13, "XLA207")]),
    # nested: an inner `if` whose branches both return ends the outer body too
    (_HEAD + "@jax.jit\ndef f(x, n=(2, 3)):\n    if x.ndim > 1:\n        n = jnp.sum(x)\n"
             "        if x.ndim > 2:\n            return n\n        else:\n            raise ValueError(n)\n"
             "    return jax.lax.dynamic_slice(x, (0,), (max(n),))\n", []),
])
def test_joins_after_the_if(source: str, expected: list[tuple[int, str]]) -> None:
    assert codes(source) == expected


# the cases of a `match` are exclusive too: each starts from the values before the `match`
MATCH = _HEAD + (
    "@functools.partial(jax.jit, static_argnames=('mode', 'sizes'))\n"
    "def head(x, mode, sizes=(2, 3)):\n"
    "    match mode:\n"
    "        case 'sum':\n"
    "            sizes = jnp.sum(x)\n"
    "            return sizes\n"
    "        case _:\n"
    "            size = max(sizes)\n"
    "    return jax.lax.dynamic_slice(x, (0,), (size,))\n")
# a case that falls through hands its traced value to the code after the `match`
MATCH_FALLS_THROUGH = MATCH.replace("            return sizes\n", "").replace(
    "            size = max(sizes)\n    return jax.lax.dynamic_slice(x, (0,), (size,))\n",
    "            pass\n    return jax.lax.dynamic_slice(x, (0,), (max(sizes),))\n")


def test_a_case_does_not_see_the_bindings_of_another_case() -> None:
    assert codes(MATCH) == []
    assert codes(MATCH_FALLS_THROUGH) == [(14, "XLA207")]
    jax = pytest.importorskip("jax")
    assert _defined(MATCH, "match.py")["head"](jax.numpy.ones(5), mode="slice").shape == (3,)
    with pytest.raises(TypeError):  # jax 0.10.2: max() of a traced scalar
        _defined(MATCH_FALLS_THROUGH, "match_falls_through.py")["head"](jax.numpy.ones(5), mode="sum")
