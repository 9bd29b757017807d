"""A tensor condition that depends only on shapes -> the same test on the static shape.

``if tf.size(x) == 2:``, ``if tf.shape(x)[0] > 1:``, ``if tf.rank(x) == 3:`` are tensor
conditions only in spelling: their value is a shape fact (the value model's ``SHAPE`` flag). As
tensors, AutoGraph stages them as ``tf.cond``, and XLA compiles *both* branches: a branch that
indexes or reshapes to sizes that fit only the other case fails to compile although it never
runs (``tensor[1]`` of a one-element tensor: "slice index 1 of dimension 0 out of bounds"), and
``tf.where`` or ``tf.cond`` rewrites fail the same way. Read on the static shape,
``x.shape.num_elements() == 2``, ``x.shape[0] > 1``, ``len(x.shape) == 3``, the test is a Python
bool while tracing: only the branch that runs is traced, and the branches stay as written.

Leaves converted: ``tf.size(x)`` -> ``x.shape.num_elements()``, ``tf.rank(x)`` -> ``len(x.shape)``
(which raises for an unknown rank), ``tf.shape(x)[k]`` (``k`` an int literal) -> ``x.shape[k]``,
and a name bound once to one of those in the function (``n = tf.shape(x)[0]``) when nothing
rebinds ``x`` after it; combined
with numbers, static facts (``x.shape[k]``, ``len(x.shape)``), arithmetic, comparisons and
``and``/``or``/``not``. Anything else in the test leaves it as it is (no rewrite here).

UNSAFE, always: the shape is read while tracing, which is exact when it is fully known then
(every call of a ``tf.function``/``jit_compile`` function traces concrete shapes, unless an
``input_signature`` or ``reduce_retracing`` leaves a dimension unknown); with an unknown
dimension the static value is None, and the Python test raises or is false where the original
tests the run-time size.
"""

from __future__ import annotations

import ast

from xlacheck.rewrites._expr import _other_branch, call_name, is_number
from xlacheck.rewrites._source import Source

UNKNOWN_DIMS = ("the test reads the static shape while tracing: exact when the shapes are known then (every "
                "jit_compile call traces concrete shapes), but with a dimension left unknown (an input_signature "
                "with None, reduce_retracing) the static value is None and the test raises or is false where the "
                "original tests the run-time size")


def static_test(src: Source, test: ast.expr) -> str | None:
    """The test as a Python expression on static shapes, or None when some part of it is not a
    shape fact (or no part of it is a tensor op: nothing to convert)."""
    converted: list[bool] = []
    text = _convert(src, test, converted, 0)
    return text if text is not None and converted else None


def python_shape_test(src: Source, test: ast.expr) -> bool:
    """The test is already made of static shape facts and numbers (``x.shape[0] > 1``, what
    :func:`static_test` writes): a Python bool while tracing, nothing to rewrite."""
    converted: list[bool] = []
    return _convert(src, test, converted, 0) is not None and not converted and not is_number(test)


def _leaf(src: Source, node: ast.AST) -> str | None:
    """``x.shape...`` text for a shape op on a plain name or attribute, else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) \
            and call_name(src, node.value) in ("tf.shape", "tf.compat.v1.shape") and _only_tensor(node.value):
        index = node.slice
        if is_number(index) and isinstance(_number(index), int):
            return f"{src.segment(node.value.args[0])}.shape[{src.segment(index)}]"
        return None
    if isinstance(node, ast.Call) and _only_tensor(node):
        name = call_name(src, node)
        if name in ("tf.size", "tf.math.size"):
            return f"{src.segment(node.args[0])}.shape.num_elements()"
        if name in ("tf.rank", "tf.math.rank"):
            return f"len({src.segment(node.args[0])}.shape)"
    return None


def _number(node: ast.AST) -> object:
    if isinstance(node, ast.UnaryOp):
        return _number(node.operand)
    return node.value if isinstance(node, ast.Constant) else None


def _only_tensor(call: ast.Call) -> bool:
    """One positional argument, a name or an attribute chain (re-evaluating it is free), and at
    most a ``name=`` keyword."""
    return (len(call.args) == 1 and all(k.arg == "name" for k in call.keywords)
            and isinstance(call.args[0], (ast.Name, ast.Attribute)))


def _convert(src: Source, node: ast.AST, converted: list[bool], depth: int) -> str | None:
    if depth > 12:
        return None
    leaf = _leaf(src, node)
    if leaf is not None:
        converted.append(True)
        return leaf
    if is_number(node) or (isinstance(node, ast.Constant) and isinstance(node.value, bool)):
        return src.segment(node)
    if _static_fact(node):
        return src.segment(node)
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        if bound is None:
            return None
        text = _leaf(src, bound)
        if text is None or not _tensor_unchanged(src, bound, node):
            return None
        converted.append(True)
        return f"({text})" if isinstance(src.parents.get(node), (ast.BinOp, ast.UnaryOp)) else text
    if isinstance(node, ast.Compare):
        if not all(isinstance(op, (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in node.ops):
            return None
        parts = [_convert(src, o, converted, depth + 1) for o in [node.left, *node.comparators]]
        return None if None in parts else _rebuild(src, node, [node.left, *node.comparators], parts)
    if isinstance(node, ast.BoolOp):
        parts = [_convert(src, v, converted, depth + 1) for v in node.values]
        return None if None in parts else _rebuild(src, node, node.values, parts)
    if isinstance(node, ast.UnaryOp):
        part = _convert(src, node.operand, converted, depth + 1)
        return None if part is None else _rebuild(src, node, [node.operand], [part])
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
        parts = [_convert(src, o, converted, depth + 1) for o in (node.left, node.right)]
        return None if None in parts else _rebuild(src, node, [node.left, node.right], parts)
    return None


def _static_fact(node: ast.AST) -> bool:
    """``x.shape[k]``, ``x.shape.rank``, ``len(x.shape)``: already Python values while tracing."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and node.attr in ("rank", "ndims"):
        node = node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
            and node.func.attr == "num_elements":
        node = node.func.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and node.args:
        node = node.args[0]
    return isinstance(node, ast.Attribute) and node.attr == "shape"


def _rebuild(src: Source, node: ast.AST, children: list[ast.AST], texts: list[str]) -> str:
    """``node``'s source with each child's text replaced (operators, spacing and comments kept)."""
    whole = src.segment(node)
    start = src.offset(src.start(node))
    out, cursor = [], 0
    for child, text in zip(children, texts):
        lo, hi = src.offset(src.start(child)) - start, src.offset(src.end(child)) - start
        out += [whole[cursor:lo], text]
        cursor = hi
    out.append(whole[cursor:])
    return "".join(out)


def _tensor_unchanged(src: Source, bound: ast.AST, read: ast.AST) -> bool:
    """The tensor whose shape ``bound`` reads is not rebound after that binding in the function
    (a name), so its static shape at ``read`` is the one the binding saw."""
    call = bound.value if isinstance(bound, ast.Subscript) else bound
    arg = call.args[0]  # type: ignore[attr-defined]
    root = arg
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    if root is not arg and root.id != "self":
        return False
    if root is not arg:
        return True  # self.<attr>: an attribute the function reads; assignments to it elsewhere are not tracked
    bound_at = (bound.lineno, bound.col_offset)  # type: ignore[attr-defined]
    read_at = (read.lineno, read.col_offset)  # type: ignore[attr-defined]
    loops = [a for a in src.ancestors(read) if isinstance(a, (ast.For, ast.AsyncFor, ast.While))]
    read_stmt = src.statement_of(read)
    for store in src.stores_in(src.scope_of(read)).get(root.id, []):
        at = (store.lineno, store.col_offset)
        store_stmt = src.statement_of(store)
        if bound_at <= at <= read_at and not (store_stmt is not None and read_stmt is not None
                                              and _other_branch(src, store_stmt, read_stmt)):
            return False  # rebound between the binding and the test (not in a branch that excludes the test)
        if at > read_at and any(loop is a for loop in loops for a in src.ancestors(store)):
            return False  # rebound later in a loop that comes back to the test
    return True
