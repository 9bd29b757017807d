"""XLA418: a jitted function reads a module global that a loop rebinds between its calls."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.scopes import bound_names
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import in_test, jax_jitted
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule


class JitReadsReboundGlobal(ModuleRule):
    """
    ## What it does
    Flags a module-level name that a function of this file jits (`@jax.jit`, `f = jax.jit(g)`)
    reads, when another function of this file declares it `global`, rebinds it inside a loop and
    calls the jitted function in that same loop (a sweep over a learning rate, a temperature or a
    step counter kept in a global). Test code is left out.

    ## Why is this bad?
    `jax.jit` reads globals once, while it traces, and bakes their values into the compiled
    computation as constants. Its cache is keyed on the arguments' shapes and dtypes, not on
    globals, so the calls after the first hit the cache and keep using the value of the first
    trace: every iteration after the first computes with a stale value, silently (measured on jax
    0.10.2: three calls with `SCALE` set to 1, 2 and 3 all return `x * 1`). JAX's documentation
    lists this among its sharp bits (pure functions).

    ## Example
    ```python
    @jax.jit
    def scaled(x):
        return x * SCALE

    def sweep(x):
        global SCALE
        for SCALE in (1.0, 2.0, 3.0):
            print(scaled(x))
    ```

    ## Use instead
    ```python
    @jax.jit
    def scaled(x, scale):
        return x * scale  # traced: one compile, the current value every call

    def sweep(x):
        for scale in (1.0, 2.0, 3.0):
            print(scaled(x, scale))
    ```

    ## Fix safety
    No automatic fix: the value must become an argument (traced, or static where it sets a shape).
    """

    code = "XLA418"
    fix = None
    name = "jit-reads-rebound-global"
    severity = Severity.WRONG_RESULT

    VALID = (
        Example("import jax\nSCALE = 2.0\n@jax.jit\ndef scaled(x):\n    return x * SCALE\n"
                "def main(x):\n    global SCALE\n    SCALE = 3.0\n    return scaled(x)\n"),
        Example("import jax\n@jax.jit\ndef scaled(x, scale):\n    return x * scale\n"
                "def sweep(x):\n    return [scaled(x, s) for s in (1.0, 2.0)]\n"),
    )
    INVALID = (
        Example("import jax\nSCALE = 1.0\n@jax.jit\ndef scaled(x):\n    return x * SCALE\n"
                "def sweep(x):\n    global SCALE\n    out = []\n    for s in (1.0, 2.0, 3.0):\n"
                "        SCALE = s\n        out.append(scaled(x))\n    return out\n",
                expected=(
                    (5, 16, 'jitted `scaled` reads the global `SCALE`, which `sweep()` rebinds in the loop at line 9 '
                            'before calling it: jax.jit bakes the value of the first trace into the compiled code and '
                            'its cache ignores globals, so later calls silently compute with the first value; pass '
                            'it as an argument'),
                )),
        Example("import jax\nSCALE = 1.0\nSHIFT = 0.0\n@jax.jit\ndef scaled(x):\n    return x * SCALE\n"
                "@jax.jit\ndef shifted(x):\n    return x + SHIFT\n"
                "def sweep(x):\n    global SCALE, SHIFT\n    out = []\n    for s in (1.0, 2.0):\n"
                "        SCALE = s\n        SHIFT = s\n        out.append(shifted(scaled(x)))\n    return out\n",
                expected=(
                    (6, 16, 'jitted `scaled` reads the global `SCALE`, which `sweep()` rebinds in the loop at line 13 '
                            'before calling it: jax.jit bakes the value of the first trace into the compiled code and '
                            'its cache ignores globals, so later calls silently compute with the first value; pass '
                            'it as an argument'),
                    (9, 16, 'jitted `shifted` reads the global `SHIFT`, which `sweep()` rebinds in the loop at line 13 '
                            'before calling it: jax.jit bakes the value of the first trace into the compiled code and '
                            'its cache ignores globals, so later calls silently compute with the first value; pass '
                            'it as an argument'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        jitted = dict(jax_jitted(ctx.facts, index))
        if not jitted:
            return
        rebinders = self._rebound_in_loops(ctx, index, set(jitted))
        if not rebinders:
            return
        for name, info in jitted.items():
            local = bound_names(info.node, nested=True)  # parameters and names it binds shadow the global
            for node in ast.walk(info.node):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in local:
                    hit = rebinders.get((node.id, name))
                    if hit is not None:
                        func, line = hit
                        ctx.report(self, node, f"jitted `{name}` reads the global `{node.id}`, which `{func}()` "
                                               f"rebinds in the loop at line {line} before calling it: jax.jit bakes "
                                               "the value of the first trace into the compiled code and its cache "
                                               "ignores globals, so later calls silently compute with the first "
                                               "value; pass it as an argument")
                        break  # one finding per jitted function; go on with the next one

    @staticmethod
    def _rebound_in_loops(ctx: ModuleContext, index: ModuleIndex,
                          jitted: set[str]) -> dict[tuple[str, str], tuple[str, int]]:
        """{(global, jitted name): (function, loop line)} for each loop, in a function declaring the
        name ``global``, that rebinds it and calls the jitted function."""
        out: dict[tuple[str, str], tuple[str, int]] = {}
        for func in ast.walk(ctx.tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or in_test(index, ctx.path, func):
                continue
            declared = {n for g in index.scope_nodes(func) if isinstance(g, ast.Global) for n in g.names}
            if not declared:
                continue
            for loop in index.scope_nodes(func):
                if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
                    continue
                rebound = {t.id for t in ast.walk(loop.target)
                           if isinstance(t, ast.Name)} if isinstance(loop, (ast.For, ast.AsyncFor)) else set()
                for n in ast.walk(loop):
                    if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                        targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                        rebound |= {t.id for t in targets if isinstance(t, ast.Name)}
                rebound &= declared
                called = {c.func.id for c in ast.walk(loop) if isinstance(c, ast.Call)
                          and isinstance(c.func, ast.Name) and c.func.id in jitted}
                for g in rebound:
                    for j in called:
                        out.setdefault((g, j), (func.name, loop.lineno))
        return out
