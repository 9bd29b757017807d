"""XLA124: max/min/sorted/any/all of a value proven to be a JAX tracer."""

from __future__ import annotations

import ast

from xlacheck.analysis.tracers import proven_tracer
from xlacheck.rules.base import Example, Rule, RuleContext

_BUILTINS = {
    "max": "jnp.maximum (two values) or jnp.max (one array)",
    "min": "jnp.minimum (two values) or jnp.min (one array)",
    "sorted": "jnp.sort",
    "any": "jnp.any",
    "all": "jnp.all",
}


def builtin_on_tracer(node: ast.Call, ctx: RuleContext) -> str | None:
    """The message for ``node`` when it is ``max``/``min``/``sorted``/``any``/``all`` (not shadowed) given a
    value proven to be a tracer under jax.jit (:func:`analysis.tracers.proven_tracer`), else None. A
    parameter named bare is left out (a container passed whole: ``sorted(params)`` walks a dict's keys);
    XLA103 (behind --preview, weaker evidence) leaves these nodes to XLA124."""
    f = node.func
    if not ctx.function.jax or not isinstance(f, ast.Name) or f.id not in _BUILTINS or f.id in ctx.values.env:
        return None
    if ctx.resolve(f) not in (None, f.id, f"builtins.{f.id}") or f.id in ctx.module_funcs \
            or f.id in ctx.module_values or f.id in ctx.module_classes:
        return None  # the module's own max/min (`from jax.numpy import max`, `def sorted(...)`): no builtin
    if any(k.arg == "key" for k in node.keywords):
        return None  # Python compares key(item), often a static int (`key=lambda a: a.shape[0]`, `key=len`)
    fn = ctx.function.node
    params = set() if isinstance(fn, ast.Lambda) else {
        a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    for arg in node.args:
        if isinstance(arg, ast.Starred) or isinstance(arg, ast.Name) and arg.id in params:
            continue
        evidence = proven_tracer(arg, ctx.flags, ctx.function, ctx.facts)
        if evidence is not None and len(node.args) == 1 and not evidence.startswith("computed by a JAX op"):
            # the builtin iterates its one argument: an item of a traced pytree may be a subtree, a dict
            # whose keys it walks (dm-haiku's `bundle = structure[module]`); an array the ops computed is none
            continue
        if evidence is not None:
            what = f" ({evidence})" if evidence else ""
            return (f"`{f.id}()` of a traced array{what} under jax.jit ({ctx.function.why}): the builtin compares "
                    f"or tests it as a Python bool, which tracing refuses (TracerBoolConversionError); use "
                    f"{_BUILTINS[f.id]}")
    return None


class PythonBuiltinOnTracer(Rule):
    """
    ## What it does
    Flags the Python builtins `max`, `min`, `sorted`, `any` and `all` given a value proven to be a
    JAX tracer under `jax.jit` (and the JAX transformations that trace): the result of a `jnp`/`lax`/
    `jax.random` op, an item, a method result or arithmetic of a traced argument, a helper's return
    computed from tracers.

    ## Why is this bad?
    These builtins compare their arguments (`max(a, b)` evaluates `b > a`) or test their truth
    (`any`, `all`) with Python's `bool()`. A tracer has no concrete value, so tracing raises
    `TracerBoolConversionError` (measured on jax 0.10.2 in every traced context of
    `benchmarks/jax_context_probes.py`: `max(jnp.sum(v), 1)` fails in 51 of 51). `XLA103` covers
    the same builtins for TensorFlow and for weaker evidence, behind `--preview`.

    ## Example
    ```python
    @jax.jit
    def step(x):
        scale = max(jnp.abs(x).max(), 1.0)
        return x / scale
    ```

    ## Use instead
    ```python
    @jax.jit
    def step(x):
        scale = jnp.maximum(jnp.abs(x).max(), 1.0)
        return x / scale
    ```

    ## Fix safety
    Unsafe fixes (`--unsafe-fixes`, `rewrites/jax_builtins.py`): `min(a, b)`/`max(a, b)` (more
    arguments, or one list or tuple of them, folded left) become `jnp.where(b < a, b, a)`/`jnp.where(b
    > a, b, a)`, CPython's own comparison, so ties and NaN pick the argument the builtin picks; one
    array, `jnp.max`/`jnp.min`; `sorted(x)`, `jnp.sort(x)` (`[::-1]` for `reverse=True`); `any`/`all`
    of an array, `jnp.any`/`jnp.all`, of a list or generator of items, the same over `jnp.asarray`
    of them. Unsafe: an array where the builtin returned an argument, a list or a Python bool; the
    argument `jnp.where` does not pick gets a zero gradient (NaN through an infinite derivative);
    `jnp.max`/`jnp.sort` treat NaN by their own rule; every item of `any`/`all` is evaluated.
    """

    code = "XLA124"
    name = "python-builtin-on-tracer"
    fails_in_any_graph = True  # any JAX trace refuses a tracer's bool
    fix = ("rewrite_jax_builtin",)
    node_types = (ast.Call,)

    VALID = (
        # static shapes are Python ints
        Example("import jax\n@jax.jit\ndef f(x):\n    n = max(x.shape[0], 1)\n    return x / n\n"),
        # a parameter named bare may be a container: sorted() of a dict walks its keys
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(params):\n"
                "    return jnp.stack([params[k] for k in sorted(params)])\n"),
        # not traced: the function runs eagerly on concrete arrays
        Example("import jax.numpy as jnp\ndef report(x):\n    return max(float(jnp.sum(x)), 1.0)\n"),
        # a static argument is a Python value
        Example("import functools\nimport jax\n@functools.partial(jax.jit, static_argnames=('n',))\n"
                "def f(x, n):\n    return x * max(n - 1, 1)\n"),
        # a key: Python compares key(item), here a static length
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n"
                "    return min(jnp.split(x, 2), key=len)\n"),
        # the module's own max: jnp.max, not the builtin
        Example("import jax\nfrom jax.numpy import max\n@jax.jit\ndef f(x):\n    return max(x * 2)\n"),
        # psum of a constant is the axis size, a Python int
        Example("import jax\ndef f(x):\n    n = jax.lax.psum(1, 'i')\n    return x / max(n, 1)\n"
                "g = jax.pmap(f, axis_name='i')\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(x):\n"
                "    scale = max(jnp.abs(x).max(), 1.0)\n    return x / scale\n",
                expected=(
                    (5, 13, '`max()` of a traced array (computed by a JAX op) under jax.jit (decorated with '
                            'jax.jit): the builtin compares or tests it as a Python bool, which tracing refuses '
                            '(TracerBoolConversionError); use jnp.maximum (two values) or jnp.max (one array)'),
                )),
        Example("import jax\nimport jax.numpy as jnp\ndef body(carry, x):\n    err = jnp.abs(x - carry)\n"
                "    return carry + x, min(err, 0.5)\ndef run(xs):\n    return jax.lax.scan(body, 0.0, xs)\n",
                expected=(
                    (5, 23, '`min()` of a traced array (computed by a JAX op) under jax.jit (traced by '
                            'jax.lax.scan): the builtin compares or tests it as a Python bool, which '
                            'tracing refuses (TracerBoolConversionError); use jnp.minimum (two values) or jnp.min '
                            '(one array)'),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef clip(x):\n"
                "    return x / max(jnp.linalg.norm(x), 1e-6)\n",
                fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef clip(x):\n"
                      "    return x / jax.numpy.where(1e-6 > jnp.linalg.norm(x), 1e-6, jnp.linalg.norm(x))\n",
                expected=(
                    (5, 16, '`max()` of a traced array (computed by a JAX op) under jax.jit (decorated with '
                            'jax.jit): the builtin compares or tests it as a Python bool, which tracing refuses '
                            '(TracerBoolConversionError); use jnp.maximum (two values) or jnp.max (one array)'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        message = builtin_on_tracer(node, ctx)
        if message is not None:
            ctx.report(self, node, message)
