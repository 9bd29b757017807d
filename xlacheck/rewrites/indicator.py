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

Both forms take one dtype from both branches: an int literal against a floating-point branch
(``loss = 0`` / ``loss = total / count``, which AutoGraph's own tf.cond rejects) is written as a
float literal (:func:`_float_literal_branch`); equal values, UNSAFE since the eager result is a
float where it was an int.

The condition is turned into its truth value as a bool tensor first
(:func:`xlacheck.rewrites.truth.bool_condition`: ``tf.where``, ``tf.cond`` and the indicator's
``tf.cast`` need one, and a float ``if self.bias:`` fed as it is raised on every input). Each form
is SAFE only with a provably boolean or numeric condition (another one is read with
``tf.cast(c, tf.bool)``, which is Python's truth value for every real dtype, not for a complex one
or a non-tensor) and no ``and``/``or`` in it (the original skips operands that the fix
evaluates).

Branches of several statements that read each other's results (or end in ``return`` in both
arms) go to ``tf.cond`` over two local functions holding the branches as written
(:func:`cond_functions`), with the same safety conditions as the ``tf.cond`` form.

A name assigned in one branch only and unbound before gets NaN where the branch does not bind
it: SAFE when the original provably raises UnboundLocalError on every such path (the proof is
in :mod:`xlacheck.rewrites.unbound`); where the branch runs, ``tf.where(c, v, nan)`` is ``v``,
with its value, dtype, shape and gradient. ``assert`` and ``if c: raise`` are rewritten in
:mod:`xlacheck.rewrites.checks`. A function that returns in one branch only (None otherwise)
and branches of different dtypes have no equivalent tensor form: those fixes are UNSAFE and say
what they do instead (NaN where the original returns None; the else value cast to the if
value's dtype). Branches of different structure (a tuple and a tensor) get an explanation.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable

from xlacheck import api_table
from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import (
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
)
from xlacheck.rewrites._fix import explain, make_fix, replace, replace_block, replace_lines, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.checks import rewrite_raise
from xlacheck.rewrites.jax_conditions import one_difference
from xlacheck.rewrites.dtypes import FLOATING, certain_dtype
from xlacheck.rewrites.shape_conditions import UNKNOWN_DIMS, python_shape_test, static_test
from xlacheck.rewrites.truth import (LAZY, NOT_SCALAR, bool_condition, lazy_operands, none_guards, python_identity,
                                      sequence_equality)
from xlacheck.rewrites.unbound import local_bound_before, unbound_reasons

SHAPES = "cannot prove both branches have the same shape and dtype ({a} / {b}); tf.where broadcasts them"
STRUCTURE = ("a branch is a tuple, list or dict literal and the other is not one of the same length: tf.where "
             "would stack it into one tensor, and tf.cond raises while tracing on branches of different structure")
WHERE_GRADIENT = ("gradients only: tf.where sends a zero gradient to the branch not taken, and a non-linear op "
                  "there turns it NaN at inf or NaN inputs (0 * inf)")
COND_GRADIENT = ("gradients only: the branch not taken captures a tensor computed by a non-linear op outside it; "
                 "tf.cond sends it a zero gradient, which that op turns NaN where its derivative is not finite "
                 "(0 * inf: inf or NaN inputs, tf.norm at 0)")
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
    t_text, f_text = _float_literal_branch(src, true, t_text, false, f_text, reasons)
    scalar = is_scalar(src, cond_node)
    if lazy_operands(cond_node, True) or lazy_operands(cond_node, False):  # both outcomes go on normally
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


INT_LITERAL_BRANCH = ("the branch that gives the int {lit} gives the float {text} (tf.cond and tf.where need one "
                      "dtype in both branches): eagerly a Python float where the original gave an int")


def _float_literal_branch(src: Source, true: ast.AST, t_text: str, false: ast.AST, f_text: str,
                          reasons: list[str]) -> tuple[str, str]:
    """The branch texts, an int literal written as a float where the other branch is a floating-point
    tensor (``loss = 0`` against ``loss = total / count``): tf.cond (AutoGraph's too) and tf.where
    take one dtype from both branches, and the int becomes an int32 tensor, so tracing fails
    ("true_fn and false_fn arguments to tf.cond must have the same dtype"); a Python float becomes
    float32. Equal values; UNSAFE, as the eager result is now a float."""
    for lit, other in ((true, false), (false, true)):
        if not (isinstance(lit, ast.Constant) and type(lit.value) is int) or isinstance(other, ast.Constant):
            continue
        dtype = certain_dtype(src, other)
        floating = dtype in ("float32", FLOATING) or (dtype is None and (_floatish(src, other) or any(
            isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) for n in ast.walk(other))))
        if not floating:
            continue
        text = repr(float(lit.value))
        reasons.append(INT_LITERAL_BRANCH.format(lit=lit.value, text=text))
        return (text, f_text) if lit is true else (t_text, text)
    return t_text, f_text


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


def _shape_test(src: Source, test: ast.expr) -> tuple[bool, Fix | None]:
    """Whether ``test`` is made of shape facts, and what becomes of it (``if`` statements and
    conditional expressions ask the same): (True, None) when it is already a Python bool while
    tracing (left as written), (True, fix) when it is read on the static shape
    (:func:`_static_shape_test`), (False, None) when it is a tensor condition to rewrite."""
    if python_shape_test(src, test):
        return True, None
    static = _static_shape_test(src, test)
    return static is not None, static


def _static_shape_test(src: Source, test: ast.expr) -> Fix | None:
    """A test made only of shape facts, read on the static shape (:mod:`xlacheck.rewrites.shape_conditions`):
    the branches stay as written, and only the one that runs is traced (a tf.cond or tf.where
    form would compile both, and fail where the other branch's static sizes do not fit). In an
    ``if``/``elif`` chain every test that is made of shape facts is read so (``if n == 1: ...
    elif n == 2: ... elif n != 5: raise`` with ``n = tf.rank(m)``): a chain left half staged would
    still trace its staged branches together."""
    text = static_test(src, test)
    if text is None:
        return None
    edits = [replace(src, test, text)]
    stmt = src.parents.get(test)
    if isinstance(stmt, ast.If) and stmt.test is test:
        head = stmt
        while isinstance(src.parents.get(head), ast.If) and src.parents[head].orelse == [head]:  # type: ignore[attr-defined]
            head = src.parents[head]
        arm: ast.AST = head
        while isinstance(arm, ast.If):
            if arm is not stmt:
                other = static_test(src, arm.test)
                if other is not None:
                    edits.append(replace(src, arm.test, other))
            arm = arm.orelse[0] if len(arm.orelse) == 1 and isinstance(arm.orelse[0], ast.If) else None
    return make_fix("Test the static shape instead of a shape tensor (only the branch that runs is traced; the "
                    "branches stay as written)", edits, [UNKNOWN_DIMS])


def _python_call_test(src: Source, test: ast.expr) -> bool:
    """The test is (the negation of) a TensorFlow call that the API table does not list as
    returning a tensor (``tf.executing_eagerly()``, ``tf.is_tensor(x)``): a Python value while
    tracing, so the `if` is no tensor condition (a finding inside its branch is about something
    else)."""
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    name = call_name(src, test)
    return name is not None and api_table.returns(name) not in ("tensor", "variable", "string_tensor", None)


def _raise_then_else(src: Source, node: ast.If, raise_: ast.Raise, on_false: bool = False) -> Fix | None:
    """``if c: raise E`` -> ``tf.debugging.Assert`` (:func:`xlacheck.rewrites.checks.rewrite_raise`);
    with an ``else``/``elif``, its statements follow the check at the ``if``'s own indentation:
    they run exactly where the original does not raise (an ``elif`` becomes a plain ``if``,
    rewritten in the next pass). ``on_false``: ``if c: ... else: raise E``, the same with the
    check on ``c`` and the ``if`` branch's statements after it."""
    fix = rewrite_raise(src, node, raise_, on_false=on_false)
    after = node.body if on_false else node.orelse
    if fix is None or not after:
        return fix
    if len(fix.edits) != 1:
        return None
    is_elif = (not on_false and len(after) == 1 and isinstance(after[0], ast.If)
               and src.lines[after[0].lineno - 1].lstrip().startswith("elif"))
    if not is_elif and not src.alone_on_lines(after[0], after[-1]):
        return None
    rest = _block_lines(src, after, src.indent_of(node), elif_=is_elif)
    if rest is None:
        return None
    edit = fix.edits[0]
    return dataclasses.replace(fix, edits=(dataclasses.replace(edit, content=edit.content + "".join(rest)),))


# -- ternary ------------------------------------------------------------------------------------
@rewriter(ast.IfExp)
def rewrite_ternary(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.IfExp) or src.tf is None or python_identity(node.test) or sequence_equality(node.test):
        return None
    shaped, fix = _shape_test(src, node.test)
    if shaped:
        return fix
    reasons: list[str] = []
    cond = bool_condition(src, node.test, reasons)
    guards, none_reasons = none_guards(src, node.test)
    reasons += none_reasons
    text = select(src, cond, node.test, node.body, arg(src, node.body), node.orelse, arg(src, node.orelse), reasons)
    if guards:  # where a guard is None the original's test is false: it gives the else value, as written
        checks = " and ".join(f"{g} is not None" for g in guards)
        text = f"({text} if {checks} else {src.segment(node.orelse)})"
    return _fix_or_explain("Select the value with a tensor op instead of a Python conditional expression",
                    [replace(src, node, text)], reasons)



# -- if statements --------------------------------------------------------------------------------
@rewriter(ast.If)
def rewrite_if(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.If) or src.tf is None:
        return None
    shaped, fix = _shape_test(src, node.test)
    if shaped:
        return fix
    while isinstance(src.parents.get(node), ast.If) and src.parents[node].orelse == [node]:  # type: ignore[attr-defined]
        node = src.parents[node]  # an `elif`: the chain is rewritten from its `if`
    if python_identity(node.test) or _python_call_test(src, node.test) or sequence_equality(node.test):
        return None
    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        chain = _rewrite_chain(src, node)
        if chain is not None:
            return chain
    if len(node.body) == 1 and isinstance(node.body[0], ast.Raise):
        return _raise_then_else(src, node, node.body[0])
    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.Raise) and node.body:
        return _raise_then_else(src, node, node.orelse[0], on_false=True)
    cond_reasons: list[str] = []  # about the condition: every form below shares them
    cond = bool_condition(src, node.test, cond_reasons)
    guards, none_reasons = none_guards(src, node.test)
    if guards and node.orelse:  # where a guard is None the original runs the else branch
        none_reasons += [f"`{g}` may be None, where the fix's tensor op raises and the original runs the else branch"
                         for g in guards]
        guards = []
    cond_reasons += none_reasons
    reasons = list(cond_reasons)
    if not guards:
        returns = _rewrite_returns(src, node, cond, reasons)
        if returns is not None:
            return returns
    fix = _rewrite_assignments(src, node, cond, reasons)
    if fix is None:
        # under a None guard the statements after the `if` must run where the guard fails: never moved
        fix = cond_functions(src, node, cond, list(cond_reasons), absorb_tail=not guards)
    if (fix is None or not fix.edits) and not guards:
        fix = _one_difference(src, node, cond, list(cond_reasons)) or fix
    return fix if fix is None or not guards else _guard(src, node, fix, guards)


TF_COND_TRACES_BOTH = ("tf.cond traces both branches: the Python side effects of the untaken one run while tracing, "
                       "and branches of different shapes or dtypes raise where Python picked one value")


def _one_difference(src: Source, node: ast.If, cond: str, reasons: list[str]) -> Fix | None:
    """``if c: out.append(a)`` / ``else: out.append(b)`` -> ``out.append(tf.cond(c, lambda: a, lambda: b))``
    (:func:`xlacheck.rewrites.jax_conditions.one_difference`): the statement, a Python side effect a
    traced branch cannot hold, runs once, on the value the condition picks."""
    if not (node.body and isinstance(node.body[0], ast.Expr)):
        return None  # assignments and returns: the forms above pick (or explain) a value of one structure
    tf = src.tf
    lines = one_difference(src, node, lambda yes, no: f"{tf}.cond({cond}, lambda: {yes}, lambda: {no})")
    if lines is None:
        return None
    return make_fix("Pick the one differing value with tf.cond: the statement runs once, on the value the "
                    "condition picks", replace_block(src, node, node, lines), [*reasons, TF_COND_TRACES_BOTH])


def _guard(src: Source, node: ast.If, fix: Fix, guards: list[str]) -> Fix | None:
    """The rewritten block inside ``if g is not None:`` for each operand ``g`` of the test that
    may be None (:func:`xlacheck.rewrites.truth.none_guards`): where one is None the original's
    test is false and it skips the branch, and so does the guard; elsewhere the rewrite runs as
    it would unguarded. Only for a block of whole lines that re-indents safely (no triple-quoted
    string whose text would change)."""
    if len(fix.edits) != 1 or not fix.edits:
        return None
    edit = fix.edits[0]
    if edit.start.col or edit.end.col or '"""' in edit.content or "'''" in edit.content:
        return None
    indent, step = src.indent_of(node), src.indent_step(node)
    page = src.page_break_of(node)
    body = edit.content[len(page):] if page and edit.content.startswith(page) else edit.content
    lines = body.splitlines(keepends=True)
    comments = []  # the `if` line's comments stay above the guard
    while lines and lines[0].lstrip().startswith("#"):
        comments.append(lines.pop(0))
    lines = [line if not line.strip() else step + line for line in lines]
    header = f"{indent}if {' and '.join(f'{g} is not None' for g in guards)}:\n"
    guarded = dataclasses.replace(edit, content=page + "".join(comments) + header + "".join(lines))
    names = ", ".join(f"`{g}`" for g in guards)
    head = fix.message.split(" (unsafe: ")[0]
    message = f"{head}, under a Python check that {names} is not None (as the original skips the branch there)"
    rest = fix.message[len(head):]
    return dataclasses.replace(fix, message=message + rest, edits=(guarded,))


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
                    replace_block(src, node, last, [f"return {text}"]), reasons)


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
                and not local_bound_before(src, n, node)]
    note = "".join(f"; `{n}` is NaN where the original raises UnboundLocalError" for n in poisoned)
    return _fix_or_explain(f"Compute the branch values with tensor ops instead of a Python `if` on a tensor{note}",
                    replace_block(src, node, node, lines), reasons)


def _select_name(src: Source, node: ast.If, cond: str, name: str, true: tuple[ast.expr, str] | None,
                 false: tuple[ast.expr, str] | None, reasons: list[str]) -> list[str]:
    tf = src.tf
    defined = local_bound_before(src, name, node)
    if true is None or false is None:
        if not defined:
            value, text = true or false  # type: ignore[misc]
            side = "false" if false is None else "true"
            unsafe = unbound_reasons(src, node, name, value, side)
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
                if lazy_operands(node.test, True) or lazy_operands(node.test, False):
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
    if not all(local_bound_before(src, n, node) or all(n in b for b in branches) for n in names):
        return None  # a name some arm leaves unbound
    reasons: list[str] = []
    for test, _ in arms[1:]:  # evaluated up front, where the original evaluates it only if earlier ones fail
        callee = calls_only_tensorflow(src, test)
        if callee is not None or any(isinstance(n, ast.Subscript) for n in ast.walk(test)):
            reasons.append(f"the fix evaluates every `elif` condition, the original only those reached: "
                           f"`{src.segment(test)}` may have side effects or raise (a call or an index)")
    preds = [src.fresh_name("pred") for _ in arms]
    lines = [f"{pred} = {bool_condition(src, test, reasons)}" for pred, (test, _) in zip(preds, arms)]
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
    return _fix_or_explain("Compute the values of the if/elif chain with tensor ops", replace_block(src, node, node, lines),
                    reasons)


# -- branches of several dependent statements -> tf.cond over branch functions ----------------------
def _stores(stmt: ast.stmt) -> list[str] | None:
    """The names a plain assignment binds (``a = ...``, ``a, b = ...``, ``a += ...``,
    ``a: T = ...``); None for any other statement."""
    if isinstance(stmt, ast.Assign):
        names = []
        for target in stmt.targets:
            elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            if not all(isinstance(e, ast.Name) for e in elts):
                return None
            names += [e.id for e in elts]  # type: ignore[attr-defined]
        return names
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and isinstance(stmt.target, ast.Name) \
            and stmt.value is not None:
        return [stmt.target.id]
    return None


_NO_MOVE_CALLS = frozenset({"super", "locals", "vars", "exec", "eval"})
# methods that change a Python container in place: tf.cond traces both branches, so both would
# change it (and leave tensors of a branch graph in it)
_MUTATORS = frozenset({"append", "extend", "insert", "update", "add", "pop", "popitem", "remove", "discard",
                       "clear", "setdefault", "sort", "reverse", "__setitem__", "__delitem__"})


def _always_returns(body: list[ast.stmt]) -> bool:
    """Every path through ``body`` ends in ``return <value>`` (an ``if`` counts when both of its
    arms do)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Return):
        return last.value is not None
    if isinstance(last, ast.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    return False


def _movable(stmts: list[ast.stmt], returning: bool) -> list[str] | None:
    """The names ``stmts`` bind, when they can run unchanged as the body of a local function
    that ``tf.cond`` traces whether or not its branch is taken: no ``yield``/``await``, no
    ``global``/``nonlocal``/``del``, no ``raise`` (it would raise while tracing), no
    ``break``/``continue`` that leaves them, no
    zero-argument ``super()``, ``locals()``, ``vars()``, ``exec``/``eval`` (all see the
    enclosing frame), no store into an attribute or item and no in-place change of a Python
    container the statements did not create (``self.n = ...``, ``d[k] = ...``,
    ``out.append(t)``: both traced branches would do it, with tensors of a branch graph), and
    a ``return`` only with a value and only when the branch returns (else it would return from
    the local function, not from the caller). None otherwise."""
    names: list[str] = []
    stack: list[tuple[ast.AST, int]] = [(s, 0) for s in reversed(stmts)]
    while stack:
        node, loops = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal, ast.Delete, ast.Raise)):
            return None  # (a `raise` would run while tf.cond traces the branch, taken or not)
        if isinstance(node, (ast.Break, ast.Continue)) and not loops:
            return None
        if isinstance(node, ast.Return) and (not returning or node.value is None):
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NO_MOVE_CALLS \
                and (node.func.id != "super" or not node.args):
            return None
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            return None  # Python state outside the branch: both traced branches would set it
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS \
                and not (isinstance(node.func.value, ast.Name) and node.func.value.id in names):
            return None  # a container the branch did not create
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.append(node.name)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            # its own body is its own scope; its decorators and defaults run here
            heads = [*getattr(node, "decorator_list", []), *getattr(node, "bases", [])]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                heads += [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
            stack += [(h, loops) for h in reversed(heads)]
            continue
        inner = loops + 1 if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) else loops
        for field, value in reversed(list(ast.iter_fields(node))):
            children = value if isinstance(value, list) else [value]
            # a loop's `else` runs after it: a `break` there leaves the enclosing loop
            depth = loops if field == "orelse" and isinstance(node, (ast.For, ast.AsyncFor, ast.While)) else inner
            stack += [(c, depth) for c in reversed(children) if isinstance(c, ast.AST)]
    return list(dict.fromkeys(names))


def _block_lines(src: Source, stmts: list[ast.stmt], indent: str, elif_: bool = False) -> list[str] | None:
    """The source lines of ``stmts`` re-indented to ``indent`` (None where that is not certain:
    a line inside a multi-line string, or a code line less indented than the block). ``elif_``:
    the block is the ``elif`` of a chain, written as a plain ``if``."""
    first, last = stmts[0].lineno, stmts[-1].end_lineno or stmts[-1].lineno
    if elif_:
        first_line = src.lines[first - 1]
        old = first_line[: len(first_line) - len(first_line.lstrip(" \t"))]
    else:
        old = src.indent_of(stmts[0])
        if not src.alone_on_lines(stmts[0], stmts[-1]):
            return None
    if "\f" in "".join(src.lines[first - 1:last]):
        return None
    in_string = set()
    for n in ast.walk(ast.Module(body=stmts, type_ignores=[])):
        end = getattr(n, "end_lineno", None)
        if isinstance(n, (ast.Constant, ast.JoinedStr)) and end and end > n.lineno:
            in_string |= set(range(n.lineno + 1, end + 1))
    out = []
    for number in range(first, last + 1):
        line = src.lines[number - 1].rstrip("\r\n")
        if number in in_string:
            if old != indent:
                return None
            out.append(line + "\n")
        elif not line.strip():
            out.append("\n")
        elif line.startswith(old):
            out.append(indent + line[len(old):] + "\n")
        elif line.lstrip().startswith("#"):
            out.append(indent + line.lstrip() + "\n")
        else:
            return None  # a continuation line written left of the block
    if elif_:
        head = out[0][len(indent):]
        if not head.startswith("elif"):
            return None
        out[0] = indent + head[2:]
    return out


def _surely_bound(body: list[ast.stmt]) -> set[str]:
    """Names ``body`` binds on every path through it: by an assignment of its own, or in both
    arms of a nested ``if``, or in the body of a ``with``."""
    names: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.If):
            names |= _surely_bound(stmt.body) & _surely_bound(stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            names |= _surely_bound(stmt.body)
        else:
            names |= set(_stores(stmt) or [])
    return names


@dataclasses.dataclass(frozen=True)
class CondForm:
    """How one framework writes :func:`cond_functions`' result: the conditional call over two
    zero-argument functions (``tf.cond``, ``jax.lax.cond``: both trace both functions and run the
    one the predicate selects), NaN in a value's structure, shape and dtype (``{value}`` stands
    for the value), and the first call in a statement that is not the framework's own (its
    Python side effects run while both branches are traced). ``gradients``: check the tensors a
    branch captures for :data:`COND_GRADIENT` (TensorFlow's linearity facts); a framework
    whose fixes state that reason themselves passes False."""

    cond: str
    nan: str
    foreign_call: Callable[[Source, ast.AST], str | None]
    gradients: bool = True

    @staticmethod
    def tensorflow(src: Source) -> CondForm:
        tf = src.tf
        return CondForm(f"{tf}.cond", f"{tf}.nest.map_structure(lambda t: {tf}.fill({tf}.shape(t), "
                        f"{tf}.cast(float(\"nan\"), t.dtype)), {{value}})", calls_only_tensorflow)


def cond_functions(src: Source, node: ast.If, cond: str, reasons: list[str],
                            absorb_tail: bool = True, form: CondForm | None = None) -> Fix | None:
    """``if c:`` whose branches are statements (assignments that may read each other's results,
    calls, nested blocks) -> ``tf.cond`` over two local functions holding the branches as
    written.

    When a branch returns on every path (``return`` or ``raise`` last, in each arm of a nested
    ``if``), the ``if`` stands in the function's own body and the rest of the body after it
    returns on every path too, that rest joins each branch that falls through (an early
    ``return``: ``if c: return a`` then more statements and ``return b``); an ``elif`` is the
    else branch's own ``if`` (rewritten in the next pass). The function then returns the
    ``tf.cond``: each local function returns what the original returns on its paths.

    Otherwise each function takes the names its branch assigns that have a value before the
    ``if`` (so a read before the branch's own assignment sees the old value, as in the
    original), runs the branch's statements unchanged, and returns every name the ``if``
    assigns; ``tf.cond`` runs the one the condition selects, so the values are those of the
    original branch. Names that one branch leaves unassigned keep their value (the other
    function returns its parameter). A name assigned in one branch only that has no value
    before the ``if`` is allowed only when nothing outside the ``if`` reads it (a temporary);
    otherwise there is no rewrite.

    Statements that would mean something else inside a local function are never moved
    (:func:`_movable`). Safety as for :func:`select`'s ``tf.cond`` form: a condition that is not
    provably boolean or numeric, ``and``/``or`` in it, a call to a non-TensorFlow function in a
    branch (tf.cond traces both, so its Python side effects run for both), and a branch reading
    a tensor computed by a non-linear op outside it (gradients only) make it UNSAFE. XLA rejects
    branches whose results differ in dtype or structure (loudly, at trace time). ``form``: how
    the framework writes it (:class:`CondForm`; TensorFlow's by default)."""
    form = form or CondForm.tensorflow(src)
    scope = src.scope_of(node)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) or not src.alone_on_lines(node, node):
        return None
    branches = [list(node.body), list(node.orelse)]
    ends = [_always_returns(b) for b in branches]
    returning = any(ends)
    last: ast.stmt = node
    falls_off = False  # the `if` ends the function: the arm that does not return returns None
    if returning and not all(ends):
        if not absorb_tail or node not in scope.body:
            return None
        tail = scope.body[scope.body.index(node) + 1:]
        if not tail and scope.body[-1] is node and not all(isinstance(s, ast.Pass) for s in
                                                           branches[ends.index(False)]):
            return None  # statements before falling off the end: the value it would stand in for is unknown
        if not tail and scope.body[-1] is node:
            falls_off = True
            reasons.append("the original returns None when the condition is "
                           f"{'false' if ends[0] else 'true'}; this returns NaN there, in the structure and shape "
                           "of the other branch's value (write the value you mean, e.g. 0.0, in that branch)")
        elif not _always_returns(tail):
            return None
        else:
            branches = [b if done else b + tail for b, done in zip(branches, ends)]
            last = tail[-1]
    assigned: list[list[str]] = []
    for branch in branches:
        names = _movable(branch, returning)
        if names is None:
            return None
        assigned.append(names)
    every = list(dict.fromkeys(assigned[0] + assigned[1]))
    if not returning and all(isinstance(s, ast.Pass) for b in branches for s in b):
        return None
    if set(every) & src.declared_outside(scope):
        return None
    carried = [n for n in every if local_bound_before(src, n, node)]
    own = {id(n) for b in branches for s in b for n in ast.walk(s)}
    if returning:
        outputs: list[str] = []
    else:
        # a name without a value before the `if` is returned only when each branch binds it in a
        # statement of its own (not inside a nested block that may skip it)
        surely = [_surely_bound(b) for b in branches]
        outputs = [n for n in every if n in carried or all(n in a for a in surely)]
        temps = set(every) - set(outputs)
        if any(isinstance(n, ast.Name) and n.id in temps and id(n) not in own for n in ast.walk(scope)):
            return None  # a name one branch leaves unbound is read after the `if`
    statements = [s for b in branches for s in b]
    for stmt in statements:
        callee = form.foreign_call(src, stmt)
        if callee is not None:
            reasons.append(f"{form.cond} traces both branches, so Python side effects of `{callee}` run for both")
            break
    shared = _read_names(ast.Module(body=branches[0], type_ignores=[])) & _read_names(
        ast.Module(body=branches[1], type_ignores=[]))
    for branch in branches if form.gradients else []:
        funcs = {id(n) for sub in ast.walk(ast.Module(body=branch, type_ignores=[])) if isinstance(sub, ast.Call)
                 for n in ast.walk(sub.func)}
        local: set[str] = set()  # assigned in the branch before any read there: computed inside, not captured
        captured = []
        for stmt in branch:
            if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)):
                value = stmt.value
            else:
                value = stmt
            reads = [n for n in ast.walk(value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                     and id(n) not in funcs] if value is not None else []
            if isinstance(stmt, ast.AugAssign):
                reads.append(stmt.target)  # type: ignore[arg-type]
            captured += [n for n in reads if n.id not in local]
            local |= set(_movable([stmt], True) or [])
        if not all(linear(src, n, leaves=shared) for n in captured):
            reasons.append(COND_GRADIENT)
            break
    if lazy_operands(node.test, True) or lazy_operands(node.test, False):
        reasons.append(LAZY)
    indent = src.indent_of(node)
    inner = indent + src.indent_step(node)
    packed = ", ".join(outputs) if len(outputs) != 1 else outputs[0]
    lines: list[str] = [*(f"{indent}{c}\n" for c in src.comments_in(node.lineno, node.test.end_lineno or node.lineno))]
    calls = []
    for arm, branch in zip(("true", "false"), branches):
        params = [n for n in carried if n in assigned[0 if arm == "true" else 1]]
        if falls_off and not ends[0 if arm == "true" else 1]:
            calls.append(None)  # filled in below, from the other branch's function
            continue
        if not branch or all(isinstance(s, ast.Pass) for s in branch) or (
                not returning and outputs and not params and not assigned[0 if arm == "true" else 1]
                and all(n in carried for n in outputs)):
            if returning:
                return None
            kept = "None" if not outputs else packed if len(outputs) == 1 else f"({packed})"
            calls.append(f"lambda: {kept}")
            continue
        fn = src.fresh_name(f"{arm}_branch")
        lines.append(f"{indent}def {fn}({', '.join(params)}):\n")
        own = node.body if arm == "true" else node.orelse
        is_elif = (arm == "false" and len(own) == 1 and isinstance(own[0], ast.If)
                   and src.lines[own[0].lineno - 1].lstrip().startswith("elif"))
        block = _block_lines(src, own, inner, elif_=is_elif) if own else []
        if len(branch) > len(own):  # the statements after the `if`
            rest = _block_lines(src, branch[len(own):], inner)
            block = None if block is None or rest is None else block + rest
        if block is None:
            return None
        lines += block
        if not returning and outputs:
            lines.append(f"{inner}return {packed}\n")
        calls.append(f"lambda: {fn}({', '.join(params)})")
    if falls_off:
        other = next(c for c in calls if c is not None)[len("lambda: "):]
        nan = "lambda: " + form.nan.replace("{value}", other)
        calls = [c if c is not None else nan for c in calls]
    result = f"{form.cond}({cond}, {calls[0]}, {calls[1]})"
    # no outputs: the branches only run ops for their effects (a variable's assign), which
    # tf.cond runs for the taken branch alone
    lines.append(f"{indent}return {result}\n" if returning else f"{indent}{packed} = {result}\n" if outputs
                 else f"{indent}{result}\n")
    message = (f"Run the branches with {form.cond} over local functions instead of a Python `if` on a tensor "
               "(the branches are kept as written")
    message += "; the statements after the `if` go into the branch that falls through)" if last is not node else ")"
    return _fix_or_explain(message, [replace_lines(node.lineno, last.end_lineno or last.lineno, "".join(lines))],
                           reasons)
