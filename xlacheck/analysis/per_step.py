"""Whether code runs per step: the evidence in this file that a function (or a call) runs again
and again, so that a compiled function or a static object it builds anew is built anew each time.

A recompile hazard of the kind "built once per call of the enclosing function" (a ``jax.jit`` of a
new lambda, a new ``tf.function``, a new identity-hashed static argument) costs a compile per call
of that function. Whether that matters depends on how often the function runs: a one-off driver
(``main``, a set-up function, a training loop run once) pays once; a per-batch helper pays on every
batch. One-off drivers are as common as per-step helpers, so the rules of that family flag such a
creation only where this file shows the repetition: the function is called in a loop, over data its
caller receives, runs a compiled step a fixed number of times (a computation callers repeat), or is a
collator, generator or ``__call__``. The rules that read this module: XLA404 (a compiled function
created per call), XLA411 and XLA419 (a static argument made anew), and through
``rules._recompile_scope.made_anew_before`` every rule that asks how often an argument is made anew.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.analysis.contexts import ModuleFacts
from xlacheck.analysis.module_index import ModuleIndex

_PER_BATCH_METHODS = frozenset({"__call__", "__getitem__", "__iter__", "collate", "collate_fn", "on_epoch_end"})
# Functions that run once per program or object, whatever calls them.
ONCE_FUNCTIONS = frozenset({"__init__", "build", "setUp", "setUpClass", "main", "__post_init__"})
# What a loop over data is read through: ``enumerate(batches)``, ``zip(xs, ys)``.
_ITERABLE_WRAPPERS = ("enumerate", "zip", "iter", "tqdm")


def python_loops_around(index: ModuleIndex, node: ast.AST) -> list[ast.AST]:
    """The loops around ``node`` that run its Python code once per iteration: a ``for _ in
    tf.range(...)`` loop is staged by AutoGraph, which traces its body once into a tf.while_loop
    (seed_rl's PPO epochs: the epoch function runs twice while ``minimize`` traces), so it repeats no
    Python and builds no function per iteration; a loop over a display of one item runs its body once
    (:func:`single_pass`)."""
    return [loop for loop in index.loops_around(node)
            if not (isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.iter, ast.Call)
                    and index.aliases.resolve(loop.iter.func) == "tf.range") and not single_pass(loop)]


def single_pass(loop: ast.AST) -> bool:
    """``loop`` (a ``for`` or a comprehension) iterates a list, tuple or set display of at most one
    item (``for threshold in [0.5]``: jax-cfd's summaries): its body runs once, it repeats nothing."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        iterables = [loop.iter]
    elif isinstance(loop, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        iterables = [g.iter for g in loop.generators]
    else:
        return False
    return all(isinstance(it, (ast.List, ast.Tuple, ast.Set)) and len(it.elts) <= 1
               and not any(isinstance(e, ast.Starred) for e in it.elts) for it in iterables)


def literal_range(loop: ast.AST) -> bool:
    """``for _ in range(<int literal>)`` (or ``range(a, b)`` of literals): a fixed trip count."""
    if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call):
        return False
    it = loop.iter
    return isinstance(it.func, ast.Name) and it.func.id == "range" and bool(it.args) and not it.keywords and all(
        isinstance(a, ast.Constant) and isinstance(a.value, int) for a in it.args)


def call_sites(index: ModuleIndex, func: ast.AST) -> list[ast.Call]:
    """The calls of ``func`` in this file: by its name, and for a method (or a function the facts do
    not know) also ``x.<name>(...)``. ``strategy.run(step_fn)`` in a loop is no call of the file's
    own module-level ``def run(...)``."""
    name = getattr(func, "name", None)
    info = index.facts.by_node.get(id(func))
    method = info is None or info.cls is not None
    return [c for c, _ in index.calls
            if (isinstance(c.func, ast.Name) and c.func.id == name)
            or (method and isinstance(c.func, ast.Attribute) and c.func.attr == name)]


def forwards(func: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.AST) -> bool:
    """The body of ``func`` (its docstring aside) is ``return <call>``: a thin forwarder."""
    body = [s for s in func.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is call


def called_in_loop(index: ModuleIndex, func: ast.AST) -> bool:
    """This file calls ``func`` inside a loop that repeats Python code (:func:`python_loops_around`)."""
    return any(python_loops_around(index, site) for site in call_sites(index, func))


def called_over_data(index: ModuleIndex, func: ast.AST) -> bool:
    """This file calls ``func`` in a loop over data its caller receives: the loop iterates a
    parameter of the calling function (``[prediction(b) for b in batches]``, ``enumerate(batches)``,
    ``zip(xs, ys)``), so ``func`` runs once per item of a data set. A loop over a count or a
    structure of ``self`` (``for i in range(self._num_sub_actions)``: tf_agents' samplers, traced
    inside the policy) is not such evidence."""
    for site in call_sites(index, func):
        loops = index.loops_around(site)
        caller = index.function_of(site)
        if not loops or not isinstance(caller, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        params = {a.arg for a in caller.args.posonlyargs + caller.args.args + caller.args.kwonlyargs}
        loop = loops[0]
        generators = getattr(loop, "generators", None)
        iterable = generators[0].iter if generators else getattr(loop, "iter", None)
        if iterable is None:
            continue
        parts = [iterable]
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
                and iterable.func.id in _ITERABLE_WRAPPERS:
            parts = list(iterable.args)
        if any(isinstance(p, ast.Name) and p.id in params for p in parts):
            return True
    return False


def called_only_outside_loops(index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef,
                              depth: int = 0) -> bool:
    """The file calls ``func`` and never from a loop or compiled code: a one-off (a dry run, a setup step).
    A call that is the whole body of a forwarder (``def act(obs): return agent.take_action(obs)``)
    runs as often as the forwarder does: one-off only if the forwarder is."""
    sites = call_sites(index, func)
    if not sites:
        return False  # called from elsewhere: assume per step, as a loss or predict helper usually is
    for site in sites:
        if index.loops_around(site):
            return False
        caller = index.function_of(site)
        info = index.facts.by_node.get(id(caller)) if caller is not None else None
        if info is not None and info.compiled:
            return False
        if isinstance(caller, (ast.FunctionDef, ast.AsyncFunctionDef)) and caller is not func and depth < 3 \
                and forwards(caller, site) and not called_only_outside_loops(index, caller, depth + 1):
            return False
    return True


def reached_per_step(index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The project shows that ``func`` runs again and again: this file calls it in a loop that repeats
    Python code, directly or through its callers (:func:`repeats`), or over data its caller receives
    (:func:`called_over_data`), it is a method called per item by its role (:func:`per_batch_method`),
    or another module of the project calls it in a loop passing a value that changes every iteration
    (``facts.caller_loops``, from the project pass, which reads only files that import a framework; a loop
    of another file that passes the same values every time is not seen).
    Where no caller is in view (a helper another file calls, or nothing calls) this is False: a function
    that builds a compiled function is a one-off driver or set-up step as often as a per-step helper, so
    the builder is "rebuilt per step" only where it is seen reached per step (XLA404)."""
    return repeats(index, func) is not None or called_over_data(index, func) or per_batch_method(func) \
        or (func in index.tree.body and func.name in index.facts.caller_loops)


def runs_traced(facts: ModuleFacts, index: ModuleIndex, node: ast.AST | None) -> bool:
    """``node`` (a function, or any node inside one) runs while a compiled function of this file
    traces: it or a function around it is compiled (a tf.function, jax.jit, strategy.run)."""
    func = node
    if func is not None and not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        func = index.function_of(func)
    while func is not None:
        info = facts.by_node.get(id(func))
        if info is not None and info.compiled:
            return True
        func = index.function_of(func)
    return False


def per_batch_method(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``func`` is a method a framework or a loop calls once per item or batch by its role: ``__call__``
    (a pipeline or predictor called per request), ``__getitem__``/``__iter__`` (a data set),
    ``on_epoch_end``, a collator (``collate_fn``, any name with "collat")."""
    return func.name in _PER_BATCH_METHODS or "collat" in func.name.lower()


def per_batch(index: ModuleIndex, call: ast.Call) -> bool:
    """The call runs once per batch: in a loop or comprehension, in a generator, a collator-like
    method, or a function this file calls in a loop or hands to ``map``/``DataLoader``."""
    if index.loops_around(call):
        return True
    func = index.function_of(call)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if per_batch_method(func) or "batch" in func.name.lower():
        return True
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in index.scope_nodes(func)):
        return True
    for site, _ in index.calls:
        callee = site.func.attr if isinstance(site.func, ast.Attribute) else getattr(site.func, "id", None)
        if callee == func.name and index.loops_around(site):
            return True
        handed = any(isinstance(a, (ast.Name, ast.Attribute))
                     and (getattr(a, "id", None) or getattr(a, "attr", None)) == func.name
                     for a in [*site.args, *(k.value for k in site.keywords)])
        if handed and callee in ("map", "DataLoader", "from_generator"):
            return True
    return False


# Levels of callers followed to a loop: `train` loops over `run_epoch()`, which calls `run_step()`.
_CALLER_DEPTH = 2


def repeats(index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef, depth: int = _CALLER_DEPTH,
            skip: Callable[[ast.Call], bool] | None = None) -> str | None:
    """How this file shows that ``func`` runs again and again, in words for a message ("which this
    file calls in a loop at line 12", "which this file calls through `run_epoch()` in a loop at line
    12"), or None: a call of ``func`` (:func:`call_sites`) in a loop that repeats Python code,
    directly or through up to ``depth - 1`` functions of this file that call it outside loops
    (``train`` loops over ``run_epoch()``, which calls ``func``). Calls from a test, or from code a
    compiled function of this file traces (it runs once per trace there), are no such evidence, nor
    those ``skip`` refuses; nor is a function that runs once per object or program
    (:data:`ONCE_FUNCTIONS`)."""
    found = _repeat_site(index, func, depth, skip)
    if found is None:
        return None
    line, via = found
    through = f" through {', '.join(f'`{name}()`' for name in via)}" if via else ""
    return f"which this file calls{through} in a loop at line {line}"


def _repeat_site(index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef, depth: int,
                 skip: Callable[[ast.Call], bool] | None) -> tuple[int, list[str]] | None:
    """(the line of the loop, the functions between it and ``func``) for :func:`repeats`."""
    if func.name in ONCE_FUNCTIONS:
        return None
    for site in call_sites(index, func):
        caller = index.function_of(site)
        if caller is func or id(site) in index.test_nodes or runs_traced(index.facts, index, site) \
                or (skip is not None and skip(site)):
            continue
        loops = python_loops_around(index, site)
        if loops:
            return min(loop.lineno for loop in loops), []  # type: ignore[attr-defined]
        if depth > 1 and isinstance(caller, (ast.FunctionDef, ast.AsyncFunctionDef)):
            through = _repeat_site(index, caller, depth - 1, skip)
            if through is not None:
                return through[0], [caller.name, *through[1]]
    return None


def runs_step_fixed_times(index: ModuleIndex, call: ast.Call,
                          func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``call`` runs inside ``func`` (or a function nested in it) only in ``for _ in range(<literal>)``
    loops of its own scope (a fixed amount of work per call of ``func``), ``func`` is no set-up function,
    and this file does not call it only outside loops: ``func`` is a computation its callers repeat (an
    optimization run per hyper-parameter, a solve per outer iteration), not a driver over data, whose
    loop would walk the data or a step count it is given (jax#4572). XLA404 reads the same evidence for a ``jax.jit`` made per call."""
    loops = python_loops_around(index, call)
    return bool(loops) and all(literal_range(loop) for loop in loops) and func.name not in ONCE_FUNCTIONS \
        and not func.name.startswith("test") and not called_only_outside_loops(index, func)
