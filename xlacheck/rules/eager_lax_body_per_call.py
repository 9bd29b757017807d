"""XLA427: an eager ``lax.while_loop``/``scan``/``fori_loop``/``cond`` whose body is a function made anew per call."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis import argument
from xlacheck.analysis.contexts import Certainty
from xlacheck.analysis.loop_carry import FORI_LOOP, SCAN, WHILE_LOOP
from xlacheck.analysis.per_step import repeats
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import in_test
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_COND = frozenset({"jax.lax.cond", "lax.cond"})
# (resolved names, the measured row, the function arguments: (position, keyword))
_LOOPS: tuple[tuple[frozenset[str], str, str, tuple[tuple[int, str], ...]], ...] = (
    (WHILE_LOOP, "eager.while_loop_new_body_per_call", "lax.while_loop", ((0, "cond_fun"), (1, "body_fun"))),
    (SCAN, "eager.scan_new_body_per_call", "lax.scan", ((0, "f"),)),
    (FORI_LOOP, "eager.fori_loop_new_body_per_call", "lax.fori_loop", ((2, "body_fun"),)),
    (_COND, "eager.cond_new_body_per_call", "lax.cond", ((1, "true_fun"), (2, "false_fun"))),
)


class EagerLaxBodyPerCall(ModuleRule):
    """
    ## What it does
    Flags `lax.while_loop`, `lax.scan`, `lax.fori_loop` and `lax.cond` calls that run eagerly (no
    function around them is jitted or reached from jitted code in this file) with a body (or
    condition, or branch) made anew each time they run: a `lambda` written at the call, or a
    function `def`ined (or a lambda bound) in the function around the call; where this file shows
    the call repeats: the body is made inside a loop around the call, or the function around it is
    called in a loop of host code of this file (outside tests), directly or through one function of
    this file (`train` loops over `run_step(i)`, which calls it). A body defined at module level (one
    function object) is not flagged, nor is a function whose callers are elsewhere (a library
    function usually runs under its caller's `jax.jit`), nor code that any jit of this file traces.
    Behind `--preview`: in library code the loops that call such a function usually run while a
    caller's jit traces them (17 findings on real code, the three read all of that kind).

    ## Why is this bad?
    Outside `jax.jit`, each of these primitives traces its body to a jaxpr, cached on the body
    function object, and compiles that jaxpr with XLA. A new function object per call misses the
    cache: every call traces and compiles the loop again (measured on jax 0.10.2, the
    `eager.*_new_body_per_call` rows of `xlacheck/data/jax_cache_key.json`: three calls, three
    traces of the body and three XLA compilations, seven for `lax.cond`; the same body object:
    one of each, `eager.while_loop_same_body`; under an outer `jax.jit` the new body costs nothing
    after the first call, `eager.while_loop_new_body_under_jit`). optax#1171: an L-BFGS line
    search run eagerly per step compiled its `while_loop` at every step.

    ## Example
    ```python
    def line_search(params, lr):
        def body(state):
            return (state[0] * lr, state[1] + 1)
        return lax.while_loop(lambda s: s[1] < 10, body, (params, 0))

    for step in range(steps):
        params = line_search(params, 0.5)
    ```

    ## Use instead
    ```python
    @jax.jit
    def line_search(params, lr):  # traced once: the loop compiles with it
        ...
    ```

    ## Fix safety
    No automatic fix: jitting the function, or moving the body to module level with its closed-over
    values in the carry, is the author's choice.
    """

    code = "XLA427"
    fix = None
    name = "eager-lax-body-per-call"
    severity = Severity.RECOMPILE
    # Behind --preview: on real code (batches 10-25, 391 files calling lax loops) its 17 findings sat in
    # library code (optimizers, environments, trainer hooks) whose callers jit it elsewhere: the loops
    # this file shows run while an outer jit traces, where a new body costs nothing.
    preview = True

    VALID = (
        # a module-level body: one function object, traced and compiled once
        Example("""
            from jax import lax
            def body(s):
                return (s[0] * 0.5, s[1] + 1)
            def cond(s):
                return s[1] < 10
            def solve(x):
                return lax.while_loop(cond, body, (x, 0))
            def train(x, steps):
                for _ in range(steps):
                    x = solve(x)[0]
                return x
        """),
        # the function is jitted: the body is traced inside it, once
        Example("""
            import jax
            from jax import lax
            @jax.jit
            def solve(x, lr):
                def body(s):
                    return (s[0] * lr, s[1] + 1)
                return lax.while_loop(lambda s: s[1] < 10, body, (x, 0))
            def train(x, steps):
                for _ in range(steps):
                    x = solve(x, 0.5)[0]
                return x
        """),
        # nothing here calls it in a loop: its callers (and their jit) are elsewhere
        Example("""
            from jax import lax
            def solve(x, lr):
                return lax.fori_loop(0, 10, lambda i, v: v * lr, x)
        """),
        # reached from jitted code of this file
        Example("""
            import jax
            from jax import lax
            def solve(x, lr):
                return lax.scan(lambda c, r: (c * lr + r, c), x, x[None])[0]
            @jax.jit
            def step(x):
                for _ in range(3):
                    x = solve(x, 0.5)
                return x
        """),
    )
    INVALID = (
        Example("""
            from jax import lax
            def line_search(params, lr):
                def body(state):
                    return (state[0] * lr, state[1] + 1)
                return lax.while_loop(lambda s: s[1] < 10, body, (params, 0))
            def train(params, steps):
                for _ in range(steps):
                    params = line_search(params, 0.5)[0]
                return params
        """, expected=(
            (5, 12, 'lax.while_loop runs eagerly (nothing jits `line_search()`) with a body made anew on every '
                    'call of `line_search()`, which this file calls in a loop at line 7: outside jax.jit the loop '
                    'is traced and compiled per body function object, so every call traces and compiles it '
                    'again; jit `line_search()`, or define the body once at module level'),
        )),
        Example("""
            import jax.numpy as jnp
            from jax import lax
            def evaluate(xs, k):
                total = 0.0
                for x in xs:
                    total += lax.scan(lambda c, r: (c * k + r, c), x, jnp.ones((4, 3)))[0].sum()
                return total
        """, expected=(
            (6, 18, 'lax.scan runs eagerly (nothing jits `evaluate()`) with a body made anew on every iteration '
                    'of the loop at line 5: outside jax.jit the loop is traced and compiled per body function '
                    'object, so every call traces and compiles it again; jit `evaluate()`, or define the body '
                    'once at module level'),
        )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        resolve = ctx.facts.aliases.resolve
        for call, _ in index.calls:
            name = resolve(call.func)
            spec = next((s for s in _LOOPS if name in s[0]), None)
            if spec is None or not jax_cache.recompiles(spec[1]):
                continue
            func = index.function_of(call)
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or in_test(index, ctx.path, call) \
                    or _maybe_traced(ctx, call):
                continue
            bodies = [b for pos, kw in spec[3] if (b := argument(call, pos, kw)) is not None]
            made = [m for b in bodies if (m := _made_in(index, b, func)) is not None]
            if not made:
                continue
            where = _repeats(ctx, call, func, made)
            if where is None:
                continue
            ctx.report(self, call, f"{spec[2]} runs eagerly (nothing jits `{func.name}()`) with a body made anew "
                                   f"on every {where}: outside jax.jit the loop is traced and compiled per body "
                                   "function object, so every call traces and compiles it again; jit "
                                   f"`{func.name}()`, or define the body once at module level")


def _maybe_traced(ctx: ModuleContext, node: ast.AST) -> bool:
    """A function around ``node`` is (or may be) compiled: jitted, or reached from jitted code."""
    func = ctx.index.function_of(node)
    while func is not None:
        info = ctx.facts.by_node.get(id(func))
        if info is not None and info.certainty is not Certainty.NONE:
            return True
        func = ctx.index.function_of(func)
    return False


def _made_in(index, body: ast.expr, func: ast.AST) -> ast.AST | None:  # noqa: ANN001 - ModuleIndex
    """Where ``body`` is made in ``func`` on every run: the lambda itself, or the ``def``/lambda
    assignment that every binding of the name in ``func`` is (a name bound nowhere in ``func`` is a
    module-level or closed-over function: one object)."""
    if isinstance(body, ast.Lambda):
        return body
    if not isinstance(body, ast.Name):
        return None
    defs = [n for n in index.scope_nodes(func)
            if (isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == body.id)
            or (isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == body.id for t in n.targets))
            or (isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With)) and body.id in {
                x.id for x in ast.walk(getattr(n, "target", n)) if isinstance(x, ast.Name)})]
    params = {a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)}  # type: ignore[attr-defined]
    if not defs or body.id in params:
        return None
    if all(isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
           or (isinstance(d, ast.Assign) and isinstance(d.value, ast.Lambda)) for d in defs):
        return defs[0]
    return None


def _repeats(ctx: ModuleContext, call: ast.Call, func: ast.FunctionDef | ast.AsyncFunctionDef,
             made: list[ast.AST]) -> str | None:
    """How the call repeats with a new body: a loop around the call that also holds the body's
    creation, or a loop of untraced, non-test code of this file that calls ``func``, directly or
    through one function it calls (``run_step(i)`` calling ``solve``: :func:`xlacheck.analysis.per_step.repeats`)."""
    index = ctx.index
    for loop in index.loops_around(call):
        if index.function_of(loop) is func and any(m is loop or _inside(m, loop) for m in made):
            return f"iteration of the loop at line {loop.lineno}"  # type: ignore[attr-defined]
    how = repeats(index, func, skip=lambda site: in_test(index, ctx.path, site) or _maybe_traced(ctx, site))
    if how is None:
        return None
    return f"call of `{func.name}()`, {how}"


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    return any(n is node for n in ast.walk(outer))
