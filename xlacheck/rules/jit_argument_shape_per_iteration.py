"""XLA416: a ``jax.jit`` argument sliced by a Python int that changes every iteration: a new shape per call."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import in_test, jax_jitted, loop_varying_names, runs_traced
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Calls that keep the shape of their first argument (a slice wrapped before the jitted call).
_SHAPE_KEEPING = frozenset({"jnp.asarray", "jnp.array", "np.asarray", "np.array", "jax.device_put"})


class JitArgumentShapePerIteration(ModuleRule):
    """
    ## What it does
    Flags a call, inside a loop, of a function this file jits (`@jax.jit`, `jax.jit(f)`) whose
    non-static argument is a slice with exactly one bound that changes every iteration
    (`tokens[:, :t]` in a decoding loop, `x[start:]` with `start += n`), passed directly, through a
    name the loop assigns, or through `jnp.asarray`. A slice whose two bounds both move
    (`x[i * bs:(i + 1) * bs]`, a fixed-size window) is not flagged. Calls inside traced code and
    in tests are left out.

    ## Why is this bad?
    `jax.jit` compiles once per distinct input shape. A slice whose length follows the loop
    counter has a new shape every iteration, so every iteration traces and compiles the function
    again (seconds each) and the compilation cache grows without bound; the run is dominated by
    compilation.

    ## Example
    ```python
    for t in range(1, max_len):
        logits = decode_step(params, tokens[:, :t])
        tokens = tokens.at[:, t].set(jnp.argmax(logits[:, -1], -1))
    ```

    ## Use instead
    ```python
    for t in range(1, max_len):
        logits = decode_step(params, tokens, t)  # fixed shape; t traced, used with a mask or dynamic_slice
        tokens = tokens.at[:, t].set(jnp.argmax(logits, -1))
    ```

    ## Fix safety
    No automatic fix: the function must take a fixed-size buffer and a position or mask.
    """

    code = "XLA416"
    fix = None
    name = "jit-argument-shape-per-iteration"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import jax\n@jax.jit\ndef step(params, x):\n    return params * x.sum()\n"
                "def run(params, data, bs):\n    for i in range(len(data) // bs):\n"
                "        params = step(params, data[i * bs:(i + 1) * bs])\n    return params\n"),
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
                "def head(x, n):\n    return x[:n].sum()\ndef run(x, tokens):\n    for t in range(4):\n"
                "        head(tokens[:, t], 2)\n"),
        Example("import jax\n@jax.jit\ndef step(x):\n    return x.sum()\n"
                "def test_prefixes(x):\n    for t in range(1, 4):\n        step(x[:t])\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef decode_step(params, prefix):\n"
                "    return prefix * params\ndef generate(params, tokens, max_len):\n"
                "    for t in range(1, max_len):\n        logits = decode_step(params, tokens[:, :t])\n"
                "        tokens = tokens.at[:, t].set(jnp.argmax(logits[:, -1], -1))\n    return tokens\n",
                expected=(
                    (8, 38, 'argument `prefix` of jitted `decode_step` is sliced by `t`, which changes on every '
                            'iteration: each call passes a new shape, so jax.jit traces and compiles again every '
                            'iteration; pass a fixed-size (padded) array with the position or a mask, or bucket the '
                            'lengths'),
                )),
        Example("import jax\n@jax.jit\ndef score(x):\n    return (x ** 2).mean()\n"
                "def stream(x, chunk):\n    start, out = 0, []\n    while start < len(x):\n"
                "        rest = x[start:]\n        out.append(score(rest))\n        start += chunk\n    return out\n",
                expected=(
                    (9, 26, 'argument `x` of jitted `score` is sliced by `start`, which changes on every iteration: '
                            'each call passes a new shape, so jax.jit traces and compiles again every iteration; pass '
                            'a fixed-size (padded) array with the position or a mask, or bucket the lengths'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        jitted = dict(jax_jitted(ctx.facts, index))
        if not jitted:
            return
        for call, _ in index.calls:
            if not isinstance(call.func, ast.Name) or call.func.id not in jitted:
                continue
            loops = index.loops_around(call)
            if not loops or in_test(index, ctx.path, call) or runs_traced(ctx.facts, index, call):
                continue
            info = jitted[call.func.id]
            params = [a.arg for a in info.node.args.posonlyargs + info.node.args.args]
            bound = [(params[i] if i < len(params) else f"#{i}", a) for i, a in enumerate(call.args)
                     if not isinstance(a, ast.Starred)]
            bound += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
            varying = loop_varying_names(index, call)
            if not varying:
                continue
            for param, arg in bound:
                if param in info.static_params:
                    continue
                name = self._varying_slice(index, arg, varying, loops)
                if name is not None:
                    ctx.report(self, arg, f"argument `{param}` of jitted `{call.func.id}` is sliced by `{name}`, which "
                                          "changes on every iteration: each call passes a new shape, so jax.jit traces "
                                          "and compiles again every iteration; pass a fixed-size (padded) array with "
                                          "the position or a mask, or bucket the lengths")
                    break

    def _varying_slice(self, index: ModuleIndex, arg: ast.expr, varying: set[str], loops: list[ast.AST],
                       depth: int = 0) -> str | None:
        """The loop-varying name that sets the length of the slice ``arg`` is (or holds), else None."""
        if isinstance(arg, ast.Call) and arg.args and index.aliases.resolve(arg.func) in _SHAPE_KEEPING:
            return self._varying_slice(index, arg.args[0], varying, loops, depth)
        if isinstance(arg, ast.Name) and depth == 0:
            values = [n.value for loop in loops[:1] for n in ast.walk(loop) if isinstance(n, ast.Assign)
                      and any(isinstance(t, ast.Name) and t.id == arg.id for t in n.targets)]
            return self._varying_slice(index, values[0], varying, loops, depth + 1) if len(values) == 1 else None
        if not isinstance(arg, ast.Subscript):
            return None
        parts = arg.slice.elts if isinstance(arg.slice, ast.Tuple) else [arg.slice]
        for part in parts:
            if not isinstance(part, ast.Slice) or part.step is not None:
                continue
            moving = [self._moving(b, varying) for b in (part.lower, part.upper)]
            if moving[0] is not None and moving[1] is not None:
                continue  # both bounds move: a window, often of fixed size
            name = moving[0] or moving[1]
            if name is not None:
                return name
        return None

    @staticmethod
    def _moving(bound: ast.expr | None, varying: set[str]) -> str | None:
        if bound is None:
            return None
        return next((n.id for n in ast.walk(bound) if isinstance(n, ast.Name) and n.id in varying), None)
