"""Python builtins over tensors -> TensorFlow ops: ``in``, ``min``/``max``, ``sorted``, ``any``/``all``,
``float``, ``bool``.

AutoGraph does not overload these builtins, so on a symbolic tensor each one asks for a Python
``bool`` and fails (``OperatorNotAllowedInGraphError``). Each rewrite below states when it is
exactly equivalent; the condition converter is shared with the ``if``/ternary rewrites.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, atom, calls_only_tensorflow, is_number, is_scalar, linear, scalar_tensor
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import DTYPES, certain_dtype

NAN_MINMAX = (
    "differs when an argument is NaN (tf.{op} returns NaN, Python's {fn}() keeps the earlier argument) "
    "and gives a tensor where {fn}() could return a Python number"
)


def _literal_numbers(src: Source, node: ast.AST) -> bool:
    """A tuple/list/set literal of numbers, directly or through a module constant."""
    if isinstance(node, ast.Name):
        bound = src.module_constant(node)
        if bound is None:
            return False
        node = bound
    return isinstance(node, (ast.Tuple, ast.List)) and bool(node.elts) and all(is_number(e) for e in node.elts)


def membership(src: Source, node: ast.Compare, reasons: list[str]) -> str | None:
    """``x in C`` -> ``tf.reduce_any(tf.equal(x, C))``.

    Equivalence: Python's ``x in (c1, c2, ...)`` is ``any(x is ci or x == ci)``; a tensor is
    never identical to a number, so it is ``any(x == ci)``, and a tensor ``x`` in an ``if``
    must hold one element, so this equals the reduction of the broadcast comparison (NaN
    compares unequal in both). Exact when C is a literal collection of numbers; for other
    containers (sets, dicts, tensors of other dtypes) the conversion may differ.
    """
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.In, ast.NotIn)):
        return None
    tf = src.tf
    container = node.comparators[0]
    if not _literal_numbers(src, container):
        reasons.append(f"cannot see that {src.segment(container)} is a tuple of numbers")
    text = f"{tf}.reduce_any({tf}.equal({arg(src, node.left)}, {arg(src, container)}))"
    return f"{tf}.logical_not({text})" if isinstance(node.ops[0], ast.NotIn) else text


def logical_ops(src: Source, node: ast.expr, convert: Callable[[ast.expr], str]) -> str | None:
    """``and``/``or``/``not`` as ``tf.logical_*`` over the operands as ``convert`` writes them;
    None for any other expression."""
    if isinstance(node, ast.BoolOp):
        op = "logical_and" if isinstance(node.op, ast.And) else "logical_or"
        parts = [convert(v) for v in node.values]
        text = parts[0]
        for part in parts[1:]:
            text = f"{src.tf}.{op}({text}, {part})"
        return text
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return f"{src.tf}.logical_not({convert(node.operand)})"
    return None


def condition(src: Source, node: ast.expr, reasons: list[str]) -> str:
    """A boolean Python expression over tensors, as one tensor expression.

    ``and``/``or``/``not`` become ``tf.logical_*`` (equal truth values; the tensor version
    evaluates every operand, which matters only for operands with side effects), ``in``,
    ``any``/``all``/``min``/``max`` become their tensor ops; everything else is kept as written.
    """
    tf = src.tf
    logical = logical_ops(src, node, lambda operand: condition(src, operand, reasons))
    if logical is not None:
        return logical
    if isinstance(node, ast.Compare):
        converted = membership(src, node, reasons)
        if converted is not None:
            return converted
    if isinstance(node, ast.Call):
        converted = builtin_call(src, node, reasons)
        if converted is not None:
            return converted
    return arg(src, node)


_NUMERIC_OR_BOOL = DTYPES


def _tested(src: Source, node: ast.expr) -> bool:
    """``node`` is only tested for truth: the test of an if/while/ternary/assert, directly or
    through ``not``, ``and``/``or``."""
    parent = src.parents.get(node)
    while isinstance(parent, ast.BoolOp) or isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        node, parent = parent, src.parents.get(parent)
    return isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)) and parent.test is node


def builtin_call(src: Source, call: ast.Call, reasons: list[str]) -> str | None:
    if not isinstance(call.func, ast.Name) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    fn, tf = call.func.id, src.tf
    if fn in ("min", "max") and not call.keywords and call.args:
        op = "minimum" if fn == "min" else "maximum"
        if len(call.args) == 1:
            reasons.append(NAN_MINMAX.format(op=f"reduce_{fn}", fn=fn))
            reasons.append(f"on ties the gradient is split among the equal items; Python's {fn}() picks the first")
            return f"{tf}.reduce_{fn}({arg(src, call.args[0])})"
        if len(call.args) == 2 and all(calls_only_tensorflow(src, a) is None for a in call.args):
            return _pairwise_select(src, fn, call.args[0], call.args[1], reasons)
        reasons.append(NAN_MINMAX.format(op=op, fn=fn))
        text = arg(src, call.args[0])
        for other in call.args[1:]:
            text = f"{tf}.{op}({text}, {arg(src, other)})"
        return text
    if fn == "sorted" and len(call.args) == 1 and all(k.arg == "reverse" for k in call.keywords):
        reasons.append("returns a tensor instead of a list, and NaN sorts differently")
        reverse = next((k.value for k in call.keywords), None)
        if reverse is None or (isinstance(reverse, ast.Constant) and reverse.value is False):
            return f"{tf}.sort({arg(src, call.args[0])})"
        if isinstance(reverse, ast.Constant) and reverse.value is True:
            return f'{tf}.sort({arg(src, call.args[0])}, direction="DESCENDING")'
        return None
    if fn == "float" and len(call.args) == 1 and not call.keywords and not isinstance(call.args[0], ast.Constant):
        # What AutoGraph itself does with float(t) in converted code.
        reasons.append("computes in float32 where float() gave a double-precision Python number (a float64 "
                       "tensor loses precision, and the result no longer adapts to other operands' dtypes)")
        return f"{tf}.cast({arg(src, call.args[0])}, {tf}.float32)"
    if fn == "bool" and len(call.args) == 1 and not call.keywords and not isinstance(call.args[0], ast.Constant):
        # Python's bool() of a one-element tensor is `t != 0` (NaN is true; a bool tensor is itself),
        # and so is tf.cast(t, tf.bool). As a condition (an if/while/ternary/assert test, through
        # `not`/`and`/`or`) the result is only tested, which a boolean tensor supports: AutoGraph
        # stages it, and eagerly Python tests it with the same bool(). As a value it stays a tensor.
        if not _tested(src, call):
            reasons.append("gives a boolean tensor where bool() gave a Python bool: code that needs a Python "
                           "value (a dict key, `is True`, str()) fails")
        if certain_dtype(src, call.args[0]) not in _NUMERIC_OR_BOOL:
            reasons.append("cannot prove the tensor is numeric or boolean: for strings bool() tests emptiness, "
                           "which tf.cast does not do")
        return f"{tf}.cast({arg(src, call.args[0])}, {tf}.bool)"
    if fn in ("any", "all") and len(call.args) == 1 and not call.keywords:
        items = call.args[0]
        if isinstance(items, ast.GeneratorExp):  # tensors are built from lists, not generators
            if not (is_scalar(src, items.elt) and calls_only_tensorflow(src, items) is None
                    and all(not gen.is_async for gen in items.generators)):
                reasons.append("evaluates every element (no short-circuit): an element after the deciding one "
                               "is computed, and its side effects or errors happen")
            text = f"[{src.segment(items.elt)} {comprehension_text(src, items)}]"
        else:
            reasons.append("cannot see the elements: a Python container of non-tensors, or of tensors of "
                           "different shapes, converts differently")
            text = arg(src, items)
        return f"{tf}.reduce_{fn}({tf}.cast({text}, {tf}.bool))"
    return None


def _pairwise_select(src: Source, fn: str, first: ast.expr, second: ast.expr, reasons: list[str]) -> str:
    """``min(a, b)`` -> ``tf.where(b < a, b, a)``; ``max(a, b)`` -> ``tf.where(b > a, b, a)``.

    Equivalence: CPython's ``min(a, b)`` is ``b if b < a else a`` (``max``: ``b > a``): the
    second argument replaces the first only when the comparison is true, so ties keep the first,
    and a comparison with NaN is False in both, so NaN handling is the same too. ``tf.where`` of
    that comparison selects the same argument, and its gradient goes to the selected one (ties
    included). Values are exact when both arguments are provably rank-0 tensors: their dtypes
    are then equal (the original's ``b < a`` raises on mixed dtypes) and nothing broadcasts.
    UNSAFE otherwise: ``min()`` may return a Python number (a tensor here: later arithmetic on it
    is done in the tensor's dtype), and one-element tensors of different ranks broadcast.
    Gradients (with respect to the function's inputs): ``tf.where`` sends an exact zero to the
    argument it does not select, where Python's ``min()`` leaves it unconnected. That zero stays
    zero through linear computations (:func:`linear`: sums, means, scaling by literals) for every
    input; through ``log`` at 0, ``square`` at inf or ``reduce_max`` of a NaN it becomes NaN
    (0 * inf). So the fix is SAFE only when both arguments are also linear; otherwise it is
    UNSAFE for differentiated code, and its values stay exact.
    """
    tf, cmp = src.tf, "<" if fn == "min" else ">"
    if not all(scalar_tensor(src, a) for a in (first, second)):
        reasons.append(f"{fn}() may return a Python number (a tensor here, so later arithmetic on it is done in "
                       f"the tensor's dtype), or compare one-element tensors of different ranks (tf.where "
                       f"broadcasts them)")
    if not all(linear(src, a) for a in (first, second)):
        reasons.append(f"gradients only (values are exact): the argument {fn}() does not return gets a zero "
                       f"gradient through tf.where, which becomes NaN where its computation has a non-finite "
                       f"derivative (0 * inf: log at 0, square at inf)")
    a, b = src.segment(first), src.segment(second)
    return f"{tf}.where({atom(src, second)} {cmp} {atom(src, first)}, {arg(src, second, b)}, {arg(src, first, a)})"


def comprehension_text(src: Source, node: ast.GeneratorExp) -> str:
    parts = []
    for gen in node.generators:
        part = f"for {src.segment(gen.target)} in {atom(src, gen.iter)}"
        part += "".join(f" if {src.segment(c)}" for c in gen.ifs)
        parts.append(("async " if gen.is_async else "") + part)
    return " ".join(parts)


@rewriter(ast.Compare)
def rewrite_membership(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.Compare) or src.tf is None:
        return None
    reasons: list[str] = []
    text = membership(src, node, reasons)
    if text is None:
        return None
    return make_fix("Test membership with tensor ops: `tf.reduce_any(tf.equal(x, values))`",
                    [replace(src, node, text)], reasons)


@rewriter(ast.Call)
def rewrite_builtin_call(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.Call) or src.tf is None:
        return None
    reasons: list[str] = []
    text = builtin_call(src, node, reasons)
    if text is None:
        return None
    fn = node.func.id  # type: ignore[attr-defined]
    return make_fix(f"Replace Python's `{fn}()` on tensors with the TensorFlow op",
                    [replace(src, node, text)], reasons)
