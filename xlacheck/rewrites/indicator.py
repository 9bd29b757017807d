"""Python conditionals on tensors -> ``tf.where``, indicator arithmetic or ``tf.cond``.

Which form is emitted, and why it is exact:

* indicator arithmetic, ``x / (1.0 + tf.cast(c, x.dtype))`` for ``if c: x = x / 2.0`` (and
  ``x * L``, ``x / L`` for integer-valued float literals L, 2 <= |L| <= 2048): with ``c`` in
  {0, 1} the divisor is exactly 1.0 or L (small integers are exact in every float dtype), and
  ``x / 1.0 == x`` bit for bit, NaN and inf included; the derivative is the same too.
* ``tf.where(c, a, b)`` when both branches are *linear* in the function's inputs (``+ -``,
  scaling by a literal, sums and means, names assigned from those: :func:`linear`). Both are
  computed, and ``tf.where`` sends an exact zero gradient to the branch not taken. Backpropagated
  through a linear computation that zero stays zero for every input, NaN and inf included, so
  values and gradients are exact when the condition is provably a scalar and both branches
  provably share shape and dtype; otherwise the fix is UNSAFE (``tf.where`` broadcasts, Python
  picks one value as is). Through a non-linear op it does not: ``tf.square`` at inf gives
  0 * inf = NaN, ``max_norm / norm`` at ``norm == 0`` and ``log`` too, so such branches go to
  ``tf.cond`` when the condition is a scalar. (Before, merely *smooth* branches, such as
  ``tf.square(x)``, used ``tf.where`` and were called safe: their gradient was NaN at inf or NaN
  inputs where the original's was finite.) A non-scalar condition keeps ``tf.where`` (the only
  elementwise form) and says both reasons.
* ``tf.cond(c, lambda: a, lambda: b)`` for every other branch: only the taken branch runs, so
  values are those of the original, and so are gradients as long as every tensor a branch reads
  from outside is linear in the function's inputs (``tf.cond`` sends a zero gradient to what the
  untaken branch captures: ``e = tf.reduce_sum(tf.square(row))`` read by ``energy + e`` turns it
  NaN at an inf row, so that fix is UNSAFE for gradients only). XLA rejects branches whose
  dtypes or shapes differ at compile time (loudly). UNSAFE when a branch calls a
  non-TensorFlow function, whose Python side effects run for both branches while tracing.

Each form is SAFE only with a provably boolean condition (``tf.where`` rejects a number, and
``tf.cast`` would read it as it is) and no ``and``/``or`` in it (the original skips operands that
the fix evaluates).

A name assigned in one branch only and unbound before gets NaN where the branch does not bind
it. That is SAFE when the original provably raises UnboundLocalError on every such path
(:func:`_unbound_reasons`): the name is local and bound nowhere else in the function, the
``if`` is in no loop and no ``try``, no handler in the file catches the error, nothing calls
``locals()``/``eval``, and the code after the ``if`` reads the name before it can return. The
fix is then unconstrained there, and where the branch runs ``tf.where(c, v, nan)`` is ``v``:
same value, dtype (``v`` a float tensor), shape (``c`` scalar, or ``tf.reduce_any(c)``, which is
True wherever ``bool(c)`` is) and gradient (the taken side of ``tf.where`` gets all of it).
``assert c, "msg"`` and ``if c: raise E("msg")`` become ``tf.debugging.Assert``: SAFE when the
condition converts exactly (:func:`truth`) and the message is a literal (see
:func:`rewrite_assert`). A function that returns in one branch only (None otherwise) and
branches of different dtypes have no equivalent tensor form: those fixes are UNSAFE and say
what they do instead (NaN where the original returns None; the else value cast to the if
value's dtype).
"""

from __future__ import annotations

import ast
import builtins

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import (
    ELEMENTWISE_UNARY,
    FULL_REDUCTIONS,
    arg,
    atom,
    call_name,
    calls_only_tensorflow,
    is_number,
    is_scalar,
    like,
    linear,
    number_value,
    smooth,
    tf_name,
)
from xlacheck.rewrites._fix import explain, make_fix, replace, replace_lines
from xlacheck.rewrites._source import Source, dotted
from xlacheck.rewrites.builtins import condition
from xlacheck.rewrites.dtypes import certain_dtype, is_floating

NOT_SCALAR = "cannot prove the condition is a scalar; a one-element condition of higher rank would broadcast"
NOT_BOOL = ("cannot prove the condition is a boolean: tf.where needs one, and tf.cast reads a number as it is "
            "where Python's `if` takes its truth value")
LAZY = ("the original stops evaluating `and`/`or` operands once the outcome is decided, also on inputs "
        "where it goes on normally; the fix evaluates all of them (their side effects and errors)")
SHAPES = "cannot prove both branches have the same shape and dtype ({a} / {b}); tf.where broadcasts them"
STRUCTURE = ("a branch is a tuple, list or dict literal and the other is not one of the same length: tf.where "
             "would stack it into one tensor, and tf.cond raises while tracing on branches of different structure")
WHERE_GRADIENT = ("gradients only: tf.where sends a zero gradient to the branch not taken, and a non-linear op "
                  "there turns it NaN at inf or NaN inputs (0 * inf)")
COND_GRADIENT = ("gradients only: the branch not taken captures a tensor computed by a non-linear op outside it; "
                 "tf.cond sends it a zero gradient, which that op turns NaN at inf or NaN inputs (0 * inf)")
FLOAT_MAKERS = frozenset({"tf.one_hot", "tf.nn.softmax", "tf.random.uniform", "tf.random.normal", "tf.sigmoid",
                          "tf.nn.sigmoid", "tf.math.sigmoid", "tf.linspace"})


def _same_kind(src: Source, a: ast.AST, b: ast.AST) -> bool:
    if is_number(a) and is_number(b):
        return type(number_value(a)) is type(number_value(b))
    name = like(src, a)
    return name is not None and name == like(src, b)


def _floatish(src: Source, node: ast.AST) -> bool:
    """Evidently a float tensor: built from tf.one_hot/softmax/... or float literals."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and call_name(src, sub) in FLOAT_MAKERS:
            return True
    return isinstance(node, ast.BinOp) and any(
        isinstance(s, ast.Constant) and isinstance(s.value, float) for s in ast.walk(node)
    )


def _indicator(src: Source, cond: str, target: str, value: ast.AST) -> str | None:
    """``x / L`` or ``x * L`` (taken when c holds; x otherwise) as indicator arithmetic."""
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Div, ast.Mult))):
        return None
    if not (isinstance(value.left, ast.Name) and value.left.id == target):
        return None
    factor = number_value(value.right)
    if not isinstance(factor, float) or factor != int(factor) or not 2 <= abs(factor) <= 2048:
        return None
    op = "/" if isinstance(value.op, ast.Div) else "*"
    indicator = f"{src.tf}.cast({cond}, {target}.dtype)"
    scale = indicator if factor == 2.0 else f"{factor - 1.0!r} * {indicator}"
    return f"{target} {op} (1.0 + {scale})"


def _fix_or_explain(message: str, edits, reasons: list[str]) -> Fix:
    """The fix, or only an explanation when its branches differ in structure: no tensor form of
    such an `if` exists, and the rewrite would fail while tracing."""
    if STRUCTURE in reasons:
        return explain("The branches give values of different structure (a tuple and a tensor, or tuples of "
                       "different lengths); tf.cond and tf.where need one structure. Make both branches return "
                       "the same structure, e.g. pad the shorter tuple with zeros of the right shape.")
    return make_fix(message, edits, reasons)


def select(src: Source, cond: str, cond_node: ast.expr, true: ast.AST, t_text: str, false: ast.AST,
           f_text: str, reasons: list[str]) -> str:
    """One tensor expression equal to ``true if cond else false`` (form chosen as documented above)."""
    tf = src.tf
    scalar = is_scalar(src, cond_node)
    if not boolean(src, cond_node):
        reasons.append(NOT_BOOL)
    if _lazy_operands(cond_node, True) or _lazy_operands(cond_node, False):  # both outcomes go on normally
        reasons.append(LAZY)
    containers = (ast.Tuple, ast.List, ast.Dict, ast.Set)
    if isinstance(true, containers) or isinstance(false, containers):
        # tf.where converts a tuple or list to one stacked tensor; tf.cond needs one nested
        # structure in both branches, and raises while tracing (where the original returns) if not.
        same = (type(true) is type(false) is ast.Tuple and len(true.elts) == len(false.elts))  # type: ignore[attr-defined]
        if not same:
            reasons.append(STRUCTURE)
    shared = _read_names(true) & _read_names(false)
    exact_gradients = linear(src, true, leaves=shared) and linear(src, false, leaves=shared)
    if smooth(src, true) and smooth(src, false) and (exact_gradients or not scalar):
        if not scalar:
            reasons.append(NOT_SCALAR)
        if not _same_kind(src, true, false):
            reasons.append(SHAPES.format(a=t_text, b=f_text))
        if not exact_gradients:
            reasons.append(WHERE_GRADIENT)
        return f"{tf}.where({cond}, {t_text}, {f_text})"
    for branch in (true, false):
        callee = calls_only_tensorflow(src, branch)
        if callee is not None:
            reasons.append(f"tf.cond traces both branches, so Python side effects of `{callee}` run for both")
            break
    if not all(_captures_linear(src, branch, shared) for branch in (true, false)):
        reasons.append(COND_GRADIENT)
    return f"{tf}.cond({cond}, lambda: {t_text}, lambda: {f_text})"


def _read_names(node: ast.AST) -> frozenset[str]:
    """Names read as values (not as the functions called)."""
    funcs = {id(n) for sub in ast.walk(node) if isinstance(sub, ast.Call) for n in ast.walk(sub.func)}
    return frozenset(n.id for n in ast.walk(node)
                     if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in funcs)


def _captures_linear(src: Source, branch: ast.AST, shared: frozenset[str]) -> bool:
    """Every tensor the branch reads from outside (a name) is linear in the function's inputs,
    or read by both branches. ``tf.cond`` computes the branch's own ops only when it is taken,
    but sends an exact zero gradient to the tensors the branch not taken captures, and that zero
    becomes NaN through a non-linear op that computed them (0 * inf); a tensor both branches
    read gets its real gradient from the taken one."""
    funcs = {id(n) for sub in ast.walk(branch) if isinstance(sub, ast.Call) for n in ast.walk(sub.func)}
    return all(linear(src, n, leaves=shared) for n in ast.walk(branch)
               if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in funcs)


# -- ternary ------------------------------------------------------------------------------------
def rewrite_ternary(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.IfExp) or src.tf is None:
        return None
    reasons: list[str] = []
    cond = condition(src, node.test, reasons)
    text = select(src, cond, node.test, node.body, arg(src, node.body), node.orelse, arg(src, node.orelse), reasons)
    return _fix_or_explain("Select the value with a tensor op instead of a Python conditional expression",
                    [replace(src, node, text)], reasons)


# -- checks: assert, if/raise -----------------------------------------------------------------------
CHECK_NOTE = ("XLA drops the check under jit_compile; eagerly and in tf.function a failure raises "
              "InvalidArgumentError instead of {exc}")
BOOL_CALLS = frozenset(
    f"{prefix}{op}" for prefix in ("tf.", "tf.math.")
    for op in ("reduce_all", "reduce_any", "logical_and", "logical_or", "logical_not", "logical_xor", "is_nan",
               "is_inf", "is_finite", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
)
# Full reductions other than any/all: numbers (they reject bool and string tensors; tf.size,
# tf.rank and count_nonzero count), never booleans.
NUMBER_CALLS = FULL_REDUCTIONS - BOOL_CALLS


def boolean(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Provably bool-typed (a bool tensor or a Python bool), and so are the operands of every
    ``and``/``or``/``not`` in it (``condition`` turns those into ``tf.logical_*``, which need bools)."""
    if depth > 8:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, bool)
    if isinstance(node, ast.Compare):  # tensor comparisons give bool tensors; `in` becomes reduce_any
        return True
    if isinstance(node, ast.BoolOp):
        return all(boolean(src, v, depth + 1) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return boolean(src, node.operand, depth + 1)
    if isinstance(node, ast.Call):
        name = call_name(src, node)
        if name == "tf.cast" and len(node.args) == 2:
            return tf_name(src, node.args[1]) == "tf.bool"
        return name in BOOL_CALLS or (isinstance(node.func, ast.Name) and node.func.id in ("any", "all"))
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and boolean(src, bound, depth + 1)
    return False


def _number(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Provably a real or complex number tensor (a full reduction), never a bool or a string."""
    if depth > 8:
        return False
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and _number(src, bound, depth + 1)
    return isinstance(node, ast.Call) and call_name(src, node) in NUMBER_CALLS


def _reduced(src: Source, node: ast.AST) -> bool:
    """``condition`` turns it into a reduction (``x in (...)``, ``any(...)``): a scalar."""
    if isinstance(node, ast.Compare):
        return any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("any", "all")


def _lazy_operands(node: ast.AST, raising: bool) -> bool:
    """Some ``and``/``or`` (or chained comparison) in the condition can stop early with the
    truth value ``not raising``, i.e. on a path where the original goes on normally without
    evaluating the rest; the tensor form evaluates every operand (their side effects and errors)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _lazy_operands(node.operand, not raising)
    if isinstance(node, ast.BoolOp):
        stops_with = not isinstance(node.op, ast.And)  # `and` stops at a false operand, `or` at a true one
        return stops_with != raising or any(_lazy_operands(v, raising) for v in node.values)
    if isinstance(node, ast.Compare) and len(node.ops) > 1:
        return raising  # a chain stops at its first false comparison
    return False  # kept as written: Python evaluates it the same way in both


def truth(src: Source, node: ast.expr, raising: bool, reasons: list[str]) -> str:
    """A scalar bool tensor equal to Python's ``bool(node)`` wherever the original computes it
    without raising; ``raising`` is the truth value on which the original raises (False for
    ``assert``). Checked by running it (TF 2.21): a bool condition is used as it is; a full
    reduction (a number) becomes ``tf.not_equal(c, 0)``, which is ``bool()`` for every real and
    complex dtype, NaN (true) and -0.0 (false) included (``tf.cast(c, tf.bool)`` is not: it
    reads only the real part, so ``1j`` casts to False); a condition not provably rank-0 is
    wrapped in ``tf.reduce_any``: ``bool()`` of a one-element tensor is its element, of an empty
    tensor False, and raises for more elements, which is ``reduce_any`` wherever ``bool()``
    returns (``tf.debugging.Assert`` itself takes a shape-[1] condition eagerly but raises for
    it in a ``tf.function``)."""
    text = condition(src, node, reasons)
    if not boolean(src, node):
        if _number(src, node):
            text = f"{src.tf}.not_equal({text}, 0)"
        else:
            reasons.append("cannot prove the condition is a boolean or a number: tf.debugging.Assert needs a bool "
                           "tensor, and Python's truth value of other objects has no tensor form here")
    if not (is_scalar(src, node) or _reduced(src, node)):
        if isinstance(node, (ast.BoolOp, ast.UnaryOp)):
            reasons.append(NOT_SCALAR)
        else:
            text = f"{src.tf}.reduce_any({text})"
    if _lazy_operands(node, raising):
        reasons.append(LAZY)
    return text


def _literal_message(node: ast.AST | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)))


def rewrite_assert(src: Source, node: ast.AST) -> Fix | None:
    """``assert c, "msg"`` -> ``tf.debugging.Assert(c, ["msg"])``.

    SAFE under the contract (plain ``python``, not ``-O``): on every input where the original
    returns, ``bool(c)`` was true, and so is the converted condition (:func:`truth`), so the
    Assert passes, computes nothing and runs no Python code; the condition is evaluated once, as
    in the original. Where the original raises the fix is unconstrained: XLA drops the check,
    and outside XLA it raises InvalidArgumentError. UNSAFE when the message is not a string
    literal (Python evaluates it only when the assert fails; the fix every time), when an
    exception handler could catch the AssertionError (then the original returns on failing
    inputs), or when :func:`truth` cannot convert the condition exactly."""
    if not isinstance(node, ast.Assert) or src.tf is None:
        return None
    reasons: list[str] = []
    cond = truth(src, node.test, False, reasons)
    if _literal_message(node.msg):
        message = src.segment(node.msg) if node.msg is not None else repr(f"assertion failed: {src.segment(node.test)}")
    else:
        message = src.segment(node.msg)
        reasons.append("the message is not a string literal: Python evaluates it only when the assert fails, the fix "
                       "every time (its side effects and errors)")
    catcher = _catcher(src, node, "AssertionError")
    if catcher:
        reasons.append(catcher)
    text = f"{src.tf}.debugging.Assert({cond}, [{message}])"
    return make_fix(f"Check the tensor condition with tf.debugging.Assert ({CHECK_NOTE.format(exc='AssertionError')})",
                    [replace(src, node, text)], reasons)


def _rewrite_raise(src: Source, node: ast.If, raise_: ast.Raise) -> Fix | None:
    """``if c: raise E("msg")`` -> ``tf.debugging.Assert(tf.logical_not(c), ["msg"])``: SAFE on
    the same argument as :func:`rewrite_assert`, with the roles of true and false swapped: where
    the original returns, ``bool(c)`` was false, so the Assert passes. UNSAFE when the
    exception's message is not a literal (evaluated on every call, not only when raising), or a
    handler could catch E."""
    if not src.alone_on_lines(node, node):
        return None
    reasons: list[str] = []
    cond = truth(src, node.test, True, reasons)
    exc = raise_.exc
    kind = dotted(exc.func if isinstance(exc, ast.Call) else exc) if exc is not None else None
    if isinstance(exc, ast.Call) and exc.args and not exc.keywords and not isinstance(exc.args[0], ast.Starred):
        message = src.segment(exc.args[0])
        if not _literal_message(exc.args[0]):
            reasons.append("the exception's message is not a string literal: Python evaluates it only when raising, "
                           "the fix every time (its side effects and errors)")
    else:
        message = repr(f"{src.segment(exc) if exc is not None else 'error'} (when {src.segment(node.test)})")
    catcher = _catcher(src, node, kind.rpartition(".")[2] if kind else "exception")
    if catcher:
        reasons.append(catcher)
    text = f"{src.tf}.debugging.Assert({src.tf}.logical_not({cond}), [{message}])"
    note = CHECK_NOTE.format(exc=kind or "the raised exception")
    return make_fix(f"Check the tensor condition with tf.debugging.Assert instead of raising from a Python `if` "
                    f"({note})", _block(src, node, node, [text]), reasons)


# -- exception handlers that would see the original's exception ----------------------------------
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


def _catcher(src: Source, node: ast.AST, exc: str) -> str | None:
    """Why the exception the original raises at ``node`` might be caught (then the original
    returns where the fix behaves differently), or None: ``node`` is not inside a ``try`` of
    its function, and no ``except``/``contextlib.suppress`` in the file can catch it. Callers
    in other files are not seen."""
    mro = _mro(exc)
    for parent in src.ancestors(node):
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            break
        if isinstance(parent, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            return "it is inside a try statement, which may turn the original's exception into a normal return"
    classes = {n.name for n in src.nodes if isinstance(n, ast.ClassDef)}
    for sub in src.nodes:
        if isinstance(sub, ast.ExceptHandler) and _catches(src, sub.type, mro, classes):
            caught = src.segment(sub.type) if sub.type is not None else "a bare except"
            return f"`{caught}` (line {sub.lineno}) could catch the {exc} the original raises and return normally"
        if isinstance(sub, ast.Call) and (dotted(sub.func) or "").rpartition(".")[2] == "suppress" \
                and any(_catches(src, a, mro, classes) for a in sub.args):
            return f"`suppress(...)` (line {sub.lineno}) could catch the {exc} the original raises"
    return None

# -- if statements --------------------------------------------------------------------------------
def _block(src: Source, first: ast.stmt, last: ast.stmt, lines: list[str]) -> list:
    indent = src.indent_of(first)
    comments = [f"{indent}{c}\n" for c in src.comments_in(first.lineno, last.end_lineno or first.lineno)]
    return [replace_lines(first.lineno, last.end_lineno or first.lineno,
                          "".join(comments) + "".join(f"{indent}{line}\n" for line in lines))]


def rewrite_if(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.If) or src.tf is None:
        return None
    while isinstance(src.parents.get(node), ast.If) and src.parents[node].orelse == [node]:  # type: ignore[attr-defined]
        node = src.parents[node]  # an `elif`: the chain is rewritten from its `if`
    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        return _rewrite_chain(src, node)
    if len(node.body) == 1 and isinstance(node.body[0], ast.Raise) and not node.orelse:
        return _rewrite_raise(src, node, node.body[0])
    reasons: list[str] = []
    cond = condition(src, node.test, reasons)
    returns = _rewrite_returns(src, node, cond, reasons)
    if returns is not None:
        return returns
    return _rewrite_assignments(src, node, cond, reasons)


def _rewrite_returns(src: Source, node: ast.If, cond: str, reasons: list[str]) -> Fix | None:
    if not (len(node.body) == 1 and isinstance(node.body[0], ast.Return) and node.body[0].value is not None):
        return None
    true = node.body[0].value
    last: ast.stmt = node
    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.Return) and node.orelse[0].value is not None:
        false = node.orelse[0].value
        text = select(src, cond, node.test, true, arg(src, true), false, arg(src, false), reasons)
    elif node.orelse:
        return None
    else:
        nxt = src.next_statement(node)
        scope = src.scope_of(node)
        if isinstance(nxt, ast.Return) and nxt.value is not None:
            text = select(src, cond, node.test, true, arg(src, true), nxt.value, arg(src, nxt.value), reasons)
            last = nxt
        elif nxt is None and isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and scope.body[-1] is node:
            reasons.append("the original returns None when the condition is false; this returns NaN there "
                           "(write the value you mean, e.g. 0.0, in an else branch)")
            text = f'{src.tf}.where({cond}, {arg(src, true)}, float("nan"))'
        else:
            return None
    if not src.alone_on_lines(node, last):
        return None
    return _fix_or_explain("Return one tensor chosen with a tensor op instead of returning from a Python `if`",
                    _block(src, node, last, [f"return {text}"]), reasons)


Branch = dict[str, tuple[ast.expr, str]]  # name -> (value for analysis, value as source text)

_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
        ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}


def _branch_assignments(src: Source, body: list[ast.stmt]) -> Branch | None:
    """The values a branch made only of single-name assignments gives (each name once)."""
    out: Branch = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name, value, text = stmt.targets[0].id, stmt.value, arg(src, stmt.value)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and type(stmt.op) in _OPS:
            name = stmt.target.id
            # x op= v is x = x op (v): analysed as that expression, positioned at the statement.
            read = ast.copy_location(ast.Name(name, ast.Load()), stmt)
            value = ast.copy_location(ast.BinOp(read, stmt.op, stmt.value), stmt)
            src.parents[read] = src.parents[value] = stmt  # scope and bindings resolve at the statement
            text = f"{name} {_OPS[type(stmt.op)]} {atom(src, stmt.value)}"
        elif isinstance(stmt, ast.Pass):
            continue
        else:
            return None
        if name in out:
            return None
        out[name] = (value, text)
    return out


def _reads(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _rewrite_assignments(src: Source, node: ast.If, cond: str, reasons: list[str]) -> Fix | None:
    true_branch = _branch_assignments(src, node.body)
    false_branch = _branch_assignments(src, node.orelse)
    if true_branch is None or false_branch is None or not src.alone_on_lines(node, node):
        return None
    names = list(dict.fromkeys([*true_branch, *false_branch]))
    if not names:
        return None
    # Every value may read only names the `if` does not assign, or the name it assigns itself:
    # then each name can be selected on its own, in any order, exactly as the branch computes it.
    assigned = set(names)
    for branch in (true_branch, false_branch):
        for name, (value, _) in branch.items():
            if (_reads(value) & assigned) - {name}:
                return None
    # The original evaluates the condition once, before either branch: name it, unless it is read
    # once and before anything it depends on is assigned.
    pred = src.fresh_name("pred")
    lines: list[str] = []
    for name in names:
        lines += _select_name(src, node, pred, name, true_branch.get(name), false_branch.get(name), reasons)
    if sum(line.count(pred) for line in lines) == 1 and (len(lines) == 1 or not _reads(node.test) & assigned):
        lines = [line.replace(pred, cond) for line in lines]
    else:
        lines.insert(0, f"{pred} = {cond}")
    poisoned = [n for n in names if (n not in true_branch or n not in false_branch)
                and not _local_bound_before(src, n, node)]
    note = "".join(f"; `{n}` is NaN where the original raises UnboundLocalError" for n in poisoned)
    return _fix_or_explain(f"Compute the branch values with tensor ops instead of a Python `if` on a tensor{note}",
                    _block(src, node, node, lines), reasons)


def _select_name(src: Source, node: ast.If, cond: str, name: str, true: tuple[ast.expr, str] | None,
                 false: tuple[ast.expr, str] | None, reasons: list[str]) -> list[str]:
    tf = src.tf
    defined = _local_bound_before(src, name, node)
    if true is None or false is None:
        if not defined:
            value, text = true or false  # type: ignore[misc]
            side = "false" if false is None else "true"
            unsafe = _unbound_reasons(src, node, name, value, side)
            if unsafe:
                reasons.append(f"`{name}` has no value when the condition is {side} (the original raises "
                               f"UnboundLocalError if it reads it); the fix gives NaN there, which is exact only "
                               f"where the original provably raises, and here " + "; ".join(unsafe) +
                               ": assign the value you mean in an else branch")
            if not (is_scalar(src, node.test) or isinstance(node.test, (ast.BoolOp, ast.UnaryOp))):
                # Where the original binds `name`, bool(c) was true, so c has one element, true:
                # reduce_any(c) is True there, and a scalar, so tf.where keeps the value's shape.
                cond = f"{tf}.reduce_any({cond})"
            pair = (text, 'float("nan")') if false is None else ('float("nan")', text)
            return [f"{name} = {tf}.where({cond}, {pair[0]}, {pair[1]})"]
        keep_node = ast.copy_location(ast.Name(name, ast.Load()), node)
        src.parents[keep_node] = node  # reads `name` where the `if` starts: scope and bindings resolve there
        keep = (keep_node, name)
        if false is None:
            indicator = _indicator(src, cond, name, true[0])  # type: ignore[index]
            if indicator is not None:
                if not is_scalar(src, node.test):
                    reasons.append(NOT_SCALAR)
                if not boolean(src, node.test):
                    reasons.append(NOT_BOOL)
                if _lazy_operands(node.test, True) or _lazy_operands(node.test, False):
                    reasons.append(LAZY)
                return [f"{name} = {indicator}"]
        true, false = true or keep, false or keep
    (t_node, t_text), (f_node, f_text) = true, false  # type: ignore[misc]
    if _floatish(src, t_node) != _floatish(src, f_node) and isinstance(f_node, ast.Name) and f_node.id != name:
        reasons.append("the branches evidently have different dtypes: where the condition is false the original "
                       "keeps the else value's dtype, the fix casts it to the if value's dtype (and tf.where "
                       "broadcasts their shapes)")
        return [f"{name} = {t_text}", f"{name} = {tf}.where({cond}, {name}, {tf}.cast({f_text}, {name}.dtype))"]
    return [f"{name} = " + select(src, cond, node.test, t_node, t_text, f_node, f_text, reasons)]


# -- a name bound in one branch only ---------------------------------------------------------------
TENSOR_CALLS = FULL_REDUCTIONS | ELEMENTWISE_UNARY | frozenset(
    f"{prefix}{op}" for prefix in ("tf.", "tf.math.", "tf.linalg.")
    for op in ("cast", "constant", "convert_to_tensor", "matmul", "reshape", "zeros_like", "ones_like", "maximum",
               "minimum", "add", "subtract", "multiply", "divide", "truediv", "where", "norm")
)
DYNAMIC_SCOPE = frozenset({"locals", "vars", "dir", "exec", "eval", "globals"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _tensor(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Provably a tensor (not a Python number): a TensorFlow op, arithmetic on one, a name bound to one."""
    if depth > 8:
        return False
    if isinstance(node, ast.Call):
        return call_name(src, node) in TENSOR_CALLS
    if isinstance(node, ast.BinOp):
        return _tensor(src, node.left, depth + 1) or _tensor(src, node.right, depth + 1)
    if isinstance(node, ast.UnaryOp):
        return _tensor(src, node.operand, depth + 1)
    if isinstance(node, ast.Subscript):
        return _tensor(src, node.value, depth + 1)
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and _tensor(src, bound, depth + 1)
    return False


def _float_tensor(src: Source, node: ast.AST) -> bool:
    """Provably a floating (or complex) tensor: a dtype :func:`certain_dtype` reads as floating,
    or ``/`` with a provable tensor operand (true division gives float64 for int32, float32 for
    smaller ints, the operand's dtype for floats and complex). ``tf.where(c, v, float("nan"))``
    keeps the dtype of such a ``v`` (float16, bfloat16, float32, float64, complex64, complex128:
    checked) and raises for integer ``v``."""
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and _float_tensor(src, bound)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and (_tensor(src, node.left)
                                                                          or _tensor(src, node.right)):
        return True
    return is_floating(certain_dtype(src, node))

def _local_bound_before(src: Source, name: str, node: ast.If) -> bool:
    """Whether ``name`` has a value when the ``if`` runs. The ``if`` assigns it, so inside a
    function that does not declare it global or nonlocal it is local there: module and enclosing
    bindings never reach it (the original raises UnboundLocalError), only parameters and
    earlier stores do."""
    scope = src.scope_of(node)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) or any(
            isinstance(s, (ast.Global, ast.Nonlocal)) and name in s.names for s in ast.walk(scope)):
        return src.bound_before(name, node)
    args = scope.args
    if name in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}:
        return True
    here = (node.lineno, node.col_offset)
    return any(isinstance(s, ast.Name) and s.id == name and isinstance(s.ctx, ast.Store)
               and (s.lineno, s.col_offset) < here and src.scope_of(s) is scope for s in ast.walk(scope))


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
    if isinstance(stmt, (*_SCOPES, ast.Try, ast.Match)) or type(stmt).__name__ == "TryStar":
        return False
    if isinstance(stmt, ast.Assert):
        return _eager_reads(stmt.test, name)
    return _eager_reads(stmt, name)


def _may_leave(stmt: ast.stmt) -> bool:
    """The statement may end the function normally or jump (return, break, continue, yield)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom)):
            return True
        stack.extend(c for c in ast.iter_child_nodes(n) if not isinstance(c, _SCOPES))
    return False


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


def _unbound_reasons(src: Source, node: ast.If, name: str, value: ast.expr, side: str) -> list[str]:
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
    catcher = _catcher(src, node, "UnboundLocalError")
    if catcher:
        reasons.append(catcher)
    if not _read_after(src, node, name, func):
        reasons.append(f"cannot prove the code after the `if` reads `{name}` on every path: where it does not, the "
                       f"original returns normally with the condition {side}, and the fix computes the branch value "
                       f"there too")
    if not _float_tensor(src, value):
        reasons.append(f"cannot prove `{name}` is a float tensor: NaN fits only float dtypes, and a Python number "
                       f"would become a tensor")
    if not boolean(src, node.test):
        reasons.append(NOT_BOOL)
    if not is_scalar(src, node.test) and isinstance(node.test, (ast.BoolOp, ast.UnaryOp)):
        reasons.append(NOT_SCALAR)
    if _lazy_operands(node.test, side == "true"):
        reasons.append(LAZY)
    return reasons


def _rewrite_chain(src: Source, node: ast.If) -> Fix | None:
    """``if a: ... elif b: ... else: ...`` (assignments only) -> nested selections, each
    condition named once up front (the original evaluates them in order; as pure tensor
    expressions, evaluating all of them computes the same values). UNSAFE when a later
    condition calls non-TensorFlow code or indexes (side effects, or an error where the original
    never evaluates it)."""
    arms: list[tuple[ast.expr, Branch]] = []
    current = node
    while True:
        branch = _branch_assignments(src, current.body)
        if branch is None:
            return None
        arms.append((current.test, branch))
        if len(current.orelse) == 1 and isinstance(current.orelse[0], ast.If):
            current = current.orelse[0]
            continue
        final = _branch_assignments(src, current.orelse)
        if final is None:
            return None
        break
    if not src.alone_on_lines(node, node):
        return None
    branches = [b for _, b in arms] + [final]
    names = list(dict.fromkeys(n for b in branches for n in b))
    assigned = set(names)
    if not names or any((_reads(v) & assigned) - {n} for b in branches for n, (v, _) in b.items()):
        return None
    if not all(_local_bound_before(src, n, node) or all(n in b for b in branches) for n in names):
        return None  # a name some arm leaves unbound
    reasons: list[str] = []
    for test, _ in arms[1:]:  # evaluated up front, where the original evaluates it only if earlier ones fail
        callee = calls_only_tensorflow(src, test)
        if callee is not None or any(isinstance(n, ast.Subscript) for n in ast.walk(test)):
            reasons.append(f"the fix evaluates every `elif` condition, the original only those reached: "
                           f"`{src.segment(test)}` may have side effects or raise (a call or an index)")
    preds = [src.fresh_name("pred") for _ in arms]
    lines = [f"{pred} = {condition(src, test, reasons)}" for pred, (test, _) in zip(preds, arms)]
    for name in names:
        keep_node = ast.copy_location(ast.Name(name, ast.Load()), node)
        src.parents[keep_node] = node  # reads `name` where the `if` starts: scope and bindings resolve there
        keep = (keep_node, name)
        acc_node, acc_text = final.get(name, keep)
        for pred, (test, branch) in reversed(list(zip(preds, arms))):
            value_node, value_text = branch.get(name, keep)
            acc_text = select(src, pred, test, value_node, value_text, acc_node, acc_text, reasons)
            acc_node = ast.copy_location(ast.IfExp(test, value_node, acc_node), node)
        lines.append(f"{name} = {acc_text}")
    return _fix_or_explain("Compute the values of the if/elif chain with tensor ops", _block(src, node, node, lines),
                    reasons)
