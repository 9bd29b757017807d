"""XLA118: a traced JAX value used where Python hashes it (a dict key, a set member, an ``lru_cache`` argument)."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis.values import TENSOR, is_computed_tensor, is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext

# Calls whose result is a dict or a set: indexing it, or testing membership in it, hashes the key.
_HASHED_CONTAINERS = frozenset({"dict", "set", "frozenset", "collections.OrderedDict", "collections.defaultdict",
                                "collections.Counter"})
# Methods of a dict that hash their first argument.
_DICT_KEY_METHODS = frozenset({"get", "pop", "setdefault"})
_CACHES = frozenset({"functools.lru_cache", "functools.cache"})
# The measured probes (xlacheck/data/jax_cache_key.json) of each way of hashing.
_DICT_KEY, _MEMBER, _CACHED = "hash.traced_dict_key", "hash.traced_set_membership", "hash.traced_lru_cache_argument"


class TracedValueHashed(Rule):
    """
    ## What it does
    Flags a value that `jax.jit` traces (a non-static parameter of a jitted function, or a value
    computed from one) used where Python must hash it: the key of a dict this file builds
    (`SCALES[level]`, `table.get(level)`, `level in SCALES`), a key of a dict or a member of a set
    display (`{level: x}`, `{level}`), `hash(level)`, or an argument of a function this file
    decorates with `functools.lru_cache`/`functools.cache` (a module function, or a method called
    through `self`). Only in functions that JAX traces;
    a static parameter (`static_argnums`/`static_argnames`) is a Python value and not flagged, nor is
    a field of an array-or-structure (an item of a `lax.scan` carry), which may be static metadata.

    ## Why is this bad?
    Inside `jax.jit`, arguments are tracers, and tracers (like JAX arrays) cannot be hashed: the
    trace fails with `TypeError: unhashable type: 'DynamicJaxprTracer'` (measured on jax 0.10.2:
    `hash.traced_dict_key`, `hash.traced_set_membership` and `hash.traced_lru_cache_argument` in
    `xlacheck/data/jax_cache_key.json`; the same dict read with the argument static compiles once
    per value, `hash.static_dict_key`). The same code runs eagerly when the caller passes
    a Python int, so it works in tests and fails the first time the function is jitted, or when a
    caller that jits it passes the value as an ordinary argument.

    ## Example
    ```python
    SCALES = {0: 1.0, 1: 0.5, 2: 0.25}

    @jax.jit
    def rescale(x, level):
        return x * SCALES[level]
    ```

    ## Use instead
    ```python
    SCALE_TABLE = jnp.array([1.0, 0.5, 0.25])

    @jax.jit
    def rescale(x, level):
        return x * SCALE_TABLE[level]  # an array indexed by a tracer
    ```
    or make the parameter static (`@partial(jax.jit, static_argnames="level")`) when it takes few values.

    ## Fix safety
    No automatic fix: a dict becomes an array only when its keys are consecutive integers and its
    values numbers, and a static argument recompiles per value.
    """

    code = "XLA118"
    fix = None
    name = "traced-value-hashed"
    node_types = (ast.Subscript, ast.Compare, ast.Dict, ast.Set, ast.Call)

    VALID = (
        # a static argument is a Python value: a dict key is fine
        Example("import jax\nfrom functools import partial\nSCALES = {0: 1.0, 1: 0.5}\n"
                "@partial(jax.jit, static_argnames=('level',))\ndef rescale(x, level):\n"
                "    return x * SCALES[level]\n"),
        # a cached method called with a static argument
        Example("import functools\nimport jax\nfrom functools import partial\nclass Model:\n"
                "    @functools.lru_cache(maxsize=None)\n    def decay(self, n):\n        return 1.0 / (n + 1.0)\n"
                "    @partial(jax.jit, static_argnums=(0, 2))\n    def step(self, x, n):\n"
                "        return x * self.decay(n)\n"),
        # a string key of a dict of arrays
        Example("import jax\n@jax.jit\ndef loss(batch):\n    return batch['x'].sum()\n"),
        # an array indexed by a tracer
        Example("import jax\nimport jax.numpy as jnp\nTABLE = jnp.array([1.0, 0.5])\n@jax.jit\n"
                "def rescale(x, level):\n    return x * TABLE[level]\n"),
        # membership in a tuple compares, it does not hash (another error, another rule)
        Example("import jax\n@jax.jit\ndef f(x):\n    return {'out': x}\n"),
        # a field of a scan carry's item: the item is an array or a structure, and a structure's
        # field may be static metadata (a name, a label), which Python hashes
        Example("import jax\nWEIGHTS = {'a': 2.0, 'b': 3.0}\n@jax.jit\ndef run(slots, xs):\n"
                "    def body(carry, x):\n        total = sum(s.value * WEIGHTS[s.name] for s in carry)\n"
                "        return carry, total * x\n    return jax.lax.scan(body, slots, xs)[1]\n"),
    )
    INVALID = (
        Example("import jax\nSCALES = {0: 1.0, 1: 0.5}\n@jax.jit\ndef rescale(x, level):\n"
                "    return x * SCALES[level]\n",
                expected=(
                    (5, 23, "`level` is traced here and is used as a dict key (`SCALES[level]`): tracers cannot be "
                            "hashed (TypeError: unhashable type: 'DynamicJaxprTracer', measured: "
                            "hash.traced_dict_key); index an array instead, or make the argument static"),
                )),
        Example("import functools\nimport jax\nimport jax.numpy as jnp\n@functools.lru_cache(maxsize=None)\n"
                "def window(n):\n    return jnp.hanning(n)\n@jax.jit\ndef smooth(x, n):\n"
                "    return jnp.convolve(x, window(n))\n",
                expected=(
                    (9, 35, "`n` is traced here and is passed to `window`, which functools.lru_cache caches by its "
                            "arguments: tracers cannot be hashed (TypeError: unhashable type: 'DynamicJaxprTracer', "
                            "measured: hash.traced_lru_cache_argument); make the argument static"),
                )),
        Example("import jax\n@jax.jit\ndef pick(x, k):\n    seen = {k: x}\n    return seen[k]\n",
                expected=(
                    (4, 13, "`k` is traced here and is used as a dict key (`{k: ...}`): tracers cannot be hashed "
                            "(TypeError: unhashable type: 'DynamicJaxprTracer', measured: hash.traced_dict_key); "
                            "index an array instead, or make the argument static"),
                    (5, 17, "`k` is traced here and is used as a dict key (`seen[k]`): tracers cannot be hashed "
                            "(TypeError: unhashable type: 'DynamicJaxprTracer', measured: hash.traced_dict_key); "
                            "index an array instead, or make the argument static"),
                )),
        Example("import functools\nimport jax\nfrom functools import partial\nclass Model:\n"
                "    @functools.lru_cache(maxsize=None)\n    def decay(self, n):\n        return 1.0 / (n + 1.0)\n"
                "    @partial(jax.jit, static_argnums=0)\n    def step(self, x, n):\n"
                "        return x * self.decay(n)\n",
                expected=(
                    (10, 31, "`n` is traced here and is passed to `self.decay`, which functools.lru_cache caches by "
                             "its arguments: tracers cannot be hashed (TypeError: unhashable type: "
                             "'DynamicJaxprTracer', measured: hash.traced_lru_cache_argument); make the argument "
                             "static"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if not ctx.function.jax:
            return
        if isinstance(node, ast.Subscript):
            if isinstance(node.ctx, ast.Load) and not isinstance(node.slice, (ast.Slice, ast.Tuple)) \
                    and self._hashing_container(ctx, node.value):
                self._key(ctx, node.slice, f"used as a dict key (`{ast.unparse(node)}`)", _DICT_KEY)
        elif isinstance(node, ast.Compare):
            if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                    and self._hashing_container(ctx, node.comparators[0]):
                self._key(ctx, node.left, f"tested for membership in a dict or set (`{ast.unparse(node)}`)", _MEMBER)
        elif isinstance(node, ast.Dict):
            for k in node.keys:
                if k is not None:
                    self._key(ctx, k, f"used as a dict key (`{{{ast.unparse(k)}: ...}}`)", _DICT_KEY)
        elif isinstance(node, ast.Set):
            for e in node.elts:
                self._key(ctx, e, f"used as a set member (`{ast.unparse(node)}`)", _MEMBER)
        elif isinstance(node, ast.Call):
            self._call(ctx, node)

    def _call(self, ctx: RuleContext, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "hash" and func.id not in ctx.module_funcs and len(node.args) == 1:
            self._key(ctx, node.args[0], "hashed (`hash(...)`)", _MEMBER)
        elif isinstance(func, ast.Attribute) and func.attr in _DICT_KEY_METHODS and node.args \
                and self._hashing_container(ctx, func.value, dicts_only=True):
            self._key(ctx, node.args[0], f"used as a dict key (`{ast.unparse(node)}`)", _DICT_KEY)
        else:
            target = self._callee(ctx, func)
            if target is None or not any(self._cache_decorator(ctx, d) for d in target.decorator_list) \
                    or not jax_cache.raises(_CACHED):
                return
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if self._traced(ctx, arg):
                    ctx.report(self, arg, f"`{ast.unparse(arg)}` is traced here and is passed to "
                                          f"`{ast.unparse(func)}`, which "
                                          f"functools.lru_cache caches by its arguments: tracers cannot be hashed "
                                          f"({_measured(_CACHED)}); make the argument static")
                    return

    @staticmethod
    def _callee(ctx: RuleContext, func: ast.expr) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The def a call reaches: a module-level function (``decay(k)``) or a method of the class the
        caller is a method of (``self.decay(k)``)."""
        if isinstance(func, ast.Name) and func.id in ctx.module_funcs:
            node = ctx.module_funcs[func.id].node
            return None if isinstance(node, ast.Lambda) else node
        cls = ctx.function.cls
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
                and cls is not None and func.attr in cls.methods:
            node = cls.methods[func.attr].node
            return None if isinstance(node, ast.Lambda) else node
        return None

    def _key(self, ctx: RuleContext, key: ast.expr, how: str, probe: str) -> None:
        if jax_cache.raises(probe) and self._traced(ctx, key):
            ctx.report(self, key, f"`{ast.unparse(key)}` is traced here and is {how}: tracers cannot be hashed "
                                  f"({_measured(probe)}); index an array instead, or make the argument static")

    @staticmethod
    def _traced(ctx: RuleContext, e: ast.expr) -> bool:
        if isinstance(e, (ast.Constant, ast.Starred)):
            return False
        k = ctx.flags(e)
        if is_computed_tensor(k) and is_tensor(k):
            # a proven array; a tensor-or-structure (a scan carry's item, a layer's output) may be the
            # structure or its static metadata, which Python hashes (as it tests their truth: XLA101)
            return True
        # a parameter: traced only where jax.jit itself passes it (a tracer, or a structure holding
        # one: a tuple or dict of arrays hashes its items, as unhashable); a helper's or a declared
        # root's parameter may be a Python value its caller passes
        f = ctx.function
        return bool(k & TENSOR) and isinstance(e, ast.Name) and f.jit_entry and not f.declared \
            and not isinstance(f.node, ast.Lambda) and e.id not in f.static_params \
            and any(a.arg == e.id for a in f.node.args.posonlyargs + f.node.args.args + f.node.args.kwonlyargs)

    @staticmethod
    def _cache_decorator(ctx: RuleContext, dec: ast.expr) -> bool:
        target = dec.func if isinstance(dec, ast.Call) else dec
        return ctx.resolve(target) in _CACHES

    @staticmethod
    def _hashing_container(ctx: RuleContext, e: ast.expr, dicts_only: bool = False) -> bool:
        """``e`` is certainly a dict (or a set): a display, a call of dict()/set()/..., or a name the
        module or the function binds once to one."""
        value: ast.expr | None = e
        if isinstance(e, ast.Name):
            value = _single_binding(ctx, e.id)
        if isinstance(value, (ast.Dict, ast.DictComp)):
            return True
        if isinstance(value, (ast.Set, ast.SetComp)):
            return not dicts_only
        if isinstance(value, ast.Call):
            name = ctx.resolve(value.func) or (value.func.id if isinstance(value.func, ast.Name) else None)
            own = isinstance(value.func, ast.Name) and value.func.id in ctx.module_funcs  # a def of this file
            if name in _HASHED_CONTAINERS and not own:
                return not dicts_only or name not in ("set", "frozenset")
        return False


def _measured(probe: str) -> str:
    return f"{jax_cache.probe(probe)['error']}, measured: {probe}"


def _single_binding(ctx: RuleContext, name: str) -> ast.expr | None:
    """The value a name is bound to once: in the function (one plain assignment, not a parameter),
    else at module level."""
    node = ctx.function.node
    args = node.args
    if any(a.arg == name for a in args.posonlyargs + args.args + args.kwonlyargs) \
            or any(a is not None and a.arg == name for a in (args.vararg, args.kwarg)):
        return None
    local: list[ast.AST] = []
    body = [node.body] if isinstance(node, ast.Lambda) else node.body
    for stmt in body:
        for n in ast.walk(stmt):
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr, ast.With)):
                targets = n.targets if isinstance(n, ast.Assign) else \
                    [i.optional_vars for i in n.items if i.optional_vars is not None] if isinstance(n, ast.With) \
                    else [n.target]
                if any(isinstance(t, ast.Name) and t.id == name for tt in targets for t in ast.walk(tt)):
                    local.append(n)
            elif isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
                return None
    if local:
        only = local[0]
        return only.value if len(local) == 1 and isinstance(only, ast.Assign) and len(only.targets) == 1 \
            and isinstance(only.targets[0], ast.Name) else None
    return ctx.module_values.get(name)
