"""XLA415: a state field weakly typed where it is built and strongly typed where a jitted step rebuilds it."""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck import jax_cache
from xlacheck.analysis.contexts import FunctionInfo
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.pytrees import state_classes
from xlacheck.analysis.scopes import parameter_defaults
from xlacheck.analysis.weak_types import WeakTypes, dict_leaves, python_number, returns_integer
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    bound_arguments,
    bound_before_loop,
    bound_fields,
    call_params,
    in_test,
    jax_jitted,
    jits_with_jax,
    jitted_call_resolver,
    jitted_calls_rebinding,
    reads_state,
    runs_traced,
    state_constructions,
)
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule


def _weak_number(initial: ast.Constant) -> str:
    """How jax.jit types a Python number literal: ``a Python int (weakly typed int32)``."""
    weak = "int32" if isinstance(initial.value, int) else "float32"
    return f"a Python {type(initial.value).__name__} (weakly typed {weak})"


class JaxStateWeakTypeChange(ModuleRule):
    """
    ## What it does
    Flags a field of a state class of this file (a `NamedTuple` or dataclass, such as an
    optimizer or schedule state) that is built weakly typed (a Python number, or
    `jnp.asarray(0.0)`/`jnp.array(0)`/`jnp.full(shape, 1.0)` without a dtype) where the state is
    created, while a `jax.jit` function of this file that reads the state rebuilds the same field
    strongly typed (`.astype(jnp.float32)`, `jnp.float32(...)`, `jnp.asarray(x, dtype)`,
    `jnp.zeros(...)`, or arithmetic and `jnp` functions of such a value, a reduction such as
    `jnp.sum` or a random draw, whose weak type is measured in `xlacheck/data/jax_weak_types.json`;
    a field of the state read in the step is what the initialisation binds it to, which the step's
    first call receives), or the other way round. Only evident types count: a value computed from
    something unknown (a parameter, a call of another module) is not judged. The same for a Python
    number (a literal, or a parameter's default that no call of this file passes) carried through a jitted call in a
    loop (`total = 0` before it, `total = step(total, batch)` in it) when the step evidently
    returns it as a float (from an int) or strongly typed (also through a name the step assigns
    once: `new_step = stepsize * jnp.float32(0.5)`; or as `acc + jnp.sum(x)`, arithmetic with a
    `jnp` op of another parameter that the call passes an array, not a Python number, which gives
    the array's strong dtype), or when the loop body itself rebinds it so
    (`lr = 1` before the loop, `lr = lr * 0.5` or `lr *= 0.5` in it: an int then a float;
    `lr = jnp.float32(lr * 0.5)` or `np.float32(...)`: strongly typed), whether the loop calls the
    jitted function directly, as a method jitted while bound (`self.step`), through a forwarder of
    this file or with a `**dict`. Which of these changes miss
    the cache is read from the measured table `xlacheck/data/jax_cache_key.json`
    (`weak.python_int_then_python_float`, `weak.python_float_then_float32_scalar`,
    `weak.python_float_then_numpy_float32`); a Python float rebound to another Python float, or
    an int counter incremented by ints, hits the cache and is not flagged. The same for a leaf of a
    dict tree carried through a jitted call in a loop (`params = init()` returning
    `{"w": ..., "b": 0.0}` before it, `params, count = step(params, count, x)` in it) when the step
    evidently returns that leaf with the other weak type: a `tree_map` is evaluated leafwise, a
    gradient has its input's weak type, and `0.9 ** count` of an `int32` count is strongly typed
    (measured in `jax_weak_types.json`; `pytree.python_float_leaf_then_strong_update`). And for a
    value that is a Python int or a Python float depending on the data, because builtin `max`/`min`
    return one of their arguments unchanged (`max(1, estimate)` with a float `estimate`), passed to
    a jitted function: it compiles once for each type.

    ## Why is this bad?
    `jax.jit` keys its cache on each argument's shape, dtype and weak type. A weakly typed
    float32 and a strongly typed float32 are different abstract values, so the step compiles
    once for the state `init` returns and again for the state its first update returns (optax
    issue 1440: `reduce_on_plateau` recompiled on the second step for this reason). In a loop over
    several such states (per trial, per restart) every new state compiles twice. A Python number
    passed to a jitted function is a weakly typed int32/float32; what the function returns after
    mixing it with a float or a strongly typed array is not (jax issue 3163; measured on jax
    0.10.2: 2 traces for `total = 0.0` carried through `total + jnp.sum(batch)`, 1 when every
    operand is a Python number).

    ## Example
    ```python
    class PlateauState(NamedTuple):
        avg_value: jax.Array

    def init():
        return PlateauState(avg_value=jnp.asarray(0.0))

    @jax.jit
    def update(state, loss):
        return PlateauState(avg_value=((state.avg_value + loss) / 2).astype(jnp.float32))
    ```

    ## Use instead
    ```python
    def init():
        return PlateauState(avg_value=jnp.asarray(0.0, jnp.float32))  # the dtype the update keeps
    ```

    ## Fix safety
    No automatic fix: which dtype the state should carry (float32, the parameters' dtype) is the
    author's choice.
    """

    code = "XLA415"
    fix = None
    name = "jax-state-weak-type-change"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import jax\nimport jax.numpy as jnp\nfrom typing import NamedTuple\n"
                "class S(NamedTuple):\n    avg: jax.Array\n    count: jax.Array\n"
                "def init():\n    return S(avg=jnp.asarray(0.0, jnp.float32), count=jnp.asarray(0))\n"
                "@jax.jit\ndef update(state, loss):\n"
                "    return S((state.avg + loss).astype(jnp.float32), state.count + 1)\n"),
        Example("import jax\nimport jax.numpy as jnp\nfrom typing import NamedTuple\n"
                "class S(NamedTuple):\n    step: jax.Array\n"
                "def init():\n    return S(step=jnp.zeros([], jnp.int32))\n"
                "def update(state):\n    return S(step=jnp.asarray(1))\n"),
        Example("import jax\n@jax.jit\ndef step(p, lr, i):\n    return p * lr + i\n"
                "def train(p, n):\n    lr, i = 0.1, 0\n    for _ in range(n):\n        p = step(p, lr, i)\n"
                "        lr = lr * 0.5\n        i += 1\n    return p\n"),
        # jnp.exp of a Python number stays weakly typed (xlacheck/data/jax_weak_types.json): one trace
        # (measured on jax 0.10.2; with jnp.sum here it would compile twice: a reduction is strongly typed)
        Example(
                "import jax\n"
                "import jax.numpy as jnp\n"
                "@jax.jit\n"
                "def step(acc, x):\n"
                "    return acc + jnp.exp(x)\n"
                "def run(xs):\n"
                "    acc = 0.0\n"
                "    for x in xs:\n"
                "        acc = step(acc, 2.0)\n"
                "    return acc\n"),
        # the loop rebinds the parameter-default start with a Python number: weakly typed all along
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef transition(q, key, step_size):\n"
                "    p = jax.random.normal(key, q.shape)\n"
                "    return q + step_size * p, jnp.minimum(1.0, jnp.exp(-jnp.sum(p ** 2)))\n"
                "def warmup(q, keys, init_step_size=0.1):\n    step_size = init_step_size\n    for key in keys:\n"
                "        q, acc = transition(q, key, step_size)\n        step_size = step_size * 0.9\n    return q\n"),
        # a Python-float leaf updated by a tree_map of its weakly typed gradient stays weakly typed
        # (the gradient of a weakly typed input is: weak.python_float_then_jitted_grad): one trace
        Example("import jax\nimport jax.numpy as jnp\ndef init():\n    return {\"w\": jnp.ones((3,)), \"b\": 0.0}\n"
                "@jax.jit\ndef step(params, count, x):\n"
                "    grads = jax.grad(lambda p: jnp.sum((p[\"w\"] * x + p[\"b\"]) ** 2))(params)\n"
                "    count = count + 1\n    scale = 1 - 0.9 ** count\n"
                "    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)\n"
                "    return params, count\n"
                "def fit(x, n):\n    params = init()\n    count = jnp.zeros((), jnp.int32)\n"
                "    for _ in range(n):\n        params, count = step(params, count, x)\n    return params\n"),
        # a float floor: always a Python float, one abstract type
        Example("import jax\nimport jax.numpy as jnp\ndef floor_total(x):\n    t = float(jnp.sum(x))\n"
                "    return max(1.0, t)\n"
                "@jax.jit\ndef step(p, total):\n    return p / total\n"
                "def run(batches):\n    p = jnp.ones(3)\n    for b in batches:\n        p = step(p, floor_total(b))\n"
                "    return p\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\nfrom typing import NamedTuple\n"
                "class S(NamedTuple):\n    avg: jax.Array\n    count: jax.Array\n"
                "def init():\n    return S(avg=jnp.asarray(0.0), count=jnp.asarray(0))\n"
                "@jax.jit\ndef update(state, loss):\n    avg = (state.avg * state.count + loss) / (state.count + 1)\n"
                "    return S(avg.astype(jnp.float32), state.count + 1)\n",
                expected=(
                    (8, 18, 'field `avg` of `S` is weakly typed here (jnp.asarray of a Python number, no dtype) but '
                            'jitted `update` rebuilds it strongly typed (.astype(...)) at line 12: the state it '
                            'returns has a different abstract type, so jax.jit compiles the step again on the next '
                            'call; build the field with the dtype the update keeps'),
                )),
        Example("import jax\nimport jax.numpy as jnp\nimport dataclasses\n"
                "@dataclasses.dataclass(frozen=True)\nclass Sched:\n    scale: float\n"
                "jax.tree_util.register_dataclass(Sched, data_fields=['scale'], meta_fields=[])\n"
                "def make():\n    return Sched(scale=jnp.float32(1.0))\n"
                "@jax.jit\ndef apply(s, x):\n    return x * s.scale, Sched(scale=1.0)\n",
                expected=(
                    (9, 24, 'field `scale` of `Sched` is strongly typed here (jnp.float32(...)) but jitted `apply` '
                            'rebuilds it weakly typed (a Python number) at line 12: the state it returns has a '
                            'different abstract type, so jax.jit compiles the step again on the next call; build the '
                            'field with the dtype the update keeps'),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef add_loss(total, batch):\n"
                "    return total + jnp.mean(batch ** 2)\ndef evaluate(batches):\n    total = 0\n"
                "    for b in batches:\n        total = add_loss(total, b)\n    return total\n",
                expected=(
                    (7, 13, '`total` starts as a Python int (weakly typed int32) and is then fed back from jitted '
                            '`add_loss`, which returns it as a float (line 5): the second call has a different '
                            'abstract type, so jax.jit compiles again; start it as an array of the dtype the step '
                            'returns (jnp.zeros((), jnp.float32))'),
                )),
        Example("import jax\n@jax.jit\ndef step(p, lr):\n    return p * lr\n"
                "def train(p, n):\n    lr = 1\n    for _ in range(n):\n        p = step(p, lr)\n"
                "        lr *= 0.5\n    return p\n",
                expected=(
                    (6, 10, '`lr` starts as a Python int (weakly typed int32) and the loop rebinds it to a float '
                            '(line 9) before the next call of jitted `step`: that call has a different abstract type, '
                            'so jax.jit compiles again; start it as the type the loop gives it (a float literal, or '
                            'jnp.asarray(x, jnp.float32))'),
                )),
        # halved only every tenth epoch: the call after the first halving compiles again (once)
        Example("import jax\n@jax.jit\ndef step(p, lr):\n    return p * lr\n"
                "def train(p, epochs):\n    lr = 1\n    for epoch in range(epochs):\n        p = step(p, lr)\n"
                "        if epoch % 10 == 9:\n            lr = lr / 2\n    return p\n",
                expected=(
                    (6, 10, '`lr` starts as a Python int (weakly typed int32) and the loop rebinds it to a float '
                            '(line 10) before the next call of jitted `step`: that call has a different abstract type, '
                            'so jax.jit compiles again; start it as the type the loop gives it (a float literal, or '
                            'jnp.asarray(x, jnp.float32))'),
                )),
        Example(
                "import jax\n"
                "import jax.numpy as jnp\n"
                "@jax.jit\n"
                "def step(acc, x):\n"
                "    return acc + jnp.sum(x)\n"
                "def run(xs):\n"
                "    acc = 0.0\n"
                "    for x in xs:\n"
                "        acc = step(acc, x)\n"
                "    return acc\n",
                expected=(
                    (7, 11, "`acc` starts as a Python float (weakly typed float32) and is then fed back from jitted "
                            "`step`, which returns it strongly typed (jnp.sum of the array argument `x`) (line 5): "
                            "the second call has a different abstract type, so jax.jit compiles again; start it as "
                            "an array of the dtype the step returns (jnp.zeros((), jnp.float32))"),
                )),
        # through a method jitted while bound (weak.python_int_then_python_float)
        Example("import jax\nclass Trainer:\n    def __init__(self):\n        self.step = jax.jit(self._step)\n"
                "    def _step(self, x, scale):\n        return x * scale\n    def fit(self, x, steps):\n"
                "        scale = 1\n        for i in range(steps):\n            x = self.step(x, scale)\n"
                "            scale = 0.5 ** (i + 1)\n        return x\n",
                expected=(
                    (8, 17, "`scale` starts as a Python int (weakly typed int32) and the loop rebinds it to a float "
                            "(line 11) before the next call of jitted `step`: that call has a different abstract "
                            "type, so jax.jit compiles again; start it as the type the loop gives it (a float "
                            "literal, or jnp.asarray(x, jnp.float32))"),
                )),
        # a field read on the step's first call holds what init bound it to: a reduction, strongly typed
        Example("import jax\nimport jax.numpy as jnp\nfrom typing import NamedTuple\n"
                "class S(NamedTuple):\n    loglik: jax.Array\n    logz: jax.Array\n"
                "def init(x):\n    return S(loglik=jnp.sum(x ** 2, axis=-1), logz=jnp.asarray(-jnp.inf))\n"
                "@jax.jit\ndef step(state):\n"
                "    return S(state.loglik * 0.5, jnp.logaddexp(state.logz, state.loglik[0]))\n",
                expected=(
                    (8, 52, "field `logz` of `S` is weakly typed here (jnp.asarray of a Python number, no dtype) but "
                            "jitted `step` rebuilds it strongly typed (jnp.sum(...)) at line 11: the state it returns "
                            "has a different abstract type, so jax.jit compiles the step again on the next call; "
                            "build the field with the dtype the update keeps"),
                )),
        # a parameter's Python-number default as the start; the loop rebinds it from a random draw's result
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef transition(q, key, step_size):\n"
                "    p = jax.random.normal(key, q.shape)\n"
                "    return q + step_size * p, jnp.minimum(1.0, jnp.exp(-jnp.sum(p ** 2)))\n"
                "def warmup(q, keys, init_step_size=0.1):\n    step_size = init_step_size\n    for key in keys:\n"
                "        q, acc = transition(q, key, step_size)\n        step_size = step_size * jnp.exp(acc - 0.8)\n"
                "    return q\n",
                expected=(
                    (8, 17, "`step_size` starts as a Python float (weakly typed float32), the default of "
                            "`init_step_size`, and the loop rebinds it strongly typed (jnp.sum(...)) (line 11) before "
                            "the next call of jitted `transition`: that call has a different abstract type, so "
                            "jax.jit compiles again; start it as the type the loop gives it (a float literal, or "
                            "jnp.asarray(x, jnp.float32))"),
                )),
        # a Python-float leaf of a dict tree, returned by a tree_map with a bias correction from an
        # int32 count (0.9 ** count: strongly typed inside jax.jit, jax_weak_types.json): 2 traces
        Example("import jax\nimport jax.numpy as jnp\ndef init():\n    return {\"w\": jnp.ones((3,)), \"b\": 0.0}\n"
                "@jax.jit\ndef step(params, count, x):\n"
                "    grads = jax.grad(lambda p: jnp.sum((p[\"w\"] * x + p[\"b\"]) ** 2))(params)\n"
                "    count = count + 1\n    scale = 1 - 0.9 ** count\n"
                "    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g / scale, params, grads)\n"
                "    return params, count\n"
                "def fit(x, n):\n    params = init()\n    count = jnp.zeros((), jnp.int32)\n"
                "    for _ in range(n):\n        params, count = step(params, count, x)\n    return params\n",
                expected=(
                    (4, 39, "leaf `b` of `params` starts weakly typed (a Python number) but jitted `step` "
                            "returns it strongly typed (jnp.power of a float and an integer array (measured)) "
                            "at line 10: the tree fed back has a different abstract type, so jax.jit compiles "
                            "the step again on the next call; build the leaf with the dtype the update keeps "
                            "(jnp.asarray(x, jnp.float32))"),
                )),
        # builtin max returns one of its arguments: a Python int (total below 1) or a float, one compile each
        Example("import jax\nimport jax.numpy as jnp\ndef floor_total(x):\n    t = float(jnp.sum(x))\n"
                "    return max(1, t)\n"
                "@jax.jit\ndef step(p, total):\n    return p / total\n"
                "def run(batches):\n    p = jnp.ones(3)\n    for b in batches:\n        p = step(p, floor_total(b))\n"
                "    return p\n",
                expected=(
                    (5, 12, "this is a Python int or a Python float depending on the data (builtin `max(...)` "
                            "returns one of its arguments unchanged), and it reaches parameter `total` of jitted "
                            "`step` (line 12): a weakly typed int32 and a float32 are different abstract types, "
                            "so jax.jit compiles once for each; make every branch a float (a float literal such "
                            "as 1.0)"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not jits_with_jax(ctx.facts):
            return
        index = ctx.index
        self._check_carried(ctx, index)
        self._check_carried_leaves(ctx, index)
        self._check_int_or_float(ctx, index)
        jitted_by_name = dict(jax_jitted(ctx.facts, index))
        self._check_rebound_in_loop(ctx, index, jitted_by_name)
        if not jitted_by_name:
            return
        states = state_classes(ctx.tree, ctx.facts.aliases.resolve)
        if not states:
            return
        for cls_name, sites in state_constructions(index, states, jitted_by_name).items():
            fields = states[cls_name]
            inits = [c for c, owner in sites if owner is None]
            updates = [(c, owner) for c, owner in sites if owner is not None
                       and reads_state(index, c, fields)]
            if not inits or not updates:
                continue
            for init in inits:
                initial_fields = dict(bound_fields(init, fields))
                for field, init_expr in initial_fields.items():
                    init_kind = self._weakness(ctx, index, init_expr)
                    if init_kind is None:
                        continue
                    for update, step in updates:
                        other = dict(bound_fields(update, fields)).get(field)
                        reads = _first_call_reads(jitted_by_name.get(step), initial_fields)
                        first_call = _weak_types(ctx, index, reads)
                        upd_kind = first_call.strength(other) if other is not None else None
                        if other is None or upd_kind is None or upd_kind[0] == init_kind[0]:
                            continue
                        ctx.report(self, init_expr,
                                   f"field `{field}` of `{cls_name}` is {init_kind[0]} typed here ({init_kind[1]}) but "
                                   f"jitted `{step}` rebuilds it {upd_kind[0]} typed ({upd_kind[1]}) at line "
                                   f"{other.lineno}: the state it returns has a different abstract type, so jax.jit "
                                   "compiles the step again on the next call; build the field with the dtype the "
                                   "update keeps")
                        break

    # -- a Python number carried through a jitted call in a loop -------------------------------
    def _check_carried(self, ctx: ModuleContext, index: ModuleIndex) -> None:
        """``total = 0`` before a loop, ``total = step(total, x)`` in it: the first call passes a weakly
        typed int32, later calls what the step returned; flagged when that is evidently a float
        (int -> float) or strongly typed (jax issue 3163)."""
        for call, jitted_name, target, names, info, node, params, carriers in jitted_calls_rebinding(ctx.facts, index):
            returns = [n.value for n in index.scope_nodes(node) if isinstance(n, ast.Return) and n.value is not None]
            if len(returns) != 1:
                continue
            for position, carried in carriers:
                param = next((p for p, a in bound_arguments(params, call, index)
                              if not p.startswith("#") and isinstance(a, ast.Name) and a.id == carried), None)
                if param is None or param in info.static_params:
                    continue
                returned = returns[0]
                if isinstance(target, ast.Tuple):
                    if not (isinstance(returned, ast.Tuple) and len(returned.elts) == len(names)):
                        continue
                    returned = returned.elts[position]
                initial = self._value_before_loop(index, call, carried)
                if initial is None:
                    continue
                at, start = _start_shown(index, call, carried, initial)
                # the step's other parameters hold, on the first call, what their arguments start as
                starts = {p: held for p, a in bound_arguments(params, call, index)
                          if not p.startswith("#") and p != param and isinstance(a, ast.Name)
                          and (held := bound_before_loop(index, call, a.id)) is not None}
                starts[param] = initial
                change = self._carried_change(ctx, index, initial, returned, _mixed_with_array_argument(
                    ctx, index, call, params, param, returned, initial), param,
                    _first_call_trees(index, _weak_types(ctx, index), node, starts))
                if change is not None:
                    ctx.report(self, at, f"`{carried}` starts as {start} "
                                              f"and is then fed back from jitted `{jitted_name}`, which returns it "
                                              f"{change} (line {returned.lineno}): the second call has a different "
                                              "abstract type, so jax.jit compiles again; start it as an array of "
                                              "the dtype the step returns (jnp.zeros((), jnp.float32))")
                    break

    # -- a pytree leaf carried through a jitted call in a loop ---------------------------------------
    def _check_carried_leaves(self, ctx: ModuleContext, index: ModuleIndex) -> None:
        """``model = init()`` (a dict literal, here or in the function of this file that returns it)
        before a loop, ``model, ... = step(model, ...)`` in it: a leaf built weakly typed (a Python
        number) that the step evidently returns strongly typed, or the other way round, changes the
        abstract type of the next call (``pytree.python_float_leaf_then_strong_update`` in the
        cache-key table). In the step, each parameter holds on the first call the tree its argument
        starts as; tree_map and gradients are evaluated leafwise (:meth:`WeakTypes.leaf`)."""
        if not jax_cache.recompiles("pytree.python_float_leaf_then_strong_update"):
            return
        for call, jitted_name, target, names, info, node, params, carriers in jitted_calls_rebinding(ctx.facts, index):
            returns = [n.value for n in index.scope_nodes(node) if isinstance(n, ast.Return) and n.value is not None]
            if len(returns) != 1 or in_test(index, ctx.path, call) or runs_traced(ctx.facts, index, call):
                continue
            passed = bound_arguments(params, call, index)
            initial = {p: held for p, a in passed if not p.startswith("#") and p not in info.static_params
                       and isinstance(a, ast.Name) and (held := bound_before_loop(index, call, a.id)) is not None}
            plain = _weak_types(ctx, index)
            first_call = _weak_types(ctx, index, _first_call_trees(index, plain, node, initial))
            for position, carried in carriers:
                param = next((p for p, a in passed if isinstance(a, ast.Name) and a.id == carried), None)
                if param is None or param not in initial:
                    continue
                returned: ast.expr | None = returns[0]
                if isinstance(target, ast.Tuple):
                    if not (isinstance(returned, ast.Tuple) and len(returned.elts) == len(names)):
                        continue
                    returned = returned.elts[position]
                returned = _assigned_once(index, node, returned)
                tree = _tree_literal(plain, initial[param])
                if tree is None or returned is None:
                    continue
                for key, init_expr in dict_leaves(tree):
                    init_kind = plain.strength(init_expr)
                    new_kind = first_call.leaf(returned, key) if init_kind is not None else None
                    if new_kind is None or init_kind is None or new_kind[0] == init_kind[0]:
                        continue
                    ctx.report(self, init_expr,
                               f"leaf `{key}` of `{carried}` starts {init_kind[0]} typed ({init_kind[1]}) but "
                               f"jitted `{jitted_name}` returns it {new_kind[0]} typed ({new_kind[1]}) at line "
                               f"{returned.lineno}: the tree fed back has a different abstract type, so jax.jit "
                               "compiles the step again on the next call; build the leaf with the dtype the "
                               "update keeps (jnp.asarray(x, jnp.float32))")
                    break

    # -- a Python number that is an int or a float depending on the data ---------------------------
    def _check_int_or_float(self, ctx: ModuleContext, index: ModuleIndex) -> None:
        """``total = max(1, estimate)`` (``estimate`` a float) passed to a jitted function: builtin
        ``max``/``min`` return one of their arguments unchanged, so the argument is a Python int in one
        call and a Python float in another, weakly typed int32 then float32: two abstract types, two
        compiles (``weak.python_int_then_python_float`` in the cache-key table)."""
        if not jax_cache.recompiles("weak.python_int_then_python_float"):
            return
        resolve = jitted_call_resolver(ctx.facts, index)
        weak = _weak_types(ctx, index)
        reported: set[int] = set()
        for outer_call, _ in index.calls:
            hit = resolve(outer_call)
            if hit is None or in_test(index, ctx.path, outer_call) or runs_traced(ctx.facts, index, outer_call):
                continue
            call, shown, info = hit
            for param, arg in bound_arguments(call_params(info, call), call, index):
                if param.startswith("#") or param in info.static_params:
                    continue
                if weak.number_types(arg) != frozenset({"int", "float"}):
                    continue
                source = _int_or_float_source(weak, arg)
                if source is None or id(source) in reported:
                    continue
                reported.add(id(source))
                ctx.report(self, source, f"this is a Python int or a Python float depending on the data "
                                          f"(builtin `{_shown_source(source)}` returns one of its arguments "
                                          f"unchanged), and it reaches parameter `{param}` of jitted `{shown}` "
                                          f"(line {call.lineno}): a weakly typed int32 and a float32 are different "
                                          "abstract types, so jax.jit compiles once for each; make every branch "
                                          "a float (a float literal such as 1.0)")

    # -- a Python number the loop body rebinds to a float or a strongly typed value -------------
    def _check_rebound_in_loop(self, ctx: ModuleContext, index: ModuleIndex,
                               jitted: dict[str, FunctionInfo]) -> None:
        """``lr = 1`` before a loop, ``step(p, lr)`` and ``lr = lr * 0.5`` in it: the first call
        passes a weakly typed int32, later ones a float32 (or a strongly typed value), which the
        measured cache-key table says compiles again."""
        reported: set[int] = set()
        resolve = jitted_call_resolver(ctx.facts, index)  # also a bound jitted method, a forwarder, `**dict`
        for outer_call, _ in index.calls:
            if not index.loops_around(outer_call) or in_test(index, ctx.path, outer_call) \
                    or runs_traced(ctx.facts, index, outer_call):
                continue
            hit = resolve(outer_call)
            if hit is None:
                continue
            call, shown, info = hit
            for param, arg in bound_arguments(call_params(info, call), call, index):
                if param.startswith("#") or param in info.static_params or not isinstance(arg, ast.Name):
                    continue
                initial = self._value_before_loop(index, call, arg.id)
                if initial is None or id(initial) in reported:
                    continue
                at, start = _start_shown(index, call, arg.id, initial)
                change = self._rebound_change(ctx, index, call, arg.id, initial, jitted)
                if change is None:
                    continue
                how, line = change
                reported.add(id(initial))
                ctx.report(self, at, f"`{arg.id}` starts as {start} and "
                                          f"the loop rebinds it {how} (line {line}) before the next call of jitted "
                                          f"`{shown}`: that call has a different abstract type, so "
                                          "jax.jit compiles again; start it as the type the loop gives it (a float "
                                          "literal, or jnp.asarray(x, jnp.float32))")

    def _rebound_change(self, ctx: ModuleContext, index: ModuleIndex, call: ast.Call, name: str,
                        initial: ast.Constant, jitted: dict[str, FunctionInfo]) -> tuple[str, int] | None:
        """(how, line) when a loop around ``call`` rebinds ``name`` to a value whose abstract type
        differs from the weakly typed Python number it started as, per the cache-key table."""
        for loop in index.loops_around(call):
            if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
                continue
            for n in ast.walk(loop):
                if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
                    value: ast.expr = ast.BinOp(left=ast.Name(id=name, ctx=ast.Load()), op=n.op, right=n.value)
                elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                        and n.targets[0].id == name and n.value is not call:
                    value = n.value
                else:
                    continue
                if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in jitted:
                    continue  # fed back from a jitted call: _check_carried
                if isinstance(initial.value, int) and _float_valued(ctx, value) \
                        and jax_cache.recompiles("weak.python_int_then_python_float"):
                    return "to a float", n.lineno
                strong = self._strength(ctx, index, value, depth=1)
                if strong is not None and jax_cache.recompiles("weak.python_float_then_float32_scalar") \
                        and jax_cache.recompiles("weak.python_float_then_numpy_float32"):
                    return f"strongly typed ({strong})", n.lineno
        return None

    @staticmethod
    def _value_before_loop(index: ModuleIndex, call: ast.Call, name: str) -> ast.Constant | None:
        """The Python number ``name`` is bound to right before the outermost loop around ``call``: a
        literal, or the Python-number default of a parameter of the enclosing function that no call
        in this file passes (``def run(q, init_step_size=0.1): step_size = init_step_size``)."""
        value = bound_before_loop(index, call, name)
        if isinstance(value, ast.Name):
            value = _parameter_default(index, value)
        return value if isinstance(value, ast.Constant) and type(value.value) in (int, float) else None

    def _carried_change(self, ctx: ModuleContext, index: ModuleIndex, initial: ast.Constant,
                        returned: ast.expr, mixed: str | None, param: str = "",
                        first_call: Callable[[ast.expr], ast.expr | None] | None = None) -> str | None:
        """How the returned value evidently differs from the weakly typed Python number it started as
        (``mixed``: the reason :func:`_mixed_with_array_argument` found, shown first); in the step, the
        carried parameter ``param`` holds that number on the first call (``first_call``: what each
        parameter holds then, the arguments' values before the loop)."""
        if isinstance(initial.value, int) and _float_valued(ctx, returned):
            return "as a float"
        if mixed is not None:
            return mixed

        def reads(e: ast.expr) -> ast.expr | None:
            return initial if isinstance(e, ast.Name) and e.id == param else None

        kind = _weak_types(ctx, index, first_call or (reads if param else None)).strength(returned)
        return f"strongly typed ({kind[1]})" if kind is not None and kind[0] == "strongly" else None

    def _strength(self, ctx: ModuleContext, index: ModuleIndex, e: ast.expr, depth: int = 0) -> str | None:
        """Why ``e`` is evidently strongly typed (an operand of arithmetic that is makes it so, a
        measured strong function such as a reduction or a random draw, a name followed to its single
        assignment in its function or unpacked from a call of a function of this file)."""
        kind = self._weakness(ctx, index, e)
        return kind[1] if kind is not None and kind[0] == "strongly" else None

    # -- weak or strong, when evident ---------------------------------------------------------
    def _weakness(self, ctx: ModuleContext, index: ModuleIndex, expr: ast.expr,
                  depth: int = 0) -> tuple[str, str] | None:
        """("weakly", why) or ("strongly", why) when ``expr``'s weak type is evident, else None
        (:class:`xlacheck.analysis.weak_types.WeakTypes`, from the measured table)."""
        return _weak_types(ctx, index).strength(expr, depth)


def _weak_types(ctx: ModuleContext, index: ModuleIndex,
                reads: Callable[[ast.expr], ast.expr | None] | None = None) -> WeakTypes:
    """The module's weak-type evaluator; a call of a function defined at the top of this file is
    followed into its single ``return`` (``q, acc = step(q, key)``: ``acc`` is what ``step`` returns)."""
    defs = {n.name: n for n in ctx.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def callee(call: ast.Call) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        return defs.get(call.func.id) if isinstance(call.func, ast.Name) else None

    return WeakTypes(index, ctx.facts.aliases.resolve, callee, reads)


def _first_call_reads(step: FunctionInfo | None,
                      initial: dict[str, ast.expr]) -> Callable[[ast.expr], ast.expr | None] | None:
    """In the jitted ``step``, ``state.field`` (a parameter's attribute named as a field of the state)
    holds, on the step's first call, what the state's initialisation binds the field to."""
    if step is None or not isinstance(step.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    params = {a.arg for a in (*step.node.args.posonlyargs, *step.node.args.args, *step.node.args.kwonlyargs)}

    def reads(e: ast.expr) -> ast.expr | None:
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id in params:
            return initial.get(e.attr)
        return None

    return reads


def _int_or_float_source(weak: WeakTypes, e: ast.expr, depth: int = 0) -> ast.expr | None:
    """The builtin ``max``/``min`` call that makes ``e`` an int or a float (which one, the data decides;
    a conditional expression is left out: its condition is often fixed for a whole run)."""
    if depth > 8:
        return None
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("max", "min") \
            and weak.resolve(e.func) is None and (weak.callee is None or weak.callee(e) is None) \
            and weak.number_types(e) == frozenset({"int", "float"}):
        return e
    if isinstance(e, ast.Name):
        value = weak.binding(e)
        return _int_or_float_source(weak, value, depth + 1) if value is not None else None
    if isinstance(e, ast.Call):
        returned = weak.single_return(e)
        return _int_or_float_source(weak, returned, depth + 1) if returned is not None else None
    return None


def _shown_source(source: ast.expr) -> str:
    return f"{source.func.id}(...)" if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) else "max"


def _tree_literal(weak: WeakTypes, start: ast.expr) -> ast.Dict | None:
    """The dict literal a carried tree starts as: the expression itself, a name bound to one once, or
    the single return of the function of this file it calls."""
    for _ in range(4):
        if isinstance(start, ast.Dict):
            return start
        if isinstance(start, ast.Call):
            returned = weak.single_return(start)
        elif isinstance(start, ast.Name):
            returned = weak.binding(start)
        else:
            return None
        if returned is None:
            return None
        start = returned
    return None


def _assigned_once(index: ModuleIndex, step: ast.AST, returned: ast.expr | None) -> ast.expr | None:
    """What the step returns: a name the step assigns once is its value (in it, the step's parameters
    are still the first call's arguments), other expressions as they are."""
    if not isinstance(returned, ast.Name):
        return returned
    values = [n.value for n in index.scope_nodes(step) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == returned.id for t in n.targets)]
    return values[0] if len(values) == 1 else None


def _first_call_trees(index: ModuleIndex, weak: WeakTypes, step: ast.AST,
                      initial: dict[str, ast.expr]) -> Callable[[ast.expr], ast.expr | None]:
    """In the jitted ``step``, a parameter (``model``) holds on the first call the tree its argument
    starts as, and ``param["key"]`` that tree's leaf: where the step never rebinds it, or up to the end
    of the one top-level assignment that does (``model = tree_map(..., model, ...)``; after it, the
    parameter holds that assignment's value)."""
    body = getattr(step, "body", [])
    until: dict[str, tuple[int, int]] = {}
    after: dict[str, ast.expr] = {}
    for n in index.scope_nodes(step):
        for t in ast.walk(n) if isinstance(n, ast.stmt) else ():
            if not (isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store) and t.id in initial):
                continue
            if t.id not in until and isinstance(n, ast.Assign) and n in body and len(n.targets) == 1 \
                    and n.targets[0] is t:
                until[t.id] = (n.end_lineno or n.lineno, n.end_col_offset or 0)
                after[t.id] = n.value
            else:
                until[t.id] = (0, 0)  # rebound more than once, in a block, or unpacked: unknown
                after.pop(t.id, None)

    def held(e: ast.Name) -> ast.expr | None:
        if e.id not in initial or weak.owner(e) is not step:
            return None
        end = until.get(e.id)
        if end is None or (e.lineno, e.col_offset) < end:
            return initial[e.id]
        return after.get(e.id)

    def reads(e: ast.expr) -> ast.expr | None:
        if isinstance(e, ast.Name):
            return held(e)
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and isinstance(e.slice, ast.Constant):
            tree = held(e.value)
            return weak.leaf_value(tree, e.slice.value) if tree is not None else None
        return None

    return reads


def _start_shown(index: ModuleIndex, call: ast.Call, name: str, initial: ast.Constant) -> tuple[ast.AST, str]:
    """Where to report a carried value's Python-number start, and how to describe it: at the literal,
    or, for a parameter's default, at the name the loop starts from (``step_size = init_step_size``)."""
    origin = bound_before_loop(index, call, name)
    if isinstance(origin, ast.Name):
        return origin, f"{_weak_number(initial)}, the default of `{origin.id}`,"
    return initial, _weak_number(initial)


def _parameter_default(index: ModuleIndex, name: ast.Name) -> ast.expr | None:
    """The default of the parameter ``name`` reads, when no call in this file passes that parameter."""
    func = index.function_of(name)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    positional = [*func.args.posonlyargs, *func.args.args]
    defaults = parameter_defaults(func)
    if name.id not in defaults or any(isinstance(n, ast.Name) and n.id == name.id and isinstance(n.ctx, ast.Store)
                                      for n in index.scope_nodes(func)):
        return None
    position = next((i for i, a in enumerate(positional) if a.arg == name.id), None)
    for call, _ in index.calls:
        if not (isinstance(call.func, ast.Name) and call.func.id == func.name
                or isinstance(call.func, ast.Attribute) and call.func.attr == func.name):
            continue
        if any(k.arg == name.id or k.arg is None for k in call.keywords) or any(
                isinstance(a, ast.Starred) for a in call.args):
            return None
        offset = 1 if isinstance(call.func, ast.Attribute) and positional and positional[0].arg == "self" else 0
        if position is not None and len(call.args) + offset > position:
            return None
    return defaults[name.id]


def _mixed_with_array_argument(ctx: ModuleContext, index: ModuleIndex, call: ast.Call, params: list[str],
                               carried: str, returned: ast.expr, initial: ast.Constant) -> str | None:
    """The jitted step returns the carried value combined by arithmetic with a ``jnp`` op of
    another of its parameters that the call passes an array (not a Python number): the result
    takes that array's strong dtype (a weakly typed operand never decides it), so a carried value
    that started as a Python number comes back strongly typed. Not when the carried value started
    as a Python float and the op gives an integer array from an evidently integer argument
    (``0.0 + jnp.sum(labels)`` with int labels is a weakly typed float32, measured on jax 0.10.2).
    ``returned`` is followed to its single assignment in the step."""
    expr = returned
    if isinstance(expr, ast.Name):
        func = index.function_of(expr)
        values = [] if func is None or isinstance(func, ast.Lambda) else [
            n.value for n in index.scope_nodes(func) if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        if len(values) != 1:
            return None
        expr = values[0]
    if not isinstance(expr, ast.BinOp) or not isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult)):
        return None
    operands = [expr.left, expr.right]
    if not any(isinstance(o, ast.Name) and o.id == carried for o in operands):
        return None
    passed = dict(bound_arguments(params, call, index))
    for o in operands:
        if not isinstance(o, ast.Call) or not o.args or not isinstance(o.args[0], ast.Name):
            continue
        name = ctx.facts.aliases.resolve(o.func)
        param = o.args[0].id
        if name is None or not name.startswith("jnp.") or param == carried or param not in params:
            continue
        arg = passed.get(param)
        if arg is None or python_number(arg) or isinstance(arg, ast.Name) and (
                (before := bound_before_loop(index, call, arg.id)) is not None and python_number(before)):
            continue
        if not isinstance(arg, (ast.Name, ast.Subscript, ast.Attribute)):
            continue
        if isinstance(initial.value, float) and returns_integer(name) and _integer_argument(ctx, index, call, arg):
            continue
        return f"strongly typed ({name} of the array argument `{param}`)"
    return None


def _integer_argument(ctx: ModuleContext, index: ModuleIndex, call: ast.Call, arg: ast.expr) -> bool:
    """The argument is evidently an integer or boolean array (bound before the loop, or in the
    calling function, to an integer dtype or a comparison)."""
    if isinstance(arg, ast.Name):
        before = bound_before_loop(index, call, arg.id)
        if before is not None:
            return _weak_types(ctx, index).integral(before)
    return _weak_types(ctx, index).integral(arg)


_FLOAT_FUNCTIONS = frozenset({f"jnp.{f}" for f in (
    "mean", "average", "exp", "log", "log1p", "sqrt", "tanh", "sin", "cos", "std", "var", "float32", "float16",
    "bfloat16", "nanmean", "linspace")} | {"jax.nn.sigmoid", "jax.nn.softplus", "jax.nn.logsumexp",
                                            "jax.nn.log_softmax", "jax.nn.softmax"})


def _float_valued(ctx: ModuleContext, e: ast.expr) -> bool:
    """``e`` is evidently a float: a true division, a float literal operand, or a float-valued function."""
    if isinstance(e, ast.BinOp):
        return isinstance(e.op, ast.Div) or _float_valued(ctx, e.left) or _float_valued(ctx, e.right)
    if isinstance(e, ast.UnaryOp):
        return _float_valued(ctx, e.operand)
    if isinstance(e, ast.Constant):
        return type(e.value) is float
    if isinstance(e, ast.Call):
        if isinstance(e.func, ast.Attribute) and e.func.attr == "mean" and ctx.facts.aliases.resolve(e.func) is None:
            return True
        return ctx.facts.aliases.resolve(e.func) in _FLOAT_FUNCTIONS
    return False
