"""A window of static length at a traced start under ``jax.jit`` (XLA207) -> ``lax.dynamic_slice_in_dim``.

``x[i:i + K]`` (or ``x[j - K:j]``, on any one axis with full slices before it) has the static
length ``K`` whatever ``i`` is, but a slice bound must be a Python int while tracing ("Slice
entries must be static integers"). ``jax.lax.dynamic_slice_in_dim(x, i, K, axis=a)`` reads the
same ``K`` entries from a traced start with a static shape. ``K`` is static when it is an int
literal, a module-level name bound once to one, or a static size (``y.shape[k]``).

Always UNSAFE: ``dynamic_slice_in_dim`` clamps the start into ``[0, n - K]``, so where the window
runs past the end (the original gives fewer than ``K`` entries) or the start is negative (the
original counts from the end) the fix reads ``K`` entries from another start.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, int_literal
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source, jax_alias

CLAMPED = ("dynamic_slice_in_dim clamps the start into [0, n - K]: where the window runs past the end (the original "
           "gives fewer entries) or starts below 0 (the original counts from the end), the fix reads K entries from "
           "another start")


def _static_size(src: Source, node: ast.expr) -> bool:
    """An int literal, a module-level name bound once to one, or a static size ``y.shape[k]``."""
    k = int_literal(node)
    if k is not None:
        return k > 0
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return int_literal(node.slice) is not None
    if isinstance(node, ast.Name):
        bound = [s for s in src.tree.body if isinstance(s, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == node.id for t in s.targets)]
        scope_stores = src.stores_in(src.scope_of(node)).get(node.id)
        return (len(bound) == 1 and not scope_stores and not _parameter_of_enclosing(src, node)
                and (int_literal(bound[0].value) or 0) > 0)
    return False


def _parameter_of_enclosing(src: Source, node: ast.Name) -> bool:
    """``node`` names a parameter of a function around it (it shadows the module constant)."""
    parent = src.parents.get(node)
    while parent is not None:
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = parent.args
            if any(p.arg == node.id for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if p):
                return True
        parent = src.parents.get(parent)
    return False


def _window(src: Source, part: ast.Slice) -> tuple[ast.expr, ast.expr] | None:
    """(start, length) of ``i:i + K``, ``i:K + i`` or ``j - K:j`` with ``K`` static."""
    lower, upper = part.lower, part.upper
    if part.step is not None or lower is None or upper is None:
        return None
    same = ast.dump(lower)
    if isinstance(upper, ast.BinOp) and isinstance(upper.op, ast.Add):
        for start, size in ((upper.left, upper.right), (upper.right, upper.left)):
            if ast.dump(start) == same and _static_size(src, size):
                return lower, size
    if isinstance(lower, ast.BinOp) and isinstance(lower.op, ast.Sub) and ast.dump(lower.left) == ast.dump(upper) \
            and _static_size(src, lower.right):
        return lower, lower.right
    return None


@rewriter(ast.Subscript, pointed=True)
def rewrite_jax_dynamic_slice(src: Source, node: ast.AST) -> Fix | None:
    jax = jax_alias(src.tree)
    if jax is None or not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load):
        return None
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    windows = [(axis, part) for axis, part in enumerate(parts)
               if isinstance(part, ast.Slice) and (part.lower, part.upper, part.step) != (None, None, None)]
    if len(windows) != 1 or any(not isinstance(p, ast.Slice) for p in parts):
        return None  # one window; every other axis taken whole
    axis, part = windows[0]
    found = _window(src, part)  # type: ignore[arg-type]
    if found is None:
        return None
    start, size = found
    where = f", axis={axis}" if axis else ""
    text = (f"{jax}.lax.dynamic_slice_in_dim({arg(src, node.value)}, {arg(src, start)}, {arg(src, size)}{where})")
    return make_fix("read the window with jax.lax.dynamic_slice_in_dim (a traced start, a static length)",
                    [replace(src, node, text)], unsafe=[CLAMPED])
