"""Ops without an XLA kernel -> what compiles in their place.

* ``tf.print(...)`` as a statement (``StringFormat``/``PrintV2`` have no XLA kernel): the
  statement is guarded by ``if tf.executing_eagerly():``. ``executing_eagerly()`` is a Python
  bool while tracing, so the compiled program holds no print op; the same code prints when it
  runs eagerly (``tf.config.run_functions_eagerly(True)``, a debugging session). UNSAFE: a
  compiled or plain ``tf.function`` no longer prints. Outputs never change (tf.print returns
  nothing the program uses).
* ``tf.unravel_index(indices, dims)`` (``UnravelIndex``): coordinate ``k`` of a flat index ``i``
  is ``(i // stride_k) % dims_k`` with ``stride_k`` the product of the dimensions after ``k``
  (``tf.math.cumprod(dims, exclusive=True, reverse=True)``), for scalar and vector indices
  alike once shaped ``[len(dims), *shape(indices)]``, which is what ``unravel_index``
  returns. UNSAFE: equal for ``0 <= i < prod(dims)``; outside that range the original raises
  eagerly and the composition wraps around.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, call_name
from xlacheck.rewrites._fix import make_fix, replace, replace_block, rewriter
from xlacheck.rewrites._source import Source

PRINT_ONLY_EAGERLY = ("the print runs only when the code runs eagerly (tf.config.run_functions_eagerly(True)); "
                      "compiled and plain tf.function code prints nothing")
UNRAVEL_RANGE = ("equal for indices in [0, prod(dims)); an index outside it raises eagerly in the original and "
                 "wraps around in the fix")


@rewriter(ast.Expr)
def rewrite_print(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Expr) or call_name(src, node.value) != "tf.print":
        return None
    if not src.alone_on_lines(node, node) or _eager_guarded(src, node):
        return None
    step = src.indent_step(node)
    lines = [f"if {src.tf}.executing_eagerly():", *(step + line for line in src.segment(node).splitlines())]
    return make_fix("Print only when running eagerly (tf.print has no XLA kernel)",
                    replace_block(src, node, node, lines), [PRINT_ONLY_EAGERLY])


def _eager_guarded(src: Source, node: ast.stmt) -> bool:
    """Already inside ``if tf.executing_eagerly():``."""
    parent = src.parents.get(node)
    return isinstance(parent, ast.If) and node in parent.body and isinstance(parent.test, ast.Call) \
        and call_name(src, parent.test) == "tf.executing_eagerly"


@rewriter(ast.Call)
def rewrite_unravel_index(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Call) or call_name(src, node) != "tf.unravel_index":
        return None
    if len(node.args) != 2 or node.keywords:
        return None
    tf = src.tf
    i, dims = arg(src, node.args[0]), arg(src, node.args[1])
    strides = f"{tf}.math.cumprod({dims}, exclusive=True, reverse=True)"
    text = (f"{tf}.reshape({tf}.math.floormod({tf}.reshape({i}, [1, -1]) // {tf}.reshape({strides}, [-1, 1]), "
            f"{tf}.reshape({dims}, [-1, 1])), {tf}.concat([{tf}.shape({dims}), {tf}.shape({i})], 0))")
    return make_fix("Compute the coordinates with integer division (tf.unravel_index has no XLA kernel)",
                    [replace(src, node, text)], [UNRAVEL_RANGE])
