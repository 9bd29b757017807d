"""XLA211: the static first dimension of a tensor whose length depends on data, used as a number."""

from __future__ import annotations

import ast
from functools import lru_cache

from xlacheck.analysis.scopes import own_nodes
from xlacheck.rules._data_length import data_length
from xlacheck.rules.base import Example, Rule, RuleContext


def _first_dim(e: ast.expr) -> ast.expr | None:
    """The tensor of ``t.shape[0]``, ``t.get_shape()[0]`` or ``t.shape.as_list()[0]``."""
    if not (isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Constant) and e.slice.value == 0):
        return None
    base = e.value
    if isinstance(base, ast.Call) and not base.args and isinstance(base.func, ast.Attribute):
        if base.func.attr == "get_shape":
            return base.func.value
        if base.func.attr == "as_list" and isinstance(base.func.value, ast.Attribute) \
                and base.func.value.attr == "shape":
            return base.func.value.value
        return None
    if isinstance(base, ast.Attribute) and base.attr == "shape":
        return base.value
    return None


@lru_cache(maxsize=64)
def _bindings(fn: ast.AST) -> dict[str, list[ast.expr | None]]:
    """Each name this function's own scope binds, with the value of each binding (``None`` for
    anything but a plain ``name = value``): one walk per function, not one per name looked up
    (a walk per name made linting quadratic in the function's length)."""
    out: dict[str, list[ast.expr | None]] = {}
    for node in own_nodes(fn):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr, ast.comprehension)):
            targets = [node.target]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets = [node.optional_vars]
        for target in targets:
            for name in {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}:
                out.setdefault(name, []).append(
                    node.value if isinstance(node, ast.Assign) and isinstance(target, ast.Name) else None)
    return out


def _single_binding(e: ast.expr, ctx: RuleContext) -> ast.expr:
    """The value of ``e`` when it is a name this function's own scope binds exactly once, by a plain
    assignment (``n = y.shape[0]``; not a parameter, not rebound by ``if n is None: n = ...``);
    else ``e`` itself."""
    if not isinstance(e, ast.Name):
        return e
    fn = ctx.function.node
    args = getattr(fn, "args", None)
    if args is not None and any(a.arg == e.id for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]):
        return e
    values = _bindings(fn).get(e.id, [])
    return values[0] if len(values) == 1 and values[0] is not None else e


_SOURCES = ("a boolean mask, one-argument tf.where, tf.unique or another op measured as data-dependent in shape, "
            "tf.gather at such indices or a slice keeping its first dimension")


class StaticDimOfDynamicShape(Rule):
    """
    ## What it does
    Flags `t.shape[0]` (also `t.get_shape()[0]`, `t.shape.as_list()[0]`) used as a number, in
    arithmetic, a comparison, a size list passed to a call or `range()`, where `t` is the result
    of an op whose length depends on the data: `tf.boolean_mask`, `x[mask]`, one-argument
    `tf.where`, `tf.unique` (the ops the generated API table measured as data-dependent in
    shape; of `tf.unique` and `tf.unique_with_counts` only the outputs `y` and `count`, not
    `idx`), `tf.gather` at such indices, or a slice of one that keeps its whole first dimension,
    in compiled code, also through a name bound once to it (`n = t.shape[0]`, then `tf.zeros([n, 2])`).
    Only bindings in the function's own scope count.

    ## Why is this bad?
    While tracing, such a tensor's first dimension is unknown: `t.shape[0]` is `None`, so
    `t.shape[0] // 2`, `t.shape[0] > 2`, `tf.reshape(t, [t.shape[0], 1])` and
    `range(t.shape[0])` and `tf.zeros([t.shape[0], 2])` fail with a `TypeError`
    (`unsupported operand type(s) ... 'NoneType'`), measured on TF 2.21 in every `tf.function`,
    `jit_compile` or not. Eagerly the shape is
    known, so the code works until it is traced.

    ## Example
    ```python
    positives = tf.where(scores > 0.5)
    half = positives.shape[0] // 2
    ```

    ## Use instead
    ```python
    half = tf.shape(positives)[0] // 2  # the dynamic length, a tensor
    ```

    ## Fix safety
    No automatic fix: code that branches on the length or loops over it in Python must become
    tensor code (`tf.cond`, `tf.while_loop`, masks), which a rewrite cannot decide.
    """

    code = "XLA211"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = None
    name = "static-dim-of-dynamic-shape"
    node_types = (ast.BinOp, ast.Compare, ast.Call)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(scores):\n"
                "    positives = tf.where(scores > 0.5)\n    n = positives.shape[0]\n"
                "    if n is None:\n        n = tf.shape(positives)[0]\n"
                "    return tf.cast(n, tf.float32) + tf.cast(positives.shape[1] * 2, tf.float32)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, boxes):\n"
                "    kept = tf.gather(boxes, tf.range(3))\n"
                "    return tf.tile(x, [kept.shape[0] + 1, x.shape[1] // 4])\n"),
        # idx has the input's static length; only y (and count) depend on the data
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(ids):\n"
                "    vals, idx = tf.unique(ids)\n"
                "    return tf.reshape(idx, [idx.shape[0], 1]) + tf.cast(tf.size(vals), tf.int32)\n"),
        # a binding inside a nested function is not this function's
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(ids, scores):\n"
                "    picked = scores[:, 0]\n"
                "    def inner():\n        picked = tf.where(scores > 0)\n        return picked\n"
                "    return tf.reshape(picked, [picked.shape[0], 1])\n"),
        # tf.unique's idx output keeps the input's length (only y is data-dependent)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(ids):\n"
                "    idx = tf.unique(ids)[1]\n    return tf.zeros([idx.shape[0], 2])\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(scores):\n"
                "    positives = tf.where(scores > 0.5)\n    half = positives.shape[0] // 2\n"
                "    return positives[:half]\n",
                expected=(
                    (5, 12, f"`positives.shape[0]` is None while tracing: the length of positives depends on the "
                            f"data ({_SOURCES}), so using it as a number or a size fails while tracing with a "
                            "TypeError; use tf.shape(positives)[0]"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(ids):\n"
                "    vals, idx = tf.unique(ids)\n    picked = tf.boolean_mask(ids, ids > 0)\n"
                "    if vals.shape[0] > 2:\n        return tf.reshape(picked, [picked.shape[0], 1])\n"
                "    return ids[:, None]\n",
                expected=(
                    (6, 8, f"`vals.shape[0]` is None while tracing: the length of vals depends on the data "
                           f"({_SOURCES}), so using it as a number or a size fails while tracing with a "
                           "TypeError; use tf.shape(vals)[0]"),
                    (7, 36, f"`picked.shape[0]` is None while tracing: the length of picked depends on the data "
                            f"({_SOURCES}), so using it as a number or a size fails while tracing with a "
                            "TypeError; use tf.shape(picked)[0]"),
                )),
        # unique_with_counts has no XLA kernel; its count output's length fails any tf.function trace
        Example("import tensorflow as tf\n@tf.function\ndef f(ids):\n"
                "    y, idx, count = tf.unique_with_counts(ids)\n"
                "    return tf.zeros([count.shape[0], 2])\n",
                expected=(
                    (5, 22, f"`count.shape[0]` is None while tracing: the length of count depends on the data "
                            f"({_SOURCES}), so using it as a number or a size fails while tracing with a "
                            "TypeError; use tf.shape(count)[0]"),
                )),
        # an element of a list the API table measured as data-dependent in shape (Keras 3's
        # keras.ops.nonzero, spelled as Keras 3 spells it; tf.dynamic_partition below)
        Example("import tensorflow as tf\nimport keras\n@tf.function(jit_compile=True)\ndef f(scores):\n"
                "    rows = keras.ops.nonzero(scores > 0.5)[0]\n    return tf.zeros([rows.shape[0], 2])\n",
                expected=(
                    (6, 22, f"`rows.shape[0]` is None while tracing: the length of rows depends on the data "
                            f"({_SOURCES}), so using it as a number or a size fails while tracing with a "
                            "TypeError; use tf.shape(rows)[0]"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, parts):\n"
                "    first = tf.dynamic_partition(x, parts, 2)[0]\n    return tf.zeros([first.shape[0], 2])\n",
                expected=(
                    (5, 22, f"`first.shape[0]` is None while tracing: the length of first depends on the data "
                            f"({_SOURCES}), so using it as a number or a size fails while tracing with a "
                            "TypeError; use tf.shape(first)[0]"),
                )),
        # the static dimension read into a name first (bound once: not `if n is None: n = ...`)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    kept = tf.boolean_mask(x, x > 0)\n    n = kept.shape[0]\n    return tf.zeros([n, 2])\n",
                expected=(
                    (6, 22, f"`kept.shape[0]` is None while tracing: the length of kept depends on the data "
                            f"({_SOURCES}), so using it as a number or a size fails while tracing with a "
                            "TypeError; use tf.shape(kept)[0]"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if ctx.function.jax:
            return  # jax.jit: XLA207 (no bounded dynamic shapes at all)
        operands: list[ast.expr] = []
        if isinstance(node, ast.BinOp):
            operands = [node.left, node.right]
        elif isinstance(node, ast.Compare):
            if not any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
                operands = [node.left, *node.comparators]
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in ("range", "int", "float") \
                    and node.func.id not in ctx.values.env:
                operands = list(node.args)
            else:
                operands = [e for a in [*node.args, *(kw.value for kw in node.keywords)]
                            if isinstance(a, (ast.List, ast.Tuple)) for e in a.elts]
        for operand in operands:
            t = _first_dim(operand)
            if t is None:
                t = _first_dim(_single_binding(operand, ctx))
            if t is not None and data_length(t, ctx):
                text = ast.unparse(t)
                ctx.report(self, operand,
                           f"`{text}.shape[0]` is None while tracing: the length of {text} depends on the data "
                           f"({_SOURCES}), so using it as a number or a size "
                           f"fails while tracing with a TypeError; use tf.shape({text})[0]")
