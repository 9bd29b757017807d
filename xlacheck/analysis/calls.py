"""Parameters that every call of a function leaves at one literal: the branches they rule out never run.

A function's every call is in view when nothing outside its file can name it: a function nested in
another, or a private one (``_sinkhorn``, ``_pad``: a leading underscore, not a dunder), whose name the
file uses only as the callee of calls (``_f(...)``, ``self._f(...)``, ``Cls._f(...)``; never handed on as
a value, never spelled as a string for ``getattr``). For such a function, a parameter with a literal
default (``tol=None``) that no call passes (no keyword, no positional argument that reaches it, no
``*args``/``**kwargs``) is that literal at every run, and so is one that every call passes as the same
literal; :func:`literal_test` then decides ``if tol is not None:`` / ``if p:`` / ``if mode == "cpu":``
on it. Private names are a convention, not a fence: a module that imports ``_f`` and passes other
literals is not seen (a single-file fact; decorated functions are left out, since a decorator may call
its function with arguments of its own).
A branch that can never run is code the project never runs (docs/real-code-judgments-11.md:
the only caller of ``RouterSinkhorn._sinkhorn`` does not pass ``tol``, so its ``float(error)`` check
never reads the device). A parameter the function rebinds is left out.

:func:`closed_call_literals` is computed once per file; the PyTorch adapter
(:mod:`xlacheck.analysis.torch_model`) walks the ruled-out branches for their bindings only.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from xlacheck.analysis import walk

if TYPE_CHECKING:
    from xlacheck.analysis.contexts import FunctionInfo

_UNKNOWN = object()  # a parameter two calls pass differently, or pass as a non-literal
_UNSET = object()  # no call seen yet


def _literal(e: ast.expr | None) -> object:
    """The value of a literal (``None``, ``True``, ``0``, ``-1``, ``"cpu"``), else ``_UNKNOWN``."""
    if isinstance(e, ast.Constant) and not isinstance(e.value, bytes):
        return e.value
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and isinstance(e.operand, ast.Constant) \
            and isinstance(e.operand.value, (int, float)) and not isinstance(e.operand.value, bool):
        return -e.operand.value
    return _UNKNOWN


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _through_class(c: ast.Call) -> bool:
    """``Cls.method(obj, ...)``: a plain method called through its class takes its receiver positionally."""
    f = c.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id[:1].isupper()


def _rebound(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names the function (or a function nested in it) stores to, or declares nonlocal/global."""
    out: set[str] = set()
    for n in walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.Nonlocal, ast.Global)):
            out.update(n.names)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
            out.add(n.name)
        elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            out.add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            out.add(n.rest)
    return out


def _mentions(tree: ast.Module, names: set[str]) -> tuple[dict[str, list[ast.Call]], set[str]]:
    """For each name: the calls whose callee spells it (``f(...)``, ``x.f(...)``), and the names the
    file also uses otherwise (as a value, an attribute read that is not called, a string constant)."""
    calls: dict[str, list[ast.Call]] = {}
    callee_ids: set[int] = set()
    for n in walk(tree):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in names:
                calls.setdefault(name, []).append(n)
                callee_ids.add(id(f))
    other: set[str] = set()
    for n in walk(tree):
        if id(n) in callee_ids:
            continue
        if isinstance(n, ast.Name) and n.id in names or isinstance(n, ast.Attribute) and n.attr in names:
            other.add(n.id if isinstance(n, ast.Name) else n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in names:
            other.add(n.value)
    return calls, other


def closed_call_literals(tree: ast.Module, functions: Iterable[FunctionInfo]) -> dict[int, dict[str, object]]:
    """id(function node) -> {parameter: the literal it is at every call}, for the functions whose every
    call the file shows (see the module docstring). Functions with no call at all get nothing."""
    closed = [f for f in functions if isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef))
              and (f.parent is not None and f.cls is None
                   or f.name.startswith("_") and not (f.name.startswith("__") and f.name.endswith("__")))
              and all(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
                      for d in f.node.decorator_list)]  # other decorators may call it with their own arguments
    if not closed:
        return {}
    calls, other = _mentions(tree, {f.name for f in closed})
    out: dict[int, dict[str, object]] = {}
    for f in closed:
        node = f.node
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        sites = calls.get(f.name, [])
        if not sites or f.name in other:
            continue
        a = node.args
        positional = a.posonlyargs + a.args
        defaults: dict[str, ast.expr] = dict(zip([p.arg for p in positional[len(positional) - len(a.defaults):]],
                                                 a.defaults))
        defaults.update((p.arg, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None)
        index = {p.arg: i for i, p in enumerate(positional)}
        # a method called through an attribute binds its receiver first; count it as passed positionally
        # (conservative: ``Cls.method(obj, x)`` reaches one parameter further than ``obj.method(x)``)
        shift = 1 if f.cls is not None and not _is_static(node) else 0
        rebound = _rebound(node)
        known: dict[str, object] = {}
        for param, default in defaults.items():
            if param in rebound:
                continue
            default_value = _literal(default)
            value: object = _UNSET
            for c in sites:
                if any(isinstance(x, ast.Starred) for x in c.args) or any(k.arg is None for k in c.keywords) \
                        or shift and _through_class(c):
                    value = _UNKNOWN
                    break
                passed = next((k.value for k in c.keywords if k.arg == param), None)
                if passed is None and param in index and index[param] < len(c.args) + shift:
                    at = index[param] - shift
                    if at < 0:  # the receiver slot: anything
                        value = _UNKNOWN
                        break
                    passed = c.args[at]
                got = default_value if passed is None else _literal(passed)
                if got is _UNKNOWN or value is not _UNSET and (got != value or type(got) is not type(value)):
                    value = _UNKNOWN
                    break
                value = got
            if value is not _UNKNOWN and value is not _UNSET:
                known[param] = value
        if known:
            out[id(node)] = known
    return out


def literal_test(test: ast.expr, literals: Mapping[str, object]) -> bool | None:
    """The truth of a test on parameters known to be literals: ``p``, ``not p``, ``p is None``,
    ``p is not None``, ``p == "cpu"``, ``p != 0``, and ``and``/``or`` of such tests; None when the test
    depends on anything else."""
    if not literals:
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = literal_test(test.operand, literals)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        parts = [literal_test(v, literals) for v in test.values]
        decisive = isinstance(test.op, ast.Or)  # the value that decides an `or` (True) or an `and` (False)
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    if isinstance(test, ast.Name):
        value = literals.get(test.id, _UNKNOWN)
        return None if value is _UNKNOWN else bool(value)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right, op = test.left, test.comparators[0], test.ops[0]
        if isinstance(left, ast.Constant):
            left, right = right, left
        if not isinstance(left, ast.Name) or left.id not in literals:
            return None
        value, other = literals[left.id], _literal(right)
        if other is _UNKNOWN:
            return None
        if isinstance(op, (ast.Is, ast.IsNot)):
            if other is not None and value is not None:
                return None  # (identity of other literals is an implementation detail)
            return (value is other) == isinstance(op, ast.Is)
        if isinstance(op, (ast.Eq, ast.NotEq)) and type(value) is type(other):
            return (value == other) == isinstance(op, ast.Eq)
    return None
