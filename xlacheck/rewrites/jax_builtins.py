"""``max``/``min``/``sorted``/``any``/``all`` of a JAX tracer (XLA124) -> the ``jax.numpy`` selection or
reduction that does what the builtin did, traced.

* ``min(a, b)`` -> ``jnp.where(b < a, b, a)``, ``max(a, b)`` -> ``jnp.where(b > a, b, a)``: CPython's
  two-argument ``min`` is ``b if b < a else a`` (``max``: ``b > a``), so ties keep the first argument,
  and a NaN on either side makes the comparison False in both; ``jnp.where`` of that comparison picks
  the same argument (TensorFlow's form is ``builtins._pairwise_select``). More arguments, or one list
  or tuple literal of them, fold left the same way (``max(a, b, c)`` compares ``c`` with the
  running result, as CPython does);
* ``max(x)``/``min(x)`` of one array -> ``jnp.max(x)``/``jnp.min(x)``: Python iterates ``x``'s first axis,
  so only a 1-D ``x`` gives a value (an element; for more axes the builtin compares arrays and
  raises), the largest as ``jnp.max`` gives it;
* ``sorted(x)`` -> ``jnp.sort(x)`` (``reverse=True``: ``jnp.sort(x)[::-1]``): the same values in the same
  order for a 1-D ``x``;
* ``any(x)``/``all(x)`` -> ``jnp.any(x)``/``jnp.all(x)`` for one array; of a list literal or a generator
  of items, ``jnp.any(jnp.asarray([...]))`` over the items (each must be one value: Python's ``bool()``
  of an item of more raises in the original).

Always UNSAFE, each fix saying why: the builtins return one of their arguments (a Python number
where it was one; an array here, weakly typed as the number was, but an array), and the two-argument
selection sends an exact zero gradient to the argument it does not pick, which becomes NaN through
an op with an infinite derivative there; ``jnp.max``/``jnp.sort`` propagate or order NaN where Python's
comparisons keep the item met first; ``sorted`` gives an array, not a list; ``any``/``all`` of items
evaluate every item (no short-circuit), so an item after the deciding one is computed.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, atom
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.builtins import comprehension_text
from xlacheck.rewrites.jax_conditions import jax_target

RETURNS_ARRAY = ("returns an array where the builtin returned one of its arguments (a Python number where it was "
                 "one): code that needs a Python value (a dict key, str(), an `is` test) sees an array")
PAIR_GRADIENT = ("the argument not picked gets an exact zero gradient through jnp.where, which becomes NaN where its "
                 "computation has an infinite derivative there (0 * inf: log at 0, sqrt at 0)")
REDUCED_NAN = ("jnp.max/jnp.min/jnp.sort propagate or order NaN by their own rule where Python's comparisons keep "
               "the item met first, and an array of more than one axis gives a value where the builtin raised")
EVERY_ITEM = ("evaluates every item (no short-circuit): an item after the deciding one is computed, and its errors "
              "happen")


def _items(node: ast.Call) -> list[ast.expr] | None:
    """The values a ``min``/``max`` call compares: its arguments, or the items of its one list or tuple
    literal; None for one other argument (an array, iterated)."""
    if len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple)):
        items = node.args[0].elts
        return None if not items or any(isinstance(e, ast.Starred) for e in items) else list(items)
    return list(node.args) if len(node.args) > 1 else None


@rewriter(ast.Call, pointed=True)
def rewrite_jax_builtin(src: Source, node: ast.AST) -> Fix | None:
    jax = jax_target(src, node)
    if jax is None or not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) \
            or node.func.id not in ("min", "max", "sorted", "any", "all") or src.stores_in(src.tree).get(node.func.id) \
            or any(isinstance(a, ast.Starred) for a in node.args) or not node.args:
        return None
    fn, jnp = node.func.id, f"{jax}.numpy"
    if fn in ("min", "max"):
        if node.keywords:
            return None  # key=/default=: other semantics
        items = _items(node)
        if items is None:
            if len(node.args) != 1:
                return None
            return make_fix(f"Reduce the array with {jnp}.{fn}: the builtin iterates and compares it with Python",
                            [replace(src, node, f"{jnp}.{fn}({arg(src, node.args[0])})")],
                            [RETURNS_ARRAY, REDUCED_NAN])
        cmp = "<" if fn == "min" else ">"
        text, running = arg(src, items[0]), atom(src, items[0])
        for item in items[1:]:
            # CPython keeps the running result unless the next item compares strictly less (min) / greater (max)
            text = running = f"{jnp}.where({atom(src, item)} {cmp} {running}, {arg(src, item)}, {text})"
        return make_fix(f"Select with {jnp}.where the argument {fn}() returns (the same comparison, traced)",
                        [replace(src, node, text)], [RETURNS_ARRAY, PAIR_GRADIENT])
    if len(node.args) != 1:
        return None
    (value,) = node.args
    if fn == "sorted":
        if any(k.arg != "reverse" for k in node.keywords):
            return None
        reverse = next((k.value for k in node.keywords), None)
        if reverse is not None and not (isinstance(reverse, ast.Constant) and isinstance(reverse.value, bool)):
            return None
        text = f"{jnp}.sort({arg(src, value)})" + ("[::-1]" if reverse is not None and reverse.value else "")
        return make_fix(f"Sort with {jnp}.sort", [replace(src, node, text)],
                        [RETURNS_ARRAY.replace("one of its arguments", "a list"), REDUCED_NAN])
    if node.keywords:
        return None
    reasons = [RETURNS_ARRAY.replace("one of its arguments (a Python number where it was one)", "a Python bool")]
    if isinstance(value, (ast.List, ast.Tuple)) and value.elts and not any(isinstance(e, ast.Starred)
                                                                           for e in value.elts):
        inner = f"{jnp}.asarray([{', '.join(arg(src, e) for e in value.elts)}])"
        reasons.append(EVERY_ITEM)
    elif isinstance(value, ast.GeneratorExp) and len(value.generators) == 1 and not value.generators[0].is_async:
        inner = f"{jnp}.asarray([{src.segment(value.elt)} {comprehension_text(src, value)}])"
        reasons.append(EVERY_ITEM)
    else:
        inner = arg(src, value)
    return make_fix(f"Test the values with {jnp}.{fn}: the builtin asks each for a Python bool",
                    [replace(src, node, f"{jnp}.{fn}({inner})")], reasons)
