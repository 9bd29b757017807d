"""XLA413: a static argument of a jitted entry point sizes an array, and no caller in this file fixes it."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis.contexts import FunctionInfo
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import in_test, jax_jitted
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Calls whose listed arguments (positions, keywords) are sizes: a shape, a length, a count.
_SIZE_ARGS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    **{f"jnp.{n}": ((0,), ("shape",)) for n in ("zeros", "ones", "empty")},
    "jnp.full": ((0,), ("shape",)),
    "jnp.arange": ((0, 1), ("start", "stop")),
    "jnp.linspace": ((2,), ("num",)),
    "jnp.eye": ((0, 1), ("N", "M")),
    "jnp.identity": ((0,), ("n",)),
    "jnp.reshape": ((1,), ("shape", "newshape")),
    "jnp.broadcast_to": ((1,), ("shape",)),
    "jnp.tile": ((1,), ("reps",)),
    "jnp.tri": ((0, 1), ("N", "M")),
    "jax.nn.one_hot": ((1,), ("num_classes",)),
    "jax.lax.top_k": ((1,), ("k",)),
    "jax.lax.iota": ((1,), ("size",)),
    "jax.lax.dynamic_slice": ((2,), ("slice_sizes",)),
    "jax.lax.scan": ((), ("length",)),
    "jax.lax.broadcast": ((1,), ("sizes",)),
    "jax.random.normal": ((1,), ("shape",)),
    "jax.random.uniform": ((1,), ("shape",)),
    "jax.random.randint": ((1,), ("shape",)),
    "jax.random.bernoulli": ((2,), ("shape",)),
    "jax.random.categorical": ((), ("shape",)),
    "jax.random.truncated_normal": ((3,), ("shape",)),
    "jax.random.permutation": ((1,), ()),
    "jax.random.choice": ((2,), ("shape",)),
    "jax.random.split": ((1,), ("num",)),
    "range": ((0, 1), ()),
}
_SIZE_METHODS = frozenset({"reshape", "repeat", "tile"})


class StaticSizeOfUnseenCallers(ModuleRule):
    """
    ## What it does
    Preview. Flags a function this file jits with `static_argnums`/`static_argnames` (decorated,
    `f = jax.jit(g, static_argnums=...)`, or `@partial(jax.jit, static_argnames=...)`) when a static
    parameter without a default sizes something inside it (the shape of `jnp.zeros`/`ones`/`full`,
    of a `jax.random.*` draw, an `arange`/`linspace`/`eye` bound, a `reshape`/`broadcast_to`/`tile`
    size, `lax.scan(length=...)`, `lax.top_k`'s `k`, a slice bound `x[:n]`, or a Python
    `range(n)` that the trace unrolls), and nothing in this file calls or names the jitted function:
    every value comes from callers the linter cannot see.

    What counts as evidence: a static parameter that sets a size is an integer that the callers
    choose, and JAX compiles once per distinct value (measured, `seq.static_size_new_each_call` in
    `xlacheck/data/jax_cache_key.json`: three calls with 3, 4, 5 compile three times; the same value
    three times compiles once, `seq.static_size_same_each_call`). Where this file calls the function,
    XLA411 reads the call sites instead (a loop variable, a random draw, a value read out of an
    array), and a caller passing a constant is not flagged. A parameter with a default, a flag used
    only in `if`, and a callable or configuration object that sizes nothing are not flagged. A size
    that is fixed per run (a model width, a number of chains) is by far the most common use on real
    code, so the rule stays behind `--preview`: on the 26 real-code corpora its definition-only
    evidence is mostly a per-run constant, not a per-call value.

    ## Why is this bad?
    `jax.jit` keys its cache on the values of static arguments. A size that follows the data (a
    per-batch sample count, a sequence length, a number of valid items) compiles the function again
    for every value seen for the first time: seconds of compilation per call instead of microseconds.

    ## Example
    ```python
    @partial(jax.jit, static_argnums=1)
    def sample(key, n):
        idx = jax.random.randint(key, (n,), 0, 10)
        return jnp.mean(idx.astype(jnp.float32))
    ```

    ## Use instead
    ```python
    @partial(jax.jit, static_argnums=2)
    def sample(key, n, max_n=64):  # n traced: one compile for every n <= max_n
        idx = jax.random.randint(key, (max_n,), 0, 10).astype(jnp.float32)
        return jnp.sum(jnp.where(jnp.arange(max_n) < n, idx, 0.0)) / n
    ```
    or bucket the values callers pass (powers of two), so only a few sizes ever compile.

    ## Fix safety
    No automatic fix: a static size becomes a traced one only with a static bound and a mask.
    """

    code = "XLA413"
    fix = None
    name = "static-size-of-unseen-callers"
    severity = Severity.RECOMPILE
    preview = True

    VALID = (
        # the file calls it with a constant: one value, one compile
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
                "def sample(key, n):\n    return jax.random.normal(key, (n,)).mean()\n"
                "def run(key):\n    return sample(key, 16)\n"),
        # a static flag that sizes nothing
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames=('train',))\n"
                "def forward(x, train):\n    return x * 0.5 if train else x\n"),
        # a default: callers that pass nothing get one value
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnums=1)\ndef pad(x, n=128):\n"
                "    return jnp.zeros((n,)).at[: x.shape[0]].set(x)\n"),
        # not static: a traced bound of lax.fori_loop compiles once (loop.fori_loop_traced_upper)
        Example("import jax\n@jax.jit\ndef count(x, n):\n"
                "    return jax.lax.fori_loop(0, n, lambda i, a: a + 1.0, x)\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnums=1)\ndef sample(key, n):\n"
                "    idx = jax.random.randint(key, (n,), 0, 10)\n    return jnp.mean(idx.astype(jnp.float32))\n",
                expected=(
                    (6, 36, 'static argument `n` of jitted `sample` sets a size (jax.random.randint) and no caller in '
                            'this file fixes its value: jax.jit compiles once per distinct static value (3 calls '
                            'with 3 values compiled 3 times), so callers that pass per-batch or data-derived sizes '
                            'compile every new one; pass it traced with a static bound and a mask, or bucket the '
                            'sizes'),
                )),
        Example("import jax\nimport jax.numpy as jnp\ndef grid(half, x):\n    return jnp.arange(-half, half) * x\n"
                "grid_jit = jax.jit(grid, static_argnums=0)\n",
                expected=(
                    (4, 24, 'static argument `half` of jitted `grid_jit` sets a size (jnp.arange) and no caller in '
                            'this file fixes its value: jax.jit compiles once per distinct static value (3 calls '
                            'with 3 values compiled 3 times), so callers that pass per-batch or data-derived sizes '
                            'compile every new one; pass it traced with a static bound and a mask, or bucket the '
                            'sizes'),
                )),
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames=('steps',))\n"
                "def roll(x, steps):\n    for _ in range(steps):\n        x = x * 0.9\n    return x\n",
                expected=(
                    (5, 20, 'static argument `steps` of jitted `roll` sets a size (range, unrolled by the trace) '
                            'and no caller in this file fixes its value: jax.jit compiles once per distinct static '
                            'value (3 calls with 3 values compiled 3 times), so callers that pass per-batch or '
                            'data-derived sizes compile every new one; pass it traced with a static bound and a '
                            'mask, or bucket the sizes'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not jax_cache.recompiles("seq.static_size_new_each_call"):
            return
        jitted = [(name, info) for name, info in jax_jitted(ctx.facts, ctx.index) if info.static_params]
        if not jitted:
            return
        loaded = {n.id for n in ast.walk(ctx.tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        loaded |= {n.attr for n in ast.walk(ctx.tree) if isinstance(n, ast.Attribute)}
        for name, info in jitted:
            node = info.node
            if isinstance(node, ast.Lambda) or name in loaded or in_test(ctx.index, ctx.path, node):
                continue
            hit = self._sized(ctx, info, _no_default_static(info))
            if hit is not None:
                param, where, what = hit
                ctx.report(self, where, f"static argument `{param}` of jitted `{name}` sets a size ({what}) and no "
                                        "caller in this file fixes its value: jax.jit compiles once per distinct "
                                        f"static value ({_measured()}), so callers that pass per-batch or "
                                        "data-derived sizes compile every new one; pass it traced with a static "
                                        "bound and a mask, or bucket the sizes")

    @staticmethod
    def _sized(ctx: ModuleContext, info: FunctionInfo, params: set[str]) -> tuple[str, ast.Name, str] | None:
        """(parameter, its use, the sizing call) for the first static parameter used as a size."""
        if not params:
            return None
        resolve = ctx.facts.aliases.resolve
        for n in ast.walk(info.node):
            sizes: list[ast.expr] = []
            what = ""
            if isinstance(n, ast.Call):
                resolved = resolve(n.func)
                if resolved is None and isinstance(n.func, ast.Name) and n.func.id == "range":
                    resolved = "range"
                spec = _SIZE_ARGS.get(resolved or "")
                if spec is not None:
                    positions, keywords = spec
                    sizes = [a for i, a in enumerate(n.args) if i in positions]
                    sizes += [k.value for k in n.keywords if k.arg in keywords]
                    what = "range, unrolled by the trace" if resolved == "range" else str(resolved)
                elif isinstance(n.func, ast.Attribute) and n.func.attr in _SIZE_METHODS and resolved is None:
                    sizes, what = list(n.args), f".{n.func.attr}()"
            elif isinstance(n, ast.Slice):
                sizes, what = [b for b in (n.lower, n.upper) if b is not None], "a slice bound"
            for s in sizes:
                use = next((m for m in ast.walk(s) if isinstance(m, ast.Name) and m.id in params), None)
                if use is not None:
                    return use.id, use, what
        return None


def _no_default_static(info: FunctionInfo) -> set[str]:
    """The static parameters of ``info`` that have no default value."""
    node = info.node
    assert not isinstance(node, ast.Lambda)
    args = node.args
    positional = args.posonlyargs + args.args
    defaulted = {a.arg for a in positional[len(positional) - len(args.defaults):]} if args.defaults else set()
    defaulted |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None}
    named = {a.arg for a in positional + args.kwonlyargs}
    return {p for p in info.static_params if p in named and p not in defaulted}


def _measured() -> str:
    row = jax_cache.probe("seq.static_size_new_each_call")
    return f"{row['calls']} calls with {row['calls']} values compiled {row['total_compiles']} times"
