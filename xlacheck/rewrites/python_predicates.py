"""``tf.cond`` on a Python predicate (XLA117) -> a Python conditional expression.

Eagerly ``tf.cond(pred, true_fn, false_fn)`` with a Python ``pred`` converts it to a constant
tensor, reads its value and calls only the chosen branch (``_eager_cond_implementation`` in
TensorFlow's ``cond.py``); inside any ``tf.function`` it raises instead ("pred must not be a
Python bool"). The finding has proven ``pred`` a Python value, so the fix makes that choice in
Python, while tracing, as eager code made it:

    tf.cond(self.use_gate, lambda: h * self.gate(x), lambda: h)
        -> (h * self.gate(x) if self.use_gate else h)

A branch written as a lambda without parameters is replaced by its body (called at once, its
names read the same values); any other branch expression ``fn`` becomes ``fn()``. Only
``tf.cond``/``tf.compat.v1.cond`` with the two branches (positional or ``true_fn=``/``false_fn=``)
and at most ``name=`` besides get a fix; ``tf.switch_case`` and ``tf.case`` (a default branch for
an index out of range, exclusive predicates) get none.

Always UNSAFE, for what the reader cannot see: eager ``tf.cond`` unpacks a branch result that is a
list or tuple of one item (``strict=False``), which the conditional expression returns as it is;
it tests the truth of ``pred`` as a NumPy value (the same for bool, int and float, which is what
the finding proves in practice; a sequence would differ); and ``name=`` names no scope any more.
On the common path (a tensor-valued branch and a bool or number predicate) the result is the
original's.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import atom, call_name
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source

_CONDS = frozenset({"tf.cond", "tf.compat.v1.cond"})
_UNSAFE = ("eager tf.cond returns the item of a branch result that is a one-item list or tuple, the conditional "
           "expression the list itself; the predicate is tested with Python's truth, where tf.cond read it as a "
           "NumPy value (the same for a bool, int or float)")


def _operand(src: Source, node: ast.expr) -> str:
    """``node``'s text as a part of a conditional expression (an ``or_test``)."""
    text = src.segment(node)
    return f"({text})" if isinstance(node, (ast.IfExp, ast.Lambda, ast.NamedExpr)) else text


def _branch(src: Source, node: ast.expr) -> str:
    """The branch's value as an operand of a conditional expression."""
    if isinstance(node, ast.Lambda) and not (node.args.args or node.args.posonlyargs or node.args.kwonlyargs
                                             or node.args.vararg or node.args.kwarg):
        return _operand(src, node.body)
    return f"{atom(src, node)}()"


@rewriter(ast.Call, pointed=True)
def rewrite_python_predicate_cond(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.Call) or call_name(src, node) not in _CONDS:
        return None
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    slots = ["pred", "true_fn", "false_fn"]
    if len(node.args) > len(slots):
        return None
    given: dict[str, ast.expr] = dict(zip(slots, node.args))
    for k in node.keywords:
        if k.arg in given or k.arg not in (*slots, "name"):
            return None  # strict=, fn1=/fn2= (v1 spellings) or a repeated argument: no fix
        given[k.arg] = k.value
    if not all(s in given for s in slots):
        return None
    pred, yes, no = (given[s] for s in slots)
    text = f"{_branch(src, yes)} if {_operand(src, pred)} else {_branch(src, no)}"
    parent = src.parents.get(node)
    if "\n" in text or not (isinstance(parent, (ast.Assign, ast.AnnAssign, ast.Return)) and parent.value is node):
        text = f"({text})"  # parenthesized unless it is the whole value of a one-line statement
    return make_fix("choose the branch with a Python conditional expression, as eager tf.cond did",
                    [replace(src, node, text)], unsafe=[_UNSAFE])
