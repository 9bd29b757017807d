"""XLA425: a ``jax.jit`` static argument that the function uses only as data (mixed with traced values)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from xlacheck import api_table, jax_cache
from xlacheck.analysis.contexts import FunctionInfo
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import in_test
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_STATIC_KEY = "static.float_new_value"  # a static Python number: every new value compiles
_TRACED_KEY = "seq.python_float_new_each_call"  # the same number traced: one compile for every value

# Arithmetic that turns a Python number and a tracer into a tracer without reading the number's
# value at trace time (not `**`: a static integer exponent lowers to integer_pow, a traced one to pow).
_DATA_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[ast.arg]:
    a = node.args
    return a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p is not None]


def _defaulted(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    a = node.args
    positional = a.posonlyargs + a.args
    out = {p.arg for p in positional[len(positional) - len(a.defaults):]} if a.defaults else set()
    return out | {p.arg for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None}


class StaticArgumentUsedAsData(ModuleRule):
    """
    ## What it does
    Flags a parameter that `jax.jit` (or `jax.pmap`) marks static (`static_argnums`,
    `static_argnames`, pmap's `static_broadcasted_argnums`; decorated, `partial(jax.jit, ...)`, or
    `f = jax.jit(g, ...)`) when every use of it in the function is as data: an operand of `+`, `-`,
    `*`, `/` or a comparison with a traced value (a non-static parameter, a parameter of a function
    nested in it, a `jax` result or a name computed from one), possibly after arithmetic with
    constants (`1.0 - momentum`), or an array operand of a `jax.numpy`/`jax.lax` function (a position
    the generated JAX API table measured as an array, never one it lists as static). It reads the
    declaration and the body only, so it applies when every caller is in another module.

    Preview: the declaration shows that a new value compiles again, not that callers pass new values.
    On the real-code corpora (/tmp/rc with its extras, reserve10-14) all 21 findings were per-run
    constants (loss coefficients and `num_actions` in dopamine's agents, pad and end-of-sequence
    token ids in levanter, tunix and big_vision, a praxis sparsity weight): one value per run, one
    compilation, so none was a recompile in practice.

    Not flagged: a static parameter used anywhere else as well, where its value is needed at trace
    time: a shape or size, a `range`, an index or slice, a Python `if`/`while`/`and`/`or`, a dict
    key, an attribute or method, a call of it, an argument of any other function (its static use
    may be there), a dtype or axis, `**`; a parameter the function rebinds; `self`; tests.

    ## Why is this bad?
    `jax.jit` keys its compilation cache on the value of every static argument: each new value
    traces and compiles the function again (measured on jax 0.10.2, `static.float_new_value` in
    `xlacheck/data/jax_cache_key.json`: 2 values, 2 compilations). A value used only as data does
    not need to be known at trace time: passed as an ordinary argument, a Python number becomes a
    weakly typed scalar tracer and every value reuses one compilation (`seq.python_float_new_each_call`:
    3 values, 1 compilation). A learning rate, temperature, noise scale or loss weight that changes
    during training compiles the step again at every change.

    ## Example
    ```python
    @partial(jax.jit, static_argnames=("lr",))
    def sgd(params, grads, lr):
        return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    ```

    ## Use instead
    ```python
    @jax.jit
    def sgd(params, grads, lr):  # lr traced: one compilation for every learning rate
        return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    ```

    ## Fix safety
    No automatic fix: dropping the parameter from `static_argnums` shifts nothing else, but callers
    that pass a value JAX cannot trace (a string, an object) would then fail.
    """

    code = "XLA425"
    fix = None
    name = "static-argument-used-as-data"
    severity = Severity.RECOMPILE
    preview = True

    VALID = (
        # the static value sizes an array: it must be static
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnums=1)\ndef pad(x, n):\n    return x * n + jnp.zeros((n,))\n"),
        # a Python branch on it
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames=('train',))\n"
                "def drop(x, train):\n    if train:\n        return x * 0.5\n    return x\n"),
        # passed on to another function, whose use of it this rule does not see
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
                "def apply(x, rate):\n    return helper(x, rate) * rate\n"),
        # arithmetic with a Python value only: still a Python number at trace time (a constant)
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
                "def scale(x, depth):\n    factor = depth * 2\n    return x[:factor]\n"),
        # traced already: nothing to drop
        Example("import jax\n@jax.jit\ndef sgd(p, g, lr):\n    return p - lr * g\n"),
        # the exponent of `**`: static, it lowers to integer_pow
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
                "def power(x, k):\n    return x ** k\n"),
    )
    INVALID = (
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames=('lr',))\n"
                "def sgd(params, grads, lr):\n"
                "    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)\n",
                expected=(
                    (4, 24, 'static argument `lr` of jitted `sgd` is used only as data (line 5: `lr * g`): jax.jit '
                            'compiles once per static value (static.float_new_value: 2 values, 2 compilations), '
                            'while a traced Python number compiles once for all values '
                            '(seq.python_float_new_each_call: 3 values, 1 compilation); drop `lr` from '
                            'static_argnums/static_argnames'),
                )),
        Example("import jax\nimport jax.numpy as jnp\ndef ema(avg, x, momentum):\n"
                "    return momentum * avg + (1.0 - momentum) * jnp.mean(x)\n"
                "ema_jit = jax.jit(ema, static_argnums=(2,))\n",
                expected=(
                    (3, 17, 'static argument `momentum` of jitted `ema_jit` is used only as data (line 4: '
                            '`momentum * avg`): jax.jit compiles once per static value (static.float_new_value: '
                            '2 values, 2 compilations), while a traced Python number compiles once for all values '
                            '(seq.python_float_new_each_call: 3 values, 1 compilation); drop `momentum` from '
                            'static_argnums/static_argnames'),
                )),
        Example("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
                "@partial(jax.jit, static_argnums=(1,))\ndef sample(logits, temperature, key):\n"
                "    scaled = logits / temperature\n    return jax.random.categorical(key, scaled)\n",
                expected=(
                    (5, 20, 'static argument `temperature` of jitted `sample` is used only as data (line 6: '
                            '`logits / temperature`): jax.jit compiles once per static value '
                            '(static.float_new_value: 2 values, 2 compilations), while a traced Python number '
                            'compiles once for all values (seq.python_float_new_each_call: 3 values, 1 '
                            'compilation); drop `temperature` from static_argnums/static_argnames'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not jax_cache.recompiles(_STATIC_KEY) or jax_cache.recompiles(_TRACED_KEY):
            return
        for name, info in _jitted(ctx):
            node = info.node
            if isinstance(node, ast.Lambda) or in_test(ctx.index, ctx.path, node):
                continue
            for param in _params(node):
                if param.arg not in info.static_params or param.arg in info.partial_bound \
                        or param.arg in ("self", "cls"):
                    continue
                first = self._data_only(ctx, info, param.arg)
                if first is None:
                    continue
                ctx.report(self, param, f"static argument `{param.arg}` of jitted `{name}` is used only as data "
                                        f"(line {first.lineno}: `{ast.unparse(first)}`): jax.jit compiles once per "
                                        f"static value ({_measured(_STATIC_KEY)}), while a traced Python number "
                                        f"compiles once for all values ({_measured(_TRACED_KEY)}); drop "
                                        f"`{param.arg}` from static_argnums/static_argnames")

    @staticmethod
    def _data_only(ctx: ModuleContext, info: FunctionInfo, param: str) -> ast.expr | None:
        """The first data use of ``param`` when every use of it in the function is as data; else None."""
        node = info.node
        index = ctx.index
        uses: list[ast.Name] = []
        for n in _own_walk(node, param):
            if isinstance(n, ast.Name) and n.id == param:
                if not isinstance(n.ctx, ast.Load):
                    return None  # rebound: what it holds later is not the argument
                uses.append(n)
            elif isinstance(n, (ast.Global, ast.Nonlocal)) and param in n.names:
                return None
        if not uses:
            return None
        traced = _traced_names(ctx, info)
        first: ast.expr | None = None
        for use in sorted(uses, key=lambda u: (u.lineno, u.col_offset)):
            where = _data_use(ctx, index.parent, use, traced)
            if where is None:
                return None
            first = first or where
        return first


def _jitted(ctx: ModuleContext) -> Iterator[tuple[str, FunctionInfo]]:
    """(the name shown, the function) for each function this file jits with static parameters:
    module-level functions under the name callers use (``step = jax.jit(_step, ...)``), methods and
    nested functions under their own name."""
    from xlacheck.rules._recompile_scope import jax_jitted

    seen: set[int] = set()
    for name, info in jax_jitted(ctx.facts, ctx.index):
        if info.static_params and id(info.node) not in seen:
            seen.add(id(info.node))
            yield name, info
    for info in ctx.facts.functions:
        if info.jax and info.jit_entry and info.static_params and id(info.node) not in seen \
                and not isinstance(info.node, ast.Lambda):
            seen.add(id(info.node))
            yield info.node.name, info


def _own_walk(node: ast.AST, name: str) -> Iterator[ast.AST]:
    """Every node under ``node``'s body, nested functions included unless they bind ``name`` themselves."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        if isinstance(n, _FUNCTIONS) and any(p.arg == name for p in _params(n)):
            continue
        if isinstance(n, ast.arguments):
            continue  # defaults and annotations are evaluated outside the trace
        yield n
        stack.extend(ast.iter_child_nodes(n))


def _traced_names(ctx: ModuleContext, info: FunctionInfo) -> frozenset[str]:
    """Names that hold tracers in the jitted function: its non-static parameters without a default,
    the parameters of functions nested in it (what ``tree_map``, ``lax.scan`` or ``vmap`` pass them),
    and names assigned from an expression that reads one of those or calls ``jax``."""
    node = info.node
    assert not isinstance(node, ast.Lambda)
    defaulted = _defaulted(node)
    names = {p.arg for p in _params(node) if p.arg not in info.static_params and p.arg not in defaulted
             and p.arg not in ("self", "cls") and p is not node.args.kwarg and p is not node.args.vararg}
    assigns: list[ast.Assign | ast.AugAssign | ast.AnnAssign] = []
    for n in ast.walk(node):
        if isinstance(n, _FUNCTIONS) and n is not node:
            names |= {p.arg for p in _params(n)} - info.static_params
        elif isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and n.value is not None:
            assigns.append(n)
    for _ in range(3):  # a short chain of assignments (`h = x @ w; y = h + b`)
        grown = False
        for a in assigns:
            if not _reads_traced(ctx, a.value, names):  # type: ignore[arg-type]
                continue
            targets = a.targets if isinstance(a, ast.Assign) else [a.target]
            for t in targets:
                for m in ast.walk(t):
                    if isinstance(m, ast.Name) and m.id not in names and m.id not in info.static_params:
                        names.add(m.id)
                        grown = True
        if not grown:
            break
    return frozenset(names)


def _reads_traced(ctx: ModuleContext, e: ast.expr, traced: frozenset[str] | set[str]) -> bool:
    """``e`` reads a traced name or calls a ``jax`` function that returns an array (not through a
    static fact of one: ``x.shape[1] + n`` is a Python int at trace time)."""
    for n in _value_walk(e):
        if isinstance(n, ast.Name) and n.id in traced and isinstance(n.ctx, ast.Load):
            return True
        if isinstance(n, ast.Call):
            fact = _jax_fact(ctx, n)
            if fact is not None and fact.is_tensor_valued:
                return True
    return False


# Members of a traced array that are Python values at trace time.
_STATIC_MEMBERS = frozenset({"shape", "ndim", "dtype", "size", "itemsize", "weak_type", "sharding"})


def _value_walk(e: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``e``, leaving out static facts of arrays (``x.shape``, ``len(x)``) and their operands."""
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Attribute) and n.attr in _STATIC_MEMBERS:
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("len", "isinstance", "type"):
            continue
        yield n
        stack.extend(ast.iter_child_nodes(n))


def _jax_fact(ctx: ModuleContext, call: ast.Call) -> api_table.ApiFact | None:
    name = ctx.facts.aliases.resolve(call.func)
    if name is None or not name.startswith(("jnp.", "lax.", "jax.")):
        return None
    fact = api_table.fact_for(name)
    return fact if fact is not None and fact.canonical.startswith("jax.") else None


def _data_use(ctx: ModuleContext, parent_of, use: ast.Name, traced: frozenset[str]) -> ast.expr | None:  # noqa: ANN001
    """The expression that makes ``use`` (a load of a static parameter) data, or None when this use
    may need the value at trace time."""
    e: ast.expr = use
    while True:
        p = parent_of(e)
        if isinstance(p, ast.UnaryOp) and isinstance(p.op, (ast.USub, ast.UAdd)):
            e = p
            continue
        if isinstance(p, ast.BinOp) and isinstance(p.op, _DATA_OPS):
            other = p.right if p.left is e else p.left
            if _reads_traced(ctx, other, traced):
                return p
            if isinstance(other, ast.Constant) and isinstance(other.value, (int, float)):
                e = p  # `1.0 - momentum`: still a Python number; its own use decides
                continue
            return None
        if isinstance(p, ast.Compare) and len(p.ops) == 1 and not isinstance(p.ops[0], (ast.In, ast.NotIn, ast.Is,
                                                                                         ast.IsNot)):
            other = p.comparators[0] if p.left is e else p.left
            return p if _reads_traced(ctx, other, traced) else None
        if isinstance(p, ast.keyword):
            call = parent_of(p)
            if isinstance(call, ast.Call) and _array_operand(ctx, call, None, p.arg):
                return call
            return None
        if isinstance(p, ast.Call) and e in p.args:
            return p if _array_operand(ctx, p, p.args.index(e), None) else None
        return None


def _array_operand(ctx: ModuleContext, call: ast.Call, position: int | None, keyword: str | None) -> bool:
    """The argument at ``position`` (or ``keyword``) of a ``jax`` function is an array operand: the
    JAX API table measured the function under jit with an array there and lists it as no static argument."""
    fact = _jax_fact(ctx, call)
    if fact is None or not fact.is_tensor_valued or fact.xla is not True or fact.called_with is None:
        return False
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return False
    if keyword is None:
        assert position is not None
        if fact.params:
            if position >= len(fact.params):
                return False
            keyword = fact.params[position]
        else:
            return position < len(fact.called_with) and fact.called_with[position] == "array"
    return keyword in fact.params and keyword not in fact.const_args and keyword not in fact.py_args \
        and keyword not in ("axis", "axes", "dtype", "shape", "size", "num", "length", "k", "precision")


def _measured(key: str) -> str:
    row = jax_cache.probe(key)
    compiles = row["total_compiles"]
    return f"{key}: {row['calls']} values, {compiles} compilation{'s' if compiles != 1 else ''}"
