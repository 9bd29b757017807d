"""What proves that a value is a JAX tracer where it is read: the evidence a default-on rule needs.

Under ``jax.jit`` every JAX operation is staged (omnistaging), so the result of any ``jnp``/``lax``
op is a tracer, even of constants (``jnp.zeros(2)``, ``jnp.arange(x.shape[0])``: measured on jax
0.10.2, ``np.asarray`` of each raises TracerArrayConversionError). The value model marks such
results ``OP``. A parameter of a function that ``jax.jit`` (or a JAX transformation: ``lax.scan``
bodies, ``jax.grad``) traces directly is a tracer too, unless jit was told it is static, or it has
a default (a call that leaves it out gets the Python default, which jit never sees).

Weaker evidence (a helper's parameter, a value some caller passes, a bare name of unknown origin)
is not proof: ``XLA304`` reads it behind ``--preview``; :func:`proven_tracer` is what the rules that
fire by default accept."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Certainty, FunctionInfo
from xlacheck.analysis.values import OP, PARAM, PYLIST, TENSOR


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
