"""The calls between functions of one file, as the rewrites that edit a function and its callers
together read them (one home: :mod:`~xlacheck.rewrites.jax_static` hands static arguments up to the
callers, :mod:`~xlacheck.rewrites.jax_masks` hands a selection's mask across a call)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.analysis.scopes import parameter_defaults
from xlacheck.rewrites._source import Source


def callers(src: Source, function: ast.FunctionDef,
            through: Callable[[ast.Call], bool] | None = None) -> list[tuple[ast.FunctionDef, list[ast.Call]]] | None:
    """The functions that call ``function`` by name, with their calls; None when its name is read
    any other way (handed on, wrapped) or called outside a function. With ``through``, a wrapper
    ``T(function, ...)`` that ``through`` accepts and that is called at once, ``T(function)(args)``,
    counts as a call: the outer call, whose ``func`` is the wrapper (``through`` answers whether
    ``T`` hands those arguments to ``function`` by position, as ``jax.grad`` does)."""
    out: dict[int, tuple[ast.FunctionDef, list[ast.Call]]] = {}
    for ref in src.loads_of(function.name, src.scope_of(function)):
        call = src.parents.get(ref)
        caller = src.scope_of(ref)
        if through is not None and isinstance(call, ast.Call) and call.args and call.args[0] is ref \
                and through(call) and isinstance(src.parents.get(call), ast.Call) \
                and src.parents[call].func is call:  # type: ignore[attr-defined]
            ref, call = call, src.parents[call]
        if not (isinstance(call, ast.Call) and call.func is ref and isinstance(caller, ast.FunctionDef)) \
                or caller is function:
            return None
        out.setdefault(id(caller), (caller, []))[1].append(call)
    return list(out.values())


def passed_for(function: ast.FunctionDef, call: ast.Call, param: str) -> ast.expr | None:
    """What ``call`` passes for ``param`` of ``function`` (its default when it passes nothing);
    None when unpacked arguments leave it unknown."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg is None for kw in call.keywords):
        return None
    positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    if param in positional and positional.index(param) < len(call.args):
        return call.args[positional.index(param)]
    passed = next((kw.value for kw in call.keywords if kw.arg == param), None)
    if passed is not None:
        return passed
    return parameter_defaults(function).get(param)


def parameter_passed(function: ast.FunctionDef, call: ast.Call, argument: ast.expr) -> str | None:
    """The parameter of ``function`` that ``call`` passes ``argument`` to (positionally or by
    keyword); None for an unpacked call, an argument past the positional parameters, or a keyword
    ``function`` does not name."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg is None for kw in call.keywords):
        return None
    positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    if argument in call.args:
        k = call.args.index(argument)
        return positional[k] if k < len(positional) else None
    names = {*positional[len(function.args.posonlyargs):], *(a.arg for a in function.args.kwonlyargs)}
    return next((kw.arg for kw in call.keywords if kw.value is argument and kw.arg in names), None)


def module_function(src: Source, call: ast.Call) -> ast.FunctionDef | None:
    """The plain module-level function a call by bare name runs: defined once at module level, with
    no decorator (which could wrap it), the name bound no other way in the file nor in the calling
    function."""
    if not isinstance(call.func, ast.Name):
        return None
    name = call.func.id
    defined = [s for s in src.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
               and s.name == name]
    if len(defined) != 1 or not isinstance(defined[0], ast.FunctionDef) or defined[0].decorator_list:
        return None
    if src.stores_in(src.tree).get(name) or any(
            isinstance(n, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name).split(".")[0] == name
                                                                for a in n.names) for n in ast.walk(src.tree)):
        return None
    caller = src.scope_of(call)
    if caller is not src.tree and name in {
            a.arg for a in ast.walk(caller.args) if isinstance(a, ast.arg)}:  # type: ignore[union-attr]
        return None
    return defined[0]
