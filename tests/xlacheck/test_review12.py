"""Defects an end-of-session review found in the twelfth session's changes, pinned (each snippet is
written here, not copied from a case)."""

from __future__ import annotations

import textwrap

from xlacheck.engine import check_source


def _codes(src: str) -> list[tuple[str, int]]:
    result = check_source(textwrap.dedent(src), "snippet.py")
    assert result.error is None
    return sorted((d.code, d.line) for d in result.diagnostics)


def test_partial_checkpoint_decorator_traces_like_bare_one() -> None:
    # `@functools.partial(jax.checkpoint, prevent_cse=False)` traces every argument just as
    # `@jax.checkpoint` does: partial's first argument is the transformation, not an extra argument
    src = """
    import functools
    import jax

    @jax.checkpoint
    def f(x):
        if x.sum() > 0:
            return x
        return -x

    @functools.partial(jax.checkpoint, prevent_cse=False)
    def g(x):
        if x.sum() > 0:
            return x
        return -x
    """
    assert _codes(src) == [("XLA101", 7), ("XLA101", 13)]


def test_partial_vmap_with_in_axes_stays_quiet() -> None:
    src = """
    from functools import partial
    import jax

    @partial(jax.vmap, in_axes=(0, None))
    def f(x, n):
        if n > 2:
            return x * 2
        return x
    """
    assert _codes(src) == []
