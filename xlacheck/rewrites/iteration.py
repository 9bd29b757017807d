"""Python iteration over tensors: iterating a tensor, and comprehensions filtered by a tensor.

AutoGraph converts statements, not comprehensions, and does not overload ``zip``/``enumerate``:

* iterating a symbolic tensor (``[f(r) for r in x]``, ``zip(x, y)``) fails while tracing.
  ``tf.unstack(x)`` is a Python list of exactly the rows iteration yields, in order, so the
  rewrite is SAFE; it needs a static first dimension (under XLA it is) and otherwise fails at
  trace time, loudly.
* ``[e for t in items if <tensor condition>]`` asks the tensor for a Python bool. When the
  list is summed (``tf.add_n``, ``sum``), dropping an item equals adding zeros in its place:
  ``[tf.where(c, e, 0) for t in items]``. ``tf.where`` (not ``e * cast(c)``) keeps NaN/inf in
  dropped items out of the sum. UNSAFE only because an all-dropped list differs: ``tf.add_n([])``
  raises and ``sum([])`` is the int 0, while the rewrite gives zeros of the items' shape.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, call_name, is_scalar
from xlacheck.rewrites._fix import make_fix, replace
from xlacheck.rewrites._source import Source, dotted
from xlacheck.rewrites.builtins import condition

# Iterables that are already Python sequences (iterating them is fine).
PYTHON_ITERABLES = frozenset({"range", "enumerate", "zip", "reversed", "list", "tuple", "sorted", "dict", "set"})
SEQUENCE_OPS = frozenset({"tf.unstack", "tf.split", "tf.nest.flatten"})


def _iterated(src: Source, node: ast.AST) -> bool:
    """``node`` is what a comprehension iterates, directly or inside zip/enumerate (also in a for
    statement: AutoGraph converts a for over a tensor, not over zip/enumerate of tensors)."""
    parent = src.parents.get(node)
    if isinstance(parent, ast.comprehension) and parent.iter is node:
        return True
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in ("zip", "enumerate") \
            and node in parent.args:
        return _iterated(src, parent)
    return False


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


def rewrite_filtered_sum(src: Source, node: ast.AST) -> Fix | None:
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
    reasons = [("where no item passes the filter the original raises (tf.add_n of an empty list)" if name != "sum"
                else "where no item passes the filter the original returns the int 0") +
               "; the rewrite gives zeros of the items' shape"]
    test: ast.expr = gen.ifs[0] if len(gen.ifs) == 1 else ast.BoolOp(ast.And(), gen.ifs)
    if len(gen.ifs) > 1:
        src.parents[test] = gen
        for sub in gen.ifs:
            src.parents[sub] = test
    cond = condition(src, test, reasons)
    if not all(is_scalar(src, c) for c in gen.ifs):
        reasons.append("cannot prove the filter condition is a scalar; tf.where would broadcast it")
    item = f"{src.tf}.where({cond}, {arg(src, node.elt)}, 0)"
    text = f"[{item} for {src.segment(gen.target)} in {src.segment(gen.iter)}]"
    return make_fix("Sum every item, with zeros where the tensor filter drops one", [replace(src, node, text)],
                    reasons)
