"""A shape argument read from a parameter of a ``jax.jit`` function (XLA207) -> that parameter static.

``jnp.fft.rfft(signal, n=n_fft)``, ``jnp.squeeze(x, axis)``, ``jnp.zeros((n,))`` need their size or
axis while tracing; a parameter of a jitted function is traced, so tracing fails
(ConcretizationTypeError). Which arguments must be static comes from the JAX API table
(:func:`xlacheck.analysis.tables.static_arguments`), the same table the rule reads. When such an
argument is made only of parameters of the decorated function (not rebound in it), numbers and
arithmetic, ``@jax.jit`` becomes ``@functools.partial(jax.jit, static_argnames=(...))`` naming
those parameters: they are Python values while tracing, exactly what the original asked of them.

Always UNSAFE: each new value of a static argument compiles the function anew (the recompile the
rule's message warns about), and a static argument must be hashable: a caller that passes an
array there raises (pass a Python int or tuple). Only for a bare ``@jax.jit`` (``@jit`` imported
from jax) decorator; ``import functools`` is added when the module has none.
"""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis.tables import static_arguments
from xlacheck.diagnostics import Edit, Fix, Location
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source, dotted, module_alias

RECOMPILES = ("each new value of a static argument compiles the function anew, and it must be hashable: a caller "
              "passing an array there raises (pass a Python int or tuple)")


def canonical(src: Source, node: ast.expr) -> str | None:
    """``jnp.fft.rfft`` as ``jax.numpy.fft.rfft``: the root name replaced by the module it imports."""
    name = dotted(node)
    if name is None:
        return None
    root, _, rest = name.partition(".")
    for stmt in src.tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if (alias.asname or alias.name.split(".")[0]) == root:
                    module = alias.name if alias.asname else root
                    return f"{module}.{rest}" if rest else module
        elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
            for alias in stmt.names:
                if (alias.asname or alias.name) == root:
                    return f"{stmt.module}.{alias.name}" + (f".{rest}" if rest else "")
    return None


def _parameters(src: Source, expr: ast.expr, function: ast.FunctionDef) -> list[str] | None:
    """The parameters ``expr`` reads when it is made only of them (not rebound), numbers and
    arithmetic (tuples of such too); None otherwise."""
    args = function.args
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    stores = src.stores_in(function)
    names: list[str] = []
    for node in ast.walk(expr):
        if isinstance(node, ast.Name):
            if node.id not in params or stores.get(node.id):
                return None
            names.append(node.id)
        elif not isinstance(node, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.operator,
                                   ast.unaryop, ast.expr_context)):
            return None
    return list(dict.fromkeys(names)) or None


@rewriter(ast.Call, pointed=True)
def rewrite_jax_static_argument(src: Source, node: ast.AST) -> Fix | None:
    jax = module_alias(src.tree, "jax")
    if jax is None or not isinstance(node, ast.Call):
        return None
    function = src.scope_of(node)
    if not isinstance(function, ast.FunctionDef) or len(function.decorator_list) != 1:
        return None
    decorator = function.decorator_list[0]
    if canonical(src, decorator) != "jax.jit":
        return None
    name = canonical(src, node.func)
    if name is None or api_table.fact_for(name) is None:
        return None
    static: list[str] = []
    for _, argument in static_arguments(name, node):
        found = _parameters(src, argument, function)
        if found is None:
            return None
        static += [p for p in found if p not in static]
    if not static:
        return None
    names = ", ".join(f'"{p}"' for p in static) + ("," if len(static) == 1 else "")
    edits = [replace(src, decorator, f"functools.partial({src.segment(decorator)}, static_argnames=({names}))")]
    if module_alias(src.tree, "functools") != "functools":
        at = Location(_import_line(src), 0)
        edits.insert(0, Edit(at, at, "import functools\n"))
    return make_fix(f"Mark {', '.join(f'`{p}`' for p in static)} static in jax.jit: a shape argument needs a Python "
                    "value while tracing", edits, [RECOMPILES])


def _import_line(src: Source) -> int:
    """The line of the module's first import (after its docstring and ``__future__`` imports)."""
    for stmt in src.tree.body:
        if isinstance(stmt, ast.Import) or (isinstance(stmt, ast.ImportFrom) and stmt.module != "__future__"):
            return stmt.lineno
    return 1
