"""Which expressions evidently hold a NumPy array (host data), and what built it.

A NumPy array indexed with a traced value converts the tracer to NumPy (``np_array[tracer]`` raises
TracerArrayConversionError under ``jax.jit``, for a scalar or an array index alike; measured on
jax 0.10.2, reports24-jax). Model code rarely builds such a table in the function that indexes it:
it is a module-level constant, the result of a helper of this file, or an attribute a class fills in
``__init__`` (often from a NumPy random generator). :func:`numpy_source` follows those bindings
through this file only; anything it cannot see (an import, an argument, a branch-dependent value)
is not a NumPy array.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from xlacheck.analysis.scopes import own_nodes

# constructors of NumPy random generators: their methods (uniform, normal, integers, ...) return arrays
NUMPY_GENERATORS = frozenset({"np.random.default_rng", "np.random.RandomState", "np.random.Generator"})
_MAX_DEPTH = 4

Resolve = Callable[[ast.expr], "str | None"]


def _bindings(name: str, scope: ast.AST) -> list[ast.AST]:
    """Every statement or target that binds ``name`` in ``scope``'s own body (assignments first,
    then any other binding: a loop target, ``with ... as``, an import, a parameter)."""
    found: list[ast.AST] = []
    for node in own_nodes(scope, include_signature=True):
        if isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                found.append(node)
            elif any(isinstance(e, ast.Name) and e.id == name for t in node.targets
                     if isinstance(t, (ast.Tuple, ast.List)) for e in ast.walk(t)):
                found.append(node.targets[0])  # unpacked: not followed
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            if isinstance(node.target, ast.Name) and node.target.id == name:
                found.append(node)
        elif isinstance(node, (ast.For, ast.comprehension, ast.withitem)):
            target = node.optional_vars if isinstance(node, ast.withitem) else node.target
            if target is not None and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target)):
                found.append(node)
        elif isinstance(node, ast.arg) and node.arg == name:
            found.append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((a.asname or a.name).split(".")[0] == name for a in node.names):
                found.append(node)
    return found


def _single_value(found: list[ast.AST]) -> ast.expr | None:
    """The value of a name whose bindings in a scope are ``found`` (:func:`_bindings`), when that is
    exactly one plain assignment."""
    if len(found) == 1 and isinstance(found[0], ast.Assign):
        return found[0].value
    return None


class HostArrays:
    """Answers "is this a NumPy array, built by what?" for one file.

    ``resolve`` gives a call's canonical name (``np.zeros``), ``module_values`` the module-level
    ``NAME = value`` bindings, ``module_funcs`` the module-level function nodes by name.
    """

    def __init__(self, resolve: Resolve, module_values: Mapping[str, ast.expr],
                 module_funcs: Mapping[str, ast.AST]) -> None:
        self._resolve = resolve
        self._module_values = module_values
        self._module_funcs = module_funcs
        # (id of scope, name) -> _bindings(name, scope): one walk of a function per name it is asked about,
        # not one per question (a jitted function indexing several tables asks about each many times)
        self._found: dict[tuple[int, str], list[ast.AST]] = {}

    def _bound(self, name: str, scope: ast.AST) -> list[ast.AST]:
        key = (id(scope), name)
        if key not in self._found:
            self._found[key] = _bindings(name, scope)
        return self._found[key]

    def source(self, expr: ast.expr, scope: ast.AST | None, cls: ast.ClassDef | None = None,
               depth: int = 0) -> str | None:
        """The NumPy function that evidently built ``expr`` (read in ``scope``, a function node, or
        None for module level; ``cls``: the class whose ``self`` it may read), with how it got here
        (``np.zeros``, ``np.zeros (returned by table())``, ``np.random.default_rng().uniform``), or None."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(expr, ast.Call):
            return self._call_source(expr, scope, cls, depth)
        if isinstance(expr, ast.Name):
            found = self._bound(expr.id, scope) if scope is not None else []
            if found and scope is not None:
                loop = found[0]
                if (len(found) == 1 and isinstance(loop, (ast.For, ast.comprehension))
                        and isinstance(loop.target, ast.Name)):
                    # `for g in np.indices(shape)`: each element of a NumPy array is a NumPy array
                    inner = self.source(loop.iter, scope, cls, depth + 1)
                    return None if inner is None else f"{inner} (an element of)"
                value = _single_value(found)
                return None if value is None else self.source(value, scope, cls, depth + 1)
            value = self._module_values.get(expr.id)
            return None if value is None else self.source(value, None, None, depth + 1)
        if (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self"
                and cls is not None):
            return self._attribute_source(expr.attr, cls, depth)
        return None

    def _call_source(self, call: ast.Call, scope: ast.AST | None, cls: ast.ClassDef | None,
                     depth: int) -> str | None:
        name = self._resolve(call.func)
        if name is not None and name.startswith("np.") and name not in NUMPY_GENERATORS:
            return name
        func = call.func
        if isinstance(func, ast.Attribute):  # rng.uniform(...) of a NumPy generator bound here
            owner = func.value
            bound: ast.expr | None = owner if isinstance(owner, ast.Call) else None
            if isinstance(owner, ast.Name):
                found = self._bound(owner.id, scope) if scope is not None else []
                bound = _single_value(found) if found else self._module_values.get(owner.id)
            if isinstance(bound, ast.Call):
                maker = self._resolve(bound.func)
                if maker in NUMPY_GENERATORS:
                    return f"{maker}().{func.attr}"
            return None
        if isinstance(func, ast.Name) and func.id in self._module_funcs and not (
                scope is not None and self._bound(func.id, scope)):
            helper = self._module_funcs[func.id]
            returns = [n.value for n in own_nodes(helper) if isinstance(n, ast.Return)]
            if not returns or any(r is None for r in returns):
                return None
            sources = [self.source(r, helper, None, depth + 1) for r in returns if r is not None]
            if all(sources):
                return f"{sources[0]} (returned by {func.id}())"
        return None

    def _attribute_source(self, attr: str, cls: ast.ClassDef, depth: int) -> str | None:
        """``self.<attr>`` when every assignment to it in the class's methods is a NumPy array."""
        sources: list[str | None] = []
        for method in cls.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in own_nodes(method):
                targets: list[ast.expr] = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                    targets = [node.target]
                for target in targets:
                    for t in ast.walk(target):
                        if (isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                                and t.value.id == "self" and isinstance(t.ctx, ast.Store)):
                            plain = isinstance(node, ast.Assign) and t in node.targets
                            value = node.value if plain and isinstance(node, ast.Assign) else None
                            sources.append(None if value is None else self.source(value, method, None, depth + 1))
        if sources and all(sources):
            return sources[0]
        return None
