"""Host reads of traced JAX arrays (XLA301 ``.item()``, XLA302 ``float()``) -> the array itself.

Under ``jax.jit`` there is no concrete value while tracing, so ``x.item()`` and ``float(x)`` raise
``ConcretizationTypeError``. Where everything that reads the value would read a 0-d array the same
way (arithmetic, comparisons, a ``return``, a ``jax``/``jnp`` call; directly or through the one
name it is assigned to: :func:`xlacheck.rewrites.host.tensor_consumer`, shared with TensorFlow's
fix), the read goes and the program keeps the value on the device:

* ``x.item()`` -> ``x``;
* ``float(x)`` -> ``x.astype(jnp.float32)`` (the float32 of a Python float under JAX's default
  32-bit mode).

Always UNSAFE: the value is a 0-d array, not a Python scalar. A Python scalar is weakly typed, an
array is not, so arithmetic with a lower-precision array (bfloat16, float16) now gives the wider
dtype, and ``.item()`` of a float32 array was a Python float (float64 in host code that keeps
it). ``int(x)``, which sizes shapes and indexes Python lists, has no array form and is left alone.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import atom
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.host import tensor_consumer

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
    elif isinstance(func, ast.Name) and func.id == "float" and len(node.args) == 1 \
            and not isinstance(node.args[0], ast.Starred):
        text = f"{atom(src, node.args[0])}.astype({jax}.numpy.float32)"
    else:
        return None
    if not tensor_consumer(src, node):
        return None
    what = "`.item()`" if isinstance(func, ast.Attribute) else "`float()`"
    return make_fix(f"Keep the value on the device as an array instead of reading it with {what}",
                    [replace(src, node, text)], [ARRAY_NOT_SCALAR])
