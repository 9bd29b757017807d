"""Exception handlers that could see an exception the original code raises: a fix may behave
differently only where the original raises, unless something turns that exception into a
normal return.
"""

from __future__ import annotations

import ast
import builtins

from xlacheck.analysis import TRY_STATEMENTS
from xlacheck.rewrites._source import Source, dotted


def _mro(name: str) -> frozenset[str] | None:
    """Names of a builtin exception class and its bases: what an ``except`` must name to catch
    it (None for other classes, whose bases are unknown here)."""
    cls = getattr(builtins, name, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        return None
    return frozenset(c.__name__ for c in cls.__mro__ if c is not object)


def _catches(src: Source, kind: ast.AST | None, mro: frozenset[str] | None, classes: set[str]) -> bool:
    if kind is None:
        return True  # a bare except
    if isinstance(kind, ast.Tuple):
        return any(_catches(src, k, mro, classes) for k in kind.elts)
    name = dotted(kind)
    if name is None or mro is None:
        return True
    last = name.rpartition(".")[2]
    if last in mro:
        return True
    if isinstance(kind, ast.Attribute) or name in classes:
        return False  # a class, not one of the builtin exception's bases (user classes never are)
    cls = getattr(builtins, name, None)
    return not (isinstance(cls, type) and issubclass(cls, BaseException))  # unknown: maybe a tuple of them


def who_catches(src: Source, node: ast.AST, exc: str) -> str | None:
    """Why the exception the original raises at ``node`` might be caught (then the original
    returns where the fix behaves differently), or None: ``node`` is not inside a ``try`` of
    its function, and no ``except``/``contextlib.suppress`` in the file can catch it. Callers
    in other files are not seen."""
    mro = _mro(exc)
    for parent in src.ancestors(node):
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            break
        if isinstance(parent, TRY_STATEMENTS):
            return "it is inside a try statement, which may turn the original's exception into a normal return"
    return src.memo((who_catches, exc), lambda: _caught_in_file(src, exc, mro))


def _caught_in_file(src: Source, exc: str, mro: frozenset[str] | None) -> str | None:
    """Any ``except``/``suppress`` of the file that could catch ``exc`` (the same for every
    finding: computed once per file and exception)."""
    classes = {n.name for n in src.nodes if isinstance(n, ast.ClassDef)}
    for sub in src.nodes:
        if isinstance(sub, ast.ExceptHandler) and _catches(src, sub.type, mro, classes):
            caught = src.segment(sub.type) if sub.type is not None else "a bare except"
            return f"`{caught}` (line {sub.lineno}) could catch the {exc} the original raises and return normally"
        if isinstance(sub, ast.Call) and (dotted(sub.func) or "").rpartition(".")[2] == "suppress" \
                and any(_catches(src, a, mro, classes) for a in sub.args):
            return f"`suppress(...)` (line {sub.lineno}) could catch the {exc} the original raises"
    return None
