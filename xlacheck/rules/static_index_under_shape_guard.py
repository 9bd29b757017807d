"""XLA116: a constant index guarded by a tensor-valued size test of the same tensor."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xlacheck.analysis.values import TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name

_COMPARE: dict[type[ast.cmpop], Callable[[int, int], bool]] = {
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Eq: operator.eq, ast.NotEq: operator.ne,
}
_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Lt: ast.Gt, ast.LtE: ast.GtE,
                                                 ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}


@dataclass(frozen=True)
class _Guard:
    """``size(tensor, axis) <op> bound``: the condition, as a predicate on the size."""

    tensor: str
    axis: int
    spelled: str  # how the size is read: tf.size / tf.shape
    holds: Callable[[int], bool]


def _int(e: ast.expr) -> int | None:
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and isinstance(e.operand, ast.Constant) \
            and type(e.operand.value) is int:
        return -e.operand.value
    return None


def _size_of(e: ast.expr, ctx: RuleContext, assigned: dict[str, ast.expr],
             depth: int = 0) -> tuple[str, int, str] | None:
    """(tensor name, axis, op) when ``e`` is the size of a named tensor read as a tensor:
    ``tf.size(x)`` (axis 0), ``tf.shape(x)[i]``, or a name assigned once from one of them."""
    if isinstance(e, ast.Name) and e.id in assigned and depth < 3:
        return _size_of(assigned[e.id], ctx, assigned, depth + 1)
    if isinstance(e, ast.Call) and call_name(e, ctx) == "tf.size":
        x = argument(e, 0, "input")
        if isinstance(x, ast.Name) and len(e.args) + len(e.keywords) <= 2:
            return x.id, 0, "tf.size"
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Call) and call_name(e.value, ctx) == "tf.shape":
        x = argument(e.value, 0, "input")
        axis = _int(e.slice)
        if isinstance(x, ast.Name) and axis is not None and axis >= 0:
            return x.id, axis, "tf.shape"
    return None


def _single_assignments(fn: ast.AST) -> dict[str, ast.expr]:
    """name -> value for the names the function assigns exactly once (``n = tf.shape(x)[0]``)."""
    values: dict[str, list[ast.expr]] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    values.setdefault(t.id, []).append(n.value)
                else:
                    for sub in ast.walk(t):
                        if isinstance(sub, ast.Name):
                            values.setdefault(sub.id, []).extend([n.value, n.value])  # not a single value
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            target = n.target
            if isinstance(target, ast.Name):
                values.setdefault(target.id, []).extend([target, target])
    return {k: v[0] for k, v in values.items() if len(v) == 1}


def _guard(test: ast.expr, ctx: RuleContext, assigned: dict[str, ast.expr]) -> _Guard | None:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _COMPARE):
        return None
    op, left, right = type(test.ops[0]), test.left, test.comparators[0]
    size, bound = _size_of(left, ctx, assigned), _int(right)
    if size is None:
        size, bound, op = _size_of(right, ctx, assigned), _int(left), _FLIP[op]
    if size is None or bound is None:
        return None
    compare = _COMPARE[op]
    return _Guard(size[0], size[1], size[2], lambda n: compare(n, bound))


def _constant_indices(stmts: list[ast.stmt] | ast.expr, tensor: str, axis: int, only_axis0: bool
                      ) -> Iterator[tuple[ast.Subscript, int]]:
    """``tensor[k]`` / ``tensor[:, k]``: reads of a constant index on ``axis`` in these statements
    (not in nested functions or classes)."""
    todo: list[ast.AST] = list(stmts) if isinstance(stmts, list) else [stmts]
    while todo:
        n = todo.pop(0)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(n))
        if not (isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)
                and n.value.id == tensor):
            continue
        parts = list(n.slice.elts) if isinstance(n.slice, ast.Tuple) else [n.slice]
        if only_axis0 and len(parts) != 1:
            continue
        if any(isinstance(p, ast.Constant) and p.value is Ellipsis for p in parts[:axis + 1]) or axis >= len(parts):
            continue
        if any(not isinstance(p, ast.Slice) for p in parts[:axis]):  # an index before it drops an axis
            continue
        k = _int(parts[axis])
        if k is not None:
            yield n, k


def _valid(size: int, k: int) -> bool:
    return 0 <= k < size if k >= 0 else size >= -k


def _protects(holds: Callable[[int], bool], k: int) -> int | None:
    """The largest size at which the branch's condition is false and the index is out of bounds,
    when the condition keeps the index in bounds wherever it holds (the guard was written for it)."""
    sizes = range(0, abs(k) + 64)
    if not all(_valid(n, k) for n in sizes if holds(n)):
        return None
    return max((n for n in sizes if not holds(n) and not _valid(n, k)), default=None)


def _assigns(stmts: list[ast.stmt] | ast.expr, name: str) -> bool:
    nodes = stmts if isinstance(stmts, list) else [stmts]
    return any(isinstance(t, ast.Name) and t.id == name and isinstance(t.ctx, ast.Store)
               for s in nodes for t in ast.walk(s))


def _lambda_body(e: ast.expr | None) -> ast.expr | None:
    return e.body if isinstance(e, ast.Lambda) and not e.args.args else None


class StaticIndexUnderShapeGuard(Rule):
    """
    ## What it does
    Flags an `if` (or a `tf.cond`) whose condition compares the size of a tensor read as a tensor
    (`tf.size(x)`, `tf.shape(x)[i]`, or a name assigned from one) with a number, when a branch
    reads `x` at a constant index on that axis (`x[1]`, `x[:, 3]`, `x[-1]`) that the condition
    was written to keep in bounds: the index is valid wherever the condition holds and out of
    bounds at a size where it does not. Fires in AutoGraph-converted code.

    ## Why is this bad?
    A size read with `tf.size`/`tf.shape` is a tensor, so AutoGraph stages the `if` as a
    `tf.cond`, and TensorFlow traces **both** branches with the input's static shape (XLA fixes
    every shape at trace time). The branch the condition excludes is traced for exactly the sizes
    it was written to keep out, and slicing a static shape out of bounds fails while tracing:
    `ValueError: slice index 1 of dimension 0 out of bounds` under `jit_compile=True` (and in a
    plain `tf.function`), although eager mode never runs that branch. Measured with TF 2.21 XLA:CPU
    (`tests/xlacheck/test_compiler_truth.py`): `if tf.size(x) == 2: x[1] else: x[0]` fails for a
    1-element `x`, `if tf.shape(x)[0] > 0: x[-1]` for an empty one, `tf.cond(tf.size(x) > 1,
    lambda: x[1], lambda: x[0])` too; a `tf.gather(x, 2)` in the excluded branch compiles (XLA
    clamps gather indices), so only subscripts are flagged. The same fact as XLA115, with the
    constant read from a shape.

    ## Example
    ```python
    def last_or_first(tensor):
        if tf.size(tensor) == 2:           # a tensor: a tf.cond, both branches traced
            return tensor[1]               # traced for a 1-element tensor too: fails
        return tensor[0]
    ```

    ## Use instead
    ```python
    def last_or_first(tensor):
        if tensor.shape[0] == 2:           # a Python int at trace time: a Python `if`
            return tensor[1]
        return tensor[0]
    ```
    or an index that is valid for every size (`tensor[tf.size(tensor) - 1]`, `tf.gather` with a
    clamped index).

    Behind `--preview`: a function only ever called with sizes at which every branch is in bounds
    compiles, so the finding is a hazard for the sizes the condition names, not a certainty.

    ## Fix safety
    No automatic fix: the static shape is None where a dimension is unknown (an `input_signature` with
    `None`), and the rewrite must be chosen by hand there.
    """

    code = "XLA116"
    fix = None
    name = "static-index-under-shape-guard"
    node_types = (ast.If, ast.Call)
    # Whether the excluded branch fails depends on the shapes the function is called with: on the
    # sizes the condition keeps out it always fails, but a function only ever called with sizes
    # where every branch is in bounds compiles. On the repository's validation cases (not read)
    # the rule added one false finding and no true one (docs/known-results.md): --preview.
    preview = True

    VALID = (
        # the static shape: a Python `if`, only the taken branch is traced
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if x.shape[0] == 2:\n        return x[1]\n    return x[0]\n"),
        # the index is not what the condition protects (x[0] is out of bounds where the guard holds too)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.size(x) < 3:\n        return x[0]\n    return x[1]\n"),
        # tf.gather clamps its index under XLA: the excluded branch compiles
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.shape(x)[0] > 2:\n        return tf.gather(x, 2)\n    return x[0]\n"),
        # another axis than the one the guard reads
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.shape(x)[1] > 1:\n        return x[1]\n    return x[0]\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(tensor):\n"
                "    if tf.size(tensor) == 2:\n        return tensor[1]\n    return tensor[0]\n",
                expected=(
                    (4, 5, '`if tf.size(tensor) == 2:` reads the size of `tensor` as a tensor: AutoGraph stages a '
                           'tf.cond and both branches are traced with the static shape, so `tensor[1]` at line 5 '
                           'is traced for the sizes this condition excludes too (size 1: out of bounds) and tracing '
                           'fails (slice index out of bounds); compare the static shape (`tensor.shape[0]`) so the '
                           '`if` stays Python'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    n = tf.shape(x)[1]\n"
                "    if n >= 4:\n        return x[:, 3]\n    return x[:, 0]\n",
                expected=(
                    (5, 5, '`if n >= 4:` reads the size of `x` as a tensor: AutoGraph stages a tf.cond and both '
                           'branches are traced with the static shape, so `x[:, 3]` at line 6 is traced for the '
                           'sizes this condition excludes too (size 3: out of bounds) and tracing fails (slice '
                           'index out of bounds); compare the static shape (`x.shape[1]`) so the `if` stays '
                           'Python'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.cond(tf.size(x) > 1, lambda: x[1], lambda: x[0])\n",
                expected=(
                    (4, 12, '`tf.cond(tf.size(x) > 1, ...)` reads the size of `x` as a tensor: tf.cond traces both '
                            'branches with the static shape, so `x[1]` at line 4 is traced for the sizes this '
                            'condition excludes too (size 1: out of bounds) and tracing fails (slice index out of '
                            'bounds); compare the static shape (`x.shape[0]`) in a Python `if`'),
                )),
    )

    def __init__(self) -> None:
        self._assigned: tuple[ast.AST | None, dict[str, ast.expr]] = (None, {})

    def _single(self, ctx: RuleContext) -> dict[str, ast.expr]:
        fn = ctx.function.node
        if self._assigned[0] is not fn:
            self._assigned = (fn, _single_assignments(fn))
        return self._assigned[1]

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if isinstance(node, ast.If):
            if not ctx.converted or not ctx.flags(node.test) & TENSOR:
                return
            branches: list[tuple[list[ast.stmt] | ast.expr, bool]] = [(node.body, True), (node.orelse, False)]
            test, what = node.test, f"`if {ast.unparse(node.test)}:`"
            tail = "AutoGraph stages a tf.cond and both branches are traced"
            advice = "so the `if` stays Python"
        else:
            assert isinstance(node, ast.Call)
            if call_name(node, ctx) != "tf.cond":
                return
            pred = argument(node, 0, "pred")
            true_fn, false_fn = _lambda_body(argument(node, 1, "true_fn")), _lambda_body(argument(node, 2, "false_fn"))
            if pred is None:
                return
            branches = [(b, side) for b, side in ((true_fn, True), (false_fn, False)) if b is not None]
            test, what, tail = pred, f"`tf.cond({ast.unparse(pred)}, ...)`", "tf.cond traces both branches"
            advice = "in a Python `if`"
        guard = _guard(test, ctx, self._single(ctx))
        if guard is None:
            return
        for stmts, side in branches:
            if _assigns(stmts, guard.tensor):
                continue
            holds = guard.holds if side else (lambda n, h=guard.holds: not h(n))
            for sub, k in _constant_indices(stmts, guard.tensor, guard.axis, guard.spelled == "tf.size"):
                size = _protects(holds, k)
                if size is None:
                    continue
                ctx.report(self, node,
                           f"{what} reads the size of `{guard.tensor}` as a tensor: {tail} "
                           f"with the static shape, so `{ast.unparse(sub)}` at line {sub.lineno} is traced for the "
                           f"sizes this condition excludes too (size {size}: out of bounds) and tracing fails (slice "
                           f"index out of bounds); compare the static shape (`{guard.tensor}.shape[{guard.axis}]`) "
                           f"{advice}")
                return
