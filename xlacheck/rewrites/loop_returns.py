"""``if c: return a`` inside a Python loop over a static range -> a flag, every iteration, and ``where``.

A Python ``for i in range(...)`` loop is unrolled while tracing (by ``jax.jit``, and by AutoGraph
for a Python ``range``), so an ``if`` on a traced value that returns from inside it cannot be
staged: JAX raises ``TracerBoolConversionError`` (XLA101), AutoGraph "the else branch must also
have a return statement" (XLA110). When the function ends in ``return b`` after the loop, the
returned value is a selection: the ``a`` of the first iteration whose condition holds, ``b`` if
none does. The rewrite keeps a flag (``returned``) and that value (``returned_value``) across the
unrolled iterations::

    returned, returned_value = False, None
    for i in range(n):
        ...
        returns_now = logical_and(logical_not(returned), c)
        returned_value = (a) if returned_value is None else where(returns_now, a, returned_value)
        returned = logical_or(returned, returns_now)
    return (b) if returned_value is None else where(returned, returned_value, b)

``returned_value is None`` is a Python test while tracing (true only before the first iteration,
and after the loop only when the range is empty), so the first iteration's ``a`` is kept as it is:
if its condition does not hold, ``returned`` stays false and a later ``a`` or ``b`` replaces it.
Statements before the ``return`` in the ``if`` move into a local function that returns ``a``
(a name they rebind that has a value before the ``if`` is its parameter, so the rebinding stays
local, as it was: the original returned right after it), called each iteration.
The value is the one Python returned; every iteration and the rest of the function run (the
discarded work is computed), so the rewrite is refused where they break, continue, return
elsewhere, define functions or classes, or call anything but the framework and pure builtins
(their side effects would run in iterations the original skipped). UNSAFE, always
(:data:`EARLY_RETURN`). One construction for both frameworks: ``ops`` names the module
(``jax.numpy`` or ``tf``) whose ``where``/``logical_*`` it writes, the condition's predicate, and
the framework's purity check.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Sequence

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._fix import make_fix, replace_lines
from xlacheck.rewrites._source import Source

# builtins that loop bodies may call without effects the rewrites would repeat (the JAX and TF
# loop fixes share it)
PURE_BUILTINS = frozenset({"abs", "float", "int", "len", "max", "min", "range", "tuple"})

EARLY_RETURN = ("every iteration of the loop and the rest of the function run, also after the iteration that "
                "returned (their values are discarded, but a NaN or inf there reaches the gradient through "
                "`where`), and the values returned must broadcast to one shape (JAX also promotes them to one "
                "dtype; TensorFlow raises where the dtypes differ)")
_REFUSED = (ast.Break, ast.Continue, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal,
            ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.Try, ast.With)


@dataclasses.dataclass(frozen=True)
class LoopReturnOps:
    """What one framework writes: the module of ``where``/``logical_*`` (``jax.numpy``, ``tf``), the
    condition as a bool predicate, whether statements call only that framework and pure builtins,
    and the reasons the predicate itself adds."""

    module: str
    pred: str
    pure: Callable[[Sequence[ast.stmt]], bool]
    reasons: Sequence[str] = ()


def select_returned(src: Source, node: ast.If, ops: LoopReturnOps) -> Fix | None:
    """The rewrite of ``node`` (``if c: return a`` directly in a ``for ... in range(...)`` loop at
    the top of a function that ends in ``return b``), or None where a form above is not met."""
    if node.orelse or not (isinstance(node.body[-1], ast.Return) and node.body[-1].value is not None):
        return None
    loop = src.parents.get(node)
    function = src.parents.get(loop) if loop is not None else None
    if not (isinstance(loop, ast.For) and node in loop.body and not loop.orelse
            and isinstance(function, ast.FunctionDef) and loop in function.body):
        return None
    if not (isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "range"
            and not src.stores_in(src.tree).get("range")):
        return None  # only a loop Python unrolls over a static range
    rest = function.body[function.body.index(loop) + 1:]
    if not rest or not isinstance(rest[-1], ast.Return) or rest[-1].value is None:
        return None
    returned = node.body[-1]
    for stmt in [*loop.body, *rest]:
        for sub in ast.walk(stmt):
            if isinstance(sub, _REFUSED) or isinstance(sub, ast.Return) and sub is not returned and sub is not rest[-1]:
                return None
    if not ops.pure([*loop.body, *rest]):
        return None
    if not all(src.alone_on_lines(stmt, stmt) for stmt in (*node.body, rest[-1], loop)):
        return None
    done, value, hit = src.fresh_name("returned"), src.fresh_name("returned_value"), src.fresh_name("returns_now")
    m = ops.module
    outer, inner = src.indent_of(loop), src.indent_of(node)
    early, final = src.segment(returned.value), src.segment(rest[-1].value)  # type: ignore[arg-type]
    select = ""
    if len(node.body) > 1:
        # the statements before the return move into a local function that returns its value: a
        # name they bind that has a value before the `if` is passed in (reads before the rebinding
        # see it; the rebinding stays local, as the original returned right after it)
        if any(isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.lineno != sub.end_lineno
               for stmt in node.body for sub in ast.walk(stmt)):
            return None  # a string over several lines would change when re-indented
        stored = dict.fromkeys(n.id for stmt in node.body for n in ast.walk(stmt)
                               if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
        params = ", ".join(name for name in stored if src.bound_before(name, node))
        branch = src.fresh_name("returned_branch")
        body = "".join(src.lines[node.body[0].lineno - 1:returned.end_lineno])
        step = src.indent_step(node)
        body = "".join(f"{step}{line[len(src.indent_of(node.body[0])) - len(inner):]}" if line.strip() else line
                       for line in body.splitlines(keepends=True))
        select = f"{inner}def {branch}({params}):\n{body}"
        early = f"{branch}({params})"
    select += (f"{inner}{hit} = {m}.logical_and({m}.logical_not({done}), {ops.pred})\n"
               f"{inner}{value} = ({early}) if {value} is None else {m}.where({hit}, {early}, {value})\n"
               f"{inner}{done} = {m}.logical_or({done}, {hit})\n")
    end = f"{src.indent_of(rest[-1])}return ({final}) if {value} is None else {m}.where({done}, {value}, {final})\n"
    # one edit from the loop to the final return: each edit must parse as statements on its own
    lines = src.lines[loop.lineno - 1:rest[-1].end_lineno]
    first = loop.lineno
    text = "".join([f"{outer}{done}, {value} = False, None\n", *lines[:node.lineno - first], select,
                    *lines[(node.end_lineno or node.lineno) - first + 1:rest[-1].lineno - first], end])
    return make_fix(f"Return from the loop through a flag: every iteration runs, and {m}.where selects the value "
                    "of the first iteration whose condition holds",
                    [replace_lines(loop.lineno, rest[-1].end_lineno or rest[-1].lineno, text)],
                    [*ops.reasons, EARLY_RETURN])
