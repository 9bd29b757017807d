"""XLA417: an array whose size depends on its data, passed to a ``jax.jit`` function every step."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.per_step import per_batch
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    bound_arguments,
    call_params,
    jax_jitted_calls_in_host_code,
    params_varied_by_callers,
)
from xlacheck.rules.base import Example
from xlacheck.rules.jax_traced_shape import _data_dependent
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Element-wise functions whose result is a boolean mask (a mask indexes by value, not by position).
_MASK_FUNCTIONS = frozenset({"isnan", "isfinite", "isinf", "isin", "logical_and", "logical_or", "logical_not",
                             "logical_xor", "isclose", "greater", "less", "equal", "not_equal", "greater_equal",
                             "less_equal", "signbit"})
_ARRAY_MODULES = ("jnp.", "np.", "jax.numpy.", "numpy.")
_ARRAY_NAMESPACES = frozenset({"jnp", "np", "jax.numpy", "numpy"})
# Calls that turn a Python list into an array of its length.
_ARRAY_BUILDERS = frozenset({"jnp.array", "jnp.asarray", "np.array", "np.asarray"})
# Methods whose result is a list as long as their input's content (`text.split()`, a tokenizer's
# `encode(text)`).
_VARIABLE_LENGTH_METHODS = frozenset({"split", "encode"})


class JitArgumentDataDependentShape(ModuleRule):
    """
    ## What it does
    Flags a call of a function this file jits (`@jax.jit`, `f = jax.jit(g)`) whose array argument
    is selected by its data outside the jitted code: boolean-mask indexing (`x[x > 0]`,
    `rows[valid]`), indexing with the result of `nonzero`/`where(cond)`/`argwhere`, or the result
    of a function whose output size depends on the values (the JAX API table's data-dependent
    functions without their `size=`: `jnp.unique`, `jnp.nonzero`, one-argument `jnp.where`; NumPy's
    functions of the same names behave the same), or an array built from a filtered list
    comprehension (`jnp.array([t for t in ids if t != pad])`) or from `.split()`/a tokenizer's
    `.encode()`, where the call runs once per step: in a loop, in
    a per-batch function, or in a function that this file calls in a loop with new values. Calls in
    tests and inside traced code are left out.

    ## Why is this bad?
    `jax.jit` compiles once per distinct input shape. Outside jitted code a boolean mask or
    `nonzero` is allowed, but its result has as many rows as the mask has `True` values, so every
    new count is a new shape, and the jitted function is traced and compiled again (seconds each)
    for almost every batch.

    ## Example
    ```python
    for batch in batches:
        valid = batch["label"] >= 0
        loss = eval_step(params, batch["x"][valid], batch["label"][valid])
    ```

    ## Use instead
    ```python
    for batch in batches:
        valid = batch["label"] >= 0
        loss = eval_step(params, batch["x"], batch["label"], valid)  # fixed shape; mask inside
    ```

    ## Fix safety
    No automatic fix: the jitted function must take the mask and reduce with it.
    """

    code = "XLA417"
    fix = None
    name = "jit-argument-data-dependent-shape"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef masked_mean(x, valid):\n"
                "    return jnp.sum(jnp.where(valid, x, 0.0)) / jnp.sum(valid)\n"
                "def evaluate(batches):\n    return [masked_mean(b, b > 0) for b in batches]\n"),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef mean(x):\n    return x.mean()\n"
                "def summary(x):\n    return mean(x[x > 0])\n"),
        Example("import jax\nimport numpy as np\n@jax.jit\ndef mean(x):\n    return x.mean()\n"
                "def run(batches):\n    return [mean(b[np.nonzero(b, size=4)[0]]) for b in batches]\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef mean(x):\n    return x.mean()\n"
                "def evaluate(batches):\n    out = []\n    for b in batches:\n"
                "        out.append(mean(b[b > 0]))\n    return out\n",
                expected=(
                    (9, 25, 'argument `x` of jitted `mean` is selected by a boolean mask (`b[b > 0]`) on every '
                            'iteration: its length is the number of True values, a new shape for almost every '
                            'call, so jax.jit traces and compiles again each time; pass the whole array with the '
                            'mask and reduce with jnp.where inside the jitted function'),
                )),
        Example("import jax\nimport numpy as np\n@jax.jit\ndef centroid(points):\n    return points.mean(0)\n"
                "def track(frames):\n    for f in frames:\n        ids = np.unique(f[:, 0])\n"
                "        yield centroid(ids)\n",
                expected=(
                    (9, 24, 'argument `points` of jitted `centroid` is the result of np.unique without `size=` '
                            'on every iteration: its length depends on the values, a new shape for almost every '
                            'call, so jax.jit traces and compiles again each time; pass the whole array with the '
                            'mask and reduce with jnp.where inside the jitted function'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        for call, info in jax_jitted_calls_in_host_code(ctx.facts, index, ctx.path):
            assert not isinstance(info.node, ast.Lambda)
            shown = ast.unparse(call.func)  # `step`, or `self._step` for a jitted method
            if not (index.loops_around(call) or per_batch(index, call)
                    or params_varied_by_callers(index, ctx.path, call)):
                continue
            for param, arg in bound_arguments(call_params(info, call), call, index):
                if param in info.static_params:
                    continue
                how = self._data_dependent(ctx, index, arg)
                if how is not None:
                    ctx.report(self, arg, f"argument `{param}` of jitted `{shown}` is {how} on every "
                                          "iteration: its length depends on the values, a new shape for almost every "
                                          "call, so jax.jit traces and compiles again each time; pass the whole array "
                                          "with the mask and reduce with jnp.where inside the jitted function"
                               if "mask" not in how else
                               f"argument `{param}` of jitted `{shown}` is {how} on every iteration: its "
                               "length is the number of True values, a new shape for almost every call, so jax.jit "
                               "traces and compiles again each time; pass the whole array with the mask and reduce "
                               "with jnp.where inside the jitted function")
                    break

    def _data_dependent(self, ctx: ModuleContext, index: ModuleIndex, arg: ast.expr, depth: int = 0) -> str | None:
        """How ``arg`` gets a data-dependent size, else None; a name is followed to its single
        assignment in the enclosing function."""
        if isinstance(arg, ast.Name) and depth == 0:
            value = _single_value(index, arg)
            return self._data_dependent(ctx, index, value, 1) if value is not None else None
        if isinstance(arg, ast.Call) and arg.args and ctx.facts.aliases.resolve(arg.func) in _ARRAY_BUILDERS:
            inner = arg.args[0]
            if isinstance(inner, ast.Name) and depth == 0:
                inner = _single_value(index, inner) or inner
            if isinstance(inner, ast.ListComp) and any(g.ifs for g in inner.generators):
                return "an array of a filtered list comprehension (as many elements as pass the filter)"
            if isinstance(inner, ast.ListComp) and len(inner.generators) == 1:
                inner = inner.generators[0].iter  # [vocab[w] for w in text.split()]: as long as the split
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                    and inner.func.attr in _VARIABLE_LENGTH_METHODS:
                return f"an array of a `.{inner.func.attr}()` result (as long as the text or data it splits)"
        if isinstance(arg, ast.Call):
            name = _sized_function(ctx, arg)
            return f"the result of {name} without `size=`" if name is not None else None
        if isinstance(arg, ast.Subscript) and isinstance(arg.ctx, ast.Load):
            parts = arg.slice.elts if isinstance(arg.slice, ast.Tuple) else [arg.slice]
            for part in parts:
                if _is_mask(ctx, index, part):
                    return f"selected by a boolean mask (`{ast.unparse(arg)}`)"
                index_of = part.value if isinstance(part, ast.Subscript) else part  # np.nonzero(m)[0]
                if isinstance(index_of, ast.Name):
                    index_of = _single_value(index, index_of) or index_of
                    index_of = index_of.value if isinstance(index_of, ast.Subscript) else index_of
                if isinstance(index_of, ast.Call) and (name := _sized_function(ctx, index_of)) is not None:
                    return f"indexed by {name} without `size=` (`{ast.unparse(arg)}`)"
        return None


def _single_value(index: ModuleIndex, name: ast.Name) -> ast.expr | None:
    """The value of the single assignment of ``name`` in the function around it, else None."""
    func = index.function_of(name)
    if func is None or isinstance(func, ast.Lambda):
        return None
    values = [n for n in index.scope_nodes(func) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For))
              and any(isinstance(t, ast.Name) and t.id == name.id
                      for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    if len(values) != 1 or not isinstance(values[0], ast.Assign) or len(values[0].targets) != 1:
        return None
    return values[0].value


def _sized_function(ctx: ModuleContext, call: ast.Call) -> str | None:
    """A jax.numpy (or NumPy) function whose result size depends on the values in this call, per
    the JAX API table (no ``size=`` given)."""
    name = ctx.facts.aliases.resolve(call.func)
    if name is None or "." not in name:
        return None
    module, attr = name.rsplit(".", 1)
    if module not in _ARRAY_NAMESPACES:
        return None  # np.random.choice, np.linalg.*: not the array namespace itself
    return name if _data_dependent(f"jnp.{attr}", call) is not None else None


def _is_mask(ctx: ModuleContext, index: ModuleIndex, part: ast.expr, depth: int = 0) -> bool:
    """A boolean mask: a comparison, ``~m``, ``a & b`` of masks, an element-wise predicate
    (``np.isfinite(x)``), or a name assigned once from one."""
    if isinstance(part, ast.Compare):
        return not any(isinstance(op, (ast.In, ast.NotIn, ast.Is, ast.IsNot)) for op in part.ops)
    if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Invert):
        return _is_mask(ctx, index, part.operand, depth)
    if isinstance(part, ast.BinOp) and isinstance(part.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return _is_mask(ctx, index, part.left, depth) or _is_mask(ctx, index, part.right, depth)
    if isinstance(part, ast.Call):
        name = ctx.facts.aliases.resolve(part.func)
        return name is not None and name.startswith(_ARRAY_MODULES) and name.rsplit(".", 1)[1] in _MASK_FUNCTIONS
    if isinstance(part, ast.Name) and depth == 0:
        value = _single_value(index, part)
        return value is not None and _is_mask(ctx, index, value, 1)
    return False
