"""Truth tests of jax.jit arguments: where a name is read only for its truth value, and which
arguments of a ``jax.jit`` entry JAX passes as one leaf tracer each (shared by XLA101 and the call
facts of :mod:`xlacheck.analysis.flow`)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.analysis.contexts import FunctionInfo


def parents(root: ast.AST) -> dict[int, ast.AST]:
    """id(child) -> parent, for every node under ``root``."""
    return {id(child): n for n in ast.walk(root) for child in ast.iter_child_nodes(n)}


def only_truth_tested(name: ast.Name, up: dict[int, ast.AST]) -> bool:
    """``name`` (or an item of it by a non-string index, negated or not) is the test of an ``if``,
    ``while`` or conditional expression, or a tested operand of ``and``/``or``."""
    node: ast.AST = name
    parent = up.get(id(node))
    while isinstance(parent, ast.Subscript) and parent.value is node and not (
            isinstance(parent.slice, ast.Constant) and isinstance(parent.slice.value, str)):
        node, parent = parent, up.get(id(parent))
    while isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        node, parent = parent, up.get(id(parent))
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)):
        return parent.test is node
    return isinstance(parent, ast.BoolOp) and any(v is node for v in parent.values[:-1])


def required_params(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str] | None:
    """The positional parameters without a default; None when ``*args``/``**kwargs`` may carry more."""
    args = node.args
    if args.vararg is not None or args.kwarg is not None:
        return None
    positional = args.posonlyargs + args.args
    return {a.arg for a in positional[:len(positional) - len(args.defaults)]}


def passed_whole_jit_argument(info: FunctionInfo, name: str, local: Callable[[ast.Call], bool]) -> bool:
    """``name`` is a required, non-static parameter of the explicit ``jax.jit`` entry ``info`` (a
    module-level function) that the entry never rebinds and reads only for its truth or hands whole to
    a call of a function of this file (``helper(x, flag)``, ``local(call)``): jax.jit passes every leaf
    of a non-static argument as a tracer, and a container would be read some other way (``x['a']``, or
    handed to a library function or builtin: ``jnp.stack(x)``, ``len(x)``, ``zip(x, y)``)."""
    node = info.node
    if not (info.jax and info.jit_entry and info.cls is None and isinstance(node, (ast.FunctionDef,
                                                                                   ast.AsyncFunctionDef))
            and name not in info.static_params and not info.static_params_unknown):
        return False
    required = required_params(node)
    if required is None or name not in required:
        return False
    up = parents(node)
    for n in ast.walk(node):
        if not (isinstance(n, ast.Name) and n.id == name):
            continue
        if not isinstance(n.ctx, ast.Load):
            return False
        parent = up.get(id(n))
        if not (only_truth_tested(n, up) or isinstance(parent, ast.Call) and any(a is n for a in parent.args)
                and local(parent)):
            return False
    return True
