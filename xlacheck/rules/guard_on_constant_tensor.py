"""XLA115: an `if` on a constant tensor guards a shape argument that XLA evaluates in both branches."""

from __future__ import annotations

import ast

from xlacheck.analysis.scopes import target_names
from xlacheck.analysis.tables import static_arguments
from xlacheck.analysis.values import DATA, LOOP, OPAQUE, PARAM, RANDOM, TENSOR, VARIABLE, is_constant_tensor
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_DATA = DATA | PARAM | VARIABLE | RANDOM | LOOP | OPAQUE


def _reads(e: ast.AST) -> set[str]:
    """Names an expression reads (``self.attr`` as one name; ``self`` alone is not one)."""
    out: set[str] = set()
    for n in ast.walk(e):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id != "self":
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self":
            out.add("self." + n.attr)
    return out


def _dependencies(fn: ast.AST) -> dict[str, set[str]]:
    """name -> the names its assigned values read, anywhere in the function (flow-insensitive)."""
    deps: dict[str, set[str]] = {}

    def add(target: ast.expr, value: ast.AST) -> None:
        reads = _reads(value)
        for name in target_names(target):
            deps.setdefault(name, set()).update(reads)

    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                add(t, n.value)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)) and n.value is not None:
            add(n.target, n.value)
        elif isinstance(n, (ast.For, ast.comprehension)):
            add(n.target, n.iter)
        elif isinstance(n, ast.NamedExpr):
            add(n.target, n.value)
    return deps


def _closure(start: set[str], deps: dict[str, set[str]]) -> set[str]:
    """The names computed (transitively) from ``start``, ``start`` included."""
    tainted = set(start)
    changed = True
    while changed:
        changed = False
        for name, reads in deps.items():
            if name not in tainted and reads & tainted:
                tainted.add(name)
                changed = True
    return tainted


class GuardOnConstantTensor(Rule):
    """
    ## What it does
    Flags an `if` whose condition is a tensor computed only from Python values (a
    `tf.reduce_min` of Python ints, a conditional expression on one) when a branch passes a value
    computed from the condition's names to an argument XLA needs at compile time (a `tf.range`
    bound, a `tf.reshape` shape, `tf.ones` size: the arguments the generated API table records),
    in AutoGraph-converted code.

    ## Why is this bad?
    AutoGraph turns the `if` into a `tf.cond` because its condition is a tensor, even though its
    value never changes. XLA compiles **both** branches, and it folds the constant into each: the
    branch the condition excludes is compiled with exactly the values the `if` was written to
    keep out of it (`tf.range(4, 1)`: "Requires start <= limit when delta > 0"), so compilation
    fails although eager and graph mode never run that branch. transformers' Swin
    (`TFSwinLayer.get_attn_mask`, `if shift_size > 0:` after `min_res = tf.reduce_min(...)`)
    fails this way under `jit_compile=True` for every block with `shift_size == 0`.

    ## Example
    ```python
    min_res = tf.reduce_min(input_dimensions)          # a tensor, from a tuple of ints
    shift_size = 0 if min_res <= self.window_size else self.shift_size
    if shift_size > 0:                                  # a tf.cond under AutoGraph
        idx = tf.range(-shift_size % height, height)    # compiled for shift_size == 0 too
    ```

    ## Use instead
    ```python
    min_res = min(input_dimensions)                     # a Python int: a Python `if`
    shift_size = 0 if min_res <= self.window_size else self.shift_size
    if shift_size > 0:
        idx = tf.range(-shift_size % height, height)
    ```
    Every operand must stay Python: an attribute set from a TensorFlow op in `__init__`
    (`self.window_size = tf.reduce_min(...)`) is a tensor too, and so is the condition on it.
    In transformers 4.57.6 both `tf.reduce_min` calls of `TFSwinLayer` (`__init__` and `call`)
    become `min()`; then a tiny `TFSwinModel` compiles with `jit_compile=True` and matches eager
    mode (1e-6).

    ## Fix safety
    When every TensorFlow op the condition's value comes from is a reduction of Python values
    (`tf.reduce_min/max/sum(seq)`, `tf.minimum/maximum(a, b)`), followed through assignments,
    `self.<attr>` set in the class's methods and the arguments the class's own calls pass, the
    fix computes them with `min()`/`max()`/`sum()`. Unsafe: the value becomes a Python number
    (code that used it as a tensor must change; `min()` of an empty sequence raises where the
    reduction returns the dtype's largest value). Any other op on the way gets no fix.
    """

    code = "XLA115"
    fix = ("rewrite_constant_guard",)
    name = "guard-on-constant-tensor"
    node_types = (ast.Call,)

    VALID = (
        # a Python condition: AutoGraph keeps a Python `if`, only the taken branch is traced
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, dims: tuple[int, int] = (8, 8)):\n"
                "    shift = 0 if min(dims) <= 4 else 2\n    if shift > 0:\n"
                "        return tf.gather(x, tf.range(8 - shift, 8))\n    return x\n"),
        # a constant condition whose branch does not compute shape arguments from it
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, dims: tuple[int, int] = (8, 8)):\n"
                "    if tf.reduce_min(dims) > 4:\n        x = tf.reshape(tf.reshape(x, (-1, 2)) * 2.0, (-1,))\n"
                "    return x\n"),
        # an unknown value (a variable read through an attribute) is not a proven constant
        Example("import tensorflow as tf\nclass L(tf.keras.layers.Layer):\n    def call(self, x):\n"
                "        step = tf.cast(self.step_counter, tf.int32)\n        if step > 0:\n"
                "            x = tf.reshape(x, (step, -1))\n        return x\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, dims: tuple[int, int] = (8, 8)):\n"
                "    min_res = tf.reduce_min(dims)\n    shift = 0 if min_res <= 8 else 2\n    if shift > 0:\n"
                "        return tf.gather(x, tf.range(8 - shift, 7))\n    return x\n",
                expected=(
                    (6, 5, '`if shift > 0:` tests a tensor computed only from Python values (tf.reduce_min at line 4):'
                           ' AutoGraph stages a tf.cond and XLA compiles both branches with the constant folded in, '
                           'so `start` of tf.range at line 7 is also evaluated for the values this condition '
                           'excludes, and compilation fails where they are invalid (tf.range with start > limit, a '
                           'negative size); compute the condition with Python (min()/max() of ints, not '
                           'tf.reduce_min) so it stays a Python `if`'),
                )),
    )

    def __init__(self) -> None:
        self._deps: tuple[ast.AST | None, dict[str, set[str]]] = (None, {})

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if not ctx.converted or not ctx.tensor_branches:
            return
        assert isinstance(node, ast.Call)
        guards = [b for b in ctx.tensor_branches if isinstance(b, ast.If) and is_constant_tensor(ctx.flags(b.test))]
        if not guards:
            return
        name = call_name(node, ctx)
        if name is None or not name.startswith("tf."):
            return
        args = [(kw, a) for kw, a in static_arguments(name, node)
                if ctx.flags(a) & TENSOR and not ctx.flags(a) & _DATA]
        if not args:
            return
        fn = ctx.function.node
        if self._deps[0] is not fn:
            self._deps = (fn, _dependencies(fn))
        deps = self._deps[1]
        for guard in guards:
            tainted = _closure(_reads(guard.test), deps)
            for keyword, arg in args:
                if not _reads(arg) & tainted:
                    continue
                if name == "tf.range" and keyword == "start" and len(node.args) == 1 and not node.keywords:
                    keyword = "limit"
                ctx.report(self, guard,
                           f"`if {ast.unparse(guard.test)}:` tests a tensor computed only from Python values"
                           f"{_origin(guard.test, fn, ctx)}: AutoGraph stages a tf.cond and XLA compiles both "
                           f"branches with the constant folded in, so `{keyword}` of {name} at line {node.lineno} "
                           "is also evaluated for the values this condition excludes, and compilation fails where "
                           "they are invalid (tf.range with start > limit, a negative size); compute the condition "
                           "with Python (min()/max() of ints, not tf.reduce_min) so it stays a Python `if`")
                return


def _origin(test: ast.expr, fn: ast.AST, ctx: RuleContext, caller: bool = False) -> str:
    """`` (tf.reduce_min at line 4)``: the first TensorFlow op the condition's names come from in
    this function, else in a method of the class that passes them (`` (tf.reduce_min at line 822,
    in call())``), else `` (a constant tensor its callers pass)`` for a parameter."""
    seen: set[str] = set()
    todo = sorted(_reads(test))
    values: dict[str, list[ast.AST]] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                for name in target_names(t):
                    values.setdefault(name, []).append(n.value)
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.add(name)
        for value in values.get(name, ()):
            for sub in ast.walk(value):
                if isinstance(sub, ast.Call):
                    op = call_name(sub, ctx)
                    # in the caller the flags of this walk do not apply: the op's name is the origin
                    if op is not None and op.startswith("tf.") and (caller or is_constant_tensor(ctx.flags(sub))):
                        return f" ({op} at line {sub.lineno}" + (f", in {getattr(fn, 'name', '?')}())" if caller
                                                                 else ")")
            todo.extend(sorted(_reads(value)))
    if caller:
        return ""
    args = getattr(fn, "args", None)
    params = [a.arg for a in (args.posonlyargs + args.args)] if args is not None else []
    wanted = seen & set(params)
    cls = ctx.function.cls
    if wanted and cls is not None:
        fname = getattr(fn, "name", "")
        for method in cls.methods.values():
            for call in ast.walk(method.node):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and call.func.attr == fname and isinstance(call.func.value, ast.Name)
                        and call.func.value.id == "self"):
                    continue
                passed = [kw.value for kw in call.keywords if kw.arg in wanted] + [
                    a for a, p in zip(call.args, params[1:]) if p in wanted]
                for arg in passed:
                    found = _origin(arg, method.node, ctx, caller=True)
                    if found:
                        return found
    return " (a constant tensor its callers pass)" if wanted else ""
