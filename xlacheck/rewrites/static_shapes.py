"""Shape arguments computed from tensor values: explanation only.

``tf.one_hot(depth=...)``, ``tf.zeros/ones/fill(shape)``, ``tf.pad(paddings)``,
``tf.reshape(shape)``, ``tf.tile``, ``tf.repeat``, ``tf.range``, ``tf.image.resize(size)`` and
every other argument the generated API table says XLA needs as a constant, with a size derived from data compile only because ``jit_compile`` turns the argument *values*
into compile-time constants: one compilation per new value, and a failure when the value comes
from a variable, a random op or a loop. The output shape itself depends on the data, so no
rewrite returns the same tensor; the fix says how to make the size static, and, where the function
returns that data-sized tensor (under elementwise operators, or through one name), why no fix is
offered: padding to a static bound and returning a length or mask alongside changes the caller's
contract.
"""

from __future__ import annotations

import ast

from xlacheck.analysis.tables import static_arguments
from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import call_name
from xlacheck.rewrites._fix import explain, rewriter
from xlacheck.rewrites._source import Source

STATIC_CALLS = frozenset({"tf.shape", "tf.size", "tf.rank"})


def data_dependent(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Whether the argument is computed by a TensorFlow op from tensor values (not shapes)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            name = call_name(src, sub)
            if name is not None and name not in STATIC_CALLS and not name.startswith("tf.TensorShape"):
                return True
        if isinstance(sub, ast.Name) and depth < 4:
            bound = src.local_binding(sub.id, sub)
            if bound is not None and data_dependent(src, bound, depth + 1):
                return True
            if bound is None and _is_parameter(src, sub) and sub.id not in ("self", "cls") \
                    and not isinstance(src.parents.get(sub), ast.Attribute):
                return True  # flagged by the linter, so a tensor argument: its value is data
    return False


def _is_parameter(src: Source, name: ast.Name) -> bool:
    scope = src.scope_of(name)
    if isinstance(scope, ast.Module):
        return False
    args = scope.args
    return any(a.arg == name.id for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])


@rewriter(ast.Call, ast.Subscript)
def rewrite_shape_argument(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None:
        return None
    if isinstance(node, ast.Subscript):
        return _slice_bound(src, node)
    if not isinstance(node, ast.Call):
        return None
    name = call_name(src, node)
    if name is None or name.startswith(("jnp.", "jax.", "lax.")):
        return None
    # the arguments XLA needs as constants: the generated API table (one home, shared with XLA205)
    found = [(k, a) for k, a in static_arguments(name, node) if data_dependent(src, a)]
    if not found:
        return None
    keyword = found[0][0]
    if name == "tf.range" and keyword == "start" and len(node.args) == 1 and not node.keywords:
        keyword = "limit"  # tf.range(n): the one positional argument is the limit
    returned = _returned(src, node)
    return explain(
        f"`{keyword}` of {name} is computed from tensor values, so the output shape depends on the data: XLA "
        "compiles once per value (and fails when it comes from a variable, a random op or a loop). Use a "
        "static size instead: a Python int or config constant, or `x.shape[k]` of an input (e.g. the number "
        "of classes of the logits, the padded length of the batch), and mask the unused part."
        + (f" No fix is offered: `{returned}` returns this data-sized tensor, so no static-shape code returns "
           "the same output; padding it to a static bound and returning its length or a mask alongside "
           "changes what callers receive, which only its author can decide." if returned else "")
    )


_ELEMENTWISE_PARENTS = (ast.BinOp, ast.UnaryOp)


def _returned(src: Source, node: ast.expr) -> str | None:
    """The name of the function that returns ``node``'s value with its shape: ``node`` under
    elementwise operators in a ``return``, or bound once to a name that such a return reads."""
    parent = src.parents.get(node)
    while isinstance(parent, _ELEMENTWISE_PARENTS):
        node, parent = parent, src.parents.get(parent)
    scope = src.scope_of(node)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if isinstance(parent, ast.Return):
        return scope.name
    if isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1 \
            and isinstance(parent.targets[0], ast.Name):
        target = parent.targets[0].id
        for read in src.loads_of(target, scope):
            if src.scope_of(read) is not scope or src.local_binding(target, read) is not node:
                continue
            up = src.parents.get(read)
            while isinstance(up, _ELEMENTWISE_PARENTS):
                up = src.parents.get(up)
            if isinstance(up, ast.Return):
                return scope.name
    return None


def _slice_bound(src: Source, node: ast.Subscript) -> Fix | None:
    """``x[:, :n]`` with ``n`` from data: bounded, but one compilation per value of ``n``."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    bounds = [b for p in parts if isinstance(p, ast.Slice) for b in (p.lower, p.upper) if b is not None]
    if not any(data_dependent(src, b) for b in bounds):
        return None
    return explain(
        "A slice bound computed from tensor values gives a data-dependent shape: XLA compiles once per "
        "value. Keep the full static extent and mask the positions past the bound instead "
        "(tf.where(tf.range(x.shape[k]) < n, x, 0)), or slice to a static length."
    )
