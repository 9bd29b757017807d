"""Functions whose every ``return`` is a reduction: the one home of that question.

Two meanings, kept apart because their callers need different proofs:

- :func:`returns_one_reduction`: every ``return`` gives one reduction of tensor values, any
  TensorFlow reduction (``reduce_*``, ``argmax``, ``norm``, ``count_nonzero`` ..., with or
  without ``axis``) or its jax.numpy twin (``jnp.sum``, ``x.max()``), through
  ``tf.cast``/``tf.identity``/``tf.stop_gradient``, plus or times a number, or a name bound once
  to one. A call of such a function is a tensor computed from data
  (:func:`xlacheck.analysis.values.reduction_functions`).
- :func:`returns_scalar_reduction`: every ``return`` gives a scalar, a full reduction without
  ``axis`` (``tf.reduce_mean(x)``, ``tf.nn.compute_average_loss``), negated, scaled by a number
  or combined with another (``tf.reduce_sum(a) / tf.reduce_sum(w)``), or a name every assignment
  of which is one: the shape of a loss (:mod:`xlacheck.analysis.contexts` marks such helpers).

Both read the function's own ``return``\\ s and local assignments (nested functions return and
bind their own) from :func:`own_returns_and_assignments`.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from xlacheck.analysis.imports import AliasTable
from xlacheck.analysis.scopes import own_nodes
from xlacheck.analysis.tables import FULL_REDUCTIONS

# What one reduction may be: a tensor summarising its inputs' values (a count, an extreme, a
# position, a norm); not tf.math.top_k/tf.unique, whose results are tuples. Matched on the last
# name: prefixes for the reduce_*/arg* families, whole names for the rest (a prefix "norm" would
# take tf.random.normal and tf.linalg.normalize for reductions).
_REDUCTION_PREFIXES = ("reduce_", "argmax", "argmin")
_REDUCTION_NAMES = frozenset({"count_nonzero", "norm", "global_norm", "bincount"})
_PASS_THROUGH = ("tf.cast", "tf.dtypes.cast", "tf.identity", "tf.stop_gradient")
# The same in jax.numpy (``jnp.sum(mask)``, ``jnp.linalg.norm(g)``) and as a method of the array
# (``mask.sum()``, ``scores.argmax()``: a jax.Array's method is the jax.numpy function of that name).
_JAX_REDUCTION_NAMES = frozenset({"sum", "prod", "max", "min", "amax", "amin", "mean", "argmax", "argmin",
                                  "count_nonzero", "norm", "bincount", "nansum", "nanmax", "nanmin"})
_JAX_PASS_THROUGH = ("jnp.asarray", "jax.lax.stop_gradient", "lax.stop_gradient")

Assignments = Mapping[str, list[ast.expr | None]]


def own_returns_and_assignments(fn: ast.FunctionDef | ast.AsyncFunctionDef
                                ) -> tuple[list[ast.Return], dict[str, list[ast.expr | None]]]:
    """``fn``'s own ``return`` statements, and for each local name the values assigned to it:
    the value of ``name = v``, ``name += v`` and ``name: T = v``; None for any other binding
    (tuple unpacking, a loop or ``with`` target, ``:=``), whose value is not read."""
    returns: list[ast.Return] = []
    assigned: dict[str, list[ast.expr | None]] = {}
    for n in own_nodes(fn):
        if isinstance(n, ast.Return):
            returns.append(n)
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            assigned.setdefault(n.targets[0].id, []).append(n.value)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)) and isinstance(n.target, ast.Name):
            if n.value is not None:
                assigned.setdefault(n.target.id, []).append(n.value)
        else:
            if isinstance(n, ast.Assign):
                targets: list[ast.AST] = list(n.targets)
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.NamedExpr)):
                targets = [n.target]
            elif isinstance(n, (ast.With, ast.AsyncWith)):
                targets = [item.optional_vars for item in n.items if item.optional_vars is not None]
            else:
                continue
            for t in targets:
                for name in ast.walk(t):
                    if isinstance(name, ast.Name) and not isinstance(name.ctx, ast.Load):
                        assigned.setdefault(name.id, []).append(None)
    return returns, assigned


def returns_one_reduction(fn: ast.FunctionDef | ast.AsyncFunctionDef, aliases: AliasTable) -> bool:
    """Every ``return`` of ``fn`` (one at least) gives one reduction of tensor values (see the
    module docstring)."""
    returns, assigned = own_returns_and_assignments(fn)
    return bool(returns) and all(_one_reduction(r.value, aliases, assigned) for r in returns)


def returns_scalar_reduction(fn: ast.FunctionDef | ast.AsyncFunctionDef, aliases: AliasTable) -> int:
    """The line of the first ``return`` when every ``return`` of ``fn`` (one at least) gives a
    scalar reduction (see the module docstring); else 0."""
    returns, assigned = own_returns_and_assignments(fn)
    if not returns or not all(_scalar_reduction(r.value, assigned, aliases) for r in returns):
        return 0
    return min(r.lineno for r in returns)


def _one_reduction(e: ast.expr | None, aliases: AliasTable, assigned: Assignments, depth: int = 0) -> bool:
    if e is None or depth > 3:
        return False
    if isinstance(e, ast.Name):
        values = assigned.get(e.id, [])
        return len(values) == 1 and _one_reduction(values[0], aliases, assigned, depth + 1)
    if isinstance(e, ast.BinOp):  # `tf.reduce_max(x) + 1`: a reduction and a Python number
        sides = (e.left, e.right)
        return any(_one_reduction(x, aliases, assigned, depth + 1) for x in sides) and any(
            isinstance(x, ast.Constant) for x in sides)
    if not isinstance(e, ast.Call):
        return False
    name = aliases.resolve(e.func)
    if name is None and isinstance(e.func, ast.Attribute) and isinstance(e.func.value, ast.Name) \
            and e.func.value.id != "self" and not e.args:
        return e.func.attr in _JAX_REDUCTION_NAMES and "jax" in aliases.frameworks  # `mask.sum()`
    if name is not None and name.startswith(("jnp.", "jax.numpy.")):
        last = name.rsplit(".", 1)[-1]
        if name in _JAX_PASS_THROUGH and e.args:
            return _one_reduction(e.args[0], aliases, assigned, depth + 1)
        return last in _JAX_REDUCTION_NAMES
    if name in _JAX_PASS_THROUGH and e.args:
        return _one_reduction(e.args[0], aliases, assigned, depth + 1)
    if name is None or not name.startswith("tf."):
        return False
    if name in _PASS_THROUGH and e.args:
        return _one_reduction(e.args[0], aliases, assigned, depth + 1)
    last = name.rsplit(".", 1)[-1]
    return last.startswith(_REDUCTION_PREFIXES) or last in _REDUCTION_NAMES


def _scalar_reduction(node: ast.expr | None, assigned: Assignments, aliases: AliasTable, depth: int = 0) -> bool:
    if node is None or depth > 4:
        return False
    if isinstance(node, ast.UnaryOp):
        return _scalar_reduction(node.operand, assigned, aliases, depth + 1)
    if isinstance(node, ast.BinOp):  # both sides scalars: reductions or numbers (`0.5 * tf.reduce_mean(x)`)
        sides = [_scalar_reduction(side, assigned, aliases, depth + 1) if not isinstance(side, ast.Constant)
                 else isinstance(side.value, (int, float)) for side in (node.left, node.right)]
        return all(sides) and not all(isinstance(side, ast.Constant) for side in (node.left, node.right))
    if isinstance(node, ast.Name):
        values = assigned.get(node.id, [])
        return bool(values) and all(_scalar_reduction(v, assigned, aliases, depth + 1) for v in values)
    if isinstance(node, ast.Call):
        name = aliases.resolve(node.func)
        if name == "tf.nn.compute_average_loss":
            return True
        return (name in FULL_REDUCTIONS and len(node.args) == 1 and not isinstance(node.args[0], ast.Starred)
                and not any(kw.arg in ("axis", None, "reduction_indices") for kw in node.keywords))
    return False
