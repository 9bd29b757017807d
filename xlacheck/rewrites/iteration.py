"""Python iteration over tensors: iterating a tensor, and comprehensions filtered by a tensor.

AutoGraph converts statements, not comprehensions, and does not overload ``zip``/``enumerate``:

* iterating a symbolic tensor (``[f(r) for r in x]``, ``zip(x, y)``, ``reversed(x)``, or a
  ``for`` statement where AutoGraph is off) fails while tracing. ``tf.unstack(x)`` is a Python
  list of exactly the rows iteration yields, in order, so the rewrite is SAFE; it needs a static
  first dimension (under XLA it is) and otherwise fails at trace time, loudly.
* ``[e for t in items if <tensor condition>]`` asks the tensor for a Python bool. When the
  list is summed (``tf.add_n``, ``sum``), dropping an item equals adding zeros in its place:
  ``[tf.where(c, e, 0) for t in items]`` (see :func:`rewrite_filtered_sum` for when that is
  exact). ``tf.where`` (not ``e * cast(c)``) keeps NaN/inf in dropped items out of the sum.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, call_name, is_scalar, like, linear
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source, dotted
from xlacheck.rewrites.truth import bool_condition

# Iterables that are already Python sequences (iterating them is fine).
PYTHON_ITERABLES = frozenset({"range", "enumerate", "zip", "reversed", "list", "tuple", "sorted", "dict", "set"})
SEQUENCE_OPS = frozenset({"tf.unstack", "tf.split", "tf.nest.flatten"})


def _iterated(src: Source, node: ast.AST) -> bool:
    """``node`` is what a comprehension or a ``for`` statement iterates, directly or inside
    zip/enumerate/reversed (AutoGraph converts a ``for`` over a tensor, but not over zip/enumerate
    of tensors, and no ``for`` at all where it is off: XLA106 flags those)."""
    parent = src.parents.get(node)
    if isinstance(parent, (ast.comprehension, ast.For)) and parent.iter is node:
        return True
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) \
            and parent.func.id in ("zip", "enumerate", "reversed") and node in parent.args:
        return _iterated(src, parent)
    return False


@rewriter(ast.Name, ast.Attribute, ast.Call, ast.Subscript, pointed=True)
def rewrite_iteration(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.expr) or not _iterated(src, node):
        return None
    if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.GeneratorExp, ast.Constant)):
        return None
    parent = src.parents.get(node)
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in ("zip", "enumerate"):
        node = parent  # one tensor zipped: the others are tensors too, or sequences left as they are
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in PYTHON_ITERABLES:
            if node.func.id in ("zip", "enumerate"):  # the finding is about the call: unstack its arguments
                edits = [replace(src, a, f"{src.tf}.unstack({arg(src, a)})") for a in node.args
                         if not _sequence(src, a)]
                return make_fix("Iterate over tf.unstack(x), the list of its rows", edits) if edits else None
            return None
        if call_name(src, node) in SEQUENCE_OPS:
            return None
    return make_fix("Iterate over tf.unstack(x), the list of its rows",
                    [replace(src, node, f"{src.tf}.unstack({arg(src, node)})")])


def _sequence(src: Source, node: ast.AST) -> bool:
    if isinstance(node, (ast.List, ast.Tuple, ast.ListComp, ast.Constant)):
        return True
    return isinstance(node, ast.Call) and (call_name(src, node) in SEQUENCE_OPS or (
        isinstance(node.func, ast.Name) and node.func.id in PYTHON_ITERABLES))


@rewriter(ast.ListComp, ast.GeneratorExp)
def rewrite_filtered_sum(src: Source, node: ast.AST) -> Fix | None:
    """``tf.add_n([e for t in items if c])`` -> ``tf.add_n([tf.where(c, e, 0) for t in items])``.

    SAFE when (checked statically): the sum is ``tf.add_n``, the items are ``tf.unstack(x)`` (one
    shape and dtype), ``e`` is an elementwise expression of ``t`` that is linear (``t``, ``-t``,
    ``t * 2.0``, ...), and the filter is one boolean test with no ``and``/``or``. Where the
    original returns, at least one item is kept (``tf.add_n([])`` raises ValueError), and then:
    each kept item contributes ``e`` as before, each dropped one exact zeros of the same shape
    and dtype (``tf.where`` selects, so NaN/inf in a dropped ``e`` stay out), and ``a + 0 == a``,
    so the sum is the same up to the order of the additions (and the sign of a zero sum: -0.0 +
    0 is +0.0). ``tf.where`` sends a dropped item an exact zero gradient, and through a linear
    ``e`` it stays zero, as the original's unconnected gradient is. The filter is evaluated once
    per item, as in the original; a condition not provably rank-0 is wrapped in
    ``tf.reduce_any`` (``bool()`` of a one-element tensor is its element, of an empty one
    False). UNSAFE otherwise, and always for builtin ``sum``: with every item dropped the
    original returns the int 0, the rewrite a tensor of zeros.
    """
    if src.tf is None or not isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return None
    if len(node.generators) != 1 or not node.generators[0].ifs or node.generators[0].is_async:
        return None
    consumer = src.parents.get(node)
    if not isinstance(consumer, ast.Call) or consumer.args != [node] or consumer.keywords:
        return None
    name = call_name(src, consumer) or dotted(consumer.func)
    if name not in ("tf.add_n", "tf.math.add_n", "sum"):
        return None
    gen = node.generators[0]
    reasons = []
    if name == "sum":
        reasons.append("where no item passes the filter the original returns the int 0; the rewrite gives a tensor "
                       "of zeros of the items' shape")
    test: ast.expr = gen.ifs[0] if len(gen.ifs) == 1 else ast.BoolOp(ast.And(), gen.ifs)
    if len(gen.ifs) > 1:
        src.parents[test] = gen
        for sub in gen.ifs:
            src.parents[sub] = test
    cond = bool_condition(src, test, reasons)
    if not is_scalar(src, test):
        if isinstance(test, (ast.BoolOp, ast.UnaryOp)):
            reasons.append("cannot prove the filter condition is a scalar; tf.where would broadcast it")
        else:
            cond = f"{src.tf}.reduce_any({cond})"
    if any(isinstance(n, (ast.BoolOp, ast.IfExp)) or (isinstance(n, ast.Compare) and len(n.ops) > 1)
           for n in ast.walk(test)):
        reasons.append("the original stops evaluating the filter's `and`/`or` operands once an item is decided; "
                       "the fix evaluates all of them (their side effects and errors)")
    target = gen.target.id if isinstance(gen.target, ast.Name) else None
    if not (isinstance(gen.iter, ast.Call) and call_name(src, gen.iter) == "tf.unstack"):
        reasons.append("cannot prove every item has one shape and dtype (they do when iterating tf.unstack(x)): "
                       "tf.add_n of the dropped items' zeros may raise where the kept items alone add up")
    if target is None or like(src, node.elt) != target:
        reasons.append("cannot prove each summed value is an elementwise expression of the item (its shape and "
                       "dtype, and no error for a dropped item)")
    elif not linear(src, node.elt, leaves=frozenset(n.id for n in ast.walk(node.elt) if isinstance(n, ast.Name))):
        reasons.append("gradients only: a dropped item's value gets a zero gradient through tf.where, which a "
                       "non-linear op turns NaN at inf or NaN items (0 * inf)")
    item = f"{src.tf}.where({cond}, {arg(src, node.elt)}, 0)"
    text = f"[{item} for {src.segment(gen.target)} in {src.segment(gen.iter)}]"
    if isinstance(node, ast.GeneratorExp) and src.segment(node).startswith("("):
        text = f"({text})"  # a generator's span holds the parentheses it shares with the call: `sum(x for ...)`
    return make_fix("Sum every item, with zeros where the tensor filter drops one", [replace(src, node, text)],
                    reasons)


@rewriter(ast.ListComp, ast.GeneratorExp)
def rewrite_jax_filtered_sum(src: Source, node: ast.AST) -> Fix | None:
    """The JAX form of :func:`rewrite_filtered_sum`: ``sum(e for t in items if c)`` under ``jax.jit``
    -> ``sum(jnp.where(c, e, 0) for t in items)``. Iterating a traced array yields its rows (a
    static count: the loop is unrolled), but the filter asks each for a Python bool. Dropping an
    item equals adding zeros in its place, and ``where`` keeps NaN/inf of dropped items out of the
    sum. UNSAFE always: with every item dropped the original returns the int 0, the fix an array
    of zeros; the sum runs in the same order; a dropped item's ``e`` is computed too (its errors,
    and a NaN gradient through a non-linear ``e`` at inf). The filter becomes the predicate JAX's
    conditions use (:func:`xlacheck.rewrites.jax_conditions._pred`): refused with a later
    ``and``/``or`` operand that calls anything but JAX."""
    from xlacheck.rewrites.jax_conditions import _jax_function, _pred, jax_alias

    jax = jax_alias(src.tree)
    if jax is None or not isinstance(node, (ast.ListComp, ast.GeneratorExp)) or (
            src.tf is not None and not _jax_function(src, node)):
        return None
    if len(node.generators) != 1 or not node.generators[0].ifs or node.generators[0].is_async:
        return None
    consumer = src.parents.get(node)
    if not (isinstance(consumer, ast.Call) and consumer.args == [node] and not consumer.keywords
            and isinstance(consumer.func, ast.Name) and consumer.func.id == "sum"):
        return None
    gen = node.generators[0]
    preds = [_pred(src, jax, test) for test in gen.ifs]
    if any(p is None for p in preds):
        return None
    cond = preds[0] if len(preds) == 1 else f"{jax}.numpy.logical_and({', '.join(preds)})" if len(preds) == 2 \
        else None
    if cond is None:
        return None
    item = f"{jax}.numpy.where({cond}, {arg(src, node.elt)}, 0)"
    text = f"{item} for {src.segment(gen.target)} in {src.segment(gen.iter)}"
    if isinstance(node, ast.ListComp):
        text = f"[{text}]"
    elif src.segment(node).startswith("("):  # a generator's span holds the parentheses it shares with the call
        text = f"({text})"
    return make_fix("Sum every item, with zeros where the traced filter drops one", [replace(src, node, text)],
                    ["where no item passes the filter the original returns the int 0; the fix gives an array of "
                     "zeros", "a dropped item's value is computed too: its errors, and a NaN gradient through a "
                     "non-linear expression at inf"])
