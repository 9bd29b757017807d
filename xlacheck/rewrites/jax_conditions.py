"""Python conditionals on traced JAX arrays -> ``jax.lax.cond``.

Under ``jax.jit`` a Python ``if``/conditional expression on a traced array raises
``TracerBoolConversionError`` (XLA101). ``jax.lax.cond(pred, lambda: a, lambda: b)`` is the
traced form: at run time only the branch ``pred`` selects is executed, so its value is the value
Python picked, and so is the gradient (the untaken branch is not differentiated: no ``0 * inf``
NaN, unlike ``jnp.where``). The forms rewritten, and nothing else:

* a conditional expression ``a if c else b`` -> ``jax.lax.cond(c, lambda: a, lambda: b)``;
* ``if c:`` / ``else:`` whose branches each assign one name, the same, once
  (``x = a`` / ``x = b``; an augmented ``x += a`` reads ``x + a``); without ``else`` the name must
  be bound before the ``if`` and keeps its value (``lambda: x``);
* ``if c: return a`` then ``else: return b``, or ``return b`` as the next statement; at the top
  of a function, ``if c: return a`` followed by the rest of the function, which becomes a local
  function called by the other branch (:func:`_returned_before_rest`);
* every other ``if`` whose branches are statements that can move into local functions (several
  assignments that read each other, several names, an ``elif`` chain, taken from its ``if``):
  ``jax.lax.cond`` over two local functions holding the branches as written, built as
  TensorFlow's ``tf.cond`` form is (:func:`_functions`).

Every fix is UNSAFE, and says why: ``lax.cond`` traces both branches, so the Python side effects
of the untaken one run while tracing, and branches whose shapes or dtypes differ raise at trace
time where Python picked one value (loudly; a weakly typed Python number is promoted). Gradients
are the original's where the branches read only the inputs; a value computed outside and read by
a branch (``n = jnp.linalg.norm(x)``) gets the untaken branch's zero cotangent, and ``0 * NaN``
through its derivative where that is infinite (the norm at 0: measured, jax 0.10.2); ``pred``
must be a scalar (a non-scalar condition raises in the original too). A condition that is not a
comparison is read as ``jax.numpy.asarray(c) != 0``, its truth value for a real number or a bool.
``bool(c)`` is ``c``'s predicate (the same truth value, traced),
``not c`` is ``jax.numpy.logical_not`` of ``c``'s predicate, ``a and b`` / ``a or b``
``jax.numpy.logical_and``/``logical_or`` of theirs: Python stops at the first operand that
decides, the fix evaluates every one (``LAZY`` says so), so only where the later operands call
nothing but JAX (a module function, or a method of the JAX table's ``array_methods`` that computes a
value: ``x.max()``). Conditions and branches that bind names (``:=``),
yield or await are left alone. TensorFlow code never gets this fix (``Frameworks.foreign``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck import api_table
from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg
from xlacheck.rewrites._fix import make_fix, replace, replace_block, replace_lines, rewriter
from xlacheck.rewrites._source import Source, jax_alias, module_alias, needs_jax_import  # noqa: F401 (re-exported)
from xlacheck.rewrites.truth import LAZY, sequence_equality
from xlacheck.rewrites.loop_returns import PURE_BUILTINS

TRACES_BOTH = ("jax.lax.cond traces both branches: the Python side effects of the untaken one run while tracing, "
               "and branches of different shapes or dtypes raise at trace time where Python picked one value; "
               "the untaken branch sends a zero gradient to what it reads, which is NaN through an op with an "
               "infinite derivative there (a norm at 0)")
# The rewriters that emit JAX, not TensorFlow: the only ones tried in a file without TensorFlow.
JAX_REWRITERS = frozenset({"rewrite_jax_cond", "rewrite_jax_loop", "rewrite_jax_boolean_mask",
                           "rewrite_jax_host_read", "rewrite_jax_filtered_sum", "rewrite_jax_static_argument",
                           "rewrite_jax_dynamic_slice", "rewrite_jax_static_branch",
                           "rewrite_jax_check", "rewrite_jax_debug_print",
                           "rewrite_jax_static_condition", "rewrite_jax_segment_count",
                           "rewrite_jax_grown_carry", "rewrite_repeat_reduction",
                           "rewrite_jax_prefix_attention", "rewrite_jax_builtin",
                           "rewrite_jax_tested_bool"})
_UNSUPPORTED = (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)


def _plain(src: Source, *nodes: ast.AST) -> bool:
    return not any(isinstance(n, _UNSUPPORTED) for node in nodes for n in ast.walk(node))


def _pred(src: Source, jax: str, test: ast.expr) -> str | None:
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "bool" \
            and len(test.args) == 1 and not test.keywords and not isinstance(test.args[0], ast.Starred) \
            and not src.stores_in(src.tree).get("bool"):
        # `bool(c)` asks the traced operand for its Python truth value, as `if c:` does: the
        # predicate of `c` is the same truth value, traced
        return _pred(src, jax, test.args[0])
    if isinstance(test, ast.BoolOp):
        # Python evaluates the operands lazily; the traced form evaluates all of them, which is
        # the same values for JAX operations (LAZY says so): refused where a later operand calls
        # anything else, whose side effects or errors the original may skip
        if _jax_calls_only(src, jax, [ast.Expr(v) for v in test.values[1:]]) is not None:
            return None
        parts = [_pred(src, jax, v) for v in test.values]
        if any(p is None for p in parts):
            return None
        fn = f"{jax}.numpy.logical_{'and' if isinstance(test.op, ast.And) else 'or'}"
        text = parts[-1]
        for part in reversed(parts[:-1]):
            text = f"{fn}({part}, {text})"
        return text
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        # `not` asks a traced operand for its Python truth value: negate the traced predicate instead
        inner = _pred(src, jax, test.operand)
        return None if inner is None else f"{jax}.numpy.logical_not({inner})"
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        return src.segment(test)
    return f"{jax}.numpy.asarray({src.segment(test)}) != 0"


def _reasons(test: ast.expr, *reasons: str) -> list[str]:
    """The fix's reasons, with :data:`LAZY` where the test has ``and``/``or``."""
    return [*reasons, *([LAZY] if any(isinstance(n, ast.BoolOp) for n in ast.walk(test)) else [])]


def _cond(src: Source, jax: str, test: ast.expr, yes: str, no: str) -> str | None:
    pred = _pred(src, jax, test)
    return None if pred is None else f"{jax}.lax.cond({pred}, lambda: {yes}, lambda: {no})"


def jax_target(src: Source, node: ast.AST) -> str | None:
    """The local name of ``jax`` where ``node`` is JAX code a JAX fix may edit (in a file that also
    imports TensorFlow, only in functions that read JAX names), else None."""
    jax = jax_alias(src.tree)
    return None if jax is None or src.tf is not None and not _jax_function(src, node) else jax


@rewriter(ast.IfExp, ast.If)
def rewrite_jax_cond(src: Source, node: ast.AST) -> Fix | None:
    jax = jax_target(src, node)
    if jax is None or isinstance(node, (ast.If, ast.IfExp)) and sequence_equality(node.test):
        return None
    if isinstance(node, ast.IfExp):
        if not _plain(src, node):
            return None
        text = _cond(src, jax, node.test, arg(src, node.body), arg(src, node.orelse))
        return None if text is None else make_fix(
            "Select with jax.lax.cond: only the branch the condition picks runs", [replace(src, node, text)],
            _reasons(node.test, TRACES_BOTH))
    if not isinstance(node, ast.If):
        return None
    while isinstance(src.parents.get(node), ast.If) \
            and src.parents[node].orelse == [node]:  # type: ignore[attr-defined]
        node = src.parents[node]  # an `elif`: the chain is rewritten from its `if`
    if not _plain(src, node.test, *node.body, *node.orelse):
        return None
    return _assigned(src, jax, node) or _returned(src, jax, node) or _returned_in_loop(src, jax, node) \
        or _break_in_loop(src, jax, node) or _one_difference(src, jax, node) or _functions(src, jax, node)


@rewriter(ast.Call, pointed=True)
def rewrite_jax_tested_bool(src: Source, node: ast.AST) -> Fix | None:
    """``bool(x)`` (XLA302) that is the test of an ``if`` or a conditional expression, directly or
    through ``not``/``and``/``or``: :func:`rewrite_jax_cond` of that ``if`` (``bool(c)`` is ``c``'s
    predicate). Not for a ``bool()`` elsewhere in the ``if`` (a branch's value is no test)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool"):
        return None
    test: ast.AST = node
    parent = src.parents.get(node)
    while isinstance(parent, ast.BoolOp) or isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        test, parent = parent, src.parents.get(parent)
    if not isinstance(parent, (ast.If, ast.IfExp)) or parent.test is not test:
        return None
    return rewrite_jax_cond(src, parent)


def _functions(src: Source, jax: str, node: ast.If) -> Fix | None:
    """Every other ``if`` whose branches can move into local functions (several statements, several
    names, no ``else``, an ``elif`` as the else branch's own ``if``, an early ``return`` with the
    rest of the function): ``jax.lax.cond`` over them, by the same construction and refusals as
    TensorFlow's ``tf.cond`` form (:func:`xlacheck.rewrites.indicator.cond_functions`)."""
    from xlacheck.rewrites.indicator import CondForm, cond_functions

    pred = _pred(src, jax, node.test)
    if pred is None:
        return None
    form = CondForm(f"{jax}.lax.cond",
                    f'{jax}.tree_util.tree_map(lambda t: {jax}.numpy.full_like(t, float("nan")), {{value}})',
                    lambda s, stmt: _jax_calls_only(s, jax, [stmt]), gradients=False)  # type: ignore[list-item]
    return cond_functions(src, node, pred, _reasons(node.test, TRACES_BOTH), form=form)


_SAME = object()
_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)
_NEW_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _difference(a: ast.AST, b: ast.AST) -> object:
    """``_SAME`` for equal trees; else the pair of subtrees where they first differ, when they
    differ in one place only (otherwise the pair ``(a, b)`` itself)."""
    if type(a) is not type(b):
        return a, b
    found = []
    for field in a._fields:
        x, y = getattr(a, field, None), getattr(b, field, None)
        if isinstance(x, list) != isinstance(y, list) or isinstance(x, list) and len(x) != len(y):
            return a, b
        for u, v in zip(x, y) if isinstance(x, list) else [(x, y)]:
            if isinstance(u, ast.AST) and isinstance(v, ast.AST):
                inner = _difference(u, v)
                if inner is not _SAME:
                    found.append(inner)
            elif u != v:
                return a, b
    if not found:
        return _SAME
    return found[0] if len(found) == 1 else (a, b)


def one_difference(src: Source, node: ast.If, select: Callable[[str, str], str | None]) -> list[str] | None:
    """``if c: S(a)`` / ``else: S(b)``, one simple statement per branch that differ in one expression
    (``out.append(x * 2.0)`` / ``out.append(-x)``) -> the lines of ``S(select(a, b))``, the framework's
    selection of the value the condition picks (``jax.lax.cond``, ``tf.cond``): the statement runs once,
    as in either branch. Not where the two differ in what they store, call, or in a name a
    comprehension or lambda binds."""
    if len(node.body) != 1 or len(node.orelse) != 1 or not isinstance(node.body[0], _SIMPLE) \
            or not src.alone_on_lines(node, node):
        return None
    yes_stmt, no_stmt = node.body[0], node.orelse[0]
    found = _difference(yes_stmt, no_stmt)
    if found is _SAME or not isinstance(found, tuple):
        return None
    yes, no = found
    if not isinstance(yes, ast.expr) or not isinstance(getattr(yes, "ctx", ast.Load()), ast.Load) \
            or isinstance(yes, ast.Starred):
        return None
    chain = [yes, *src.ancestors(yes)]
    for inner, outer in zip(chain, chain[1:]):
        if isinstance(outer, _NEW_SCOPES) or isinstance(outer, ast.Call) and outer.func is inner \
                or isinstance(outer, ast.Starred) or isinstance(getattr(outer, "ctx", None), (ast.Store, ast.Del)):
            return None  # a new scope, what is called, or where a value is stored (`out[i] = v`)
        if outer is yes_stmt:
            break
    text = select(arg(src, yes), arg(src, no))
    if text is None:
        return None
    at = src.offset(src.start(yes)) - src.offset(src.start(yes_stmt))
    statement = src.segment(yes_stmt)
    return (statement[:at] + text + statement[at + len(src.segment(yes)):]).splitlines()


def _one_difference(src: Source, jax: str, node: ast.If) -> Fix | None:
    lines = one_difference(src, node, lambda yes, no: _cond(src, jax, node.test, yes, no))
    if lines is None:
        return None
    return make_fix("Pick the one differing value with jax.lax.cond: the statement runs once, on the value the "
                    "condition picks", replace_block(src, node, node, lines), _reasons(node.test, TRACES_BOTH))


def _jax_function(src: Source, node: ast.AST) -> bool:
    """In a file that imports TensorFlow too: the enclosing function reads ``jax``/``jnp`` names
    (``Frameworks.foreign`` then refuses edits that bring JAX into TensorFlow code)."""
    from xlacheck.rewrites._framework import Frameworks

    return Frameworks(src).of(node) == "jax"


def _one_assignment(stmts: list[ast.stmt]) -> tuple[str, ast.expr, ast.stmt] | None:
    """``x = v`` or ``x += v`` as the branch's only statement: (x, the value x gets, the statement)."""
    if len(stmts) != 1:
        return None
    s = stmts[0]
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
        return s.targets[0].id, s.value, s
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and isinstance(
            s.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        return s.target.id, s, s
    return None


def _value(src: Source, name: str, value: ast.AST) -> str:
    if isinstance(value, ast.AugAssign):
        op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}[type(value.op)]
        return f"{name} {op} ({src.segment(value.value)})"
    return src.segment(value)


def _assigned(src: Source, jax: str, node: ast.If) -> Fix | None:
    yes = _one_assignment(node.body)
    if yes is None:
        return None
    name = yes[0]
    if node.orelse:
        no = _one_assignment(node.orelse)
        if no is None or no[0] != name:
            return None
        other = _value(src, name, no[1])
    else:
        if not src.bound_before(name, node):
            return None
        other = name
    text = _cond(src, jax, node.test, _value(src, name, yes[1]), other)
    if text is None or not src.alone_on_lines(node, node):
        return None
    indent = src.indent_of(node)
    return make_fix(f"Select `{name}` with jax.lax.cond: only the branch the condition picks runs",
                    [replace_lines(node.lineno, node.end_lineno or node.lineno, f"{indent}{name} = {text}\n")],
                    _reasons(node.test, TRACES_BOTH))


def _returned(src: Source, jax: str, node: ast.If) -> Fix | None:
    if not (len(node.body) == 1 and isinstance(node.body[0], ast.Return) and node.body[0].value is not None):
        return None
    last: ast.stmt = node
    if node.orelse:
        other = node.orelse
    else:
        following = src.next_statement(node)
        if following is None:
            return None
        other, last = [following], following
    if not (len(other) == 1 and isinstance(other[0], ast.Return) and other[0].value is not None
            and _plain(src, other[0])):
        return _returned_before_rest(src, jax, node)
    text = _cond(src, jax, node.test, arg(src, node.body[0].value), arg(src, other[0].value))
    if text is None or not src.alone_on_lines(node, last):
        return None
    indent = src.indent_of(node)
    return make_fix("Return through jax.lax.cond: only the branch the condition picks runs",
                    [replace_lines(node.lineno, last.end_lineno or last.lineno, f"{indent}return {text}\n")],
                    _reasons(node.test, TRACES_BOTH))


def _returned_before_rest(src: Source, jax: str, node: ast.If) -> Fix | None:
    """``if c: return a`` at the top of a function's body, followed by the rest of the function
    ending in ``return``: the rest goes into a local function, called by the untaken branch.

    The rest runs as written, in its own scope: a name it binds that has a value before the ``if``
    (a parameter, an earlier assignment) is passed in as a parameter of the same name, so its
    reads before rebinding see that value and its rebinding stays local, as it did (the function
    returns at the end of the rest: nothing after it reads the name). Every other name the rest
    reads is read through the closure, unchanged since the ``if``. Refused where the rest yields,
    declares ``global``/``nonlocal``, or does not end in ``return``."""
    function = src.parents.get(node)
    if not (isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and node in function.body
            and not node.orelse):
        return None
    rest = function.body[function.body.index(node) + 1:]
    if not rest or not isinstance(rest[-1], ast.Return) or rest[-1].value is None:
        return None
    if any(isinstance(n, (*_UNSUPPORTED, ast.Global, ast.Nonlocal)) or (
            isinstance(n, ast.Constant) and isinstance(n.value, str) and n.lineno != n.end_lineno)
            for s in rest for n in ast.walk(s)):
        return None  # (a string over several lines would change when the rest is indented)
    stored = dict.fromkeys(n.id for s in rest for n in ast.walk(s)
                           if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
    params = [name for name in stored if src.bound_before(name, node)]
    helper = src.fresh_name("otherwise")
    indent, step = src.indent_of(node), src.indent_step(node)
    call = f"{helper}({', '.join(params)})"
    text = _cond(src, jax, node.test, arg(src, node.body[0].value), call)  # type: ignore[union-attr]
    if text is None or not src.alone_on_lines(node, rest[-1]):
        return None
    body = "".join(src.lines[rest[0].lineno - 1:rest[-1].end_lineno])  # type: ignore[operator]
    body = "".join(f"{step}{line}" if line.strip() else line for line in body.splitlines(keepends=True))
    lines = f"{indent}def {helper}({', '.join(params)}):\n{body}{indent}return {text}\n"
    return make_fix("Return through jax.lax.cond: the early return is one branch, the rest of the function the "
                    f"other (a local function, `{helper}`)",
                    [replace_lines(node.lineno, rest[-1].end_lineno or rest[-1].lineno, lines)],
                    _reasons(node.test, TRACES_BOTH))


def _returned_in_loop(src: Source, jax: str, node: ast.If) -> Fix | None:
    """``if c: return a`` in a Python loop over a static range: :func:`loop_returns.select_returned`
    with ``jax.numpy``'s ``where``/``logical_*``."""
    from xlacheck.rewrites.loop_returns import LoopReturnOps, select_returned

    pred = _pred(src, jax, node.test)
    if pred is None:
        return None
    ops = LoopReturnOps(f"{jax}.numpy", pred, lambda stmts: _jax_calls_only(src, jax, stmts) is None,
                        _reasons(node.test))
    return select_returned(src, node, ops)


def _read_after(src: Source, loop: ast.For, name: str) -> bool:
    """``name`` is read after ``loop`` ends, in the scope that holds the loop (or the loop is in a
    loop itself, where a later iteration's code before it may read it)."""
    scope: ast.AST | None = src.parents.get(loop)
    while scope is not None and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        if isinstance(scope, (ast.For, ast.While)):
            return True
        scope = src.parents.get(scope)
    end = loop.end_lineno or loop.lineno
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and n.lineno > end
               for n in ast.walk(scope if scope is not None else src.tree))


def _break_in_loop(src: Source, jax: str, node: ast.If) -> Fix | None:
    """``if c: break`` (or ``if c: ... else: break``) in a Python loop over a static range, whose
    other statements assign names bound before the loop: every iteration runs, and each
    assignment keeps the name's value once the loop has stopped.

    A flag ``stopped`` becomes ``c`` (``not c`` for a ``break`` in the ``else``) or'ed over the
    iterations, at the place of the ``if``; every assignment ``x = v`` of the loop body becomes
    ``x = jax.numpy.where(stopped, x, v)``, reading the flag as it is at that statement: before
    the ``if`` it says whether an earlier iteration stopped, after it whether this one did. So
    each name keeps the value it had when Python left the loop. Only assignments to single names
    (and augmented ones) bound before the loop, with calls to JAX and pure builtins; no other
    ``break``, ``continue``, ``return`` or nested block in the loop."""
    arms = (node.body, node.orelse)
    if not any(len(arm) == 1 and isinstance(arm[0], ast.Break) for arm in arms):
        return None
    stops_on_else = len(node.orelse) == 1 and isinstance(node.orelse[0], ast.Break)
    kept = node.body if stops_on_else else node.orelse
    loop = src.parents.get(node)
    if not (isinstance(loop, ast.For) and node in loop.body and not loop.orelse and isinstance(loop.target, ast.Name)
            and isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Name)
            and loop.iter.func.id == "range" and not src.stores_in(src.tree).get("range")):
        return None
    index = loop.body.index(node)
    before, after = loop.body[:index], [*kept, *loop.body[index + 1:]]
    assigned = [_one_assignment([stmt]) for stmt in [*before, *after]]
    if any(a is None for a in assigned) or not all(src.bound_before(a[0], loop) for a in assigned if a is not None):
        return None
    if any(a[0] == loop.target.id for a in assigned if a is not None):  # type: ignore[union-attr]
        return None
    if _read_after(src, loop, loop.target.id):  # every iteration runs: the index would end at the last one
        return None
    if _jax_calls_only(src, jax, [*loop.body, *node.orelse]) is not None \
            or not all(src.alone_on_lines(stmt, stmt) for stmt in [loop, *loop.body]):
        return None
    pred = _pred(src, jax, node.test)
    if pred is None:
        return None
    if stops_on_else:
        pred = f"{jax}.numpy.logical_not({pred})"
    stopped = src.fresh_name("stopped")
    inner = src.indent_of(node)

    def guarded(stmt: ast.stmt) -> str:
        name, value, _ = _one_assignment([stmt])  # type: ignore[misc]
        return f"{inner}{name} = {jax}.numpy.where({stopped}, {name}, {_value(src, name, value)})\n"

    lines = [f"{src.indent_of(loop)}{stopped} = False\n", "".join(src.lines[loop.lineno - 1:loop.body[0].lineno - 1])]
    lines += [guarded(stmt) for stmt in before]
    lines.append(f"{inner}{stopped} = {jax}.numpy.logical_or({stopped}, {pred})\n")
    lines += [guarded(stmt) for stmt in after]
    return make_fix("Stop the loop through a flag: every iteration runs, and jax.numpy.where keeps each name's value "
                    "once the loop has stopped", [replace_lines(loop.lineno, loop.end_lineno or loop.lineno,
                                                                "".join(lines))],
                    _reasons(node.test, BREAK_MASKED))


BREAK_MASKED = ("every iteration runs, also after the one that stopped (its values are discarded, but a NaN or inf "
                "there reaches the gradient through jax.numpy.where), and jax.numpy.where promotes each name to one "
                "dtype and shape (a Python number becomes an array)")


def _jax_calls_only(src: Source, jax: str, stmts: list[ast.stmt]) -> str | None:
    """None when every call in ``stmts`` is reached through a JAX module name (``jax.*``, ``jnp.*``,
    ``lax.*`` as this file imports them), is a pure array method (``x.max()``) of a value that is no imported
    name, or is a builtin without side effects; else the first other
    callee, whose Python side effects would run once, while tracing, not once per iteration."""
    from xlacheck.rewrites._framework import Frameworks

    names = {name for name, fw in Frameworks(src).names.items() if fw == "jax"} | {jax}
    # names the file imports (`np`, `math`, `tf`): `np.dot(x)` is a module's function, not an array's method
    imported = {(a.asname or a.name).split(".")[0] for n in src.nodes
                if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    for stmt in stmts:
        for sub in ast.walk(stmt):
            if not isinstance(sub, ast.Call):
                continue
            if isinstance(sub.func, ast.Attribute) and sub.func.attr in _PURE_ARRAY_METHODS \
                    and isinstance(sub.func.value, (ast.Name, ast.Subscript, ast.Call, ast.BinOp)) \
                    and not (isinstance(sub.func.value, ast.Name) and sub.func.value.id in imported):
                continue  # `x.max()`: a method of a JAX array, computed like jnp.max(x); its receiver is walked
            root = sub.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and (root.id in names or root.id in PURE_BUILTINS):
                continue
            return ast.unparse(sub.func)
    return None


# The methods of a traced JAX array (the JAX table's ``array_methods``) that compute a value, as the
# ``jax.numpy`` function of the same name does: not those that reach the host or the device buffers, nor
# ``sort``, which a Python list of the same receiver would run in place.
_PURE_ARRAY_METHODS = api_table.jax_array_methods() - frozenset({
    "addressable_data", "byteswap", "copy", "cur_qdd", "delete", "devices", "full_lower", "get_const",
    "get_referent", "is_deleted", "item", "on_device_size_in_bytes", "sort", "to_concrete_value", "to_device",
    "tobytes", "tolist", "unsafe_buffer_pointer", "view"})

LOOP_REASONS = ("a loop with a traced trip count cannot be differentiated in reverse mode (jax.grad raises: use "
                "jax.lax.scan over a static maximum for that), and carried values whose shape or dtype changes "
                "between iterations raise at trace time (a Python int that becomes a float)")




@rewriter(ast.While, ast.For, ast.expr)
def rewrite_jax_loop(src: Source, node: ast.AST) -> Fix | None:
    """``while c:`` on a traced condition -> ``jax.lax.while_loop``; ``for i in range(n)`` with a
    traced ``n`` -> ``jax.lax.fori_loop``: the same assignments in the same order, for the same
    iterations, over the names the body assigns (carried; names only read are closed over).
    UNSAFE always (:data:`LOOP_REASONS`), and where the body calls a function other than JAX's."""
    jax = jax_alias(src.tree)
    if jax is None or src.tf is not None and not _jax_function(src, node):
        return None
    loop = node if isinstance(node, (ast.While, ast.For)) else src.parents.get(node)
    if isinstance(loop, ast.Call) and isinstance(src.parents.get(loop), ast.For):
        loop = src.parents.get(loop)  # the finding on `range(n)`
    if not isinstance(loop, (ast.While, ast.For)) or loop.orelse or not src.alone_on_lines(loop, loop):
        return None
    if isinstance(loop, ast.While) and sequence_equality(loop.test):
        return None
    if not _plain(src, loop, *loop.body):
        return None
    names = _carried(src, loop)
    if names is None:
        return None
    reasons = _reasons(loop.test, LOOP_REASONS) if isinstance(loop, ast.While) else [LOOP_REASONS]
    callee = _jax_calls_only(src, jax, loop.body)
    if callee is not None:
        reasons.append(f"Python side effects of `{callee}` run once, while tracing, not once per iteration")
    indent, inner = src.indent_of(loop), src.indent_of(loop.body[0])
    body_fn = src.fresh_name("loop_body")
    carry = src.fresh_name("carry")
    packed = f"({', '.join(names)},)" if len(names) == 1 else f"({', '.join(names)})"
    header_end = (loop.test if isinstance(loop, ast.While) else loop.iter).end_lineno or loop.lineno
    last = loop.body[-1].end_lineno or loop.body[-1].lineno
    body = src.lines[header_end:last]  # the body as written, comments included
    comments = [f"{indent}{c}\n" for c in src.comments_in(loop.lineno, header_end)]
    if isinstance(loop, ast.While):
        pred = _pred(src, jax, loop.test)
        if pred is None:
            return None
        cond_fn = src.fresh_name("loop_cond")
        lines = [*comments,
                 f"{indent}def {cond_fn}({carry}):\n", f"{inner}{packed} = {carry}\n", f"{inner}return {pred}\n",
                 f"{indent}def {body_fn}({carry}):\n", f"{inner}{packed} = {carry}\n", *body,
                 f"{inner}return {packed}\n",
                 f"{indent}{packed} = {jax}.lax.while_loop({cond_fn}, {body_fn}, {packed})\n"]
        return make_fix("Loop with jax.lax.while_loop over the names the body assigns",
                        [replace_lines(loop.lineno, last, "".join(lines))], reasons)
    bounds = _range_bounds(src, loop)
    if bounds is None:
        return None
    target = loop.target.id  # type: ignore[attr-defined]
    end = (loop.end_lineno or loop.lineno, loop.end_col_offset or 0)
    if target in names or any(isinstance(n, ast.Name) and n.id == target and (n.lineno, n.col_offset) > end
                              for n in ast.walk(src.scope_of(loop))):
        return None  # the loop variable read after the loop: fori_loop does not bind it
    lines = [*comments,
             f"{indent}def {body_fn}({target}, {carry}):\n", f"{inner}{packed} = {carry}\n", *body,
             f"{inner}return {packed}\n",
             f"{indent}{packed} = {jax}.lax.fori_loop({bounds[0]}, {bounds[1]}, {body_fn}, {packed})\n"]
    return make_fix("Loop with jax.lax.fori_loop over the names the body assigns",
                    [replace_lines(loop.lineno, last, "".join(lines))], reasons)


def _carried(src: Source, loop: ast.For | ast.While) -> list[str] | None:
    """The names a JAX loop body assigns, in order, all bound before the loop: what the
    ``jax.lax`` loop carries (:func:`~xlacheck.rewrites.loops.carried_names`, and more, since the
    body moves into a function as written): assignments to names or tuples of names, augmented
    assignments, ``pass``, and ``if`` blocks of those (a traced ``if`` there is flagged, and fixed,
    on its own once it is in the loop's body function). None for any other statement."""
    names: list[str] = []

    def collect(stmts: list[ast.stmt]) -> bool:
        for stmt in stmts:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                parts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                if not all(isinstance(p, ast.Name) for p in parts):
                    return False
                stored = [p.id for p in parts]  # type: ignore[attr-defined]
            elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                stored = [stmt.target.id]
            elif isinstance(stmt, ast.If):
                if not (collect(stmt.body) and collect(stmt.orelse)):
                    return False
                continue
            elif isinstance(stmt, ast.Pass):
                continue
            else:
                return False
            names.extend(n for n in stored if n not in names)
        return True

    if not collect(loop.body) or not names or not all(src.bound_before(n, loop) for n in names):
        return None
    return names


def _range_bounds(src: Source, loop: ast.For) -> tuple[str, str] | None:
    """``for i in range(n)`` / ``range(a, b)`` (a plain name as the target, no step): (a, b) as code."""
    it = loop.iter
    if not (isinstance(loop.target, ast.Name) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
            and it.func.id == "range" and not it.keywords and 1 <= len(it.args) <= 2
            and not any(isinstance(a, ast.Starred) for a in it.args)):
        return None
    if len(it.args) == 1:
        return "0", arg(src, it.args[0])
    return arg(src, it.args[0]), arg(src, it.args[1])
