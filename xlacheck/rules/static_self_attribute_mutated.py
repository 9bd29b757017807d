"""XLA420: a method jitted with ``self`` static reads an attribute that the object changes later."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import in_test, static_hash_kind, stored_jitted_methods
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Methods that build the object: an attribute they set is not a change after the first call.
_BUILDERS = frozenset({"__init__", "__post_init__", "__new__", "__setstate__", "setup"})


class StaticSelfAttributeMutated(ModuleRule):
    """
    ## What it does
    Flags an attribute that a method jitted with `self` static (`@partial(jax.jit,
    static_argnums=0)`, or `static_argnames=("self",)`) reads, directly or through a method of
    the class it calls, when the class hashes by identity (a plain class without `__eq__` and
    `__hash__`) and the attribute is assigned again after the jitted method has run: by another
    method of the class (not `__init__`/`__post_init__`/`setup`, nor a method only they call) that
    calls the jitted method itself or that this file calls in a loop or after a call of it, or
    on an object of the class in this file (`scaler.k = 3.0`) in a loop that calls the jitted
    method or after such a call. A setter called once before the first call (`load()` in set-up
    code) is not flagged. Also a method jitted once as a bound method and kept on the object
    (`self.fn = jax.jit(self._draw)`), where `self` is closed over rather than static: an attribute
    it reads that another method assigns between calls of `self.fn` (not one that jits it anew;
    `wrap.stored_bound_method_attribute_changes`, stale). Whether such a change reaches the
    compiled code is read from the measured table `xlacheck/data/jax_cache_key.json`
    (`static.self_attribute_mutated`: the later call hits the cache and returns the old result).

    ## Why is this bad?
    A static argument is part of the cache key through its hash and equality. For a plain object
    both are its identity, which does not change when an attribute does: the next call hits the
    cache and runs the code traced with the old value, silently (the JAX FAQ, "How to use jit
    with methods?"; jax#9023). Parameters, a learning rate or a callable kept on `self` and
    updated between calls are ignored.

    ## Example
    ```python
    class Model:
        def set_params(self, params):
            self.params = params

        @partial(jax.jit, static_argnums=0)
        def predict(self, x):
            return x @ self.params
    ```

    ## Use instead
    ```python
    class Model:
        @staticmethod
        @jax.jit
        def _predict(params, x):
            return x @ params

        def predict(self, x):
            return self._predict(self.params, x)  # params traced: updates are seen
    ```

    ## Fix safety
    No automatic fix: the attribute must become an argument, or the class a pytree.
    """

    code = "XLA420"
    fix = None
    name = "static-self-attribute-mutated"
    severity = Severity.WRONG_RESULT

    VALID = (
        Example("import jax\nfrom functools import partial\nclass Scaler:\n    def __init__(self, k):\n"
                "        self.k = k\n    @partial(jax.jit, static_argnums=0)\n    def apply(self, x):\n"
                "        return x * self.k\n"),
        Example("import jax\nfrom functools import partial\nclass Scaler:\n    def __init__(self, k):\n"
                "        self.k = k\n    def __hash__(self):\n        return hash(self.k)\n"
                "    def __eq__(self, other):\n        return self.k == other.k\n"
                "    @partial(jax.jit, static_argnums=0)\n    def apply(self, x):\n"
                "        return x * self.k\n    def set_k(self, k):\n        self.k = k\n"),
        Example("import jax\nclass Model:\n    def set_params(self, params):\n        self.params = params\n"
                "    def predict(self, x):\n        return _predict(self.params, x)\n"
                "@jax.jit\ndef _predict(params, x):\n    return x @ params\n"),
        Example("import jax\nfrom functools import partial\nclass Predictor:\n    def load(self, w):\n"
                "        self.w = w\n    @partial(jax.jit, static_argnums=0)\n    def predict(self, x):\n"
                "        return x * self.w\ndef main(xs):\n    p = Predictor()\n    p.load(2.0)\n"
                "    return [p.predict(x) for x in xs]\n"),
        # jitted once while bound; the attribute is set only while building the object
        Example("import jax\nclass Sampler:\n    def __init__(self, key):\n        self.key = key\n"
                "        self.fn = jax.jit(self._draw)\n    def _draw(self, x):\n"
                "        return x + jax.random.normal(self.key, x.shape)\n    def sample(self, x):\n"
                "        return self.fn(x)\n"),
        # the method that changes the attribute jits the bound method anew: a new trace sees it
        Example("import jax\nclass Sampler:\n    def __init__(self, key):\n        self.key = key\n"
                "        self.fn = jax.jit(self._draw)\n    def _draw(self, x):\n"
                "        return x + jax.random.normal(self.key, x.shape)\n    def reseed(self, key, x):\n"
                "        self.key = key\n        self.fn = jax.jit(self._draw)\n        return self.fn(x)\n"),
    )
    INVALID = (
        Example("import jax\nfrom functools import partial\nclass Model:\n    def __init__(self, params):\n"
                "        self.params = params\n    def set_params(self, params):\n        self.params = params\n"
                "    @partial(jax.jit, static_argnums=0)\n    def predict(self, x):\n"
                "        return x @ self.params\n"
                "def evaluate(m, x, checkpoints):\n    outs = []\n    for w in checkpoints:\n"
                "        m.set_params(w)\n        outs.append(m.predict(x))\n    return outs\n",
                expected=(
                    (10, 20, 'jitted `predict` reads `self.params` with `self` static, and `Model` hashes by '
                             'identity: `set_params()` assigns it again (line 7), but the cache key does not change, '
                             'so later calls silently run the code traced with the old value; pass it as an '
                             'argument, or make the class a pytree'),
                )),
        Example("import jax\nfrom functools import partial\nclass Scaler:\n    def __init__(self):\n"
                "        self.k = 2.0\n    @partial(jax.jit, static_argnames=('self',))\n    def apply(self, x):\n"
                "        return x * self.k\ndef sweep(x):\n    s = Scaler()\n    out = [s.apply(x)]\n"
                "    s.k = 3.0\n    out.append(s.apply(x))\n    return out\n",
                expected=(
                    (8, 20, 'jitted `apply` reads `self.k` with `self` static, and `Scaler` hashes by identity: '
                            '`sweep()` assigns it again (line 12), but the cache key does not change, so later calls '
                            'silently run the code traced with the old value; pass it as an argument, or make the '
                            'class a pytree'),
                )),
        # jitted once while bound (wrap.stored_bound_method_attribute_changes: stale), jax#12773
        Example("import jax\nclass Sampler:\n    def __init__(self, key):\n        self.key = key\n"
                "        self.fn = jax.jit(self._draw)\n    def _draw(self, x):\n"
                "        return x + jax.random.normal(self.key, x.shape)\n    def sample(self, x):\n"
                "        self.key, _ = jax.random.split(self.key)\n        return self.fn(x)\n",
                expected=(
                    (7, 38, '`_draw` is jitted once as a bound method (`self.fn`, line 5) and reads `self.key`: '
                            '`sample()` assigns it again (line 9) between its calls, but the trace baked the first '
                            'value in and the cache key does not see it, so later calls silently run with the old '
                            'value; pass it as an argument'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not jax_cache.stale("static.self_attribute_mutated"):
            return
        index = ctx.index
        for info in ctx.facts.functions:
            node = info.node
            if not info.jax or info.cls is None or isinstance(node, ast.Lambda) or in_test(index, ctx.path, node):
                continue
            params = [a.arg for a in node.args.posonlyargs + node.args.args]
            if not params or params[0] not in info.static_params:
                continue
            cls = info.cls.node
            if static_hash_kind(index, cls.name) != "identity":
                continue
            read = _stale_read(index, cls, node, params[0], frozenset({node.name}))
            if read is None:
                continue
            at, attr, where, line = read
            ctx.report(self, at, f"jitted `{node.name}` reads `self.{attr}` with `self` static, and "
                                   f"`{cls.name}` hashes by identity: `{where}()` assigns it again (line {line}), but "
                                   "the cache key does not change, so later calls silently run the code traced with "
                                   "the old value; pass it as an argument, or make the class a pytree")
        if jax_cache.stale("wrap.stored_bound_method_attribute_changes"):
            self._check_stored(ctx)

    def _check_stored(self, ctx: ModuleContext) -> None:
        """A method jitted once as a bound method and kept on ``self`` (``self.fn = jax.jit(self._fn)``):
        ``self`` is closed over, so the attributes the trace reads are constants of the compiled code."""
        index = ctx.index
        for key, stored in stored_jitted_methods(ctx.facts, index).items():
            for attr_fn, (info, assign) in stored.items():
                node = info.node
                if isinstance(node, ast.Lambda) or info.cls is None or id(info.cls.node) != key \
                        or in_test(index, ctx.path, node) or in_test(index, ctx.path, assign):
                    continue
                self_name = _self_name(node)
                if self_name is None:
                    continue
                read = _stale_read(index, info.cls.node, node, self_name, frozenset({attr_fn}), rejits=attr_fn)
                if read is None:
                    continue
                at, attr, where, line = read
                ctx.report(self, at, f"`{node.name}` is jitted once as a bound method (`self.{attr_fn}`, line "
                                       f"{assign.lineno}) and reads `self.{attr}`: `{where}()` assigns it again "
                                       f"(line {line}) between its calls, but the trace baked the first value in "
                                       "and the cache key does not see it, so later calls silently run with the old "
                                       "value; pass it as an argument")


def _stale_read(index: ModuleIndex, cls: ast.ClassDef, method: ast.FunctionDef | ast.AsyncFunctionDef,
                self_name: str, jitted_names: frozenset[str], rejits: str | None = None
                ) -> tuple[ast.AST, str, str, int] | None:
    """(where to report, attribute, function, line): an attribute the jitted ``method`` reads that is
    assigned again after it ran (:func:`_changed_attributes`, :func:`_first_read`)."""
    changed = _changed_attributes(index, cls, jitted_names, rejits)
    if rejits is not None:
        changed.pop(rejits, None)
    read = _first_read(cls, method, self_name, changed) if changed else None
    if read is None:
        return None
    at, attr = read
    return (at, attr, *changed[attr])


def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {m.name: m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _self_name(method: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    args = method.args.posonlyargs + method.args.args
    return args[0].arg if args and not any(
        isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in method.decorator_list) else None


def _called_on_self(method: ast.FunctionDef | ast.AsyncFunctionDef, self_name: str) -> set[str]:
    return {c.func.attr for c in ast.walk(method) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
            and isinstance(c.func.value, ast.Name) and c.func.value.id == self_name}


def _assigned(node: ast.AST, obj: str) -> list[tuple[str, int]]:
    """(attribute, line) of each ``obj.attr = ...`` / ``obj.attr += ...`` / ``setattr(obj, "attr", ...)``."""
    out: list[tuple[str, int]] = []
    for n in ast.walk(node):
        targets: list[ast.AST] = []
        if isinstance(n, ast.Assign):
            targets = [t for tgt in n.targets for t in ast.walk(tgt)]
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            targets = [n.target]
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr" and len(n.args) == 3 \
                and isinstance(n.args[0], ast.Name) and n.args[0].id == obj and isinstance(n.args[1], ast.Constant) \
                and isinstance(n.args[1].value, str):
            out.append((n.args[1].value, n.lineno))
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == obj:
                out.append((t.attr, t.lineno))
    return out


def _method_calls(node: ast.AST, names: frozenset[str]) -> list[ast.Call]:
    """Calls ``<anything>.name(...)`` under ``node``, for a name of ``names``."""
    return [c for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
            and c.func.attr in names]


def _after_a_call(index: ModuleIndex, node: ast.AST, jitted: frozenset[str]) -> bool:
    """``node`` runs after a call of the jitted method: a loop around it also calls it (or the
    loop calls what contains ``node``), or the function around it called it on an earlier line."""
    if any(_method_calls(loop, jitted) for loop in index.loops_around(node)):
        return True
    func = index.function_of(node)
    scope: ast.AST = func if func is not None else index.tree
    return any(c.lineno < getattr(node, "lineno", 0) for c in _method_calls(scope, jitted)
               if index.function_of(c) is func)


def _changed_attributes(index: ModuleIndex, cls: ast.ClassDef, jitted_names: frozenset[str],
                        rejits: str | None = None) -> dict[str, tuple[str, int]]:
    """{attribute: (function, line)} for attributes assigned again after the jitted method ran: in a
    method of the class (not a builder, nor one only builders call) that calls the jitted method
    itself, or that is called in a loop or after a call of the jitted method; or on an object of the
    class in this file, in a loop that calls the jitted method or after such a call. ``jitted_names``:
    the names it is called by; ``rejits``: the attribute holding it, which a method that assigns it
    again jits anew (a new trace sees the new values)."""
    methods = _methods(cls)
    by_builders = set().union(*(_called_on_self(m, s) for name, m in methods.items()
                                if name in _BUILDERS and (s := _self_name(m)) is not None))
    by_others = set().union(*(_called_on_self(m, s) for name, m in methods.items()
                              if name not in _BUILDERS and (s := _self_name(m)) is not None))
    out: dict[str, tuple[str, int]] = {}
    for name, m in methods.items():
        s = _self_name(m)
        if s is None or name in _BUILDERS or name in jitted_names or (name in by_builders and name not in by_others):
            continue
        runs_after = bool(_method_calls(m, jitted_names)) or any(
            bool(index.loops_around(c)) or _after_a_call(index, c, jitted_names)
            for c in _method_calls(index.tree, frozenset({name})) if index.function_of(c) is not m)
        assigned = _assigned(m, s)
        if not runs_after or rejits is not None and any(attr == rejits for attr, _ in assigned):
            continue
        for attr, line in assigned:
            out.setdefault(attr, (name, line))
    for func in ast.walk(index.tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)) or func in methods.values():
            continue
        body = list(index.scope_nodes(func)) if not isinstance(func, ast.Module) else [
            n for stmt in func.body if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            for n in ast.walk(stmt)]
        objects = {t.id for n in body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                   and isinstance(n.value.func, ast.Name) and n.value.func.id == cls.name
                   for t in n.targets if isinstance(t, ast.Name)}
        where = getattr(func, "name", "<module>")
        for obj in objects:
            for n in body:
                if not isinstance(n, (ast.Assign, ast.AugAssign, ast.Call)) \
                        or not _after_a_call(index, n, jitted_names):
                    continue
                for attr, line in _assigned(n, obj):
                    out.setdefault(attr, (where, line))
    return {a: v for a, v in out.items() if a not in methods}


def _first_read(cls: ast.ClassDef, method: ast.FunctionDef | ast.AsyncFunctionDef, self_name: str,
                changed: dict[str, tuple[str, int]]) -> tuple[ast.AST, str] | None:
    """(where to report, attribute): the first ``self.attr`` load of a changed attribute in
    ``method``; else the first ``self.helper(...)`` call there whose method (followed through the
    methods it calls on ``self``) reads one."""
    direct = [n for n in ast.walk(method) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)
              and isinstance(n.value, ast.Name) and n.value.id == self_name and n.attr in changed]
    if direct:
        first = min(direct, key=lambda n: (n.lineno, n.col_offset))
        return first, first.attr
    methods = _methods(cls)
    calls = sorted((c for c in ast.walk(method) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                    and isinstance(c.func.value, ast.Name) and c.func.value.id == self_name
                    and c.func.attr in methods), key=lambda c: (c.lineno, c.col_offset))
    for call in calls:
        assert isinstance(call.func, ast.Attribute)
        seen: set[str] = {method.name}
        todo = [call.func.attr]
        while todo:
            name = todo.pop()
            if name in seen or name not in methods:
                continue
            seen.add(name)
            m = methods[name]
            s = _self_name(m)
            if s is None:
                continue
            hit = next((n.attr for n in ast.walk(m) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)
                        and isinstance(n.value, ast.Name) and n.value.id == s and n.attr in changed), None)
            if hit is not None:
                return call, hit
            todo.extend(_called_on_self(m, s))
    return None
