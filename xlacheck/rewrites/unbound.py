"""A name assigned in one branch of a tensor ``if`` only: when does the original provably raise
UnboundLocalError wherever the branch does not run (so a NaN there changes nothing the
original returns)?
"""

from __future__ import annotations

import ast

from xlacheck.analysis import TRY_STATEMENTS
from xlacheck.analysis.scopes import own_nodes
from xlacheck.rewrites._expr import ELEMENTWISE_UNARY, FULL_REDUCTIONS, call_name, is_scalar
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import certain_dtype, is_floating
from xlacheck.rewrites.handlers import who_catches
from xlacheck.rewrites.truth import LAZY, NOT_SCALAR, lazy_operands

TENSOR_CALLS = FULL_REDUCTIONS | ELEMENTWISE_UNARY | frozenset(
    f"{prefix}{op}" for prefix in ("tf.", "tf.math.", "tf.linalg.")
    for op in ("cast", "constant", "convert_to_tensor", "matmul", "reshape", "zeros_like", "ones_like", "maximum",
               "minimum", "add", "subtract", "multiply", "divide", "truediv", "where", "norm")
)
DYNAMIC_SCOPE = frozenset({"locals", "vars", "dir", "exec", "eval", "globals"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def is_tensor(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Provably a tensor (not a Python number): a TensorFlow op, arithmetic on one, a name bound to one."""
    if depth > 8:
        return False
    if isinstance(node, ast.Call):
        return call_name(src, node) in TENSOR_CALLS
    if isinstance(node, ast.BinOp):
        return is_tensor(src, node.left, depth + 1) or is_tensor(src, node.right, depth + 1)
    if isinstance(node, ast.UnaryOp):
        return is_tensor(src, node.operand, depth + 1)
    if isinstance(node, ast.Subscript):
        return is_tensor(src, node.value, depth + 1)
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and is_tensor(src, bound, depth + 1)
    return False


def float_tensor(src: Source, node: ast.AST) -> bool:
    """Provably a floating (or complex) tensor: a dtype :func:`certain_dtype` reads as floating,
    or ``/`` with a provable tensor operand (true division gives float64 for int32, float32 for
    smaller ints, the operand's dtype for floats and complex). ``tf.where(c, v, float("nan"))``
    keeps the dtype of such a ``v`` (float16, bfloat16, float32, float64, complex64, complex128:
    checked) and raises for integer ``v``."""
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and float_tensor(src, bound)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and (is_tensor(src, node.left)
                                                                          or is_tensor(src, node.right)):
        return True
    return is_floating(certain_dtype(src, node))

def local_bound_before(src: Source, name: str, node: ast.If) -> bool:
    """Whether ``name`` has a value when the ``if`` runs. The ``if`` assigns it, so inside a
    function that does not declare it global or nonlocal it is local there: module and enclosing
    bindings never reach it (the original raises UnboundLocalError), only parameters and
    earlier stores do."""
    scope = src.scope_of(node)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) or name in src.declared_outside(scope):
        return src.bound_before(name, node)
    args = scope.args
    if name in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}:
        return True
    here = (node.lineno, node.col_offset)
    return any((s.lineno, s.col_offset) < here and src.scope_of(s) is scope for s in src.stores_in(scope).get(name, ()))


def _other_binding(src: Source, func: ast.AST, name: str, assign: ast.stmt) -> int | None:
    """The line of any binding of ``name`` in ``func`` (nested scopes included) other than
    ``assign``: stores, ``del``, imports, defs, except/match names, global/nonlocal, parameters."""
    for sub in ast.walk(func):
        line = getattr(sub, "lineno", func.lineno)  # type: ignore[attr-defined]
        if isinstance(sub, ast.Name) and sub.id == name and not isinstance(sub.ctx, ast.Load):
            if src.statement_of(sub) is not assign:
                return line
        elif (isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub is not func
              and sub.name == name) or (isinstance(sub, ast.alias) and (sub.asname or sub.name.partition(".")[0])
                                        == name) or (isinstance(sub, ast.arg) and sub.arg == name) or \
                (isinstance(sub, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and sub.name == name) or \
                (isinstance(sub, ast.MatchMapping) and sub.rest == name) or \
                (isinstance(sub, (ast.Global, ast.Nonlocal)) and name in sub.names):
            return line
    return None


def _eager_reads(node: ast.AST, name: str) -> bool:
    """``node`` reads ``name`` whenever it is evaluated to the end: not in a lambda, a nested
    def, a comprehension (but its first iterable), an ``if``-expression's branches, or the
    operands that ``and``/``or``/a comparison chain may skip."""
    if isinstance(node, ast.Name):
        return node.id == name and isinstance(node.ctx, ast.Load)
    if isinstance(node, _SCOPES):
        return False
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return _eager_reads(node.generators[0].iter, name)
    if isinstance(node, ast.IfExp):
        return _eager_reads(node.test, name)
    if isinstance(node, ast.BoolOp):
        return _eager_reads(node.values[0], name)
    if isinstance(node, ast.Compare):
        return _eager_reads(node.left, name) or _eager_reads(node.comparators[0], name)
    return any(_eager_reads(child, name) for child in ast.iter_child_nodes(node))


def _header_reads(stmt: ast.stmt, name: str) -> bool:
    """The statement reads ``name`` whenever it runs to completion (compound ones: in the part
    evaluated first)."""
    if isinstance(stmt, (ast.If, ast.While)):
        return _eager_reads(stmt.test, name)
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return _eager_reads(stmt.iter, name)
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return any(_eager_reads(item.context_expr, name) for item in stmt.items)
    if isinstance(stmt, (*_SCOPES, *TRY_STATEMENTS, ast.Match)):
        return False
    if isinstance(stmt, ast.Assert):
        return _eager_reads(stmt.test, name)
    return _eager_reads(stmt, name)


def _may_leave(stmt: ast.stmt) -> bool:
    """The statement may end the function normally or jump (return, break, continue, yield)."""
    return any(isinstance(n, (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom))
               for n in [stmt, *own_nodes(stmt, include_signature=True)])


def _read_after(src: Source, node: ast.If, name: str, func: ast.AST) -> bool:
    """Every path that leaves the ``if`` normally reaches a read of ``name`` (or raises first):
    the statements after it, up through enclosing ``if``/``with`` blocks, read it before any
    of them may return, jump or yield."""
    stmt: ast.stmt = node
    while True:
        block = src.body_containing(stmt)
        parent = src.parents.get(stmt)
        if block is None:
            return False
        for later in block[next(i for i, s in enumerate(block) if s is stmt) + 1:]:
            if _header_reads(later, name):
                return True
            if _may_leave(later):
                return False
        if parent is func or not isinstance(parent, (ast.If, ast.With, ast.AsyncWith)):
            return False
        stmt = parent


def unbound_reasons(src: Source, node: ast.If, name: str, value: ast.expr, side: str) -> list[str]:
    """Why a poison value for ``name`` on the ``side`` path (where the branch does not bind it)
    might be observed (empty when the original provably raises on every such path)."""
    func = src.scope_of(node)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ["not inside a function: an unbound name may be found elsewhere"]
    reasons = []
    other = _other_binding(src, func, name, src.statement_of(value))  # type: ignore[arg-type]
    if other is not None:
        reasons.append(f"`{name}` is also bound on line {other}, so it may have a value when the condition is {side}")
    if any(isinstance(a, (ast.For, ast.AsyncFor, ast.While)) for a in src.ancestors(node)
           if src.scope_of(a) is func or a is func):
        reasons.append(f"the `if` is inside a loop: an earlier iteration may have bound `{name}`")
    dynamic = next((n.func.id for n in ast.walk(func) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                    and n.func.id in DYNAMIC_SCOPE), None)
    if dynamic is not None:
        reasons.append(f"the function calls {dynamic}(), which may see `{name}` without reading it")
    catcher = who_catches(src, node, "UnboundLocalError")
    if catcher:
        reasons.append(catcher)
    if not _read_after(src, node, name, func):
        reasons.append(f"cannot prove the code after the `if` reads `{name}` on every path: where it does not, the "
                       f"original returns normally with the condition {side}, and the fix computes the branch value "
                       f"there too")
    if not float_tensor(src, value):
        reasons.append(f"cannot prove `{name}` is a float tensor: NaN fits only float dtypes, and a Python number "
                       f"would become a tensor")
    if not is_scalar(src, node.test) and isinstance(node.test, (ast.BoolOp, ast.UnaryOp)):
        reasons.append(NOT_SCALAR)
    if lazy_operands(node.test, side == "true"):
        reasons.append(LAZY)
    return reasons
