"""The truth value of a Python condition on tensors, as a tensor: what ``if``, ``assert`` and
``raise`` rewrites need to know about a condition (is it a bool, a number, a scalar; does
Python skip some of its operands).
"""

from __future__ import annotations

import ast

from xlacheck.rewrites._expr import FULL_REDUCTIONS, call_name, is_scalar, tf_name
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.builtins import condition, logical_ops

NOT_SCALAR = "cannot prove the condition is a scalar; a one-element condition of higher rank would broadcast"
NOT_BOOL_CAST = ("cannot prove the condition is a boolean or a number: the fix takes its truth value with "
                 "tf.cast(c, tf.bool), which is Python's for bool, integer and float tensors (NaN true, -0.0 false); "
                 "a complex tensor casts by its real part only, and an object that is not a tensor raises")
LAZY = ("the original stops evaluating `and`/`or` operands once the outcome is decided, also on inputs "
        "where it goes on normally; the fix evaluates all of them (their side effects and errors)")

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


def number(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Provably a real or complex number tensor (a full reduction), never a bool or a string."""
    if depth > 8:
        return False
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and number(src, bound, depth + 1)
    return isinstance(node, ast.Call) and call_name(src, node) in NUMBER_CALLS


def reduced(src: Source, node: ast.AST) -> bool:
    """``condition`` turns it into a reduction (``x in (...)``, ``any(...)``): a scalar."""
    if isinstance(node, ast.Compare):
        return any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("any", "all")


def lazy_operands(node: ast.AST, raising: bool) -> bool:
    """Some ``and``/``or`` (or chained comparison) in the condition can stop early with the
    truth value ``not raising``, i.e. on a path where the original goes on normally without
    evaluating the rest; the tensor form evaluates every operand (their side effects and errors)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return lazy_operands(node.operand, not raising)
    if isinstance(node, ast.BoolOp):
        stops_with = not isinstance(node.op, ast.And)  # `and` stops at a false operand, `or` at a true one
        return stops_with != raising or any(lazy_operands(v, raising) for v in node.values)
    if isinstance(node, ast.Compare) and len(node.ops) > 1:
        return raising  # a chain stops at its first false comparison
    return False  # kept as written: Python evaluates it the same way in both


def bool_condition(src: Source, node: ast.expr, reasons: list[str]) -> str:
    """Python's truth value of an ``if``/ternary/``while`` condition as a bool tensor, the input
    ``tf.where``, ``tf.cond``, ``tf.while_loop`` and ``tf.logical_*`` need (each rejects a number).

    ``and``/``or``/``not`` become ``tf.logical_*`` over their operands' truth values (in a
    condition only the truth value of ``a and b`` matters); a provably boolean operand is kept as
    written, a provably numeric one (a full reduction) becomes ``tf.not_equal(c, 0)``, which is
    ``bool()`` for every real and complex dtype, and anything else ``tf.cast(c, tf.bool)``, which
    is ``bool()`` for bool, integer and float tensors (checked by running it on TF 2.21: NaN and
    inf true, -0.0 false, eagerly and under XLA) and says so in ``reasons``. (Before, a float
    condition such as ``if self.bias:`` went into ``tf.where`` as it was, which raised a
    TypeError on every input.)"""
    tf = src.tf
    logical = logical_ops(src, node, lambda operand: bool_condition(src, operand, reasons))
    if logical is not None:
        return logical
    text = condition(src, node, reasons)
    if boolean(src, node):
        return text
    if number(src, node):
        return f"{tf}.not_equal({text}, 0)"
    reasons.append(NOT_BOOL_CAST)
    return f"{tf}.cast({text}, {tf}.bool)"


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
        if number(src, node):
            text = f"{src.tf}.not_equal({text}, 0)"
        else:
            reasons.append("cannot prove the condition is a boolean or a number: tf.debugging.Assert needs a bool "
                           "tensor, and Python's truth value of other objects has no tensor form here")
    if not (is_scalar(src, node) or reduced(src, node)):
        if isinstance(node, (ast.BoolOp, ast.UnaryOp)):
            reasons.append(NOT_SCALAR)
        else:
            text = f"{src.tf}.reduce_any({text})"
    if lazy_operands(node, raising):
        reasons.append(LAZY)
    return text


# -- conditions that may be None ------------------------------------------------------------------
def _gives_none(value: ast.AST | None) -> bool:
    """The expression may evaluate to None: ``None`` itself, or an arm of a conditional expression
    (``self.add_weight(...) if use_bias else None``)."""
    if isinstance(value, ast.Constant):
        return value.value is None
    if isinstance(value, ast.IfExp):
        return _gives_none(value.body) or _gives_none(value.orelse)
    return False


def _optional_annotation(ann: ast.AST | None) -> bool:
    """``Optional[T]``, ``T | None``, ``None``."""
    if ann is None:
        return False
    for sub in ast.walk(ann):
        if isinstance(sub, ast.Constant) and sub.value is None:
            return True
        if isinstance(sub, (ast.Name, ast.Attribute)) and (getattr(sub, "id", None) or getattr(sub, "attr", "")) \
                == "Optional":
            return True
    return False


def none_binding(src: Source, node: ast.AST) -> ast.AST | None:
    """A binding that may give ``node`` (a name, or an attribute of ``self``) the value None, for
    a condition whose truth value a fix reads with a tensor op (``tf.cast(None, ...)`` raises
    where Python's ``if None:`` is just false): a parameter defaulting to None or annotated
    Optional, an assignment of a value that may be None to the name in its function, or to
    ``self.<attr>`` anywhere in the class (``__init__``/``build`` set optional weights so). None
    when no such binding is in the file (the value is then taken as never None)."""
    if isinstance(node, ast.Name):
        func = src.function_of(node)
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = func.args
            positional = [*args.posonlyargs, *args.args]
            defaults: list[tuple[ast.arg, ast.expr | None]] = list(
                zip(positional[len(positional) - len(args.defaults):], args.defaults))
            defaults += list(zip(args.kwonlyargs, args.kw_defaults))
            for param, default in defaults:
                if param.arg == node.id and _gives_none(default):
                    return default
            for param in [*positional, *args.kwonlyargs]:
                if param.arg == node.id and _optional_annotation(param.annotation):
                    return param
        for store in src.stores_in(src.scope_of(node)).get(node.id, []):
            parent = src.parents.get(store)
            if isinstance(parent, (ast.Assign, ast.AnnAssign)) and _gives_none(parent.value):
                return parent
        return None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        cls = next((a for a in src.ancestors(node) if isinstance(a, ast.ClassDef)), None)
        if cls is None:
            return None
        for sub in ast.walk(cls):
            if isinstance(sub, (ast.Assign, ast.AnnAssign)) and _gives_none(sub.value):
                targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                for target in targets:
                    if (isinstance(target, ast.Attribute) and target.attr == node.attr
                            and isinstance(target.value, ast.Name) and target.value.id == "self"):
                        return sub
                    if isinstance(target, ast.Name) and target.id == node.attr and src.parents.get(sub) is cls:
                        return sub  # a class attribute `bias = None`
        return None
    return None


def sequence_equality(test: ast.AST) -> bool:
    """``[a, t] == [b, c]`` (or ``!=``, a tuple) anywhere in the test: Python's sequence equality asks
    each element comparison for ``bool()`` before any rewrite could see a tensor, so the test raises
    while tracing whatever it is handed to (``tf.where``, ``tf.cond``, ``tf.debugging.Assert``,
    ``jax.lax.cond``): no rewrite of it is a fix (measured, TF 2.21 and jax.jit)."""
    return any(isinstance(n, ast.Compare) and any(isinstance(op, (ast.Eq, ast.NotEq)) for op in n.ops)
               and any(isinstance(side, (ast.List, ast.Tuple)) for side in (n.left, *n.comparators))
               for n in ast.walk(test))


def python_identity(test: ast.expr) -> bool:
    """The test is made only of identity comparisons (``x is None``, ``a is not b``), joined by
    ``and``/``or``/``not``: a Python bool whatever its operands hold, so no tensor condition to
    rewrite (the guards :func:`none_guards` writes are such tests)."""
    if isinstance(test, ast.BoolOp):
        return all(python_identity(v) for v in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return python_identity(test.operand)
    return isinstance(test, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in test.ops)


def none_guards(src: Source, test: ast.expr) -> tuple[list[str], list[str]]:
    """For an ``if`` test read as a tensor: the operands to guard with ``is not None`` (the test
    itself, or operands of a top-level ``and``, that may be None: where one is None the original's
    test is false, so ``if x is not None:`` around the rewritten code skips it exactly as the
    original does), and the reasons for operands that may be None elsewhere in the test (under
    ``or`` or ``not``, a None makes the test's value depend on the others: no guard is exact)."""
    direct = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    guards, reasons = [], []
    direct_ids = {id(d) for d in direct}
    for sub in ast.walk(test):
        if not isinstance(sub, (ast.Name, ast.Attribute)):
            continue
        if isinstance(src.parents.get(sub), (ast.Attribute, ast.Call)):
            continue  # `self` of `self.bias`, a function or an argument
        binding = none_binding(src, sub)
        if binding is None:
            continue
        text = src.segment(sub)
        if id(sub) in direct_ids:
            guards.append(text)
        else:
            reasons.append(f"`{text}` may be None (line {getattr(binding, 'lineno', '?')}), where the fix's tensor op "
                           f"raises and the original's test is a Python truth value")
    return list(dict.fromkeys(guards)), reasons
