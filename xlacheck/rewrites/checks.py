"""``assert <tensor>`` and ``if <tensor>: raise E("msg")`` -> ``tf.debugging.Assert``.

Where the original returns, the check held, so the Assert passes and changes nothing: SAFE when
the condition converts exactly (:func:`xlacheck.rewrites.truth.truth`), the message is a string
literal and no handler could catch the exception. XLA drops the check; eagerly and in
``tf.function`` a failing input raises InvalidArgumentError instead.

Leading Python-level guards of an ``and`` (``labels is not None and tf.reduce_max(labels) >= V``)
stay Python: ``if labels is not None: tf.debugging.Assert(...)``. Python evaluates them first and
skips the rest when they are false, and so does the fix, which therefore never reads the tensor
condition where the original does not (``tf.reduce_max(None)`` would raise).

An assert whose tensor condition is only shape facts (``assert tf.rank(m) == 5``) and whose
Assert form is not SAFE (a message that is not a literal, as transformers' f-strings) stays a
Python assert on the static shape (``assert len(m.shape) == 5``,
:mod:`xlacheck.rewrites.shape_conditions`): it raises AssertionError while tracing exactly where
the original raises eagerly, and XLA cannot drop it. UNSAFE only for dimensions unknown while
tracing (then it raises, loudly). A SAFE Assert form is preferred where there is one.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._fix import make_fix, replace, replace_block, rewriter
from xlacheck.rewrites._source import Source, dotted
from xlacheck.rewrites.handlers import who_catches
from xlacheck.rewrites.shape_conditions import UNKNOWN_DIMS, python_shape_test, static_test
from xlacheck.rewrites.truth import sequence_equality, truth

CHECK_NOTE = ("XLA drops the check under jit_compile; eagerly and in tf.function a failure raises "
              "InvalidArgumentError instead of {exc}")


_GUARD_CALLS = frozenset({"isinstance", "hasattr", "callable"})


def _python_guard(node: ast.AST) -> bool:
    """A Python bool whatever the tensors involved: ``x is None``, ``x is not None``,
    ``isinstance``/``hasattr``/``callable``, or ``not`` of one."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _python_guard(node.operand)
    if isinstance(node, ast.Compare):
        return all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _GUARD_CALLS


def split_guards(test: ast.expr) -> tuple[list[ast.expr], ast.expr]:
    """(the leading Python-level guards of a top-level ``and``, the one tensor condition after
    them); no guards when the condition has another form."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        guards: list[ast.expr] = []
        for value in test.values:
            if not _python_guard(value):
                break
            guards.append(value)
        rest = test.values[len(guards):]
        if guards and len(rest) == 1:
            return guards, rest[0]
    return [], test


SEQUENCE_PACKED = ("each side of the sequence comparison is packed into one tensor: a None, a nested list, or elements "
                   "of different dtypes raise where Python compared them one by one, and sides of different lengths "
                   "or a tuple against a list, where the original's comparison is false, may broadcast and pass")


def sequence_check(src: Source, test: ast.expr, equal: bool) -> str | None:
    """For ``A == B`` (``equal``) or ``A != B`` (not ``equal``) with a list or tuple literal on one
    side (``shape_list(mask) == [bs, slen]``), the tensor condition that holds where the sequences
    are equal: ``tf.reduce_all(tf.equal(A, B))``. Python's sequence equality is the equality of
    every pair of elements (after equal lengths), which asks each tensor comparison for ``bool()``
    while tracing; ``tf.equal`` of the two packed sides compares the same pairs as one tensor."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq if equal else ast.NotEq)):
        return None
    sides = (test.left, test.comparators[0])
    literals = [s for s in sides if isinstance(s, (ast.List, ast.Tuple))]
    if not literals or any(not s.elts or any(isinstance(e, ast.Starred) for e in s.elts) for s in literals):
        return None
    return f"{src.tf}.reduce_all({src.tf}.equal({src.segment(sides[0])}, {src.segment(sides[1])}))"


def _literal_message(node: ast.AST | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)))


@rewriter(ast.Assert)
def rewrite_assert(src: Source, node: ast.AST) -> Fix | None:
    """``assert c, "msg"`` -> ``tf.debugging.Assert(c, ["msg"])``.

    SAFE under the contract (plain ``python``, not ``-O``): on every input where the original
    returns, ``bool(c)`` was true, and so is the converted condition (:func:`xlacheck.rewrites.truth.truth`), so the
    Assert passes, computes nothing and runs no Python code; the condition is evaluated once, as
    in the original. Where the original raises the fix is unconstrained: XLA drops the check,
    and outside XLA it raises InvalidArgumentError. UNSAFE when the message is not a string
    literal (Python evaluates it only when the assert fails; the fix every time), when an
    exception handler could catch the AssertionError (then the original returns on failing
    inputs), or when :func:`xlacheck.rewrites.truth.truth` cannot convert the condition exactly."""
    if not isinstance(node, ast.Assert) or src.tf is None:
        return None
    reasons: list[str] = []
    guards, test = split_guards(node.test)
    if _python_guard(test) or python_shape_test(src, test) or (guards and not src.alone_on_lines(node, node)):
        return None  # a Python-level condition is no tensor check
    if sequence_equality(test):  # `shape_list(m) == [bs, n]`: one comparison of the packed sides, or none
        packed = sequence_check(src, test, True)
        if packed is None:
            return None
        cond = packed
        reasons.append(SEQUENCE_PACKED)
    else:
        cond = truth(src, test, False, reasons)
    if _literal_message(node.msg):
        message = src.segment(node.msg) if node.msg is not None else repr(f"assertion failed: {src.segment(node.test)}")
    else:
        message = src.segment(node.msg)
        reasons.append("the message is not a string literal: Python evaluates it only when the assert fails, the fix "
                       "every time (its side effects and errors)")
    catcher = who_catches(src, node, "AssertionError")
    if catcher:
        reasons.append(catcher)
    text = f"{src.tf}.debugging.Assert({cond}, [{message}])"
    note = f"Check the tensor condition with tf.debugging.Assert ({CHECK_NOTE.format(exc='AssertionError')})"
    if guards:  # the Python-level part stays a Python assert, checked first as before
        python_part = " and ".join(src.segment(g) for g in guards)
        tail = f", {src.segment(node.msg)}" if node.msg is not None else ""
        fix = make_fix(note, replace_block(src, node, node, [f"assert {python_part}{tail}", text]), reasons)
    else:
        fix = make_fix(note, [replace(src, node, text)], reasons)
    static = static_test(src, test) if reasons else None
    if static is not None:  # no SAFE Assert: a shape check keeps the Python assert, on the static shape
        return make_fix("Check the static shape with the Python assert (it raises AssertionError while tracing, "
                        "as the original does eagerly, and XLA cannot drop it)", [replace(src, test, static)],
                        [UNKNOWN_DIMS])
    return fix


def rewrite_raise(src: Source, node: ast.If, raise_: ast.Raise, on_false: bool = False) -> Fix | None:
    """``if c: raise E("msg")`` -> ``tf.debugging.Assert(tf.logical_not(c), ["msg"])``: SAFE on
    the same argument as :func:`rewrite_assert`, with the roles of true and false swapped: where
    the original returns, ``bool(c)`` was false, so the Assert passes. UNSAFE when the
    exception's message is not a literal (evaluated on every call, not only when raising), or a
    handler could catch E. ``on_false``: the ``raise`` is the ``else`` branch (``if c: ... else:
    raise E``), so the check is ``tf.debugging.Assert(c, ...)`` on the argument of
    :func:`rewrite_assert` (where the original goes on, ``bool(c)`` was true)."""
    if not src.alone_on_lines(node, node):
        return None
    reasons: list[str] = []
    guards, test = split_guards(node.test)
    if _python_guard(test) or (on_false and guards):
        return None  # a Python-level condition is no tensor check
    packed = sequence_check(src, test, on_false) if sequence_equality(test) else None
    if sequence_equality(test) and packed is None:
        return None  # a sequence equality of another form has no Assert form
    if packed is not None:  # `if shape_list(m) != [bs, n]: raise`: goes on where the sequences are equal
        reasons.append(SEQUENCE_PACKED)
        checked = packed
    else:
        cond = truth(src, test, not on_false, reasons)
        checked = cond if on_false else f"{src.tf}.logical_not({cond})"
    exc = raise_.exc
    kind = dotted(exc.func if isinstance(exc, ast.Call) else exc) if exc is not None else None
    if isinstance(exc, ast.Call) and exc.args and not exc.keywords and not isinstance(exc.args[0], ast.Starred):
        message = src.segment(exc.args[0])
        if not _literal_message(exc.args[0]):
            reasons.append("the exception's message is not a string literal: Python evaluates it only when raising, "
                           "the fix every time (its side effects and errors)")
    else:
        when = f"not {src.segment(node.test)}" if on_false else src.segment(node.test)
        message = repr(f"{src.segment(exc) if exc is not None else 'error'} (when {when})")
    catcher = who_catches(src, node, kind.rpartition(".")[2] if kind else "exception")
    if catcher:
        reasons.append(catcher)
    text = f"{src.tf}.debugging.Assert({checked}, [{message}])"
    note = CHECK_NOTE.format(exc=kind or "the raised exception")
    lines = [text]
    if guards:  # the Python-level part stays a Python `if`, evaluated first as before
        lines = [f"if {' and '.join(src.segment(g) for g in guards)}:", f"{src.indent_step(node)}{text}"]
    return make_fix(f"Check the tensor condition with tf.debugging.Assert instead of raising from a Python `if` "
                    f"({note})", replace_block(src, node, node, lines), reasons)
