"""XLA428: a registered pytree class whose aux data holds a float computed per call, passed to ``jax.jit``."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis.contexts import FunctionInfo
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.pytrees import dataclass_fields
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import jax_jitted_calls_in_host_code
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_KEYS = ("pytree.aux_data_float_new_value", "pytree.dataclass_meta_field_float_new_value")
_REGISTER = frozenset({"jax.tree_util.register_pytree_node_class", "tree_util.register_pytree_node_class"})


class PytreeAuxDataPerCallValue(ModuleRule):
    """
    ## What it does
    Flags the aux data of a class registered with `jax.tree_util.register_pytree_node_class`
    (the second value `tree_flatten` returns) when it holds an attribute that `__init__` sets from
    one of its parameters, or a static field of a dataclass pytree (`meta_fields` of
    `jax.tree_util.register_dataclass`, `struct.field(pytree_node=False)`, `field(static=True)`),
    and host code of this file builds the class with a float computed at
    run time for that parameter (an arithmetic expression of a float literal and a parameter or
    loop variable of the function around it, `stddev=1.0 / epsilon`), then passes the instance
    (or the name it is bound to) to a jitted function in the same function. Whether a new aux
    value misses the cache is read from the measured table `xlacheck/data/jax_cache_key.json`
    (`pytree.aux_data_float_new_value`, `pytree.dataclass_meta_field_float_new_value`).

    ## Why is this bad?
    The aux data is part of the treedef, and `jax.jit` keys its cache on the treedef of every
    argument, comparing it by equality. A float that changes from call to call in aux data is a
    new cache key on every call: one trace and one XLA compile per new value (measured on jax
    0.10.2: 1 trace and 1 compile per new value, none for an equal one; mbi#196).

    ## Example
    ```python
    @register_pytree_node_class
    class Measurement:
        def __init__(self, values, stddev):
            self.values, self.stddev = values, stddev
        def tree_flatten(self):
            return (self.values,), self.stddev
        @classmethod
        def tree_unflatten(cls, stddev, children):
            return cls(children[0], stddev)

    def loss_for_budget(marginal, values, epsilon):
        return jitted_loss(marginal, Measurement(values, stddev=1.0 / epsilon))
    ```

    ## Use instead
    ```python
        def tree_flatten(self):
            return (self.values, self.stddev), None  # a leaf: traced, one compile
    ```

    ## Fix safety
    No automatic fix: moving a field from aux data to the leaves changes `tree_unflatten` and
    every reader that expects a Python float.
    """

    code = "XLA428"
    fix = None
    name = "pytree-aux-data-per-call-value"
    severity = Severity.RECOMPILE

    VALID = (
        # the aux value is the same constant every call
        Example("import jax\nimport jax.numpy as jnp\nfrom jax.tree_util import register_pytree_node_class\n"
                "@register_pytree_node_class\nclass Scaled:\n    def __init__(self, w, scale):\n"
                "        self.w = w\n        self.scale = scale\n    def tree_flatten(self):\n"
                "        return (self.w,), self.scale\n    @classmethod\n    def tree_unflatten(cls, aux, ch):\n"
                "        return cls(ch[0], aux)\n@jax.jit\ndef f(t):\n    return jnp.sum(t.w) * t.scale\n"
                "def run(w):\n    return f(Scaled(w, 0.5))\n"),
        # the per-call float is a leaf: traced, one compile
        Example("import jax\nimport jax.numpy as jnp\nfrom jax.tree_util import register_pytree_node_class\n"
                "@register_pytree_node_class\nclass Scaled:\n    def __init__(self, w, scale):\n"
                "        self.w = w\n        self.scale = scale\n    def tree_flatten(self):\n"
                "        return (self.w, self.scale), None\n    @classmethod\n    def tree_unflatten(cls, aux, ch):\n"
                "        return cls(*ch)\n@jax.jit\ndef f(t):\n    return jnp.sum(t.w) * t.scale\n"
                "def run(w, eps):\n    return f(Scaled(w, 1.0 / eps))\n"),
        # never passed to a jitted function
        Example("import jax\nimport jax.numpy as jnp\nfrom jax.tree_util import register_pytree_node_class\n"
                "@register_pytree_node_class\nclass Scaled:\n    def __init__(self, w, scale):\n"
                "        self.w = w\n        self.scale = scale\n    def tree_flatten(self):\n"
                "        return (self.w,), self.scale\n    @classmethod\n    def tree_unflatten(cls, aux, ch):\n"
                "        return cls(ch[0], aux)\ndef f(t):\n    return jnp.sum(t.w) * t.scale\n"
                "def run(w, eps):\n    return f(Scaled(w, 1.0 / eps))\n"),
        # a register_dataclass pytree whose per-call float is a data field
        Example("""
            import dataclasses
            import functools
            import jax
            import jax.numpy as jnp
            @functools.partial(jax.tree_util.register_dataclass, data_fields=["w", "scale"], meta_fields=["name"])
            @dataclasses.dataclass
            class Scaled:
                w: jax.Array
                scale: float
                name: str
            @jax.jit
            def step(t):
                return jnp.sum(t.w) * t.scale
            def train(w, steps):
                for i in range(steps):
                    out = step(Scaled(w, 0.1 / (i + 1), "sgd"))
        """),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\nfrom jax.tree_util import register_pytree_node_class\n"
                "@register_pytree_node_class\nclass Scaled:\n    def __init__(self, w, scale):\n"
                "        self.w = w\n        self.scale = scale\n    def tree_flatten(self):\n"
                "        return (self.w,), (self.scale,)\n    @classmethod\n    def tree_unflatten(cls, aux, ch):\n"
                "        return cls(ch[0], *aux)\n@jax.jit\ndef f(t):\n    return jnp.sum(t.w) * t.scale\n"
                "def train(w, steps):\n    for i in range(steps):\n        t = Scaled(w, scale=0.1 / (i + 1))\n"
                "        out = f(t)\n",
                expected=(
                    (10, 27, '`Scaled` keeps `scale` in its pytree aux data, and line 19 builds it with a float '
                             'computed per call (`0.1 / (i + 1)`) passed to jitted `f`: jax.jit keys its cache on '
                             'the treedef, so every new value traces and compiles again; return `scale` among the '
                             'children (a traced leaf) instead'),
                )),
        # a register_dataclass pytree whose per-call float is a meta field (aux data)
        Example("""
            import dataclasses
            import functools
            import jax
            import jax.numpy as jnp
            @functools.partial(jax.tree_util.register_dataclass, data_fields=["w"], meta_fields=["scale"])
            @dataclasses.dataclass
            class Scaled:
                w: jax.Array
                scale: float
            @jax.jit
            def step(t):
                return jnp.sum(t.w) * t.scale
            def train(w, steps):
                for i in range(steps):
                    out = step(Scaled(w, 0.1 / (i + 1)))
        """, expected=((9, 5, '`Scaled` keeps `scale` in its pytree aux data, and line 15 builds it with a float '
                                'computed per call (`0.1 / (i + 1)`) passed to jitted `step`: jax.jit keys its cache '
                                'on the treedef, so every new value traces and compiles again; make `scale` a data '
                                'field (a traced leaf) instead'),)),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not all(jax_cache.recompiles(key) for key in _KEYS):
            return
        resolve = ctx.facts.aliases.resolve
        # class -> ({attribute: (constructor parameter, node to report)}, positional parameters in order)
        classes: dict[str, tuple[dict[str, tuple[str, ast.AST]], list[str], str]] = {}
        for cls in (n for n in ctx.tree.body if isinstance(n, ast.ClassDef)):
            init = _init(cls)
            if any(resolve(d) in _REGISTER for d in cls.decorator_list) and init is not None:
                aux = _aux_attributes(cls)
                if aux:
                    classes[cls.name] = (aux, [a.arg for a in init.args.args[1:]], "return `{}` among the children")
            elif init is None:
                # a dataclass pytree: its static fields (`field(pytree_node=False)`, `meta_fields`) are aux data
                fields = dataclass_fields(cls)
                static: dict[str, tuple[str, ast.AST]] = {name: (name, node) for name, is_static, node in fields
                                                          if is_static}
                if static:
                    classes[cls.name] = (static, [name for name, _, _ in fields], "make `{}` a data field")
        if not classes:
            return
        index = ctx.index
        jitted_calls = list(jax_jitted_calls_in_host_code(ctx.facts, index, ctx.path))
        if not jitted_calls:
            return
        reported: set[tuple[str, str]] = set()
        for call, _ in index.calls:
            if not isinstance(call.func, ast.Name) or call.func.id not in classes:
                continue
            aux, positional, advice = classes[call.func.id]
            func = index.function_of(call)
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            jitted = _passed_to_jit(call, func, index, jitted_calls)
            if jitted is None:
                continue
            varying = _varying_names(func)
            for attr, (param, node) in sorted(aux.items()):
                value = _argument(call, positional, param)
                if value is None or (call.func.id, attr) in reported or not _per_call_float(value, varying):
                    continue
                reported.add((call.func.id, attr))
                ctx.report(self, node,
                           f"`{call.func.id}` keeps `{attr}` in its pytree aux data, and line {call.lineno} builds it "
                           f"with a float computed per call (`{ast.unparse(value)}`) passed to jitted `{jitted}`: "
                           "jax.jit keys its cache on the treedef, so every new value traces and compiles again; "
                           f"{advice.format(attr)} (a traced leaf) instead")


def _init(cls: ast.ClassDef) -> ast.FunctionDef | None:
    return next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)


def _aux_attributes(cls: ast.ClassDef) -> dict[str, tuple[str, ast.AST]]:
    """attribute -> (the ``__init__`` parameter it is set from, the aux expression naming it), for
    the ``self.attr`` names in the aux half of every ``return children, aux`` of ``tree_flatten``."""
    flatten = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "tree_flatten"), None)
    init = _init(cls)
    if flatten is None or init is None or not flatten.args.args or len(init.args.args) < 2:
        return {}
    me, init_self = flatten.args.args[0].arg, init.args.args[0].arg
    params = {a.arg for a in init.args.args[1:] + init.args.kwonlyargs}
    from_param: dict[str, str] = {}
    for stmt in ast.walk(init):
        if isinstance(stmt, ast.Assign):
            pairs: list[tuple[ast.expr, ast.expr]] = []
            for target in stmt.targets:
                if isinstance(target, ast.Tuple) and isinstance(stmt.value, ast.Tuple) \
                        and len(target.elts) == len(stmt.value.elts):
                    pairs.extend(zip(target.elts, stmt.value.elts))
                else:
                    pairs.append((target, stmt.value))
            for t, v in pairs:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == init_self \
                        and isinstance(v, ast.Name) and v.id in params:
                    from_param[t.attr] = v.id
    out: dict[str, tuple[str, ast.AST]] = {}
    for ret in (n for n in ast.walk(flatten) if isinstance(n, ast.Return)):
        if not (isinstance(ret.value, ast.Tuple) and len(ret.value.elts) == 2):
            continue
        aux = ret.value.elts[1]
        for elt in (aux.elts if isinstance(aux, (ast.Tuple, ast.List)) else [aux]):
            if isinstance(elt, ast.Attribute) and isinstance(elt.value, ast.Name) and elt.value.id == me \
                    and elt.attr in from_param:
                out.setdefault(elt.attr, (from_param[elt.attr], aux))
    return out


def _argument(call: ast.Call, names: list[str], param: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == param:
            return kw.value
    if param in names and names.index(param) < len(call.args):
        arg = call.args[names.index(param)]
        return None if isinstance(arg, ast.Starred) else arg
    return None


def _varying_names(func: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """Parameters of ``func`` and the targets of loops in it: the names whose value may differ per call."""
    names = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
    for sub in ast.walk(func):
        if isinstance(sub, (ast.For, ast.AsyncFor, ast.comprehension)):
            names |= {n.id for n in ast.walk(sub.target) if isinstance(n, ast.Name)}
    names.discard("self")
    return frozenset(names)


def _per_call_float(value: ast.expr, varying: frozenset[str]) -> bool:
    """An arithmetic expression with a float literal and a name that varies per call: a float."""
    if not isinstance(value, ast.BinOp):
        return False
    nodes = list(ast.walk(value))
    has_float = any(isinstance(n, ast.Constant) and isinstance(n.value, float) for n in nodes)
    return has_float and any(isinstance(n, ast.Name) and n.id in varying for n in nodes)


def _passed_to_jit(call: ast.Call, func: ast.AST, index: ModuleIndex,
                   jitted_calls: list[tuple[ast.Call, FunctionInfo]]) -> str | None:
    """The jitted callee that receives the instance built by ``call`` in ``func``: the call itself as
    an argument, or the name it is assigned to."""
    parent = index.parent(call)
    bound = parent.targets[0].id if isinstance(parent, ast.Assign) and len(parent.targets) == 1 \
        and isinstance(parent.targets[0], ast.Name) else None
    for jcall, _ in jitted_calls:
        if index.function_of(jcall) is not func:
            continue
        for arg in list(jcall.args) + [k.value for k in jcall.keywords]:
            if arg is call or (bound is not None and isinstance(arg, ast.Name) and arg.id == bound):
                return ast.unparse(jcall.func)
    return None
