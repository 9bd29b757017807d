"""What proves that a value is a JAX tracer where it is read: the evidence a default-on rule needs.

Under ``jax.jit`` every JAX operation is staged (omnistaging), so the result of any ``jnp``/``lax``
op is a tracer, even of constants (``jnp.zeros(2)``, ``jnp.arange(x.shape[0])``: measured on jax
0.10.2, ``np.asarray`` of each raises TracerArrayConversionError). The value model marks such
results ``OP``. A parameter of a function that ``jax.jit`` (or a JAX transformation: ``lax.scan``
bodies, ``jax.grad``) traces directly is a tracer too, unless jit was told it is static, or it has
a default (a call that leaves it out gets the Python default, which jit never sees).

A call of a function of the same file whose every ``return`` gives a JAX op's result
(:func:`returns_jax_op`) is a tracer too where it runs under ``jax.jit``: the value model marks it ``OP``.

Weaker evidence (a helper's parameter, a value some caller passes, a bare name of unknown origin)
is not proof: ``XLA304`` reads it behind ``--preview``; :func:`proven_tracer` is what the rules that
fire by default accept."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis.contexts import Certainty, FunctionInfo
from xlacheck.analysis.imports import AliasTable
from xlacheck.analysis.reductions import Assignments, own_returns_and_assignments
from xlacheck.analysis.values import OP, PARAM, PYLIST, TENSOR

# Namespaces whose calls JAX stages under jax.jit (values._STAGED_PREFIXES, plus jax.random/scipy)
JAX_OP_PREFIXES = ("jnp.", "jax.numpy.", "jax.lax.", "jax.nn.", "jax.random.", "jax.scipy.")


def proven_tracer(expr: ast.expr, flags: int, info: FunctionInfo) -> str | None:
    """How ``expr`` (with value flags ``flags``, read in ``info``) is known to be a JAX tracer, for
    messages ("computed by a JAX op", "parameter `x` of a function jax.jit traces"), or None."""
    if not info.jax or info.certainty is not Certainty.COMPILED:
        return None
    if not flags & TENSOR or flags & PYLIST:
        return None
    if flags & OP:
        return "computed by a JAX op"
    if isinstance(expr, ast.Name) and flags & PARAM and traced_parameter(expr.id, info):
        return f"parameter `{expr.id}` of a function JAX traces"
    return None


def traced_parameter(name: str, info: FunctionInfo) -> bool:
    """``name`` is a parameter that a JAX tracer fills in ``info`` (a ``jax.jit`` target, a JAX
    transformation's function): not static, no default, not ``self``, never rebound in the body."""
    node = info.node
    if not (info.jax and info.traced_args) or info.declared or info.static_params_unknown:
        return False
    if name in info.static_params or name in ("self", "cls"):
        return False
    args = node.args
    positional = args.posonlyargs + args.args
    with_default = {a.arg for a in positional[len(positional) - len(args.defaults):]} if args.defaults else set()
    with_default |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}
    if name not in {a.arg for a in positional + args.kwonlyargs} or name in with_default:
        return False
    body = [node.body] if isinstance(node, ast.Lambda) else node.body
    for stmt in body:
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Name) and sub.id == name and not isinstance(sub.ctx, ast.Load):
                return False
            if isinstance(sub, (ast.Global, ast.Nonlocal)) and name in sub.names:
                return False
    return True


def jax_op_functions(functions: list[FunctionInfo], aliases: AliasTable) -> frozenset[str]:
    """Module-level functions and methods (keyed ``Class.method``, as ``values.Reducers``) for which
    :func:`returns_jax_op` holds: under jax.jit a call of one gives a tracer."""
    found = set()
    for info in functions:
        node = info.node
        if info.parent is None and isinstance(node, ast.FunctionDef) and returns_jax_op(node, aliases):
            found.add(info.name if info.cls is None else f"{info.cls.node.name}.{info.name}")
    return frozenset(found)


def returns_jax_op(fn: ast.FunctionDef | ast.AsyncFunctionDef, aliases: AliasTable) -> bool:
    """Every ``return`` of ``fn`` (one at least) gives one JAX array computed by a JAX op: a call the
    JAX table records returning arrays (``jnp.stack([x, y])``, ``jax.nn.relu(h)``), arithmetic with
    one (``l1 * jnp.cos(q) + 1``), or a name every assignment of which is one."""
    returns, assigned = own_returns_and_assignments(fn)
    return bool(returns) and all(r.value is not None and _jax_op(r.value, aliases, assigned, 0) for r in returns)


def _jax_op(e: ast.expr, aliases: AliasTable, assigned: Assignments, depth: int) -> bool:
    if depth > 8:
        return False
    if isinstance(e, ast.Call):
        name = aliases.resolve(e.func)
        fact = api_table.fact_for(name) if name is not None and name.startswith(JAX_OP_PREFIXES) else None
        return fact is not None and fact.is_tensor_valued
    if isinstance(e, ast.BinOp) and not isinstance(e.op, (ast.MatMult, ast.Mod)):
        return _jax_op(e.left, aliases, assigned, depth + 1) or _jax_op(e.right, aliases, assigned, depth + 1)
    if isinstance(e, ast.BinOp):
        return _jax_op(e.left, aliases, assigned, depth + 1) and _jax_op(e.right, aliases, assigned, depth + 1)
    if isinstance(e, ast.UnaryOp) and not isinstance(e.op, ast.Not):
        return _jax_op(e.operand, aliases, assigned, depth + 1)
    if isinstance(e, ast.Name):
        values = assigned.get(e.id) or []
        return bool(values) and all(v is not None and _jax_op(v, aliases, assigned, depth + 1) for v in values)
    return False
