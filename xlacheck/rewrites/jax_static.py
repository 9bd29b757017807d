"""A shape argument read from a parameter of a ``jax.jit`` function (XLA207) -> that parameter static.

``jnp.fft.rfft(signal, n=n_fft)``, ``jnp.squeeze(x, axis)``, ``jnp.zeros((n,))`` need their size or
axis while tracing; a parameter of a jitted function is traced, so tracing fails
(ConcretizationTypeError). Which arguments must be static comes from the JAX API table
(:func:`xlacheck.analysis.tables.static_arguments`), the same table the rule reads. When such an
argument is made only of parameters of the decorated function (not rebound in it), numbers and
arithmetic, ``@jax.jit`` becomes ``@functools.partial(jax.jit, static_argnames=(...))`` naming
those parameters: they are Python values while tracing, exactly what the original asked of them.

The argument may also read static facts of the other parameters (``x.shape[0]``, ``x.ndim``,
``len(x)``), comparisons, conditional expressions, the builtins ``min``/``max``/``abs``/``int``, and
local names bound once, before it, at the top of the function, to such values
(``rows = jnp.where(n < x.shape[0], n, x.shape[0])``). Under ``jax.jit`` every ``jax.numpy`` call is
traced, even on Python numbers, so the ``jax.numpy`` calls on such values that have a Python
equivalent (:data:`PYTHON_EQUIVALENTS`: ``where`` -> a conditional expression, ``minimum``/
``maximum`` -> ``min``/``max``, ``abs``) are rewritten into it: with the parameters static they
compute the same number as a Python value (a weakly typed scalar, as the ``jax.numpy`` result of
Python numbers is), and other reads of the local name see that number.

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


# ``jax.numpy`` calls with a Python equivalent on Python numbers: name -> builtin (``where``: a
# conditional expression). The one table the static-argument fix reads.
PYTHON_EQUIVALENTS = {"jax.numpy.minimum": "min", "jax.numpy.maximum": "max", "jax.numpy.abs": "abs",
                      "jax.numpy.absolute": "abs", "jax.numpy.where": None}
_BUILTINS = frozenset({"min", "max", "abs", "int", "len"})
_STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "size"})
_OPERATORS = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Tuple, ast.List,
              ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context)


class _StaticValue:
    """The parameters a static argument reads, and the edits that make it a Python value (a
    ``jax.numpy`` call on Python numbers rewritten into its Python equivalent)."""

    def __init__(self, src: Source, function: ast.FunctionDef) -> None:
        self.src = src
        self.function = function
        args = function.args
        self.params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
        self.stores = src.stores_in(function)
        self.names: list[str] = []
        self.edits: list[Edit] = []
        self._followed: set[str] = set()

    def read(self, expr: ast.expr) -> bool:
        """Whether ``expr`` is a Python value once the parameters it reads are static (recording
        them, and the edits its ``jax.numpy`` calls need)."""
        if isinstance(expr, ast.Name):
            return self._name(expr)
        if isinstance(expr, ast.Attribute) and expr.attr in _STATIC_ATTRIBUTES:
            return isinstance(expr.value, ast.Name) and expr.value.id in self.params  # an array's static facts
        if isinstance(expr, ast.Subscript):
            return self.read(expr.value) and self.read(expr.slice)
        if isinstance(expr, ast.Slice):
            return all(self.read(part) for part in (expr.lower, expr.upper, expr.step) if part is not None)
        if isinstance(expr, ast.Call):
            return self._call(expr)
        if not isinstance(expr, _OPERATORS):
            return False
        return all(self.read(child) for child in ast.iter_child_nodes(expr)
                   if isinstance(child, ast.expr))

    def _name(self, node: ast.Name) -> bool:
        if node.id in self.params:
            if self.stores.get(node.id):
                return False
            if node.id not in self.names:
                self.names.append(node.id)
            return True
        if node.id in self._followed:
            return True
        value = self.src.local_binding(node.id, node)
        assign = self.src.parents.get(value) if value is not None else None
        if assign is None or self.src.parents.get(assign) is not self.function:
            return False  # bound in a block (a loop or a branch) or more than once: not followed
        reads = self.src.loads_of(node.id, self.function)
        if any(isinstance(self.src.parents.get(r), ast.Attribute) for r in reads):
            return False  # `rows.astype(...)`: an array's method on what becomes a Python number
        self._followed.add(node.id)
        return self.read(value)

    def _call(self, call: ast.Call) -> bool:
        if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            return False
        if isinstance(call.func, ast.Name) and call.func.id in _BUILTINS and not self.stores.get(call.func.id):
            if call.func.id == "len" and len(call.args) == 1 and isinstance(call.args[0], ast.Name) \
                    and call.args[0].id in self.params:
                return True  # the length of an array parameter is its static first dimension
            return all(self.read(a) for a in call.args)
        name = canonical(self.src, call.func)
        if name not in PYTHON_EQUIVALENTS or not all(self.read(a) for a in call.args):
            return False
        builtin = PYTHON_EQUIVALENTS[name]
        parts = [self.text_of(a) for a in call.args]
        if builtin is None:
            if len(parts) != 3:
                return False
            text = f"({parts[1]} if {parts[0]} else {parts[2]})"
        else:
            text = f"{builtin}({', '.join(parts)})"
        # the edits of inner calls are folded into this one's text: edits must not nest
        self.edits = [e for e in self.edits if not self.within(e, call)]
        self.edits.append(replace(self.src, call, text))
        return True

    def within(self, edit: Edit, node: ast.AST) -> bool:
        return self.src.start(node) <= edit.start and edit.end <= self.src.end(node)

    def text_of(self, node: ast.expr) -> str:
        """``node``'s source with the edits already made inside it applied."""
        inner = [e for e in self.edits if self.within(e, node)]
        base = self.src.offset(self.src.start(node))
        text = self.src.segment(node)
        for edit in sorted(inner, key=lambda e: e.start, reverse=True):
            start, end = self.src.offset(edit.start) - base, self.src.offset(edit.end) - base
            text = text[:start] + edit.content + text[end:]
        return text


@rewriter(ast.Call, pointed=True)
def rewrite_jax_static_argument(src: Source, node: ast.AST) -> Fix | None:
    jax = module_alias(src.tree, "jax")
    if jax is None or not isinstance(node, ast.Call):
        return None
    jitted = _jitted_function(src, node)
    if jitted is None:
        return None
    function, decorator = jitted
    name = canonical(src, node.func)
    if name is None or api_table.fact_for(name) is None:
        return None
    value = _StaticValue(src, function)
    arguments = static_arguments(name, node)
    if not arguments or not all(value.read(argument) for _, argument in arguments):
        return None
    static = value.names
    if not static:
        return None
    edits = [*_static_decorator(src, decorator, static), *value.edits]
    return make_fix(f"Mark {', '.join(f'`{p}`' for p in static)} static in jax.jit: a shape argument needs a Python "
                    "value while tracing", edits, [RECOMPILES])


def _jitted_function(src: Source, node: ast.AST) -> tuple[ast.FunctionDef, ast.expr] | None:
    """The function around ``node`` and its decorator, when its only decorator is ``@jax.jit`` (the
    one a static-argument fix rewrites)."""
    function = src.scope_of(node)
    if not isinstance(function, ast.FunctionDef) or len(function.decorator_list) != 1:
        return None
    decorator = function.decorator_list[0]
    return (function, decorator) if canonical(src, decorator) == "jax.jit" else None


def _static_decorator(src: Source, decorator: ast.expr, static: list[str]) -> list[Edit]:
    """``@jax.jit`` -> ``@functools.partial(jax.jit, static_argnames=(...))`` naming ``static``,
    with ``import functools`` where the module has none."""
    names = ", ".join(f'"{p}"' for p in static) + ("," if len(static) == 1 else "")
    edits = [replace(src, decorator, f"functools.partial({src.segment(decorator)}, static_argnames=({names}))")]
    if module_alias(src.tree, "functools") != "functools":
        at = Location(_import_line(src), 0)
        edits.insert(0, Edit(at, at, "import functools\n"))
    return edits


def _import_line(src: Source) -> int:
    """The line of the module's first import (after its docstring and ``__future__`` imports)."""
    for stmt in src.tree.body:
        if isinstance(stmt, ast.Import) or (isinstance(stmt, ast.ImportFrom) and stmt.module != "__future__"):
            return stmt.lineno
    return 1


_BRANCHING = frozenset({"jax.lax.switch", "jax.lax.cond"})


@rewriter(ast.Call, pointed=True)
def rewrite_jax_static_branch(src: Source, node: ast.AST) -> Fix | None:
    """``lax.switch(i, [f, g], *operands)`` / ``lax.cond(p, f, g, *operands)`` whose branches return
    different forms (XLA114), in a ``@jax.jit`` function whose index or predicate is made of its
    parameters (as :class:`_StaticValue` reads them): those parameters static and the branch
    picked in Python, ``(f, g)[min(max(int(i), 0), 1)](*operands)`` (``lax.switch`` clamps its
    index into range) or ``((f) if p else (g))(*operands)``. The picked branch computes what
    ``lax.switch``/``lax.cond`` would have computed with that index, without tracing the others:
    the output form may then differ per value, which is what the code asked for. UNSAFE as every
    static-argument fix (:data:`RECOMPILES`)."""
    if not isinstance(node, ast.Call) or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    name = canonical(src, node.func)
    if name not in _BRANCHING:
        return None
    jitted = _jitted_function(src, node)
    if jitted is None:
        return None
    function, decorator = jitted
    value = _StaticValue(src, function)
    if not node.args or not value.read(node.args[0]) or not value.names:
        return None
    index = value.text_of(node.args[0])
    if name == "jax.lax.switch":
        if len(node.args) < 2 or not isinstance(node.args[1], (ast.List, ast.Tuple)) or not node.args[1].elts:
            return None
        branches = [src.segment(b) for b in node.args[1].elts]
        last = len(branches) - 1
        picked = f"({', '.join(branches)}{',' if len(branches) == 1 else ''})[min(max(int({index}), 0), {last})]"
        operands = node.args[2:]
    else:
        if len(node.args) < 3:
            return None
        picked = f"(({src.segment(node.args[1])}) if {index} else ({src.segment(node.args[2])}))"
        operands = node.args[3:]
    call = f"{picked}({', '.join(src.segment(a) for a in operands)})"
    inner = [e for e in value.edits if value.within(e, node.args[0])]
    static = value.names
    edits = [*_static_decorator(src, decorator, static), *[e for e in value.edits if e not in inner],
             replace(src, node, call)]
    short = name.rsplit(".", 1)[-1]
    return make_fix(f"Mark {', '.join(f'`{p}`' for p in static)} static in jax.jit and pick the {short} branch in "
                    "Python: only the branch taken is traced, so the branches may return different forms",
                    edits, [RECOMPILES])

