"""XLA421: a value that a jitted step receives as ``None`` on its first call and as arrays after."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis import is_none
from xlacheck.analysis.contexts import FunctionInfo
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.pytrees import state_classes
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    bound_arguments,
    bound_before_loop,
    bound_fields,
    in_test,
    jax_jitted,
    jits_with_jax,
    jitted_calls_rebinding,
    positional_params,
    reads_state,
    runs_traced,
    state_constructions,
)
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule


class JitCarryStartsAsNone(ModuleRule):
    """
    ## What it does
    Flags a name bound to `None` right before a loop that passes it (not as a static argument)
    to a function this file jits and rebinds it from that call's result
    (`state = None`, then `out, state = step(x, state)` in the loop, or `out = step(x, state)` and
    `state = out`; the step called by name, as a local `jax.jit(...)` or as `self._step` bound
    jitted, or through a forwarder of this file whose body is `return step(...)` of its own
    parameters; its arguments also through a `**dict`), when the jitted function
    evidently returns a value there (its `return` does not put `None` in that place), unless an
    `if state is None: state = <value>` inside the loop, before the call, fills it first; and a
    field of a state class of this file (a `NamedTuple` or dataclass) that is built `None` where
    the state is created and rebuilt with a value by a jitted function of this file that reads
    the state (an optimizer's `aux=None` in `init_state`, `aux=aux` in `update`). That `None`
    then an array miss the cache is read from the measured table
    `xlacheck/data/jax_cache_key.json` (`pytree.none_then_array`).

    ## Why is this bad?
    `None` is an empty pytree node, an array is a leaf: the two calls have different pytree
    structures, so jax.jit traces and compiles the step a second time (jaxopt#116). For a large
    training or decoding step that is one full compile more, paid at every start.

    ## Example
    ```python
    cache = None
    for token in prompt:
        logits, cache = decode_step(params, token, cache)
    ```

    ## Use instead
    ```python
    cache = init_cache(batch, max_len)  # arrays of the shapes decode_step returns
    for token in prompt:
        logits, cache = decode_step(params, token, cache)
    ```

    ## Fix safety
    No automatic fix: the initial arrays must have the shapes and dtypes the step returns.
    """

    code = "XLA421"
    fix = None
    name = "jit-carry-starts-as-none"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(x, h):\n    h = x + h\n    return h, h\n"
                "def run(xs):\n    h = jnp.zeros(3)\n    for x in xs:\n        y, h = step(x, h)\n    return y\n"),
        Example("import jax\n@jax.jit\ndef step(x, h):\n    return x * 2, None\n"
                "def run(xs):\n    h = None\n    for x in xs:\n        y, h = step(x, h)\n    return y\n"),
        Example(
                "import jax\n"
                "import jax.numpy as jnp\n"
                "@jax.jit\n"
                "def step(x, h):\n"
                "    return x + h\n"
                "def run_step(x, h):\n"
                "    return step(x, jnp.zeros(3) if h is None else h)\n"
                "def run(xs):\n"
                "    h = None\n"
                "    for x in xs:\n"
                "        h = run_step(x, h)\n"
                "    return h\n"),
        # learned_optimization population/examples/synthetic/train.py (judged false, batch 19): filled
        # before the call on every iteration, so the jitted step never sees None
        Example(
                "import jax\n"
                "import jax.numpy as jnp\n"
                "@jax.jit\n"
                "def update(p, m):\n"
                "    return p * m\n"
                "def train(get, steps):\n"
                "    params = None\n"
                "    for _ in range(steps):\n"
                "        new = get(params)\n"
                "        if new:\n"
                "            params = new\n"
                "        if params is None:\n"
                "            params = jnp.zeros(3)\n"
                "        for _ in range(5):\n"
                "            params = update(params, 1.0)\n"
                "    return params\n"),
    )
    INVALID = (
        Example("import jax\n@jax.jit\ndef step(x, h):\n    h = x if h is None else x + h\n    return h * 2, h\n"
                "def run(xs):\n    h = None\n    for x in xs:\n        y, h = step(x, h)\n    return y\n",
                expected=(
                    (7, 9, '`h` is None on the first call of jitted `step` and then what it returns (line 5): None '
                           'and an array are different pytree structures, so jax.jit traces and compiles the step a '
                           'second time; start it with arrays of the shapes and dtypes the step returns'),
                )),
        Example("import jax\nfrom typing import Any, NamedTuple\nclass State(NamedTuple):\n    it: Any\n"
                "    aux: Any\ndef init_state(x):\n    return State(it=0, aux=None)\n"
                "@jax.jit\ndef update(x, state):\n    return State(it=state.it + 1, aux=x * 2)\n",
                expected=(
                    (7, 28, 'field `aux` of `State` is None where the state is built, but jitted `update` rebuilds it '
                            'with a value (line 10): None and an array are different pytree structures, so jax.jit '
                            'traces and compiles `update` again on the call after the first; build it with arrays '
                            'of the shapes the update gives it (jax.eval_shape)'),
                )),
        Example(
                "import jax\n"
                "@jax.jit\n"
                "def step(x, h):\n"
                "    return x if h is None else x + h\n"
                "def run(xs):\n"
                "    h = None\n"
                "    for x in xs:\n"
                "        out = step(x, h)\n"
                "        h = out\n"
                "    return h\n",
                expected=(
                    (6, 9, "`h` is None on the first call of jitted `step` and then what it returns (line 4): None "
                           "and an array are different pytree structures, so jax.jit traces and compiles the step a "
                           "second time; start it with arrays of the shapes and dtypes the step returns"),
                )),
        Example(
                "import jax\n"
                "@jax.jit\n"
                "def step(x, h):\n"
                "    return x if h is None else x + h\n"
                "def run_step(x, h):\n"
                "    return step(x, h)\n"
                "def run(xs):\n"
                "    h = None\n"
                "    for x in xs:\n"
                "        h = run_step(x, h)\n"
                "    return h\n",
                expected=(
                    (8, 9, "`h` is None on the first call of jitted `step` and then what it returns (line 4): None "
                           "and an array are different pytree structures, so jax.jit traces and compiles the step a "
                           "second time; start it with arrays of the shapes and dtypes the step returns"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not jits_with_jax(ctx.facts) or not jax_cache.recompiles("pytree.none_then_array"):
            return
        index = ctx.index
        self._check_carried(ctx, index)
        jitted = dict(jax_jitted(ctx.facts, index))
        if jitted:
            self._check_state_fields(ctx, index, jitted)

    def _check_carried(self, ctx: ModuleContext, index: ModuleIndex) -> None:
        for call, jitted_name, target, names, info, node, params, carriers in jitted_calls_rebinding(ctx.facts, index):
            if in_test(index, ctx.path, call) or runs_traced(ctx.facts, index, call):
                continue
            returns = [n.value for n in index.scope_nodes(node) if isinstance(n, ast.Return)]
            if not returns or any(r is None for r in returns):
                continue
            for position, carried in carriers:
                param = next((p for p, a in bound_arguments(params, call, index)
                              if not p.startswith("#") and isinstance(a, ast.Name) and a.id == carried), None)
                if param is None or param in info.static_params:
                    continue
                returned = [_element(r, position, len(names) if isinstance(target, ast.Tuple) else None)
                            for r in returns]
                if any(r is None or _maybe_none(index, node, r, param) for r in returned):
                    continue
                initial = bound_before_loop(index, call, carried)
                if initial is None or not is_none(initial) or _filled_before(index, call, carried):
                    continue
                line = returned[0].lineno if returned[0] is not None else node.lineno
                ctx.report(self, initial, f"`{carried}` is None on the first call of jitted `{jitted_name}` and "
                                          f"then what it returns (line {line}): None and an array are different "
                                          "pytree structures, so jax.jit traces and compiles the step a second "
                                          "time; start it with arrays of the shapes and dtypes the step returns")
                break

    def _check_state_fields(self, ctx: ModuleContext, index: ModuleIndex, jitted: dict[str, FunctionInfo]) -> None:
        states = state_classes(ctx.tree, ctx.facts.aliases.resolve)
        if not states:
            return
        for cls_name, sites in state_constructions(index, states, jitted).items():
            fields = states[cls_name]
            inits = [c for c, owner in sites if owner is None and not in_test(index, ctx.path, c)]
            updates = [(c, owner) for c, owner in sites if owner is not None
                       and reads_state(index, c, fields)]
            for init in inits:
                for field, value in bound_fields(init, fields):
                    if not is_none(value):
                        continue
                    rebuilt = next(((owner, other) for c, owner in updates
                                    if (other := dict(bound_fields(c, fields)).get(field))
                                    is not None and _valued(index, c, other)), None)
                    if rebuilt is None:
                        continue
                    owner, other = rebuilt
                    ctx.report(self, value, f"field `{field}` of `{cls_name}` is None where the state is built, but "
                                            f"jitted `{owner}` rebuilds it with a value (line {other.lineno}): None "
                                            "and an array are different pytree structures, so jax.jit traces and "
                                            f"compiles `{owner}` again on the call after the first; build it with "
                                            "arrays of the shapes the update gives it (jax.eval_shape)")


def _maybe_none(index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef, e: ast.expr, carried: str,
                depth: int = 0) -> bool:
    """``e`` may be None where ``func`` returns it: None itself, a conditional with a None branch,
    the carried parameter passed through unchanged, or a name one of whose assignments may be."""
    if is_none(e):
        return True
    if isinstance(e, ast.IfExp):
        return _maybe_none(index, func, e.body, carried, depth) or _maybe_none(index, func, e.orelse, carried, depth)
    if not isinstance(e, ast.Name) or depth > 2:
        return False
    values = [n.value for n in index.scope_nodes(func) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == e.id for t in n.targets)]
    if not values:
        return e.id == carried
    return any(_maybe_none(index, func, v, carried, depth + 1) for v in values)


def _filled_before(index: ModuleIndex, call: ast.Call, name: str) -> bool:
    """Inside the loops around ``call``, a statement before it (in a block that holds it) is ``if
    name is None: name = <a value>``: after that ``if`` the name is not None on any path, so the
    jitted function never sees the None it started as (learned_optimization's synthetic
    population ``train.py``: ``if params is None: params = (0.,)`` before ``update(params, ...)``)."""
    loops = index.loops_around(call)
    if not loops:
        return False
    outer = loops[-1]
    child: ast.AST = call
    for anc in index.ancestors(call):
        for field in ("body", "orelse"):
            block = getattr(anc, field, None)
            if isinstance(block, list) and any(child is stmt for stmt in block):
                earlier = block[:next(i for i, stmt in enumerate(block) if stmt is child)]
                if any(_fills_none(stmt, name) for stmt in earlier):
                    return True
        if anc is outer:
            return False
        child = anc
    return False


def _fills_none(stmt: ast.stmt, name: str) -> bool:
    """``if name is None: name = v`` (no ``else``) with ``v`` a value that is not None."""
    if not (isinstance(stmt, ast.If) and not stmt.orelse and isinstance(stmt.test, ast.Compare)
            and len(stmt.test.ops) == 1 and isinstance(stmt.test.ops[0], ast.Is)
            and isinstance(stmt.test.left, ast.Name) and stmt.test.left.id == name
            and is_none(stmt.test.comparators[0])):
        return False
    last = stmt.body[-1]
    return isinstance(last, ast.Assign) and len(last.targets) == 1 and isinstance(last.targets[0], ast.Name) \
        and last.targets[0].id == name and not is_none(last.value) and not isinstance(last.value, ast.Name)


def _valued(index: ModuleIndex, site: ast.AST, e: ast.expr) -> bool:
    """Evidently not None: arithmetic, a call, a subscript, a number, or a name that the function
    around ``site`` binds itself (not a parameter) and never to something that may be None."""
    if isinstance(e, (ast.BinOp, ast.UnaryOp, ast.Call, ast.Subscript)) or (
            isinstance(e, ast.Constant) and type(e.value) in (int, float, bool)):
        return True
    func = index.function_of(site)
    if not isinstance(e, ast.Name) or not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    params = positional_params(func) + [a.arg for a in func.args.kwonlyargs]
    stored = any(isinstance(n, ast.Name) and n.id == e.id and isinstance(n.ctx, ast.Store)
                 for n in index.scope_nodes(func))
    return stored and e.id not in params and not _maybe_none(index, func, e, "")


def _element(returned: ast.expr | None, position: int, width: int | None) -> ast.expr | None:
    """The part of a ``return`` value that lands in target ``position`` (``width`` names unpacked)."""
    if returned is None:
        return None
    if width is None:
        return returned
    if isinstance(returned, ast.Tuple) and len(returned.elts) == width:
        return returned.elts[position]
    return None
