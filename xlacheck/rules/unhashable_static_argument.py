"""XLA410: a ``jax.jit`` static argument that cannot be hashed (an array, a list, a dict)."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis.contexts import FunctionInfo
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.tables import JAX_JIT_NAMES
from xlacheck.rules._recompile_scope import (
    CALLER_LEVELS,
    jax_static_argument_calls,
    jitted_with_static_params,
    static_hash_kind,
)
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# NumPy functions that build an ndarray (unhashable like a JAX array; xlacheck never imports NumPy).
_NUMPY_ARRAY_BUILDERS = frozenset({f"np.{f}" for f in (
    "array", "asarray", "arange", "zeros", "ones", "full", "empty", "linspace", "eye", "stack", "concatenate",
    "zeros_like", "ones_like", "full_like", "empty_like", "asanyarray", "ascontiguousarray", "frombuffer",
    "fromiter", "tile", "repeat", "cumsum", "sort", "argsort", "unique", "nonzero", "flatnonzero", "where")})
_ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jnp.ndarray", "np.ndarray", "jax.numpy.ndarray", "chex.Array"})
# Annotations of a static parameter that name an unhashable type (what the annotation's head spells).
_UNHASHABLE_ANNOTATIONS = {"list": "a list", "List": "a list", "typing.List": "a list", "dict": "a dict",
                           "Dict": "a dict", "typing.Dict": "a dict", "set": "a set", "Set": "a set",
                           "typing.Set": "a set"}

# Members only JAX arrays have (not tuples, configs, jax.ShapeDtypeStruct, which has
# .shape/.dtype/.ndim, or NumPy scalars, which have .astype/.item/.tolist: all hashable, and
# np.float32(2.0) as a static argument compiles once): a static parameter used through one is an array.
_ARRAY_ONLY_MEMBERS = frozenset({"at"})

_UNHASHABLE_LITERALS: dict[type[ast.AST], str] = {
    ast.List: "a list", ast.ListComp: "a list", ast.Dict: "a dict", ast.DictComp: "a dict", ast.Set: "a set",
    ast.SetComp: "a set",
}

# Builtins that always return a new mutable container (unhashable), unless this file rebinds the name.
# `slice` objects hash only from Python 3.12 on (jax 0.10.2 runs on 3.11: measured ValueError).
_SLICE_HASHABLE = (3, 12)  # a project whose oldest Python is 3.12 or later may pass slices (config target-version)
_UNHASHABLE_BUILTINS = {"list": "a list", "sorted": "a list", "dict": "a dict", "set": "a set", "slice": "a slice"}


def _rebinds_builtin(index: ModuleIndex, name: str) -> bool:
    """This file binds ``name`` itself (a def, class, import or assignment), so it is not the builtin."""
    for node in ast.walk(index.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name) == name for a in node.names):
            return True
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
    return False


class UnhashableStaticArgument(ModuleRule):
    """
    ## What it does
    Flags a `jax.jit`/`jax.pmap` static argument (`static_argnums`, `static_argnames`) that a
    call in this file passes as a JAX array (the result of a `jax.numpy`/`jax.lax` function,
    per the generated JAX API table), a NumPy array (`np.array`, `np.arange`, ...), a parameter
    annotated as an array, a traced value (a non-static parameter of the jitted function the
    call runs in), an object of a class of this file that cannot be hashed (a dataclass without
    `frozen=True`, a class with `__eq__` and no `__hash__`; a frozen dataclass or NamedTuple of
    this file built with a list, dict or set literal field, since its generated hash hashes every
    field), a list, dict or set literal, or a
    call of a builtin that builds one (`list(...)`, `sorted(...)`, `dict(...)`, `set(...)`) or a
    `slice(...)` (hashable only from Python 3.12: flagged when the project's oldest Python,
    config `target-version` or `requires-python`, else the running interpreter, is older) (also
    through a name assigned once, an array method such as `.astype(...)` of a JAX array, or the
    callers: a parameter of the enclosing function that a call of it in this file passes such a
    value, also through up to two functions that pass it on); a static parameter annotated with such a type (`cfg: Config`, `sizes: list[int]`,
    `idx: jax.Array`); and a static parameter that the jitted function itself reads as a dict
    (`hparams["activation"]`) or uses through a member only JAX arrays have (`w.at[...]`;
    not `.astype`/`.item()`/`.tolist()`, which a hashable NumPy scalar also has, nor
    `.shape`/`.dtype`, which a hashable `jax.ShapeDtypeStruct` or a config also has).

    ## Why is this bad?
    `jax.jit` keys its compilation cache on the static arguments' hashes. A JAX array, a list, a
    dict or a set has no hash: the call fails with `ValueError: Non-hashable static arguments
    are not supported` (older JAX hashed them by identity and recompiled on every call). A value
    computed by JAX is not a Python number even when it holds one, and inside a jitted function
    its non-static parameters are tracers, which are unhashable too (measured on jax 0.10.2:
    NumPy arrays, JAX arrays, tracers, lists and dicts all raise this error; a NumPy integer
    scalar does not).

    ## Example
    ```python
    grid = jax.jit(lambda n: jnp.arange(-n, n), static_argnums=0)
    grid(jnp.add(radius, 1))
    ```

    ## Use instead
    ```python
    grid(int(radius) + 1)  # a Python int, computed outside the jitted function
    # a dict of options: a tuple of pairs, a frozen dataclass, or flax's FrozenDict
    ```

    ## Fix safety
    No automatic fix: the hashable form (tuple, frozen dataclass, Python int) depends on the code
    around it.
    """

    code = "XLA410"
    fix = None
    name = "unhashable-static-argument"

    VALID = (
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnums=1)\ndef sample(key, n):\n"
                "    return jax.random.normal(key, (n,))\ndef run(key):\n    return sample(key, 8)\n"),
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnames=('sizes',))\ndef split(x, sizes):\n"
                "    return x[: sizes[0]], x[sizes[0]:]\ndef run(x):\n    return split(x, sizes=(2, 3))\n"),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, table):\n"
                "    return x * table['scale']\n"),
        Example("import jax\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnums=1)\ndef head(x, n):\n    return x[:n]\n"
                "@partial(jax.jit, static_argnums=1)\ndef first(x, n):\n    return head(x, n)\n"
                "def run(x, n: int = 2):\n    return head(x, n)\n"),
        Example("import jax\nfrom functools import partial\nSTATIC = (1,)\n"
                "@partial(jax.jit, static_argnums=1)\ndef head(x, n):\n    return x[:n]\n"
                "@partial(jax.jit, static_argnums=STATIC)\ndef first(x, n):\n    return head(x, n)\n"),
        # .shape/.dtype: a jax.ShapeDtypeStruct (hashable) has them too
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=(1,))\n"
                "def fit_to(x, spec):\n    return x.reshape(spec.shape).astype(spec.dtype)\n"),
        # .astype/.item/.tolist: a NumPy scalar (np.float32(2.0), hashable) has them too
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=(1,))\n"
                "def scale(x, t):\n    return x * t.item() + t.astype(x.dtype)\n"),
        # a tuple of the sorted names is hashable: one compile per distinct selection
        Example("import jax\ndef _select(x, keep):\n    return x[:, list(keep)]\n"
                "select = jax.jit(_select, static_argnames=['keep'])\n"
                "def run(x, cols):\n    return select(x, keep=tuple(sorted(cols)))\n"),
        # a frozen dataclass holding a tuple, or hashing its dict itself: hashable
        Example("import jax\nimport dataclasses\nfrom functools import partial\n@dataclasses.dataclass(frozen=True)\n"
                "class Head:\n    ids: tuple\n@dataclasses.dataclass(frozen=True)\nclass Table:\n    ids: dict\n"
                "    def __hash__(self):\n        return hash(tuple(sorted(self.ids.items())))\n"
                "@partial(jax.jit, static_argnums=1)\ndef mask(x, head):\n    return x * len(head.ids)\n"
                "def run(x):\n    return mask(x, Head(((\"pad\", 0),))) + mask(x, Table({\"pad\": 0}))\n"),
        # functools.partial over a function jitted by its decorator binds keywords that the jitted function receives
        # at each call: traced unless its static_argnames name them (sofima's lax.scan body, real-code batch 24)
        Example("import functools as ft\nimport jax\nimport jax.numpy as jnp\n"
                "@ft.partial(jax.jit, static_argnames=['stride'])\n"
                "def step(mesh: jnp.ndarray, nbor: jnp.ndarray, x: jnp.ndarray, stride=(2, 2)):\n"
                "    return mesh + x * stride[0] + nbor, None\n"
                "def run(mesh, x, nbors):\n"
                "    return jax.lax.scan(ft.partial(step, x=x, stride=(2, 2)), mesh, nbors)[0]\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\ndef grid(half):\n    return jnp.arange(-half, half)\n"
                "grid_jit = jax.jit(grid, static_argnums=0)\ndef grid_for(r):\n"
                "    return grid_jit(jnp.add(r, 1))\n",
                expected=(
                    (7, 21, 'static argument `half` of jitted `grid_jit` receives a JAX array (jnp.add): jax.jit '
                            'hashes static arguments for its cache and arrays are unhashable (ValueError: '
                            'Non-hashable static arguments are not supported); pass a Python value or make the '
                            'argument traced'),
                )),
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnames=('hparams',))\ndef forward(x, hparams):\n"
                "    return x * hparams['scale']\n",
                expected=(
                    (6, 16, 'static argument `hparams` of jitted `forward` is read as a dict: jax.jit hashes static '
                            'arguments for its cache and dicts are unhashable (ValueError: Non-hashable static '
                            'arguments are not supported); pass a tuple, a frozen dataclass or a FrozenDict'),
                )),
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=(1,))\n"
                "def pick(x, cols):\n    return x[:, cols]\ndef run(x):\n    return pick(x, [0, 2])\n",
                expected=(
                    (7, 20, 'static argument `cols` of jitted `pick` receives a list: jax.jit hashes static '
                            'arguments for its cache and lists are unhashable (ValueError: Non-hashable static '
                            'arguments are not supported); pass a tuple'),
                )),
        Example("import jax\nimport numpy as np\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnums=1)\ndef head(x, n):\n    return x[:n]\n"
                "@jax.jit\ndef first(x, n):\n    return head(x, n)\n"
                "def run(x):\n    return head(x, np.arange(3))\n",
                expected=(
                    (9, 20, 'static argument `n` of jitted `head` receives a traced value (non-static parameter of '
                            'jitted `first`): jax.jit hashes static arguments for its cache and tracers are '
                            'unhashable (ValueError: Non-hashable static arguments are not supported); make the '
                            'parameter static in the outer function too, or traced in this one'),
                    (11, 20, 'static argument `n` of jitted `head` receives a NumPy array (np.arange): jax.jit hashes '
                             'static arguments for its cache and arrays are unhashable (ValueError: Non-hashable '
                             'static arguments are not supported); pass a Python value or make the argument traced'),
                )),
        Example("import jax\nimport dataclasses\nfrom functools import partial\n@dataclasses.dataclass\n"
                "class Config:\n    width: int = 4\n@partial(jax.jit, static_argnames=('cfg',))\n"
                "def widen(x, cfg: Config):\n    return x.repeat(cfg.width, axis=-1)\n",
                expected=(
                    (8, 14, 'static argument `cfg` of jitted `widen` is annotated as a `Config` (a dataclass or class '
                            'with __eq__ and no __hash__): jax.jit hashes static arguments for its cache and such '
                            'objects are unhashable (ValueError: Non-hashable static arguments are not supported); '
                            'declare it @dataclass(frozen=True)'),
                )),
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnums=1)\ndef pad_to(x, widths):\n    return jnp.pad(x, widths)\n"
                "def pad_batch(x, widths):\n    return pad_to(x, widths)\n"
                "def run(x):\n    return pad_batch(x, [(0, 1), (0, 2)])\n",
                expected=(
                    (8, 22, 'static argument `widths` of jitted `pad_to` receives a list, passed to `pad_batch()` at '
                            'line 10: jax.jit hashes static arguments for its cache and lists are unhashable '
                            '(ValueError: Non-hashable static arguments are not supported); pass a tuple'),
                )),
        # used through a member only JAX arrays have: unhashable whatever the caller passes
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=(1,))\n"
                "def bump(x, w):\n    return x + w.at[0].set(0.0)\n",
                expected=(
                    (5, 16, 'static argument `w` of jitted `bump` is used as an array (`.at`): jax.jit hashes '
                            'static arguments for its cache and arrays are unhashable (ValueError: Non-hashable '
                            'static arguments are not supported, measured: static.jax_array, static.numpy_array); '
                            'make the argument traced, or pass a tuple of Python numbers'),
                )),
        # a builtin that always builds a new container: sorted() returns a list
        Example("import jax\ndef _select(x, keep):\n    return x[:, list(keep)]\n"
                "select = jax.jit(_select, static_argnames=['keep'])\n"
                "def run(x, cols):\n    return select(x, keep=sorted(cols))\n",
                expected=(
                    (6, 27, 'static argument `keep` of jitted `select` receives a list: jax.jit hashes static '
                            'arguments for its cache and lists are unhashable (ValueError: Non-hashable static '
                            'arguments are not supported); pass a tuple'),
                )),
        # a slice object (reports17, after jax#3708): unhashable on Python 3.11 (a project whose oldest
        # Python is 3.12, target-version = "py312", is not flagged: tests/xlacheck/test_shared_facts.py)
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
                "def window(x, s):\n    return x[:, s]\ndef run(x):\n    return window(x, slice(1, 4))\n",
                target_python=(3, 11), expected=(
                    (7, 22, 'static argument `s` of jitted `window` receives a slice: jax.jit hashes static '
                            'arguments for its cache and slices are unhashable (ValueError: Non-hashable static '
                            'arguments are not supported); pass its bounds as a tuple and slice inside (slices '
                            'hash only from Python 3.12)'),
                )),
        # a frozen dataclass whose field is a dict (equinox#1089): its generated hash hashes the dict
        Example("import jax\nimport dataclasses\nfrom functools import partial\n@dataclasses.dataclass(frozen=True)\n"
                "class Head:\n    ids: dict\n@partial(jax.jit, static_argnums=1)\ndef mask(x, head):\n"
                "    return x * len(head.ids)\ndef run(x):\n    return mask(x, Head({\"pad\": 0}))\n",
                expected=(
                    (11, 20, 'static argument `head` of jitted `mask` receives a `Head` holding a dict (its generated '
                             '__hash__ hashes every field): jax.jit hashes static arguments for its cache and objects '
                             'holding one are unhashable (ValueError: Non-hashable static arguments are not '
                             'supported); store a hashable value in the field instead (a tuple of pairs, a '
                             'FrozenDict)'),
                )),
        # the array reaches the static parameter through two functions that pass it on (mcx#58's warm-up)
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnums=2)\ndef leapfrog(q, p, m, eps):\n    return q + eps * m * p\n"
                "def proposal(q, p, m, eps):\n    return leapfrog(q, p, m, eps)\n"
                "def sampler(q, p, m):\n    return proposal(q, p, m, 0.1)\n"
                "def run(q, p):\n    return sampler(q, p, jnp.ones(3))\n",
                expected=(
                    (8, 27, 'static argument `m` of jitted `leapfrog` receives a JAX array (jnp.ones), passed to '
                            '`sampler()` at line 12 and on to `proposal()` at line 10: jax.jit hashes static '
                            'arguments for its cache and arrays are unhashable (ValueError: Non-hashable static '
                            'arguments are not supported); pass a Python value or make the argument traced'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not any(info.jax and info.static_params for info in ctx.facts.functions):
            return
        jitted = dict(jitted_with_static_params(ctx.facts, index))
        for caller_name, info in jitted.items():
            self._check_body(ctx, index, caller_name, info)
        for call, bound in jax_static_argument_calls(ctx.facts, index):
            shown = ast.unparse(call.func)  # `step`, or `self._step` for a jitted method
            for param, arg in bound:
                what = self._unhashable(ctx, index, arg)
                if what is None:
                    continue
                fix = "make the parameter static in the outer function too, or traced in this one" \
                    if what.startswith("a traced value") else _fix(what)
                noun = _noun(what)
                ctx.report(self, arg, f"static argument `{param}` of jitted `{shown}` receives {what}: jax.jit "
                                      f"hashes static arguments for its cache and {noun} are unhashable (ValueError: "
                                      f"Non-hashable static arguments are not supported); {fix}")

    def _check_body(self, ctx: ModuleContext, index: ModuleIndex, caller_name: str, info: FunctionInfo) -> None:
        """A static parameter annotated with an unhashable type, or one the function reads as a
        dict (``p["key"]``) and never rebinds."""
        node = info.node
        static = set(info.static_params)
        args = node.args
        for param in args.posonlyargs + args.args + args.kwonlyargs:
            if param.arg not in static or param.annotation is None:
                continue
            what = self._annotated(ctx, index, param.annotation)
            if what is not None:
                ctx.report(self, param, f"static argument `{param.arg}` of jitted `{caller_name}` is annotated as "
                                        f"{what}: jax.jit hashes static arguments for its cache and {_noun(what)} are "
                                        "unhashable (ValueError: Non-hashable static arguments are not supported); "
                                        f"{_fix(what)}")
        for sub in index.scope_nodes(node):
            if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
                targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                for t in targets:
                    static -= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
        reported: set[str] = set()
        for sub in index.scope_nodes(node):
            if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name) and sub.value.id in static \
                    and sub.value.id not in reported and isinstance(sub.slice, ast.Constant) \
                    and isinstance(sub.slice.value, str):
                reported.add(sub.value.id)
                ctx.report(self, sub, f"static argument `{sub.value.id}` of jitted `{caller_name}` is read as a "
                                      "dict: jax.jit hashes static arguments for its cache and dicts are unhashable "
                                      "(ValueError: Non-hashable static arguments are not supported); pass a tuple, "
                                      "a frozen dataclass or a FrozenDict")
            elif isinstance(sub, ast.Attribute) and sub.attr in _ARRAY_ONLY_MEMBERS and isinstance(sub.value, ast.Name) \
                    and sub.value.id in static and sub.value.id not in reported:
                reported.add(sub.value.id)
                ctx.report(self, sub, f"static argument `{sub.value.id}` of jitted `{caller_name}` is used as an "
                                      f"array (`.{sub.attr}`): jax.jit hashes static arguments for its cache and "
                                      "arrays are unhashable (ValueError: Non-hashable static arguments are not "
                                      "supported, measured: static.jax_array, static.numpy_array); make the argument "
                                      "traced, or pass a tuple of Python numbers")

    @staticmethod
    def _unhashable(ctx: ModuleContext, index: ModuleIndex, arg: ast.expr, depth: int = 0,
                    callers: int = CALLER_LEVELS) -> str | None:
        """What unhashable value ``arg`` certainly is: a list/dict/set literal, or a JAX array (the
        result of a jax.numpy/jax.lax function the JAX API table measured as returning one); for a
        parameter, what the calls of its function in this file pass, followed back through up to
        ``callers`` functions that pass on a parameter of their own."""
        what = _UNHASHABLE_LITERALS.get(type(arg))
        if what is not None:
            return what
        if isinstance(arg, ast.Call):
            if isinstance(arg.func, ast.Name) and arg.func.id in _UNHASHABLE_BUILTINS \
                    and not _rebinds_builtin(index, arg.func.id) \
                    and (arg.func.id != "slice" or ctx.facts.target_python < _SLICE_HASHABLE):
                return _UNHASHABLE_BUILTINS[arg.func.id]  # list(shape), sorted(cols), set(keys)
            if isinstance(arg.func, ast.Name) and static_hash_kind(index, arg.func.id) == "unhashable":
                return f"a `{arg.func.id}` (a dataclass or class with __eq__ and no __hash__)"
            callee = arg.func.id if isinstance(arg.func, ast.Name) else None
            fields = _hashed_fields(index, callee) if callee is not None else None
            if fields is not None:
                # a frozen dataclass or NamedTuple hashes the tuple of its fields: one unhashable
                # field value (a dict of ids) makes hashing the object raise (equinox#1089); a field
                # declared field(hash=False) or field(compare=False) is left out of that tuple
                names, hashed = fields
                passed = [(names[i] if names is not None and i < len(names) else None, v)
                          for i, v in enumerate(arg.args)]
                passed += [(k.arg, k.value) for k in arg.keywords if k.arg is not None]
                for field_name, value in passed:
                    if hashed is not None and field_name not in hashed:
                        continue  # left out of the hash, or a position no field of this class names
                    inner = UnhashableStaticArgument._unhashable(ctx, index, value, depth + 1, callers=0)
                    if inner is not None and inner in _UNHASHABLE_LITERALS.values():
                        return f"a `{callee}` holding {inner} (its generated __hash__ hashes every field)"
            name = ctx.facts.aliases.resolve(arg.func)
            if name in _NUMPY_ARRAY_BUILDERS:
                return f"a NumPy array ({name})"
            fact = api_table.fact_for(name) if name is not None and name.startswith(("jnp.", "lax.", "jax.")) else None
            if fact is not None and fact.canonical.startswith("jax.") and fact.is_tensor_valued:
                return f"a JAX array ({name})"
            if name is None and isinstance(arg.func, ast.Attribute):
                # `jnp.ceil(r).astype(jnp.int32)`: a jax.Array method is the jax.numpy function of the
                # same name (per the table), so on a JAX array it returns one too
                method = api_table.fact_for(f"jnp.{arg.func.attr}")
                inner = UnhashableStaticArgument._unhashable(ctx, index, arg.func.value, depth)
                if method is not None and method.is_tensor_valued and inner is not None and "JAX array" in inner:
                    return inner
            return None
        if isinstance(arg, ast.Name) and depth == 0:
            func = index.function_of(arg)
            if func is None or isinstance(func, ast.Lambda):
                return None
            rebound = [n for n in index.scope_nodes(func) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign,
                                                                             ast.For, ast.NamedExpr, ast.With))
                       and any(isinstance(t, ast.Name) and t.id == arg.id for t in ast.walk(
                           ast.Tuple(elts=n.targets, ctx=ast.Store()) if isinstance(n, ast.Assign)
                           else n.target if isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr))
                           else ast.Tuple(elts=[i.optional_vars for i in n.items if i.optional_vars],
                                          ctx=ast.Store())))]
            if not rebound:
                return UnhashableStaticArgument._parameter(ctx, func, arg.id) or (
                    UnhashableStaticArgument._from_callers(ctx, index, func, arg.id, callers) if callers else None)
            if len(rebound) == 1 and isinstance(rebound[0], ast.Assign):
                return UnhashableStaticArgument._unhashable(ctx, index, rebound[0].value, depth + 1)
        return None

    @staticmethod
    def _from_callers(ctx: ModuleContext, index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef,
                      name: str, callers: int) -> str | None:
        """What unhashable value a call of ``func`` in this file passes for its parameter ``name``
        (``def grid_for(r): return grid(r)`` called as ``grid_for(jnp.add(r, 1))``), also where that
        call passes on a parameter of its own function, up to ``callers`` functions back (``sampler(q, p,
        jnp.ones(3))``, which calls ``hmc_proposal(q, p, m)``, which calls the jitted function)."""
        args = func.args
        if args.vararg is not None:
            return None
        params = [a.arg for a in args.posonlyargs + args.args]
        for site, _ in index.calls:
            if not isinstance(site.func, ast.Name) or site.func.id != func.name or index.function_of(site) is func:
                continue
            passed = next((kw.value for kw in site.keywords if kw.arg == name), None)
            if passed is None and name in params and params.index(name) < len(site.args):
                passed = site.args[params.index(name)]
                if any(isinstance(a, ast.Starred) for a in site.args[:params.index(name) + 1]):
                    passed = None
            if passed is None:
                continue
            what = UnhashableStaticArgument._unhashable(ctx, index, passed, 0, callers=callers - 1)
            if what is not None and not what.startswith("a traced value"):
                on = " and on" if ", passed to `" in what else ", passed"
                return f"{what}{on} to `{func.name}()` at line {site.lineno}"
        return None

    @staticmethod
    def _annotated(ctx: ModuleContext, index: ModuleIndex, annotation: ast.expr) -> str | None:
        """What unhashable type an annotation names: a list/dict/set, an array, or an unhashable class of this file."""
        head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
        if isinstance(head, ast.Constant) and isinstance(head.value, str):
            try:
                head = ast.parse(head.value, mode="eval").body
            except SyntaxError:
                return None
            head = head.value if isinstance(head, ast.Subscript) else head
        text = ast.unparse(head)
        if text in _UNHASHABLE_ANNOTATIONS:
            return _UNHASHABLE_ANNOTATIONS[text]
        if ctx.facts.aliases.resolve(head) in _ARRAY_ANNOTATIONS:
            return "an array"
        if isinstance(head, ast.Name) and static_hash_kind(index, head.id) == "unhashable":
            return f"a `{head.id}` (a dataclass or class with __eq__ and no __hash__)"
        return None

    @staticmethod
    def _parameter(ctx: ModuleContext, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> str | None:
        """A parameter that holds an array: annotated as one, or traced by the jitted function it belongs to."""
        args = func.args
        positional = args.posonlyargs + args.args
        with_default = {a.arg for a in positional[len(positional) - len(args.defaults):]} | {
            a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}
        param = next((a for a in positional + args.kwonlyargs if a.arg == name), None)
        if param is None:
            return None
        if param.annotation is not None and ctx.facts.aliases.resolve(param.annotation) in _ARRAY_ANNOTATIONS:
            return "an array (annotated)"
        info = ctx.facts.by_node.get(id(func))
        if info is not None and info.jax and info.jit_entry and name not in info.static_params \
                and name not in with_default and info.cls is None \
                and _static_sets_are_literal(ctx, info.traced_entry, func.name):
            return f"a traced value (non-static parameter of jitted `{func.name}`)"
        return None


def _hashed_fields(index: ModuleIndex, class_name: str) -> tuple[list[str] | None, set[str] | None] | None:
    """For a class of this file hashed by value through the hash Python generates from its fields (a
    frozen or ``unsafe_hash`` dataclass with ``eq``, a NamedTuple), not through a ``__hash__`` of its
    own: its own fields in order (None where a base class may add fields before them, so positions
    say nothing) and those the hash reads (None: all; not a ``field(hash=False)`` or
    ``field(compare=False)``). None for any other class (``frozen=True, eq=False`` hashes by identity)."""
    if static_hash_kind(index, class_name) != "value":
        return None
    cls = next(c for c in ast.walk(index.tree) if isinstance(c, ast.ClassDef) and c.name == class_name)
    if any(isinstance(s, ast.FunctionDef) and s.name == "__hash__" or isinstance(s, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__hash__" for t in s.targets) for s in cls.body):
        return None
    for dec in cls.decorator_list:
        if isinstance(dec, ast.Call) and any(k.arg == "eq" and not (isinstance(k.value, ast.Constant)
                                                                    and k.value.value is True) for k in dec.keywords):
            return None  # eq=False: no generated __hash__, the object's identity
    own = [s for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
           and "ClassVar" not in ast.unparse(s.annotation)]
    names = [s.target.id for s in own]  # type: ignore[union-attr]
    bases = [ast.unparse(b) for b in cls.bases]
    positional = names if all(b in ("NamedTuple", "typing.NamedTuple", "object") for b in bases) else None
    left_out = {s.target.id for s in own if _left_out_of_hash(s.value)}  # type: ignore[union-attr]
    return positional, (set(names) - left_out if left_out else None)


def _left_out_of_hash(default: ast.expr | None) -> bool:
    """``field(hash=False)``, or ``field(compare=False)`` with no ``hash=`` (hash follows compare)."""
    if not (isinstance(default, ast.Call) and ast.unparse(default.func).rsplit(".", 1)[-1] == "field"):
        return False
    options = {k.arg: k.value for k in default.keywords}
    hash_option = options.get("hash")
    if hash_option is not None:
        return isinstance(hash_option, ast.Constant) and hash_option.value is False
    compare = options.get("compare")
    return isinstance(compare, ast.Constant) and compare.value is False


def _noun(what: str) -> str:
    what = what.split(", passed to")[0]
    if " holding " in what:
        return "objects holding one"
    if what.startswith("a traced value"):
        return "tracers"
    if "dataclass" in what:
        return "such objects"
    return "arrays" if "array" in what else what[2:] + "s"


def _fix(what: str) -> str:
    what = what.split(", passed to")[0]
    if " holding " in what:
        return "store a hashable value in the field instead (a tuple of pairs, a FrozenDict)"
    if "dataclass" in what:
        return "declare it @dataclass(frozen=True)"
    if what in ("a list", "a set"):
        return "pass a tuple"
    if what == "a dict":
        return "pass a tuple, a frozen dataclass or a FrozenDict"
    if what == "a slice":
        return "pass its bounds as a tuple and slice inside (slices hash only from Python 3.12)"
    return "pass a Python value or make the argument traced"


def _static_sets_are_literal(ctx: ModuleContext, entry: ast.expr | None, name: str) -> bool:
    """Every jax.jit of ``name`` here (its decorator, ``jax.jit(name, ...)`` calls) spells its static
    arguments as literals, so the parameters it does not name are traced; ``static_argnums=STATIC``
    or ``**options`` could name any."""
    resolve = ctx.facts.aliases.resolve
    entries: list[ast.expr] = [entry] if entry is not None else []
    entries += [c for c in ast.walk(ctx.tree) if isinstance(c, ast.Call) and resolve(c.func) in JAX_JIT_NAMES
                and c.args and isinstance(c.args[0], ast.Name) and c.args[0].id == name]
    if not entries:
        return False
    for e in entries:
        for kw in (e.keywords if isinstance(e, ast.Call) else []):
            if kw.arg is None:
                return False
            if kw.arg in ("static_argnums", "static_argnames", "static_broadcasted_argnums"):
                values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value]
                if not all(isinstance(v, ast.Constant) for v in values):
                    return False
    return True
