"""XLA329: reverse-mode differentiation (``jax.grad`` and friends) of a function that runs a ``jax.lax.while_loop``."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import PYLIST, SHAPE, TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_REVERSE_MODE = frozenset({"jax.grad", "jax.value_and_grad", "jax.jacrev", "jax.hessian", "jax.vjp"})
_CUSTOM_RULES = frozenset({"jax.custom_vjp", "jax.custom_jvp"})
_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
_MAX_DEPTH = 3  # calls of functions of this file followed from the differentiated function


class WhileLoopUnderReverseMode(Rule):
    """
    ## What it does
    Flags `jax.grad(f)`, `jax.value_and_grad(f)`, `jax.jacrev(f)`, `jax.hessian(f)` and `jax.vjp(f, ...)`
    when `f` (a function of this file, or a lambda) runs a `jax.lax.while_loop`, directly or through
    the functions of this file it calls (up to three calls deep), on a value that depends on a differentiated
    argument (`argnums`, default the first; every primal of `jax.vjp`): a loop that only the other arguments,
    constants or `jax.lax.stop_gradient` reach carries no tangent, and JAX runs it. A function with its own derivative
    rule (decorated with `jax.custom_vjp`/`jax.custom_jvp`, or wrapped by one) is not looked into, except the
    `@f.defjvp` rule of a `jax.custom_jvp` function: reverse mode transposes what that rule computes from the
    tangents, so a while_loop over them fails too. A loop
    that only carries integer literals, or whose call is inside `jax.lax.stop_gradient`, is not
    flagged. Forward mode (`jax.jvp`, `jax.jacfwd`) is not flagged: it differentiates a while_loop.
    A `jax.lax.fori_loop` counts as a while_loop when its `lower` or `upper` depends on a traced array (a
    differentiated argument, or an argument that `jax.grad(f)(...)` passes a traced array inside `jax.jit`):
    JAX lowers a fori_loop to a `scan` only when its trip count is concrete.

    ## Why is this bad?
    A `while_loop` runs a number of iterations known only at run time, so JAX cannot store the
    values reverse mode needs for the backward pass: tracing the gradient raises `ValueError:
    Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic
    start/stop values` (measured on jax 0.10.2, under `jax.jit` and without it; tensorflow issue
    62828, TFP-on-JAX's Gram-Schmidt; mujoco issue 1207, MJX's solver).

    ## Example
    ```python
    def solve(A, b):
        return jax.lax.while_loop(lambda s: s[1] > 1e-6, lambda s: update(A, b, s), (b, 1.0))[0]

    grads = jax.grad(lambda A: solve(A, b).sum())(A)
    ```

    ## Use instead
    ```python
    def solve(A, b, iterations=50):  # a fixed number of steps: lax.scan (or fori_loop with static bounds)
        return jax.lax.scan(lambda x, _: (update(A, b, x), None), b, None, length=iterations)[0]
    ```
    or give the solver a `jax.custom_vjp` (implicit differentiation).

    ## Fix safety
    No automatic fix: a fixed number of iterations changes what the solver computes.
    """

    code = "XLA329"
    fails_in_any_graph = True  # the gradient's trace fails, compiled or not
    fix = None
    name = "while-loop-under-reverse-mode"
    node_types = (ast.Call,)

    VALID = (
        # fori_loop with static bounds lowers to a scan: reverse-differentiable
        Example("import jax\nimport jax.numpy as jnp\ndef power(x):\n"
                "    return jax.lax.fori_loop(0, 5, lambda i, y: y * x, x)\n"
                "@jax.jit\ndef g(x):\n    return jax.grad(power)(x)\n"),
        # forward mode differentiates a while_loop
        Example("import jax\ndef newton(x):\n"
                "    return jax.lax.while_loop(lambda s: s[1] < 5, lambda s: (s[0] * 0.5 + x, s[1] + 1), (x, 0))[0]\n"
                "@jax.jit\ndef g(x):\n    return jax.jacfwd(newton)(x)\n"),
        # a derivative rule of its own: JAX never differentiates the loop
        Example("import jax\n@jax.custom_vjp\ndef fixed_point(x):\n"
                "    return jax.lax.while_loop(lambda s: s[1] < 5, lambda s: (s[0] * 0.5 + x, s[1] + 1), (x, 0))[0]\n"
                "def fwd(x):\n    return fixed_point(x), x\ndef bwd(x, g):\n    return (2.0 * g,)\n"
                "fixed_point.defvjp(fwd, bwd)\n@jax.jit\ndef g(x):\n    return jax.grad(fixed_point)(x)\n"),
        # a loop over integer literals only: nothing to differentiate through it
        Example("import jax\ndef scaled(x):\n    n = jax.lax.while_loop(lambda i: i < 3, lambda i: i + 1, 0)\n"
                "    return x * n\n@jax.jit\ndef g(x):\n    return jax.grad(scaled)(x)\n"),
        # the loop runs on an argument that is not differentiated (argnums=0 is `w`): no tangent reaches it
        Example("import jax\ndef refine(y):\n"
                "    return jax.lax.while_loop(lambda s: s[1] < 5, lambda s: (s[0] * 0.5 + y, s[1] + 1), (y, 0))[0]\n"
                "def loss(w, y):\n    return w * refine(y)\n"
                "@jax.jit\ndef g(x):\n    return jax.grad(loss)(x, x + 1.0)\n"),
        # a float loop of constants only, in the differentiated function
        Example("import jax\ndef scaled(w):\n"
                "    n = jax.lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] * 2.0), (0, 1.0))[1]\n"
                "    return w * n\n@jax.jit\ndef g(x):\n    return jax.grad(scaled)(x)\n"),
        # fori_loop bounds from a Python int: concrete, a scan
        Example("import jax\ndef power(x, n):\n    return jax.lax.fori_loop(0, n, lambda i, y: y * x, x)\n"
                "@jax.jit\ndef g(x):\n    return jax.grad(power)(x, 3)\n"),
        # a custom_jvp whose rule computes the tangent without a loop: reverse mode transposes no while_loop
        Example("import jax\n@jax.custom_jvp\ndef halve(x):\n"
                "    return jax.lax.while_loop(lambda s: s[1] < 5, lambda s: (s[0] * 0.5, s[1] + 1), (x, 0))[0]\n"
                "@halve.defjvp\ndef halve_jvp(primals, tangents):\n    (x,), (t,) = primals, tangents\n"
                "    return halve(x), 0.5 ** 5 * t\n@jax.jit\ndef g(x):\n    return jax.grad(halve)(x)\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\ndef halve_until_small(x):\n"
                "    return jax.lax.while_loop(lambda y: jnp.abs(y) > 1.0, lambda y: y * 0.5, x)\n"
                "def loss(x):\n    return halve_until_small(x) ** 2\n"
                "@jax.jit\ndef g(x):\n    return jax.grad(loss)(x)\n",
                expected=(
                    (9, 12, "`jax.grad` differentiates `loss` in reverse mode, and it runs a jax.lax.while_loop (line "
                            "4, in `halve_until_small`): JAX cannot reverse-differentiate a while_loop (ValueError: "
                            "Reverse-mode differentiation does not work for lax.while_loop); run a fixed number of "
                            "steps with lax.scan (or fori_loop with static bounds), or give the loop a jax.custom_vjp"),
                )),
        Example("import jax\ndef newton(x):\n"
                "    return jax.lax.while_loop(lambda s: s[1] < 5, lambda s: (s[0] * 0.5 + x, s[1] + 1), (x, 0))[0]\n"
                "@jax.jit\ndef g(x):\n    return jax.value_and_grad(lambda z: newton(z) * 2.0)(x)\n",
                expected=(
                    (6, 12, "`jax.value_and_grad` differentiates the lambda in reverse mode, and it runs a "
                            "jax.lax.while_loop (line 3, in `newton`): JAX cannot reverse-differentiate a while_loop "
                            "(ValueError: Reverse-mode differentiation does not work for lax.while_loop); run a fixed "
                            "number of "
                            "steps with lax.scan (or fori_loop with static bounds), or give the loop a jax.custom_vjp"),
                )),
        # argnums=1: the differentiated argument is the one the loop runs on
        Example("import jax\ndef refine(y):\n"
                "    return jax.lax.while_loop(lambda s: s[1] < 5, lambda s: (s[0] * 0.5 + y, s[1] + 1), (y, 0))[0]\n"
                "def loss(w, y):\n    return w * refine(y)\n"
                "@jax.jit\ndef g(x):\n    return jax.grad(loss, argnums=1)(x, x + 1.0)\n",
                expected=(
                    (8, 12, "`jax.grad` differentiates `loss` in reverse mode, and it runs a jax.lax.while_loop (line "
                            "3, in `refine`): JAX cannot reverse-differentiate a while_loop (ValueError: "
                            "Reverse-mode differentiation does not work for lax.while_loop); run a fixed number of "
                            "steps with lax.scan (or fori_loop with static bounds), or give the loop a jax.custom_vjp"),
                )),
        # a fori_loop whose upper bound is a traced array under jax.jit lowers to a while_loop
        Example("import jax\nimport jax.numpy as jnp\ndef power(x, n):\n"
                "    return jax.lax.fori_loop(0, n, lambda i, y: y * x, x)\n"
                "@jax.jit\ndef g(x):\n    n = x.astype(jnp.int32)\n    return jax.grad(power)(x, n)\n",
                expected=(
                    (8, 12, "`jax.grad` differentiates `power` in reverse mode, and it runs a jax.lax.fori_loop "
                            "with traced bounds, which lowers to a while_loop (line 4): JAX cannot "
                            "reverse-differentiate a while_loop (ValueError: Reverse-mode differentiation does not "
                            "work for lax.while_loop); run a fixed number of steps with lax.scan (or fori_loop with "
                            "static bounds), or give the loop a jax.custom_vjp"),
                )),
        # a custom_jvp rule that runs a while_loop over the tangent: reverse mode transposes it (jax issue 18311)
        Example("import jax\n@jax.custom_jvp\ndef halve(x):\n"
                "    return jax.lax.while_loop(lambda s: s[1] < 5, lambda s: (s[0] * 0.5, s[1] + 1), (x, 0))[0]\n"
                "@halve.defjvp\ndef halve_jvp(primals, tangents):\n    (x,), (t,) = primals, tangents\n"
                "    dt = jax.lax.while_loop(lambda s: s[1] < 5, lambda s: (s[0] * 0.5, s[1] + 1), (t, 0))[0]\n"
                "    return halve(x), dt\n@jax.jit\ndef g(x):\n    return jax.grad(halve)(x)\n",
                expected=(
                    (12, 12, "`jax.grad` differentiates `halve` in reverse mode, and it runs a jax.lax.while_loop "
                             "(line 8, in `halve_jvp`): JAX cannot reverse-differentiate a while_loop (ValueError: "
                             "Reverse-mode differentiation does not work for lax.while_loop); run a fixed number of "
                             "steps with lax.scan (or fori_loop with static bounds), or give the loop a "
                             "jax.custom_vjp"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        applied: ast.Call | None = None
        if isinstance(node.func, ast.Call):  # T(f)(args): the arguments say which parameters are traced
            applied, node = node, node.func
        transform = call_name(node, ctx)
        if transform not in _REVERSE_MODE or not node.args:
            return
        target = _function(node.args[0], ctx)
        if target is None:
            return
        start = _differentiated(node, transform, target)
        traced = start | (_traced_params(applied, target, ctx) if applied is not None else frozenset())
        found = _while_loop_reached(target, start, traced, ctx, set(), 0)
        if found is None:
            return
        loop, owner = found
        shown = "the lambda" if isinstance(target, ast.Lambda) else f"`{target.name}`"
        where = "" if owner is target or isinstance(owner, ast.Lambda) else f", in `{owner.name}`"
        kind = ("a jax.lax.fori_loop with traced bounds, which lowers to a while_loop"
                if call_name(loop, ctx) == "jax.lax.fori_loop" else "a jax.lax.while_loop")
        ctx.report(self, node,
                   f"`{transform}` differentiates {shown} in reverse mode, and it runs {kind} "
                   f"(line {loop.lineno}{where}): JAX cannot reverse-differentiate a while_loop (ValueError: "
                   "Reverse-mode differentiation does not work for lax.while_loop); run a fixed number of steps "
                   "with lax.scan (or fori_loop with static bounds), or give the loop a jax.custom_vjp")


def _traced_params(applied: ast.Call, fn: _Def, ctx: RuleContext) -> frozenset[str]:
    """The parameters of ``fn`` that ``T(fn)(args)`` passes a traced array in this jitted function: a value the
    model knows is an array (not a shape fact or a Python list)."""
    if not ctx.function.jax:
        return frozenset()
    params = _positional(fn)
    out: set[str] = set()

    def traced(e: ast.expr) -> bool:
        k = ctx.flags(e)
        return bool(k & TENSOR) and not k & (SHAPE | PYLIST)

    for i, a in enumerate(applied.args):
        if isinstance(a, ast.Starred):
            break
        if i < len(params) and traced(a):
            out.add(params[i])
    out.update(k.arg for k in applied.keywords if k.arg is not None and traced(k.value))
    return frozenset(out)


def _function(e: ast.expr, ctx: RuleContext) -> _Def | None:
    """The function ``e`` names: a lambda, a def nested in the current function, or a def of the module."""
    if isinstance(e, ast.Lambda):
        return e
    if not isinstance(e, ast.Name):
        return None
    for n in ast.walk(ctx.function.node):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == e.id and n is not ctx.function.node:
            return n
    found = ctx.module_funcs.get(e.id)
    return found.node if found is not None and isinstance(found.node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
        else None


def _custom_rule(fn: _Def, ctx: RuleContext) -> str | None:
    """``jax.custom_vjp`` or ``jax.custom_jvp`` when ``fn`` has a derivative rule of its own: decorated with one
    (also through a partial), or wrapped by one at module level (``solve = jax.custom_vjp(_solve)``)."""
    if isinstance(fn, ast.Lambda):
        return None
    for dec in fn.decorator_list:
        parts = [dec, *(dec.args if isinstance(dec, ast.Call) else [])]
        for p in parts:
            name = ctx.resolve(p.func if isinstance(p, ast.Call) else p)
            if name in _CUSTOM_RULES:
                return name
    for v in ctx.module_values.values():
        if isinstance(v, ast.Call) and v.args and isinstance(v.args[0], ast.Name) and v.args[0].id == fn.name:
            name = ctx.resolve(v.func)
            if name in _CUSTOM_RULES:
                return name
    return None


def _jvp_rule(fn: _Def, ctx: RuleContext) -> tuple[_Def, str] | None:
    """The JVP rule of the ``jax.custom_jvp`` function ``fn`` (a module function decorated with
    ``@fn.defjvp``) and its tangents parameter (the last positional one: ``nondiff_argnums`` come first)."""
    if isinstance(fn, ast.Lambda):
        return None
    for info in ctx.module_funcs.values():
        rule = info.node
        if not isinstance(rule, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for dec in rule.decorator_list:
            if (isinstance(dec, ast.Attribute) and dec.attr == "defjvp" and isinstance(dec.value, ast.Name)
                    and dec.value.id == fn.name and _positional(rule)):
                return rule, _positional(rule)[-1]
    return None


def _integer_carry(init: ast.expr | None) -> bool:
    """The loop carries only integer literals (a counter): it has nothing to differentiate."""
    elts = init.elts if isinstance(init, ast.Tuple) else [init] if init is not None else []
    return bool(elts) and all(isinstance(e, ast.Constant) and type(e.value) is int for e in elts)


def _positional(fn: _Def) -> list[str]:
    return [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]


def _differentiated(node: ast.Call, transform: str | None, fn: _Def) -> frozenset[str]:
    """The parameters of ``fn`` that ``transform`` differentiates: every primal of ``jax.vjp``, else
    ``argnums`` (default 0); all of them when ``argnums`` is not a literal."""
    params = _positional(fn)
    every = frozenset(params) | ({fn.args.vararg.arg} if fn.args.vararg is not None else set())
    if transform == "jax.vjp":
        return every
    argnums = next((k.value for k in node.keywords if k.arg == "argnums"), None)
    literals = [argnums] if isinstance(argnums, ast.Constant) else argnums.elts if isinstance(
        argnums, (ast.Tuple, ast.List)) else None
    positions: list[int] = [0] if argnums is None else []
    for e in literals or ():
        if not (isinstance(e, ast.Constant) and type(e.value) is int):
            return every
        positions.append(e.value)
    if argnums is not None and not positions:
        return every
    out = {params[i] for i in positions if 0 <= i < len(params)}
    if fn.args.vararg is not None and any(i >= len(params) for i in positions):
        out.add(fn.args.vararg.arg)
    return frozenset(out)


def _mentions(e: ast.AST, names: frozenset[str] | set[str], stopped: set[int]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names and id(n) not in stopped for n in ast.walk(e))


_STATIC_ATTRS = frozenset({"shape", "ndim", "size", "dtype"})


def _static_reads(e: ast.AST) -> set[int]:
    """The nodes under ``x.shape``/``x.ndim``/``x.size``/``x.dtype`` and ``len(x)`` in ``e``: static under
    jax.jit, whatever ``x`` is."""
    out: set[int] = set()
    for n in ast.walk(e):
        if (isinstance(n, ast.Attribute) and n.attr in _STATIC_ATTRS) or (
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len"):
            out.update(id(m) for m in ast.walk(n))
    return out


def _reached_names(fn: _Def, start: frozenset[str], stopped: set[int]) -> set[str]:
    """The names of ``fn`` (its nested functions included) whose value may depend on the parameters
    ``start``: bound by an assignment, a loop or a ``with`` from an expression that names one of them
    (outside ``jax.lax.stop_gradient``). Flow-insensitive: a name bound once from them counts everywhere."""
    reached = set(start)
    bindings: list[tuple[ast.AST, ast.AST]] = []  # (target, value)
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            bindings.extend((t, n.value) for t in n.targets)
        elif isinstance(n, (ast.AnnAssign, ast.AugAssign)) and n.value is not None:
            bindings.append((n.target, n.value))
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
            bindings.append((n.target, n.iter))
        elif isinstance(n, ast.NamedExpr):
            bindings.append((n.target, n.value))
        elif isinstance(n, (ast.With, ast.AsyncWith)):
            bindings.extend((i.optional_vars, i.context_expr) for i in n.items if i.optional_vars is not None)
    changed = True
    while changed:
        changed = False
        for target, value in bindings:
            if not _mentions(value, reached, stopped):
                continue
            for t in ast.walk(target):
                if isinstance(t, ast.Name) and t.id not in reached:
                    reached.add(t.id)
                    changed = True
    return reached


def _loop_reached(loop: ast.Call, fn: _Def, reached: set[str], stopped: set[int]) -> bool:
    """The while_loop's operands (its initial carry, and its functions with what they close over)
    depend on a differentiated parameter."""
    operands = [*loop.args, *(k.value for k in loop.keywords)]
    if any(_mentions(a, reached, stopped) for a in operands):
        return True
    nested = {n.name: n for n in ast.walk(fn) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return any(isinstance(a, ast.Name) and a.id in nested and _mentions(nested[a.id], reached, stopped)
               for a in operands)


def _callee_params(call: ast.Call, callee: _Def, reached: set[str], stopped: set[int]) -> frozenset[str]:
    """The parameters of ``callee`` that receive a value depending on a differentiated parameter."""
    params = _positional(callee)
    every = frozenset(params) | {a.arg for a in callee.args.kwonlyargs} | (
        {callee.args.vararg.arg} if callee.args.vararg is not None else set())
    out: set[str] = set()
    for i, a in enumerate(call.args):
        if not _mentions(a, reached, stopped):
            continue
        if isinstance(a, ast.Starred):
            return every
        if i < len(params):
            out.add(params[i])
        elif callee.args.vararg is not None:
            out.add(callee.args.vararg.arg)
    for k in call.keywords:
        if not _mentions(k.value, reached, stopped):
            continue
        if k.arg is None:
            return every
        out.add(k.arg)
    return frozenset(out)


def _bounds(loop: ast.Call) -> list[ast.expr]:
    """A ``fori_loop``'s ``lower`` and ``upper``."""
    out = list(loop.args[:2])
    out += [k.value for k in loop.keywords if k.arg in ("lower", "upper")]
    return out


def _while_loop_reached(fn: _Def, start: frozenset[str], traced: frozenset[str], ctx: RuleContext,
                        seen: set[tuple[int, frozenset[str], frozenset[str]]],
                        depth: int) -> tuple[ast.Call, _Def] | None:
    """A ``jax.lax.while_loop`` call that ``fn`` runs on a value depending on its parameters ``start`` (the
    differentiated ones), directly or through the functions of this file it calls, with the function it
    is in; also a ``jax.lax.fori_loop`` whose ``lower``/``upper`` depend on ``traced`` (parameters that
    receive a traced array, the differentiated ones included): JAX lowers a fori_loop with bounds that are
    not concrete to a while_loop (the ``jax.lax.fori_loop`` documentation; measured in
    tests/xlacheck/test_jax_while_grad_truth.py). A loop that only the other arguments reach has no tangent:
    JAX runs it without differentiating it."""
    if not start or (id(fn), start, traced) in seen or depth > _MAX_DEPTH:
        return None
    custom = _custom_rule(fn, ctx)
    if custom is not None:
        # reverse mode transposes what a custom_jvp rule computes from the tangents: a while_loop there
        # fails as well (jax issue 18311); a custom_vjp rule is never transposed
        rule = _jvp_rule(fn, ctx) if custom == "jax.custom_jvp" else None
        if rule is None:
            return None
        fn, tangents = rule
        start = traced = frozenset({tangents})
        if (id(fn), start, traced) in seen:
            return None
    seen.add((id(fn), start, traced))
    stopped = {id(n) for c in ast.walk(fn) if isinstance(c, ast.Call)
               and call_name(c, ctx) == "jax.lax.stop_gradient" for n in ast.walk(c)}
    reached = _reached_names(fn, start, stopped)
    static = stopped | _static_reads(fn)  # a bound from a shape is concrete
    traced_names = _reached_names(fn, traced | start, static)
    calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and id(c) not in stopped]
    for c in calls:
        name = call_name(c, ctx)
        if name == "jax.lax.while_loop":
            init = c.args[2] if len(c.args) > 2 else next((k.value for k in c.keywords if k.arg == "init_val"), None)
            if not _integer_carry(init) and _loop_reached(c, fn, reached, stopped):
                return c, fn
        elif name == "jax.lax.fori_loop":
            init = c.args[3] if len(c.args) > 3 else next((k.value for k in c.keywords if k.arg == "init_val"), None)
            if (any(_mentions(b, traced_names, static) for b in _bounds(c)) and not _integer_carry(init)
                    and _loop_reached(c, fn, reached, stopped)):
                return c, fn
    for c in calls:
        if isinstance(c.func, ast.Name):
            callee = _function(c.func, ctx)
            if callee is not None and callee is not fn:
                found = _while_loop_reached(callee, _callee_params(c, callee, reached, stopped),
                                            _callee_params(c, callee, traced_names, stopped), ctx, seen, depth + 1)
                if found is not None:
                    return found
    return None
