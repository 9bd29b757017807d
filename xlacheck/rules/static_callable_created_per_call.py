"""XLA419: a ``jax.jit`` static argument that is a callable made anew on every call (a lambda, a
``functools.partial``, a local ``def``, a bound method of a new object)."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    bound_static_arguments,
    in_test,
    jax_jitted_callee,
    made_anew_before,
    runs_traced,
)
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_PARTIAL_NAMES = frozenset({"functools.partial", "partial"})
_FORMS = {
    "static.new_lambda": "a lambda",
    "static.new_partial": "a `functools.partial`",
    "static.new_local_def": "a function defined",
    "static.bound_method_new_instance": "a method bound to a new object",
}


class StaticCallableCreatedPerCall(ModuleRule):
    """
    ## What it does
    Flags a static argument (`static_argnums`/`static_argnames`) of a function this file jits
    that is a callable created where the call runs, every time it runs: a `lambda`, a
    `functools.partial(...)`, a function `def`ined in the calling function, or a method of a
    new object (`Loss(0.1).apply`), passed directly or through a name bound in the calling
    function; where the call runs repeatedly: the callable is created inside the loop around the
    call (not in an `if` branch the call is outside of: `if i == 0: fn = lambda ...`), or the
    calling function runs per batch (this file calls it in a loop, or it is a collator, generator
    or `__call__`). A callable made once before the loop that calls is made anew on every call of
    the calling function: flagged where this file calls that function in a loop, directly or
    through the functions that call it (`[fit(p, w, 5) for w in ws]`), or where it runs the call a
    fixed number of times (`for _ in range(3)`: a computation its callers repeat); a function the
    file does not call that loops over a step count it is given may be a one-off driver, and is
    not flagged. Which of these forms miss the cache is read from the
    measured table `xlacheck/data/jax_cache_key.json` (`static.new_lambda`,
    `static.new_partial`, `static.new_local_def`, `static.bound_method_new_instance`). The same
    function object passed each time (a module-level `def`, a callable built once before the
    loop, a bound method of one object) is not flagged: it hits the cache.

    ## Why is this bad?
    `jax.jit` keys its cache on the static arguments' hash and equality. Functions, lambdas,
    `functools.partial` objects and bound methods of distinct objects compare by identity: two
    `lambda p: loss(p, batch)` written alike are different keys, so every call traces and
    compiles the jitted function again (measured on jax 0.10.2: one more trace and one more XLA
    compilation per call; jax#4712, jax#2813).

    ## Example
    ```python
    @partial(jax.jit, static_argnums=0)
    def minimize(loss_fn, params):
        return params - 0.1 * jax.grad(loss_fn)(params)

    for batch in batches:
        params = minimize(lambda p: loss(p, batch), params)
    ```

    ## Use instead
    ```python
    @partial(jax.jit, static_argnums=0)
    def minimize(loss_fn, params, batch):
        return params - 0.1 * jax.grad(loss_fn)(params, batch)

    for batch in batches:
        params = minimize(loss, params, batch)  # one function object: one compile
    ```

    ## Fix safety
    No automatic fix: the values the callable closes over must become traced arguments.
    """

    code = "XLA419"
    fix = None
    name = "static-callable-created-per-call"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=0)\n"
                "def minimize(loss_fn, p, b):\n    return p - jax.grad(loss_fn)(p, b)\n"
                "def loss(p, b):\n    return (p * b).sum()\n"
                "def train(p, batches):\n    for b in batches:\n        p = minimize(loss, p, b)\n    return p\n"),
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=0)\n"
                "def minimize(loss_fn, p):\n    return p - jax.grad(loss_fn)(p)\n"
                "def train(p, steps, w):\n    fn = lambda q: (q * w).sum()\n"
                "    for _ in range(steps):\n        p = minimize(fn, p)\n    return p\n"),
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=0)\n"
                "def minimize(loss_fn, p):\n    return p - jax.grad(loss_fn)(p)\n"
                "def main(p):\n    return minimize(lambda q: (q * q).sum(), p)\n"),
        # made on the first iteration only: the later calls pass the same object
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=0)\n"
                "def minimize(loss_fn, p):\n    return p - jax.grad(loss_fn)(p)\n"
                "def train(p, batches):\n    for i, b in enumerate(batches):\n        if i == 0:\n"
                "            fn = lambda q: (q * q).sum()\n        p = minimize(fn, p)\n    return p\n"),
    )
    INVALID = (
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=0)\n"
                "def minimize(loss_fn, p):\n    return p - jax.grad(loss_fn)(p)\n"
                "def train(p, batches):\n    for b in batches:\n"
                "        p = minimize(lambda q: (q * b).sum(), p)\n    return p\n",
                expected=(
                    (8, 22, 'static argument `loss_fn` of jitted `minimize` is a lambda made anew on every '
                            'iteration: jax.jit keys its cache on static arguments and callables compare by '
                            'identity, so every call traces and compiles again; pass one function object and '
                            'the values it closes over as traced arguments'),
                )),
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames=('act',))\n"
                "def layer(x, act):\n    return act(x)\n"
                "def scaled(x, k):\n    return x * k\n"
                "def forward(x, k):\n    return layer(x, act=partial(scaled, k=k))\n"
                "def run(xs):\n    return [forward(x, 2.0) for x in xs]\n",
                expected=(
                    (9, 25, 'static argument `act` of jitted `layer` is a `functools.partial` made anew on every '
                            'call of `forward()`, which runs per batch: jax.jit keys its cache on static arguments '
                            'and callables compare by identity, so every call traces and compiles again; pass one '
                            'function object and the values it closes over as traced arguments'),
                )),
        # bound once before the loop, once per call of fit(), which this file calls in a loop
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=0)\n"
                "def minimize(loss_fn, p):\n    return p - jax.grad(loss_fn)(p)\n"
                "def fit(p, w, steps):\n    fn = lambda q: (q * w).sum()\n    for _ in range(steps):\n"
                "        p = minimize(fn, p)\n    return p\n"
                "def sweep(p, ws):\n    return [fit(p, w, 5) for w in ws]\n",
                expected=(
                    (9, 22, 'static argument `loss_fn` of jitted `minimize` is a lambda made anew on every call of '
                            '`fit()`, which this file calls in a loop at line 12: jax.jit keys its cache on static '
                            'arguments and callables compare by identity, so every call traces and compiles again; '
                            'pass one function object and the values it closes over as traced arguments'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not any(info.jax and info.static_params for info in ctx.facts.functions):
            return
        callee = jax_jitted_callee(ctx.facts, index)
        for call, _ in index.calls:
            hit = callee(call)
            if hit is None or not hit[1].static_params or in_test(index, ctx.path, call) \
                    or runs_traced(ctx.facts, index, call):
                continue
            for param, arg in bound_static_arguments(hit[1], call, index):
                made = _made_callable(ctx, index, call, arg)
                if made is None:
                    continue
                key, creation = made
                if not jax_cache.recompiles(key):
                    continue
                where = made_anew_before(index, call, creation, once_if_conditional=True)
                if where is None:
                    continue
                ctx.report(self, arg, f"static argument `{param}` of jitted `{hit[0]}` is {_FORMS[key]} made anew "
                                      f"on every {where}: jax.jit keys its cache on static arguments and "
                                      "callables compare by identity, so every call traces and compiles again; "
                                      "pass one function object and the values it closes over as traced arguments")
                break


def _made_callable(ctx: ModuleContext, index: ModuleIndex, call: ast.Call, arg: ast.expr
                   ) -> tuple[str, ast.AST] | None:
    """(table probe, the node that creates it) when ``arg`` is a callable created in the function
    around ``call``: directly, or through a name bound there exactly once."""
    form = _form(ctx, index, arg)
    if form is not None:
        return form, arg
    if not isinstance(arg, ast.Name):
        return None
    func = index.function_of(call)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    defs = [n for n in index.scope_nodes(func) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.name == arg.id and n is not func]
    assigns = [n for n in index.scope_nodes(func) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name) and n.targets[0].id == arg.id]
    others = [n for n in index.scope_nodes(func) if isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For))
              and any(isinstance(t, ast.Name) and t.id == arg.id
                      for t in ast.walk(n.target))]
    if others or arg.id in {a.arg for a in func.args.args + func.args.kwonlyargs + func.args.posonlyargs}:
        return None
    if len(defs) == 1 and not assigns:
        return "static.new_local_def", defs[0]
    if len(assigns) == 1 and not defs:
        form = _form(ctx, index, assigns[0].value)
        if form is not None:
            return form, assigns[0]
    return None


def _form(ctx: ModuleContext, index: ModuleIndex, node: ast.expr) -> str | None:
    if isinstance(node, ast.Lambda):
        return "static.new_lambda"
    if isinstance(node, ast.Call) and ctx.facts.aliases.resolve(node.func) in _PARTIAL_NAMES:
        return "static.new_partial"
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call) \
            and isinstance(node.value.func, ast.Name) and _is_local_class(index, node.value.func.id):
        return "static.bound_method_new_instance"
    return None


def _is_local_class(index: ModuleIndex, name: str) -> bool:
    return any(isinstance(c, ast.ClassDef) and c.name == name for c in index.tree.body)
