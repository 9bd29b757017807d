"""Host reads of traced JAX arrays (XLA301 ``.item()``, XLA302 ``float()``/``int()``) -> the array.

Under ``jax.jit`` there is no concrete value while tracing, so ``x.item()`` and ``float(x)`` raise
``ConcretizationTypeError``. Where everything that reads the value would read a 0-d array the same
way (arithmetic, comparisons, a ``return``, a ``jax``/``jnp`` call; directly or through the one
name it is assigned to: :func:`xlacheck.rewrites.host.tensor_consumer`, shared with TensorFlow's
fix), the read goes and the program keeps the value on the device:

* ``x.item()`` -> ``x``;
* ``float(x)`` -> ``x.astype(jnp.float32)`` (the float32 of a Python float under JAX's default
  32-bit mode);
* ``int(x)`` -> ``x.astype(jnp.int32)`` (truncated toward zero, as ``int`` does), only where
  arithmetic, comparisons or a ``return`` read it: an ``int()`` that sizes a shape, indexes a
  Python list or feeds a call has no array form and keeps no fix.

Always UNSAFE: the value is a 0-d array, not a Python scalar. A Python scalar is weakly typed, an
array is not, so arithmetic with a lower-precision array (bfloat16, float16) now gives the wider
dtype, and ``.item()`` of a float32 array was a Python float (float64 in host code that keeps
it); an int32 wraps where a Python int grows.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import atom
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.analysis.tables import JAX_ELEMENTWISE
from xlacheck.rewrites.host import reads_after, tensor_consumer
from xlacheck.rewrites.jax_static import canonical

INT32 = "an int32 array where Python's int has no bound: values beyond 2**31 - 1 wrap"
ARRAY_NOT_SCALAR = ("the value is a 0-d array, not a Python scalar: a Python scalar is weakly typed, an array is "
                    "not, so arithmetic with a bfloat16/float16 array gives float32 where it kept the lower dtype")


@rewriter(ast.Call, pointed=True)
def rewrite_jax_host_read(src: Source, node: ast.AST) -> Fix | None:
    from xlacheck.rewrites.jax_conditions import _jax_function, jax_alias

    jax = jax_alias(src.tree)
    if jax is None or not isinstance(node, ast.Call) or node.keywords or (src.tf is not None
                                                                          and not _jax_function(src, node)):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "item" and not node.args:
        text = src.segment(func.value)
    elif isinstance(func, ast.Name) and func.id in ("float", "int") and len(node.args) == 1 \
            and not isinstance(node.args[0], ast.Starred):
        text = f"{atom(src, node.args[0])}.astype({jax}.numpy.{func.id}32)"
    else:
        return None
    integer = isinstance(func, ast.Name) and func.id == "int"
    extremes: list[ast.Call] | None = []
    if not (_arithmetic_only(src, node) if integer else tensor_consumer(src, node, follow=2, jax_calls=True)):
        extremes = _through_extremes(src, node, 2, integer)
        if not extremes:
            return None
    what = "`.item()`" if isinstance(func, ast.Attribute) else f"`{func.id}()`"
    edits = [replace(src, node, text),
             *(replace(src, call.func, f"{jax}.numpy.{_EXTREMES[call.func.id]}")  # type: ignore[attr-defined]
               for call in dict.fromkeys(extremes or []))]
    return make_fix(f"Keep the value on the device as an array instead of reading it with {what}", edits,
                    [ARRAY_NOT_SCALAR, *([INT32] if integer else []), *([EXTREME_NAN] if extremes else [])])


_EXTREMES = {"min": "minimum", "max": "maximum"}
EXTREME_NAN = ("Python's min/max of two numbers becomes jax.numpy.minimum/maximum: a NaN operand gives NaN, where "
               "Python's kept the other operand when the NaN came second")


def _through_extremes(src: Source, node: ast.expr, follow: int, integer: bool) -> list[ast.Call] | None:
    """The builtin ``min``/``max`` calls of two arguments that read the array ``node`` becomes
    (directly, through arithmetic, or through a name it is assigned to, ``follow`` assignments
    deep), when each of them, rewritten into ``jax.numpy.minimum``/``maximum``, and every other
    reader takes an array: arithmetic, comparisons, a ``return``, a container element, a JAX call
    (for an ``int`` only an elementwise one: another may take it as a shape); None when some reader
    does not."""
    parent = src.parents.get(node)
    if isinstance(parent, (ast.BinOp, ast.UnaryOp)) or isinstance(parent, (ast.Tuple, ast.List)) \
            and isinstance(parent.ctx, ast.Load) or isinstance(parent, ast.Dict) and node in parent.values:
        return _through_extremes(src, parent, follow, integer)
    if isinstance(parent, (ast.Compare, ast.Return)):
        return []
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in _EXTREMES \
            and node in parent.args and len(parent.args) == 2 and not parent.keywords \
            and not any(isinstance(a, ast.Starred) for a in parent.args) \
            and not src.stores_in(src.tree).get(parent.func.id):
        rest = _through_extremes(src, parent, follow, integer)
        return None if rest is None else [parent, *rest]
    if isinstance(parent, ast.Call) and node is not parent.func and (
            not integer or (canonical(src, parent.func) or "") in JAX_ELEMENTWISE):  # an int may size a shape
        return [] if tensor_consumer(src, node, 0, jax_calls=True) else None
    if follow > 0 and isinstance(parent, ast.Assign) and len(parent.targets) == 1 \
            and isinstance(parent.targets[0], ast.Name):
        found: list[ast.Call] = []
        for read in reads_after(src, parent):
            more = _through_extremes(src, read, follow - 1, integer)
            if more is None:
                return None
            found += more
        return found
    return None


def _arithmetic_only(src: Source, node: ast.expr, follow: bool = True) -> bool:
    """Only arithmetic, comparisons and ``return`` read ``node`` (directly or through the one name it
    is assigned to): an ``int()`` that sizes a shape, indexes or feeds any call keeps no fix."""
    parent = src.parents.get(node)
    if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Return)):
        return True
    if follow and isinstance(parent, ast.Assign) and len(parent.targets) == 1 \
            and isinstance(parent.targets[0], ast.Name):
        uses = src.loads_of(parent.targets[0].id, src.scope_of(parent))
        return bool(uses) and all(_arithmetic_only(src, use, follow=False) for use in uses)
    return False
