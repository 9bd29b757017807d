"""Checks on traced JAX arrays (``if c: raise E``, ``assert c, msg``; XLA101, XLA102) -> the same
check run by a host callback when the compiled code runs.

Under ``jax.jit`` the Python truth value of a traced condition is unknown while tracing
(TracerBoolConversionError), so a check that raises on bad inputs cannot run as written. With
``jax.debug.callback`` the condition is computed on the device and handed, as a concrete value, to
a local function that raises the original exception when it holds, every time the compiled code
runs::

    if jnp.any(jnp.isnan(x)):                    def check_failed(failed):
        raise ValueError("NaN in x")       ->         if failed:
                                                          raise ValueError("NaN in x")
                                                  jax.debug.callback(check_failed, jnp.any(jnp.isnan(x)))

``assert c, msg`` is the check that ``not c`` raises ``AssertionError(msg)`` (kept under ``python -O``
as well, where the original's is removed). The ``if`` must hold only the ``raise`` (no ``else``,
not an ``elif``); what follows it runs as before.

On every input where the original returns, the fix computes the same values (the callback returns
nothing). UNSAFE, for what changes where the original raised: the exception reaches the caller
wrapped in JAX's runtime error (``JaxRuntimeError``/``XlaRuntimeError``), when the compiled call runs
(or its result is read) rather than while tracing; a message that formats traced values shows
tracers; and a callback is not transformed (under ``jax.vmap`` it sees the whole batch's conditions
at once, ``jax.grad`` ignores it).
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._fix import make_fix, replace_block, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.jax_conditions import _plain, _pred, _reasons, jax_target
from xlacheck.rewrites.truth import sequence_equality

ON_DEVICE = ("the check runs in a host callback when the compiled code runs: the exception reaches the caller wrapped "
             "in JAX's runtime error (JaxRuntimeError), a message that formats traced values shows tracers, and "
             "jax.vmap hands the callback every condition of the batch at once")


def _check(src: Source, jax: str, node: ast.stmt, pred: str, raised: str) -> Fix:
    fresh = src.fresh_name("check_failed")
    lines = [f"def {fresh}(failed):", "    if failed:", *(("        " if i == 0 else "") + line for i, line in
                                                          enumerate(raised.splitlines())),
             f"{jax}.debug.callback({fresh}, {pred})"]
    return make_fix("Run the check in a host callback (jax.debug.callback): it raises when the compiled code runs",
                    replace_block(src, node, node, lines), _reasons(node.test, ON_DEVICE))  # type: ignore[attr-defined]


@rewriter(ast.If, ast.Assert)
def rewrite_jax_check(src: Source, node: ast.AST) -> Fix | None:
    jax = jax_target(src, node)
    if jax is None or isinstance(node, (ast.Assert, ast.If)) and sequence_equality(node.test):
        return None
    if isinstance(node, ast.Assert):
        if not _plain(src, node.test, *([node.msg] if node.msg is not None else [])) \
                or not src.alone_on_lines(node, node):
            return None
        pred = _pred(src, jax, ast.UnaryOp(ast.Not(), node.test))
        message = "" if node.msg is None else src.segment(node.msg)
        return None if pred is None else _check(src, jax, node, pred, f"raise AssertionError({message})")
    if not isinstance(node, ast.If) or node.orelse or len(node.body) != 1 or not isinstance(node.body[0], ast.Raise) \
            or node.body[0].exc is None or node.body[0].cause is not None:
        return None
    parent = src.parents.get(node)
    if isinstance(parent, ast.If) and parent.orelse == [node] or not _plain(src, node.test, node.body[0]) \
            or not src.alone_on_lines(node, node):
        return None
    pred = _pred(src, jax, node.test)
    return None if pred is None else _check(src, jax, node, pred, src.segment(node.body[0]))
