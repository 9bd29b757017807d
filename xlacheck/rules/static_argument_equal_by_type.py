"""XLA423: a class whose ``__hash__``/``__eq__`` ignore the instance's data, taken as a ``jax.jit``
static argument (jax#9024)."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import jax_jitted
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_KEY = "static.hash_and_eq_by_type_new_data"


class StaticArgumentEqualByType(ModuleRule):
    """
    ## What it does
    Flags a class of this file that defines `__hash__` and `__eq__` reading no attribute of the
    instance (`hash(type(self).__name__)`, `type(self) is type(other)`), while its other methods
    read data the instance holds (`self.peak_lr`), in a file where a jitted function takes a
    static argument (`static_argnums`/`static_argnames`) that it uses the way the class is used:
    calls it when the class defines `__call__`, or reads one of the class's methods or
    attributes on it. Whether such an object keeps a stale value is read from the measured table
    `xlacheck/data/jax_cache_key.json` (`static.hash_and_eq_by_type_new_data`).

    ## Why is this bad?
    `jax.jit` keys its cache on a static argument's hash and equality. Two instances with
    different data that hash and compare equal (by type only) are one key: the second call hits
    the cache and runs the program traced with the first instance's values, silently (measured
    on jax 0.10.2: no trace, no compile, the first call's result; jax#9024).

    ## Example
    ```python
    class WarmupSchedule:
        def __init__(self, peak_lr):
            self.peak_lr = peak_lr
        def __hash__(self):
            return hash(type(self).__name__)
        def __eq__(self, other):
            return type(self) is type(other)
        def __call__(self, step):
            return self.peak_lr * step
    ```

    ## Use instead
    ```python
    @dataclasses.dataclass(frozen=True)  # hashes and compares by its fields
    class WarmupSchedule:
        peak_lr: float
        def __call__(self, step):
            return self.peak_lr * step
    ```

    ## Fix safety
    No automatic fix: which fields belong in the key is a design choice.
    """

    code = "XLA423"
    fix = None
    name = "static-argument-equal-by-type"
    severity = Severity.WRONG_RESULT

    VALID = (
        # hash and equality read the data: other data is another key
        Example("import jax\nfrom functools import partial\nclass Sched:\n    def __init__(self, lr):\n"
                "        self.lr = lr\n    def __hash__(self):\n        return hash(self.lr)\n"
                "    def __eq__(self, other):\n        return isinstance(other, Sched) and self.lr == other.lr\n"
                "    def __call__(self, step):\n        return self.lr * step\n"
                "@partial(jax.jit, static_argnums=0)\ndef update(sched, step, w):\n    return w - sched(step)\n"),
        # no data on the instance: equal by type is right
        Example("import jax\nfrom functools import partial\nclass Relu:\n    def __hash__(self):\n"
                "        return hash(type(self))\n    def __eq__(self, other):\n        return type(self) is type(other)\n"
                "    def __call__(self, x):\n        return jax.nn.relu(x)\n"
                "@partial(jax.jit, static_argnums=0)\ndef layer(act, x):\n    return act(x)\n"),
        # no jitted function takes a static argument used like the class
        Example("import jax\nclass Sched:\n    def __init__(self, lr):\n        self.lr = lr\n"
                "    def __hash__(self):\n        return hash(type(self).__name__)\n"
                "    def __eq__(self, other):\n        return type(self) is type(other)\n"
                "    def __call__(self, step):\n        return self.lr * step\n"
                "@jax.jit\ndef update(step, w):\n    return w - 0.1 * step\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\nclass WarmupSchedule:\n"
                "    def __init__(self, peak_lr, warmup_steps):\n        self.peak_lr = peak_lr\n"
                "        self.warmup_steps = warmup_steps\n    def __hash__(self):\n"
                "        return hash(type(self).__name__)\n    def __eq__(self, other):\n"
                "        return type(self) is type(other)\n    def __call__(self, step):\n"
                "        return self.peak_lr * jnp.minimum(1.0, (step + 1) / self.warmup_steps)\n"
                "@partial(jax.jit, static_argnums=0)\ndef sgd_update(schedule, step, w, g):\n"
                "    return w - schedule(step) * g\n",
                expected=(
                    (8, 5, '`WarmupSchedule` hashes and compares by its type only, and jitted `sgd_update` takes '
                           'it as static argument `schedule`: jax.jit keys its cache on the static argument\'s hash '
                           'and equality, so an instance with other data (`peak_lr`, `warmup_steps`) hits the cache '
                           'and silently runs with the first instance\'s values; make the data part of `__hash__` '
                           'and `__eq__` (a frozen dataclass)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not jax_cache.stale(_KEY):
            return
        # (jitted name, static parameter, how the body uses it: {"__call__"} or the attributes read)
        uses: list[tuple[str, str, set[str]]] = []
        for name, info in jax_jitted(ctx.facts, index):
            node = info.node
            if isinstance(node, ast.Lambda):
                continue
            for param in sorted(info.static_params):
                used: set[str] = set()
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == param:
                        used.add("__call__")
                    elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == param:
                        used.add(sub.attr)
                if used:
                    uses.append((name, param, used))
        if not uses:
            return
        for cls in (n for n in index.tree.body if isinstance(n, ast.ClassDef)):
            methods = {m.name: m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
            if "__hash__" not in methods or "__eq__" not in methods:
                continue
            if _reads_data(methods["__hash__"]) or _reads_data(methods["__eq__"]):
                continue
            data = _instance_data(methods)
            if not data:
                continue
            members = set(methods) | data
            hit = next(((n, p) for n, p, used in uses if used <= members), None)
            if hit is None:
                continue
            shown = ", ".join(f"`{d}`" for d in sorted(data))
            ctx.report(self, methods["__hash__"],
                       f"`{cls.name}` hashes and compares by its type only, and jitted `{hit[0]}` takes it as static "
                       f"argument `{hit[1]}`: jax.jit keys its cache on the static argument's hash and equality, so "
                       f"an instance with other data ({shown}) hits the cache and silently runs with the first "
                       "instance's values; make the data part of `__hash__` and `__eq__` (a frozen dataclass)")


def _self_name(method: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    params = method.args.posonlyargs + method.args.args
    return params[0].arg if params else None


def _reads_data(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The method reads an attribute of its arguments other than ``__class__``/``__name__``
    (``self.lr``, ``other.lr``, ``vars(self)``, ``self.__dict__``), or hands an argument to a call
    other than ``type``/``isinstance``/``id``: it may read the data."""
    args = {a.arg for a in method.args.posonlyargs + method.args.args}
    for sub in ast.walk(method):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id in args \
                and sub.attr not in ("__class__",):
            return True
        if isinstance(sub, ast.Call) and any(isinstance(a, ast.Name) and a.id in args for a in sub.args) \
                and not (isinstance(sub.func, ast.Name) and sub.func.id in ("type", "isinstance")):
            return True
    return False


def _instance_data(methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]) -> set[str]:
    """Attributes ``__init__`` sets on ``self`` that another method (not ``__hash__``/``__eq__``)
    reads."""
    init = methods.get("__init__")
    if init is None or _self_name(init) is None:
        return set()
    me = _self_name(init)
    stored = {t.attr for sub in ast.walk(init) if isinstance(sub, (ast.Assign, ast.AnnAssign))
              for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target])
              if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me}
    read: set[str] = set()
    for name, method in methods.items():
        if name in ("__init__", "__hash__", "__eq__"):
            continue
        this = _self_name(method)
        read |= {sub.attr for sub in ast.walk(method) if isinstance(sub, ast.Attribute)
                 and isinstance(sub.value, ast.Name) and sub.value.id == this and isinstance(sub.ctx, ast.Load)}
    return stored & read
