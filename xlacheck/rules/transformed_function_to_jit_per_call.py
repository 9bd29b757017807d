"""XLA414: the function ``jax.vjp`` / ``jax.linearize`` returns, made anew where a jitted function
that takes it as an argument is called again (jax#3755)."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import jax_jitted_calls_in_host_code, made_anew_before
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# The transformations whose second result is a new function (a pytree whose tree structure holds
# the linearized computation) on every evaluation, with the measured row that says a jitted
# function taking it as an argument traces and compiles again (xlacheck/data/jax_cache_key.json).
_RETURNS_FUNCTION: dict[str, tuple[str, str]] = {
    "jax.vjp": ("seq.vjp_pullback_as_argument_per_call", "pullback"),
    "jax.linearize": ("seq.linearize_jvp_as_argument_per_call", "linearized jvp"),
}


class TransformedFunctionToJitPerCall(ModuleRule):
    """
    ## What it does
    Flags an argument of a call of a function this file jits that is the function `jax.vjp`
    returns (its pullback) or `jax.linearize` returns (its jvp), when that function is made anew
    each time the call runs: `_, pullback = jax.vjp(f, x)` in the same loop as the call, or in a
    function that runs per batch (this file calls it in a loop, or it is a collator, generator or
    `__call__`), or once before the loop that calls, in a function that this file calls in a loop
    (directly or through the functions that call it) or that runs the call a fixed number of times
    (`for _ in range(3)`: a computation its callers repeat). Which forms miss the cache is read from the measured table
    `xlacheck/data/jax_cache_key.json` (`seq.vjp_pullback_as_argument_per_call`,
    `seq.linearize_jvp_as_argument_per_call`); one pullback built once and passed again hits the
    cache (`seq.vjp_pullback_reused_as_argument`) and is not flagged.

    ## Why is this bad?
    The pullback is a pytree whose structure holds the linearized computation of that call of
    `jax.vjp`. `jax.jit` keys its cache on the arguments' tree structure, and a new pullback
    never equals the previous one, even for the same function and shapes: every call traces and
    compiles the jitted function again (measured on jax 0.10.2: one trace and one XLA compile per
    call; jax#3755, "Nested VJP function always triggers recompilation").

    ## Example
    ```python
    @jax.jit
    def apply_pullback(pullback, cotangent):
        return pullback(cotangent)[0]

    for _ in range(steps):
        _, pullback = jax.vjp(energy, x)
        x = x - lr * apply_pullback(pullback, 1.0)
    ```

    ## Use instead
    ```python
    @jax.jit
    def grad_step(x, cotangent):
        _, pullback = jax.vjp(energy, x)  # inside the jitted function: traced once
        return pullback(cotangent)[0]

    for _ in range(steps):
        x = x - lr * grad_step(x, 1.0)
    ```

    ## Fix safety
    No automatic fix: the call of `jax.vjp` must move into the jitted function.
    """

    code = "XLA414"
    fix = None
    name = "transformed-function-to-jit-per-call"
    severity = Severity.RECOMPILE

    VALID = (
        # one pullback, built before the loop: the same object on every call hits the cache
        Example("import jax\nimport jax.numpy as jnp\ndef energy(x):\n    return jnp.sum(x * x)\n"
                "@jax.jit\ndef apply(pb, t):\n    return pb(t)[0]\n"
                "def probe(x, ts):\n    _, pb = jax.vjp(energy, x)\n    return [apply(pb, t) for t in ts]\n"),
        # jax.vjp inside the jitted function: traced with it
        Example("import jax\nimport jax.numpy as jnp\ndef energy(x):\n    return jnp.sum(x * x)\n"
                "@jax.jit\ndef grad_step(x):\n    _, pb = jax.vjp(energy, x)\n    return pb(1.0)[0]\n"
                "def descend(x, steps):\n    for _ in range(steps):\n        x = x - 0.1 * grad_step(x)\n"
                "    return x\n"),
        # the pullback is called on the host, not passed to a jitted function
        Example("import jax\nimport jax.numpy as jnp\ndef energy(x):\n    return jnp.sum(x * x)\n"
                "@jax.jit\ndef update(x, g):\n    return x - 0.1 * g\n"
                "def descend(x, steps):\n    for _ in range(steps):\n        _, pb = jax.vjp(energy, x)\n"
                "        x = update(x, pb(1.0)[0])\n    return x\n"),
        # a one-off: the function is called once, outside any loop
        Example("import jax\nimport jax.numpy as jnp\ndef energy(x):\n    return jnp.sum(x * x)\n"
                "@jax.jit\ndef apply(pb, t):\n    return pb(t)[0]\n"
                "def sensitivity(x):\n    _, pb = jax.vjp(energy, x)\n    return apply(pb, 1.0)\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\ndef energy(x):\n    return jnp.sum(jnp.sin(x) * x)\n"
                "@jax.jit\ndef apply_pullback(pullback, cotangent):\n    (g,) = pullback(cotangent)\n    return g\n"
                "def descend(x, steps=2, lr=0.1):\n    for _ in range(steps):\n"
                "        _, pullback = jax.vjp(energy, x)\n        x = x - lr * apply_pullback(pullback, 1.0)\n"
                "    return x\n",
                expected=(
                    (12, 37, 'argument `pullback` of jitted `apply_pullback` is the pullback of a `jax.vjp` made '
                             'anew on every iteration: jax.jit keys its cache on the tree structure of its '
                             'arguments and a new pullback never matches the last one, so every call traces and '
                             'compiles again; call `jax.vjp` inside the jitted function instead'),
                )),
        Example("import jax\nimport jax.numpy as jnp\ndef wave(x):\n    return jnp.sin(x) * x\n"
                "@jax.jit\ndef push(jvp_fn, t):\n    return jvp_fn(t)\n"
                "def tangent(x, t):\n    _, jvp_fn = jax.linearize(wave, x)\n    return push(jvp_fn, t)\n"
                "def run(xs, t):\n    return [tangent(x, t) for x in xs]\n",
                expected=(
                    (10, 17, 'argument `jvp_fn` of jitted `push` is the linearized jvp of a `jax.linearize` made '
                             'anew on every call of `tangent()`, which runs per batch: jax.jit keys its cache on '
                             'the tree structure of its arguments and a new linearized jvp never matches the last '
                             'one, so every call traces and compiles again; call `jax.linearize` inside the jitted '
                             'function instead'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not any(name in _RETURNS_FUNCTION for _, name in index.calls):
            return
        for call, _info in jax_jitted_calls_in_host_code(ctx.facts, index, ctx.path):
            name = ast.unparse(call.func)
            for arg in [*call.args, *(kw.value for kw in call.keywords)]:
                if not isinstance(arg, ast.Name):
                    continue
                made = _made_by_transformation(index, call, arg)
                if made is None:
                    continue
                kind, binding = made
                key, what = _RETURNS_FUNCTION[kind]
                if not jax_cache.recompiles(key):
                    continue
                where = made_anew_before(index, call, binding)
                if where is None:
                    continue
                ctx.report(self, arg, f"argument `{arg.id}` of jitted `{name}` is the {what} of a `{kind}` made "
                                      f"anew on every {where}: jax.jit keys its cache on the tree structure of its "
                                      f"arguments and a new {what} never matches the last one, so every call traces "
                                      f"and compiles again; call `{kind}` inside the jitted function instead")
                break


def _made_by_transformation(index: ModuleIndex, call: ast.Call, arg: ast.Name) -> tuple[str, ast.Assign] | None:
    """(transformation, its assignment) when ``arg`` is bound, exactly once in the function around
    ``call``, to the second result of ``jax.vjp(...)``/``jax.linearize(...)``: ``_, pb = jax.vjp(f,
    x)`` (``has_aux=True`` adds a third target) or ``pb = jax.vjp(f, x)[1]``."""
    func = index.function_of(call)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    binds = [n for n in index.scope_nodes(func) if isinstance(n, ast.Name) and n.id == arg.id
             and isinstance(n.ctx, ast.Store) and index.function_of(n) is func]
    if len(binds) != 1 or arg.id in {a.arg for a in func.args.args + func.args.kwonlyargs + func.args.posonlyargs}:
        return None
    assign = index.parent(binds[0])
    if isinstance(assign, ast.Tuple):
        tup, assign = assign, index.parent(assign)
        if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1 and assign.targets[0] is tup
                and len(tup.elts) >= 2 and tup.elts[1] is binds[0]):
            return None
        value = assign.value
    elif isinstance(assign, ast.Assign) and len(assign.targets) == 1 and assign.targets[0] is binds[0] \
            and isinstance(assign.value, ast.Subscript) and isinstance(assign.value.slice, ast.Constant) \
            and assign.value.slice.value == 1:
        value = assign.value.value
    else:
        return None
    if not isinstance(value, ast.Call):
        return None
    kind = index.aliases.resolve(value.func)
    return (kind, assign) if kind in _RETURNS_FUNCTION else None
