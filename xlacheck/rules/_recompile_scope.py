"""Where a recompile hazard (XLA4xx) costs something: shared by the rules of that family.

A recompile costs time once per new shape or value. In a test (a handful of steps) or in code
that runs once (padding a whole corpus, a one-off conversion), it costs nothing that matters; in
code that runs per batch or per step it multiplies.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from xlacheck.analysis.compiled_exports import stand_in
from xlacheck.analysis.contexts import ClassInfo, FunctionInfo, ModuleFacts, bound_method, is_test_module
from xlacheck.analysis.module_index import ModuleIndex, has_kwargs_splat
from xlacheck.analysis.per_step import per_batch, repeats, runs_step_fixed_times, runs_traced
from xlacheck.analysis.tables import JAX_JIT_NAMES

# jax.numpy calls whose result is longer than their first operand's arrays (XLA416, XLA424).
JAX_GROWERS = frozenset({"jnp.concatenate", "jnp.append", "jnp.vstack", "jnp.hstack", "jnp.pad", "jnp.row_stack",
                         "jnp.concat"})

# jax.numpy calls that join a Python list of arrays into one array whose shape follows the list's
# length, compiling an XLA program per length when run eagerly (XLA416, XLA424); and the calls that
# turn a list into an array on the host, with no compile of their own but the same shape (XLA416).
JAX_LIST_JOINS = frozenset({"jnp.stack", "jnp.concatenate", "jnp.concat", "jnp.vstack", "jnp.hstack"})
HOST_LIST_JOINS = frozenset({"jnp.array", "jnp.asarray", "np.stack", "np.concatenate", "np.vstack", "np.hstack",
                             "np.array", "np.asarray"})

# Calls that keep the shape of their first argument: a value wrapped on its way to a compiled call
# (XLA412 for tf.function, XLA416 for jax.jit, XLA401 for either).
TF_SHAPE_KEEPING = frozenset({"tf.convert_to_tensor", "tf.constant", "tf.identity", "tf.cast",
                              "np.asarray", "np.array"})
JAX_SHAPE_KEEPING = frozenset({"jnp.asarray", "jnp.array", "np.asarray", "np.array", "jax.device_put"})


def in_test(index: ModuleIndex, path: str, node: ast.AST) -> bool:
    """A test file (``test_*.py``, ``*_test.py``, ``conftest.py``) or a test function/class."""
    if is_test_module(path) or os.path.basename(path) == "conftest.py":
        return True
    return id(node) in index.test_nodes


def made_anew_before(index: ModuleIndex, call: ast.Call, made: ast.AST, *, once_if_conditional: bool = False
                     ) -> str | None:
    """How often ``made`` (the binding or creation of an argument) runs anew before ``call``:
    ``"iteration"`` when a loop around the call also holds it; ``"call of `f()`, which ..."`` when it
    is made once per call of the function ``f`` around both and that function repeats: it runs per
    batch (:func:`xlacheck.analysis.per_step.per_batch`, for a call outside loops), this file calls
    it in a loop, directly or through the functions that call it
    (:func:`xlacheck.analysis.per_step.repeats`), or it runs the call a fixed number of times, a
    computation its callers repeat (:func:`xlacheck.analysis.per_step.runs_step_fixed_times`);
    None otherwise (made once before the loop that calls, in a function that may run once).
    ``once_if_conditional``: a creation in a branch of an ``if`` inside that loop which does not
    hold the call (``if i == 0: fn = lambda ...``) is not made anew on every iteration either."""
    made_in = {id(loop) for loop in index.loops_around(made)}
    shared = next((loop for loop in index.loops_around(call) if id(loop) in made_in), None)
    if shared is not None:
        return None if once_if_conditional and _conditional_in(index, made, call, shared) else "iteration"
    func = index.function_of(call)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or index.function_of(made) is not func:
        return None
    if not index.loops_around(call) and per_batch(index, call):
        return f"call of `{func.name}()`, which runs per batch"
    how = repeats(index, func)
    if how is not None:
        return f"call of `{func.name}()`, {how}"
    if runs_step_fixed_times(index, call, func):
        return f"call of `{func.name}()`, which runs this call a fixed number of times (a computation its callers " \
               "repeat)"
    return None


def _conditional_in(index: ModuleIndex, creation: ast.AST, call: ast.AST, loop: ast.AST) -> bool:
    """``creation`` sits in a branch of an ``if`` inside ``loop`` that does not hold ``call``."""
    call_ancestors = {id(a) for a in index.ancestors(call)}
    for anc in index.ancestors(creation):
        if anc is loop:
            return False
        if isinstance(anc, (ast.If, ast.IfExp)) and id(anc) not in call_ancestors:
            return True
    return False

def jitted_with_static_params(facts: ModuleFacts, index: ModuleIndex) -> Iterator[tuple[str, FunctionInfo]]:
    """:func:`jax_jitted` functions with static parameters (``static_argnums``/``static_argnames``)."""
    return ((name, info) for name, info in jax_jitted(facts, index) if info.static_params)


def _jit_decorated(node: ast.FunctionDef | ast.AsyncFunctionDef, resolve: Callable[[ast.expr], str | None]) -> bool:
    """Decorated with ``jax.jit``, ``jax.jit(...)`` or ``partial(jax.jit, ...)``."""
    return any(resolve(dec) in JAX_JIT_NAMES or isinstance(dec, ast.Call) and (
        resolve(dec.func) in JAX_JIT_NAMES or (bool(dec.args) and resolve(dec.args[0]) in JAX_JIT_NAMES))
        for dec in node.decorator_list)


def jits_with_jax(facts: ModuleFacts) -> bool:
    """The file has a function that jax.jit traces (decorated, or handed to ``jax.jit``): the JAX
    recompile rules have nothing to check otherwise (asked before the module index is built and
    before a measured table is read)."""
    return any(info.jax for info in facts.functions) or any(c.jax for c in facts.imported_compiled.values())


def jax_jitted(facts: ModuleFacts, index: ModuleIndex) -> Iterator[tuple[str, FunctionInfo]]:
    """(the name callers use, the function) for each module-level function this file jits:
    decorated with ``jax.jit``/``partial(jax.jit, ...)``, or ``name = jax.jit(function, ...)``."""
    resolve = facts.aliases.resolve
    by_name = {f.node.name: f for f in facts.functions
               if not isinstance(f.node, ast.Lambda) and f.parent is None and f.cls is None}
    for name, info in by_name.items():
        node = info.node
        if isinstance(node, ast.Lambda):
            continue
        if info.jax and _jit_decorated(node, resolve):
            yield name, info
    for call, resolved in index.calls:
        if not (resolved in JAX_JIT_NAMES or _partial_of_jit(call.func, resolve)) or not call.args \
                or not isinstance(call.args[0], ast.Name):
            continue
        wrapped = by_name.get(call.args[0].id)
        assign = index.parent(call)
        if wrapped is None or not isinstance(assign, ast.Assign) \
                or len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
            continue
        yield assign.targets[0].id, wrapped


def _partial_of_jit(func: ast.expr, resolve: Callable[[ast.expr], str | None]) -> bool:
    """``partial(jax.jit, static_argnames=...)``: the factory whose call, ``partial(jax.jit, ...)(f)``,
    jits ``f`` as the decorator spelling does."""
    return isinstance(func, ast.Call) and bool(func.args) and (
        resolve(func.func) == "functools.partial" or (isinstance(func.func, ast.Name) and func.func.id == "partial")) \
        and resolve(func.args[0]) in JAX_JIT_NAMES


def bound_arguments(params: list[str], call: ast.Call, index: ModuleIndex | None = None
                    ) -> list[tuple[str, ast.expr]]:
    """(parameter, argument) pairs of ``call`` for a function whose positional parameters are
    ``params``: positional arguments by position (``#i`` past the last parameter; ``*args`` left
    out), then the named keywords, and with ``index`` the entries of a ``**name`` that the calling
    function binds once to a dict display (:func:`keyword_dict_entries`)."""
    bound = [(params[i] if i < len(params) else f"#{i}", a) for i, a in enumerate(call.args)
             if not isinstance(a, ast.Starred)]
    return bound + [(k.arg, k.value) for k in call.keywords if k.arg is not None] \
        + (keyword_dict_entries(index, call) if index is not None else [])


def keyword_dict_entries(index: ModuleIndex, call: ast.Call) -> list[tuple[str, ast.expr]]:
    """(keyword, value) of each ``**name`` argument of ``call`` whose name the calling function
    binds exactly once, to a dict display with string keys (``inputs = {"x": x, "n": i + 1}``, then
    ``step(**inputs)``), and of each ``**{...}`` display."""
    out: list[tuple[str, ast.expr]] = []
    for kw in call.keywords:
        if kw.arg is not None:
            continue
        value = kw.value
        if isinstance(value, ast.Name):
            func = index.function_of(call)
            if func is None or isinstance(func, ast.Lambda):
                continue
            binds = [n for n in index.scope_nodes(func) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                     and any(isinstance(t, ast.Name) and t.id == value.id
                             for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
            if len(binds) != 1 or not isinstance(binds[0], ast.Assign):
                continue
            value = binds[0].value
        if isinstance(value, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                               for k in value.keys):
            out.extend((str(k.value), v) for k, v in zip(value.keys, value.values) if isinstance(k, ast.Constant))
    return out


def positional_params(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[str]:
    return [a.arg for a in node.args.posonlyargs + node.args.args]


def jax_jitted_calls_in_host_code(ctx_facts: ModuleFacts, index: ModuleIndex, path: str
                                  ) -> Iterator[tuple[ast.Call, FunctionInfo]]:
    """The calls of jitted functions (:func:`jax_jitted_callee`) made from host code: not in a
    test, not inside traced code (where the call is inlined into the caller's trace)."""
    if not jits_with_jax(ctx_facts):
        return
    callee = jax_jitted_callee(ctx_facts, index)
    for call, _ in index.calls:
        hit = callee(call)
        if hit is None or in_test(index, path, call) or runs_traced(ctx_facts, index, call):
            continue
        yield call, hit[1]


def bound_static_arguments(info: FunctionInfo, call: ast.Call, index: ModuleIndex | None = None
                           ) -> list[tuple[str, ast.expr]]:
    """(static parameter, argument) pairs of a call of the jitted ``info`` (with ``index``, also
    through a ``**name`` dict: :func:`keyword_dict_entries`)."""
    params = call_params(info, call)
    bound: list[tuple[str, ast.expr]] = []
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        if i < len(params):
            bound.append((params[i], arg))
    bound += [(kw.arg, kw.value) for kw in call.keywords if kw.arg is not None]
    if index is not None:
        bound += keyword_dict_entries(index, call)
    return [(p, a) for p, a in bound if p in info.static_params]


def jax_static_argument_calls(facts: ModuleFacts, index: ModuleIndex
                              ) -> Iterator[tuple[ast.Call, list[tuple[str, ast.expr]]]]:
    """Each call by name of a jitted function with static parameters (:func:`jax_jitted_callee`),
    with its (static parameter, argument) pairs (:func:`bound_static_arguments`)."""
    if not any(info.jax and info.static_params for info in facts.functions) and not any(
            c.jax and c.static for c in facts.imported_compiled.values()):
        return
    callee = jax_jitted_callee(facts, index)
    for call, _ in index.calls:
        hit = callee(call)
        if hit is not None and hit[1].static_params:
            yield call, bound_static_arguments(hit[1], call, index)


def loop_varying_names(index: ModuleIndex, node: ast.AST, *, steps_only: bool = False) -> set[str]:
    """Names that take a new value on every iteration of the loops around ``node``: the loop
    targets, names a loop body augments (``pos += 1``), and names the body assigns from those
    (``end = t + 1``), followed to a fixed point. ``steps_only``: of the loop targets only the
    counters of loops over steps (:func:`step_counters`), not the entries of a table."""
    names: set[str] = set()
    bodies: list[ast.AST] = []
    for loop in index.loops_around(node):
        if isinstance(loop, (ast.For, ast.AsyncFor)):
            names |= step_counters(loop.target, loop.iter) if steps_only else \
                {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
            bodies.append(loop)
        elif isinstance(loop, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            names |= {c for g in loop.generators for c in step_counters(g.target, g.iter)} if steps_only else \
                {n.id for g in loop.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        elif isinstance(loop, ast.While):
            bodies.append(loop)
    assigns = [n for body in bodies for stmt in body.body for n in ast.walk(stmt)  # type: ignore[attr-defined]
               if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))]
    names |= {a.target.id for a in assigns if isinstance(a, ast.AugAssign) and isinstance(a.target, ast.Name)}
    plain = [a for a in assigns if isinstance(a, (ast.Assign, ast.AnnAssign))]
    return set(assigned_from(plain, {n: n for n in names}))


def assigned_from(assigns: Sequence[ast.Assign | ast.AnnAssign], origin: dict[str, str]) -> dict[str, str]:
    """``origin`` ({name: the name it comes from}) grown by the plain names that ``assigns`` bind from
    a value reading one of its names, followed to a fixed point (source order aside): ``end = t + 1``
    comes from what ``t`` comes from. Updates and returns ``origin``."""
    changed = True
    while changed:
        changed = False
        for a in assigns:
            if a.value is None:
                continue
            src = next((origin[n.id] for n in ast.walk(a.value) if isinstance(n, ast.Name) and n.id in origin), None)
            if src is None:
                continue
            for t in a.targets if isinstance(a, ast.Assign) else [a.target]:
                if isinstance(t, ast.Name) and t.id not in origin:
                    origin[t.id] = src
                    changed = True
    return origin


_MAPPING_VIEWS = frozenset({"items", "keys", "values"})


def step_counters(target: ast.expr, iterable: ast.expr) -> set[str]:
    """The names of a loop head ``for target in iterable`` that count steps: the target of
    ``range(...)`` with a bound that is not a literal, or with more than two values (also wrapped:
    ``reversed(range(n))``, ``tqdm(range(n))``), and the index of ``enumerate(...)`` of anything
    but a literal display or a mapping's entries. Not the entries of a table (``for name, ds in
    datasets.items()``, ``for n in sizes``, ``for team in range(2)``): a fixed set of values, each
    compiled once and then found in the cache on every later pass, where a step counter brings a new
    value on every step (measured: ``static.int_new_value`` in ``xlacheck/data/jax_cache_key.json``)."""
    def names(t: ast.expr) -> set[str]:
        return {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}

    it = iterable
    while isinstance(it, ast.Call) and it.args and isinstance(it.args[0], ast.Call) \
            and _callee_name(it.args[0]) == "range" and _callee_name(it) != "range":
        it = it.args[0]  # reversed(range(n)), tqdm(range(n), ...)
    if not isinstance(it, ast.Call):
        return set()
    callee = _callee_name(it)
    if callee == "range" and not it.keywords:
        bounds = [a.value for a in it.args if isinstance(a, ast.Constant) and type(a.value) is int]
        if len(bounds) != len(it.args) or not 1 <= len(bounds) <= 3 or (len(bounds) == 3 and bounds[2] == 0):
            return names(target)
        return names(target) if len(range(*bounds)) > 2 else set()
    if callee == "enumerate" and it.args and isinstance(target, ast.Tuple) and target.elts:
        table = it.args[0]
        if isinstance(table, (ast.Tuple, ast.List, ast.Set, ast.Dict)) or (
                isinstance(table, ast.Call) and isinstance(table.func, ast.Attribute)
                and table.func.attr in _MAPPING_VIEWS):
            return set()
        return names(target.elts[0])
    return set()


def _callee_name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


_DATACLASS_DECORATORS = ("dataclass", "dataclasses.dataclass")


def static_hash_kind(index: ModuleIndex, class_name: str) -> str | None:
    """How an instance of ``class_name`` (a class of this file) hashes as a ``jax.jit`` static
    argument: ``"value"`` (NamedTuple, frozen or ``unsafe_hash`` dataclass, flax struct dataclass,
    an own ``__hash__``), ``"identity"`` (a plain class without ``__eq__``/``__hash__``: every new
    object compiles again), ``"unhashable"`` (a dataclass with ``eq`` and no ``frozen``, a class
    with ``__eq__`` but no ``__hash__``: ``ValueError``), or None when it cannot be told (other
    bases). Measured on jax 0.10.2: 3 new plain objects trace 3 times, 3 equal frozen dataclasses
    once, a non-frozen dataclass raises."""
    classes = [c for c in ast.walk(index.tree) if isinstance(c, ast.ClassDef) and c.name == class_name]
    if len(classes) != 1:
        return None
    cls = classes[0]
    methods = {m.name for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    hash_assigned = any(isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__hash__"
                                                          for t in s.targets) for s in cls.body)
    for dec in cls.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = ast.unparse(target)
        if name in ("struct.dataclass", "flax.struct.dataclass"):
            return "value"
        if name in _DATACLASS_DECORATORS:
            options = {k.arg: k.value for k in dec.keywords} if isinstance(dec, ast.Call) else {}
            frozen, unsafe, eq = (_flag(options, "frozen", False), _flag(options, "unsafe_hash", False),
                                  _flag(options, "eq", True))
            if frozen is None or unsafe is None or eq is None:
                return None
            if frozen or unsafe or "__hash__" in methods:
                return "value"
            return "unhashable" if eq else "identity"
    if cls.decorator_list:
        return None
    bases = [ast.unparse(b) for b in cls.bases]
    if bases and all(b in ("NamedTuple", "typing.NamedTuple") for b in bases):
        return "value"
    if bases and bases != ["object"]:
        return None
    if "__hash__" in methods or hash_assigned:
        return "value"
    return "unhashable" if "__eq__" in methods else "identity"


def _flag(options: dict[str | None, ast.expr], key: str, default: bool) -> bool | None:
    """A dataclass decorator's boolean option: its literal value, the default when absent, None otherwise."""
    v = options.get(key)
    if v is None:
        return default
    return v.value if isinstance(v, ast.Constant) and isinstance(v.value, bool) else None


def varying_slice(index: ModuleIndex, arg: ast.expr, varying: set[str], loops: list[ast.AST],
                  shape_keeping: frozenset[str], depth: int = 0) -> str | None:
    """The loop-varying name that sets the length of the slice ``arg`` is (``x[:, :t]``,
    ``x[start:]``), directly, wrapped in a call that keeps its shape (``shape_keeping``), or
    through a name the innermost loop assigns it to; None when no slice bound moves, or when both
    bounds move (a window, often of fixed size: ``x[t - w:t]``)."""
    if isinstance(arg, ast.Call) and arg.args and index.aliases.resolve(arg.func) in shape_keeping:
        return varying_slice(index, arg.args[0], varying, loops, shape_keeping, depth)
    if isinstance(arg, ast.Name) and depth == 0:
        values = [n.value for loop in loops[:1] for n in ast.walk(loop) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == arg.id for t in n.targets)]
        return varying_slice(index, values[0], varying, loops, shape_keeping, depth + 1) if len(values) == 1 else None
    if not isinstance(arg, ast.Subscript):
        return None
    parts = arg.slice.elts if isinstance(arg.slice, ast.Tuple) else [arg.slice]
    for part in parts:
        if not isinstance(part, ast.Slice) or part.step is not None:
            continue
        moving = [_moving(b, varying) for b in (part.lower, part.upper)]
        if moving[0] is not None and moving[1] is not None:
            continue  # both bounds move: a window
        name = moving[0] or moving[1]
        if name is not None:
            return name
    return None


def _moving(bound: ast.expr | None, varying: set[str]) -> str | None:
    if bound is None:
        return None
    return next((n.id for n in ast.walk(bound) if isinstance(n, ast.Name) and n.id in varying), None)


def _loop_assignments(index: ModuleIndex, node: ast.AST) -> Iterator[tuple[str, ast.expr]]:
    """(name, value) of each single-name assignment ``name = value`` in the bodies of the
    ``for``/``while`` loops around ``node``."""
    for loop in index.loops_around(node):
        if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            continue
        for stmt in loop.body:
            for a in ast.walk(stmt):
                if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name):
                    yield a.targets[0].id, a.value


def _self_updated(index: ModuleIndex, node: ast.AST) -> set[str]:
    """Names a loop around ``node`` rebinds from their own value (``lr = lr * decay``): a new value
    on every iteration, like an augmented assignment."""
    return {name for name, value in _loop_assignments(index, node)
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(value))}


# NumPy/stdlib random generators: a draw in a loop body is a new value on every iteration.
_RANDOM_PREFIXES = ("np.random.", "numpy.random.", "random.")
_GENERATOR_METHODS = frozenset({"integers", "choice", "poisson", "randint", "binomial", "geometric", "permutation",
                                "random", "uniform", "normal"})


def drawn_in_loop(index: ModuleIndex, node: ast.AST) -> set[str]:
    """Names a loop around ``node`` assigns from a NumPy/stdlib random draw (``k = rng.integers(1, 5)``,
    ``n = np.random.poisson(3)``)."""
    return {name for name, value in _loop_assignments(index, node)
            if any(_is_draw(index, c) for c in ast.walk(value) if isinstance(c, ast.Call))}


def random_draw_in(index: ModuleIndex, node: ast.AST) -> ast.Call | None:
    """The first NumPy/stdlib random draw in ``node`` (``np.random.randint(4, 8)``,
    ``rng.integers(1, 5)``), or None."""
    return next((c for c in ast.walk(node) if isinstance(c, ast.Call) and _is_draw(index, c)), None)


def _is_draw(index: ModuleIndex, c: ast.Call) -> bool:
    name = index.aliases.resolve(c.func)
    return (name is not None and name.startswith(_RANDOM_PREFIXES)) or (
        isinstance(c.func, ast.Attribute) and c.func.attr in _GENERATOR_METHODS
        and isinstance(c.func.value, ast.Name) and "rng" in c.func.value.id.lower())


def jax_loop_varying_names(index: ModuleIndex, node: ast.AST, *, steps_only: bool = False) -> set[str]:
    """:func:`loop_varying_names` plus the names a loop body rebinds from themselves
    (``lr = lr * 0.5``) or from a NumPy/stdlib random draw, and the names assigned there from
    those (JAX rules: XLA411, XLA416, XLA417)."""
    names = loop_varying_names(index, node, steps_only=steps_only)
    extra = (_self_updated(index, node) | drawn_in_loop(index, node)) - names
    if not extra:
        return names
    names |= extra
    bodies = [loop for loop in index.loops_around(node) if isinstance(loop, (ast.For, ast.AsyncFor, ast.While))]
    assigns = [n for body in bodies for stmt in body.body for n in ast.walk(stmt) if isinstance(n, ast.Assign)]
    changed = True
    while changed:
        changed = False
        for a in assigns:
            bound = {t.id for t in a.targets if isinstance(t, ast.Name)}
            if bound - names and any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(a.value)):
                names |= bound
                changed = True
    return names


class CallerLoop(NamedTuple):
    """Where a parameter takes a new value on every iteration of a loop (:func:`params_varied_by_callers`):
    ``caller``, the function whose parameter it is, and the line of the loop's call (of that function, or
    of a function that passes the value on to it); ``where``: that call as ``path:line`` when another
    module of the project holds it ("" for this file)."""

    caller: str
    line: int
    where: str = ""

    def words(self) -> str:
        return (f"`{self.caller}()` receives with a new value on every iteration of the loop at "
                f"{self.where or f'line {self.line}'}")


# How many functions a loop's value may pass through before the call that reads it: the loop's call,
# then forwarders (``main`` loops over ``run_one(key, i)``, which calls ``draw(key, i * 2)``, which
# calls the jitted step). Deeper chains are rare and each level widens what a name match may confuse.
CALLER_LEVELS = 3


def params_varied_by_callers(index: ModuleIndex, path: str, node: ast.AST, *, steps_only: bool = False
                             ) -> dict[str, CallerLoop]:
    """Parameters of the function around ``node`` that a call of it in this file, inside a loop and
    outside tests, passes a value that changes on every iteration: {param: where}. Followed through
    the functions that pass such a parameter on (``for i in range(n): run_one(key, i)``, and
    ``run_one`` calls ``draw(key, i * 2)``: ``draw``'s parameter varies too), up to
    :data:`CALLER_LEVELS` functions deep, and from the loops of other modules of the project that
    call this file's functions (``facts.caller_loops``, from the project pass:
    :func:`xlacheck.analysis.project.caller_loops`). A method, a lambda or a function handed
    elsewhere is not followed; nor is a call made while a compiled function traces (its arguments are
    tracers there). ``steps_only``: only values that follow the counter of a loop over steps
    (:func:`step_counters`)."""
    func = index.function_of(node)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {}
    return index.memo(("params varied by callers", id(func), steps_only),
                      lambda: _varied_params(index, path, func, steps_only, (id(func),)))


def _varied_params(index: ModuleIndex, path: str, func: ast.FunctionDef | ast.AsyncFunctionDef, steps_only: bool,
                   seen: tuple[int, ...]) -> dict[str, CallerLoop]:
    args = func.args
    if args.vararg is not None or args.kwarg is not None:
        return {}
    params = [a.arg for a in args.posonlyargs + args.args]
    keyword_ok = {a.arg for a in args.args + args.kwonlyargs}
    out: dict[str, CallerLoop] = {}
    for site, _ in index.calls:
        if not isinstance(site.func, ast.Name) or site.func.id != func.name or in_test(index, path, site) \
                or index.function_of(site) is func:
            continue
        bound: list[tuple[str, ast.expr]] = []
        for i, arg in enumerate(site.args):
            if isinstance(arg, ast.Starred):
                break
            if i < len(params):
                bound.append((params[i], arg))
        bound += [(kw.arg, kw.value) for kw in site.keywords if kw.arg in keyword_ok]
        if index.loops_around(site):
            varying = jax_loop_varying_names(index, site, steps_only=steps_only)
            for param, arg in bound:
                if param not in out and any(isinstance(n, ast.Name) and n.id in varying for n in ast.walk(arg)):
                    out[param] = CallerLoop(func.name, site.lineno)
        caller = index.function_of(site)
        if not isinstance(caller, (ast.FunctionDef, ast.AsyncFunctionDef)) or id(caller) in seen \
                or len(seen) >= CALLER_LEVELS or runs_traced(index.facts, index, site):
            continue
        outer = _varied_params(index, path, caller, steps_only, (*seen, id(caller)))
        if not outer:
            continue
        # the caller's parameter, or a name it assigns from one (`size = n * 2`), passed on at this call
        assigns = [n for n in index.scope_nodes(caller) if isinstance(n, (ast.Assign, ast.AnnAssign))]
        origin = assigned_from(assigns, {p: p for p in outer})
        for param, arg in bound:
            hit = next((n.id for n in ast.walk(arg) if isinstance(n, ast.Name) and n.id in origin), None)
            if param not in out and hit is not None:
                loop = outer[origin[hit]]
                out[param] = CallerLoop(func.name, loop.line, loop.where)
    if func in index.tree.body:  # a module-level function other modules of the project call in their loops
        for key, (line, where, steps) in index.facts.caller_loops.get(func.name, {}).items():
            param = params[int(key)] if key.isdigit() and int(key) < len(params) else key
            if (param in keyword_ok or param in params) and (steps or not steps_only):
                out.setdefault(param, CallerLoop(func.name, line, where))
    # a parameter the function rebinds before the jitted call no longer holds the caller's value
    rebound = {n.id for n in index.scope_nodes(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return {p: v for p, v in out.items() if p not in rebound}


LoopCalls = tuple[tuple[str, int, tuple[tuple[str, bool], ...]], ...]


def loops_into_other_modules(index: ModuleIndex, path: str) -> LoopCalls:
    """What this file's loops pass to functions of other modules of the project, for the project pass
    (:func:`xlacheck.analysis.project.caller_loops`): for each call of an imported function (as
    ``ModuleFacts.external_calls`` names it: ``pkg.ops.draw``) outside tests and traced code, the
    arguments that take a new value on every iteration of a loop around the call, or of a loop of
    this file that calls the function around it (:func:`params_varied_by_callers`): (the imported
    name, a line, ((position ``"0"`` or keyword, whether the value follows a step counter:
    :func:`step_counters`), ...)), with the line of the call the loop makes (this one, or the call of the
    function around it). Calls whose arguments do not vary are left out."""
    facts = index.facts
    out: list[tuple[str, int, tuple[tuple[str, bool], ...]]] = []
    for target, _func, line, bare, call in facts.external_calls:
        if call is None or (bare and bare in facts.module_funcs) or in_test(index, path, call) \
                or runs_traced(facts, index, call):
            continue
        passed: list[tuple[str, ast.expr]] = []
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                break
            passed.append((str(i), arg))
        passed += [(kw.arg, kw.value) for kw in call.keywords if kw.arg is not None]
        if not passed:
            continue
        kinds: dict[str, bool] = {}
        at = line  # the loop's call: this one, or the call of the function around it that a loop makes
        for steps in (True, False):
            names = {n: line for n in jax_loop_varying_names(index, call, steps_only=steps)} \
                if index.loops_around(call) else {}
            around = index.function_of(call)
            from_callers = params_varied_by_callers(index, path, call, steps_only=steps)
            if from_callers and isinstance(around, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assigns = [n for n in index.scope_nodes(around) if isinstance(n, (ast.Assign, ast.AnnAssign))]
                for name, param in assigned_from(assigns, {p: p for p in from_callers}).items():
                    names.setdefault(name, from_callers[param].line)
            for key, arg in passed:
                hit = next((n.id for n in ast.walk(arg) if isinstance(n, ast.Name) and n.id in names), None)
                if key not in kinds and hit is not None:
                    at = names[hit] if not kinds else at
                    kinds[key] = steps
        if kinds:
            out.append((target, at, tuple(sorted(kinds.items()))))
    return tuple(out)


def jax_jitted_callee(facts: ModuleFacts, index: ModuleIndex
                      ) -> Callable[[ast.Call], tuple[str, FunctionInfo] | None]:
    """A resolver for the JAX recompile rules (XLA410, XLA411, XLA416, XLA417): the jitted function
    (name, info) a call by name runs, from :func:`jax_jitted` (module level) or defined in a function
    around the call: a nested def decorated with ``jax.jit``, or ``step = jax.jit(local_def, ...)``
    there (scripts and notebooks build their step inside ``main()``)."""
    module = dict(jax_jitted(facts, index))
    resolve = facts.aliases.resolve
    local: dict[int, dict[str, FunctionInfo]] = {}
    nested = [f for f in facts.functions if f.parent is not None and f.cls is None
              and not isinstance(f.node, ast.Lambda) and not isinstance(f.parent.node, ast.Lambda)]
    for f in nested:
        node = f.node
        assert not isinstance(node, ast.Lambda) and f.parent is not None
        if f.jax and _jit_decorated(node, resolve):
            local.setdefault(id(f.parent.node), {})[node.name] = f
    for call, resolved in index.calls:
        if not (resolved in JAX_JIT_NAMES or _partial_of_jit(call.func, resolve)) or not call.args \
                or not isinstance(call.args[0], ast.Name):
            continue
        scope = index.function_of(call)
        assign = index.parent(call)
        if scope is None or not isinstance(assign, ast.Assign) or len(assign.targets) != 1 \
                or not isinstance(assign.targets[0], ast.Name):
            continue
        wrapped = next((f for f in nested if f.parent is not None and f.parent.node is scope
                        and getattr(f.node, "name", None) == call.args[0].id), None)
        if wrapped is not None:
            local.setdefault(id(scope), {})[assign.targets[0].id] = wrapped

    methods = _jitted_methods(facts, index)

    def callee(call: ast.Call) -> tuple[str, FunctionInfo] | None:
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            cls = _class_of(facts, index, call)
            hit = methods.get(id(cls.node), {}).get(func.attr) if cls is not None else None
            return (func.attr, hit) if hit is not None else None
        if isinstance(call.func, ast.Name):
            name = call.func.id
            scope: ast.AST | None = index.function_of(call)
            while scope is not None:
                hit = local.get(id(scope), {}).get(name)
                if hit is not None:
                    return name, hit
                scope = index.function_of(scope)
            if name in module:
                return name, module[name]
        imported = index.imported_compiled(call.func)  # jitted in another module of the project
        if imported is None or not imported.jax:
            return None
        return ast.unparse(call.func), index.memo(("imported jitted", imported.where, imported.name),
                                                  lambda: stand_in(imported))

    return callee


def jitted_call_resolver(facts: ModuleFacts, index: ModuleIndex
                         ) -> Callable[[ast.Call], tuple[ast.Call, str, FunctionInfo] | None]:
    """A resolver for the rules that follow what a loop passes from one call to the next (XLA415,
    XLA421, XLA422): for a call of a jitted function (:func:`jax_jitted_callee`), the call itself;
    for a call of a forwarder of this file, a module-level function whose whole body is
    ``return step(...)`` of a jitted function with its own parameters as arguments
    (``def run_step(x, i, state): return step(x, state)``), the jitted call as the loop's call makes
    it: the forwarder's parameters replaced by what the loop passes, standing in the loop's call's
    place (:meth:`~xlacheck.analysis.scopes.ScopeTree.stand_in`). Returns (the call whose arguments
    bind to the jitted function, its name, the jitted function)."""
    callee = jax_jitted_callee(facts, index)
    forwarders = {f.node.name: f for f in facts.functions if f.parent is None and f.cls is None
                  and not isinstance(f.node, ast.Lambda)}

    def resolve(call: ast.Call) -> tuple[ast.Call, str, FunctionInfo] | None:
        hit = callee(call)
        if hit is not None:
            return call, hit[0], hit[1]
        if not isinstance(call.func, ast.Name) or call.func.id not in forwarders:
            return None
        node = forwarders[call.func.id].node
        assert not isinstance(node, ast.Lambda)
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
            return None
        inner = body[0].value
        hit = callee(inner)
        if hit is None:
            return None
        params = positional_params(node) + [a.arg for a in node.args.kwonlyargs]
        outer = {p: a for p, a in bound_arguments(positional_params(node), call, index) if not p.startswith("#")}

        def passed(e: ast.expr) -> ast.expr | None:
            """What the loop passes for ``e``: the argument bound to a parameter, a literal as is;
            None (not followed) for a default, ``*args``, or anything the forwarder computes."""
            if isinstance(e, ast.Name) and e.id in params:
                return outer.get(e.id)
            return e if isinstance(e, ast.Constant) else None
        args: list[ast.expr] = []
        for a in inner.args:
            got = passed(a)
            if got is None or isinstance(got, ast.Starred):
                return None
            args.append(got)
        keywords: list[ast.keyword] = []
        for k in inner.keywords:
            got = passed(k.value)
            if k.arg is None or got is None:
                return None
            keywords.append(ast.keyword(arg=k.arg, value=got))
        made = ast.Call(func=inner.func, args=args, keywords=keywords)
        ast.copy_location(made, call)
        index.stand_in(made, call)
        return made, hit[0], hit[1]

    return resolve


def _class_of(facts: ModuleFacts, index: ModuleIndex, node: ast.AST) -> ClassInfo | None:
    """The class whose method ``node`` is in (also inside a function nested in the method)."""
    by_node = index.memo(("function infos", id(facts)), lambda: {id(f.node): f for f in facts.functions})
    scope = index.function_of(node)
    while scope is not None:
        info = by_node.get(id(scope))
        if info is not None and info.cls is not None:
            return info.cls
        scope = index.function_of(scope)
    return None


def _jitted_methods(facts: ModuleFacts, index: ModuleIndex) -> dict[int, dict[str, FunctionInfo]]:
    """id(class node) -> the attribute a method of that class calls through ``self`` -> the jitted
    method it runs: a method decorated with ``jax.jit``/``partial(jax.jit, ...)``, or one a method
    binds jitted (:func:`stored_jitted_methods`)."""
    resolve = facts.aliases.resolve
    found: dict[int, dict[str, FunctionInfo]] = {}
    for f in facts.functions:
        if f.cls is not None and f.jax and not isinstance(f.node, ast.Lambda) and _jit_decorated(f.node, resolve):
            found.setdefault(id(f.cls.node), {})[f.node.name] = f
    for key, stored in stored_jitted_methods(facts, index).items():
        found.setdefault(key, {}).update({attr: method for attr, (method, _) in stored.items()})
    return found


def stored_jitted_methods(facts: ModuleFacts, index: ModuleIndex
                          ) -> dict[int, dict[str, tuple[FunctionInfo, ast.Assign]]]:
    """id(class node) -> attribute -> (the method, the assignment) for each method of the class that a
    method binds jitted on ``self`` (``self._step = jax.jit(self._train_step, static_argnames=...)``)."""
    resolve = facts.aliases.resolve
    found: dict[int, dict[str, tuple[FunctionInfo, ast.Assign]]] = {}
    for call, resolved in index.calls:
        if not (resolved in JAX_JIT_NAMES or _partial_of_jit(call.func, resolve)) or not call.args:
            continue
        ref, assign = call.args[0], index.parent(call)
        if not (isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name) and ref.value.id == "self"
                and isinstance(assign, ast.Assign) and len(assign.targets) == 1):
            continue
        target = assign.targets[0]
        cls = _class_of(facts, index, call)
        method = cls.methods.get(ref.attr) if cls is not None else None
        if method is not None and method.jax and isinstance(target, ast.Attribute) \
                and isinstance(target.value, ast.Name) and target.value.id == "self":
            found.setdefault(id(cls.node), {})[target.attr] = (method, assign)  # type: ignore[union-attr]
    return found


def call_params(info: FunctionInfo, call: ast.Call) -> list[str]:
    """The positional parameters of the jitted ``info`` that ``call``'s positional arguments fill:
    all of them, or those after ``self`` when the call reaches a method through an object
    (``self._step(params, batch)``: the object is bound, as :func:`bound_method` reads it)."""
    params = positional_params(info.node)
    return params[1:] if bound_method(info, call.func) else params


class JitRebind(NamedTuple):
    """A call in a loop of a function this file jits, whose result one assignment binds."""

    call: ast.Call
    jitted: str  # the name called
    target: ast.expr  # the assignment's target
    names: list[ast.expr]  # the target, or a tuple target's items
    info: FunctionInfo
    node: ast.FunctionDef | ast.AsyncFunctionDef  # the jitted function
    params: list[str]  # the jitted function's positional parameters the call's positional arguments fill
    # (position in the target, name) of every name that carries a part of the result to the next
    # call: the target's names, and names the loop body copies one of them into (`state = out`)
    carriers: tuple[tuple[int, str], ...]


def jitted_calls_rebinding(facts: ModuleFacts, index: ModuleIndex) -> Iterator[JitRebind]:
    """Each call in a loop of a function this file jits (:func:`jax_jitted_callee`: by name, a
    local ``step = jax.jit(...)``, ``self._step`` bound jitted) whose result one assignment binds.
    XLA415 and XLA421 read them for values carried from one call to the next; a call through a
    forwarder (:func:`jitted_call_resolver`) is the jitted call it makes, in the loop's call's place."""
    resolve = jitted_call_resolver(facts, index)
    for outer_call, _ in index.calls:
        loops = index.loops_around(outer_call)
        if not loops:
            continue
        hit = resolve(outer_call)
        if hit is None:
            continue
        call, name, info = hit
        assign = index.parent(call)
        if not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
            continue
        target = assign.targets[0]
        names: list[ast.expr] = [target] if isinstance(target, ast.Name) else list(target.elts) \
            if isinstance(target, ast.Tuple) else []
        node = info.node
        if isinstance(node, ast.Lambda):
            continue
        carriers = [(i, n.id) for i, n in enumerate(names) if isinstance(n, ast.Name)]
        by_name = {n: i for i, n in carriers}
        for stmt in ast.walk(loops[0]):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and isinstance(stmt.value, ast.Name) and stmt.value.id in by_name \
                    and stmt.targets[0].id not in by_name:
                carriers.append((by_name[stmt.value.id], stmt.targets[0].id))
        yield JitRebind(call, name, target, names, info, node, call_params(info, call), tuple(carriers))


def state_constructions(index: ModuleIndex, states: Iterable[str],
                        jitted: dict[str, FunctionInfo]) -> dict[str, list[tuple[ast.Call, str | None]]]:
    """Every construction ``Cls(...)`` of the state classes ``states``, by class name, with the
    name of the jitted function it runs in (None: outside every jitted function). XLA415 and
    XLA421 compare the fields a state is built with outside jit with those a jitted update gives."""
    by_node = {id(info.node): name for name, info in jitted.items()}
    built: dict[str, list[tuple[ast.Call, str | None]]] = {}
    names = set(states)
    for call, _ in index.calls:
        if isinstance(call.func, ast.Name) and call.func.id in names:
            func = index.function_of(call)
            built.setdefault(call.func.id, []).append((call, by_node.get(id(func)) if func is not None else None))
    return built


def bound_before_loop(index: ModuleIndex, call: ast.Call, name: str) -> ast.expr | None:
    """The value ``name`` is bound to by the last statement binding it before the outermost loop
    around ``call``, in the same block; None when another statement rebinds it in between."""
    loop = index.loops_around(call)[-1]
    parent = index.parent(loop)
    body = next((getattr(parent, f) for f in ("body", "orelse", "finalbody")
                 if isinstance(getattr(parent, f, None), list) and loop in getattr(parent, f)), None)
    if body is None:
        return None
    for stmt in reversed(body[:body.index(loop)]):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            t, v = stmt.targets[0], stmt.value
            pairs = [(t, v)] if isinstance(t, ast.Name) else list(zip(t.elts, v.elts)) \
                if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) and len(t.elts) == len(v.elts) else []
            for tn, tv in pairs:
                if isinstance(tn, ast.Name) and tn.id == name:
                    return tv
        if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(stmt)):
            return None
    return None


# -- one fact, one finding: the loop-varying shapes that a more specific rule reports -------------
LIST_GROWERS = frozenset({"append", "extend", "insert"})  # what grows a Python list in place
LIST_SHRINKERS = frozenset({"pop", "remove", "clear"})  # what shortens it in place
# Dataset methods that form batches, and those that pass batches through unchanged in shape.
_DATASET_BATCHING = frozenset({"batch", "padded_batch", "bucket_by_sequence_length", "ragged_batch"})
_DATASET_PASS_THROUGH = frozenset({"prefetch", "cache", "map", "filter", "shuffle", "take", "skip", "repeat",
                                   "with_options", "apply", "ignore_errors", "shard", "enumerate"})


def _grows(index: ModuleIndex, name: str, loop: ast.AST) -> ast.stmt | ast.expr | None:
    """Where ``name`` gets longer inside ``loop``: ``name = tf.concat([name, ...])`` (or
    ``tf.pad(name, ...)``), or, for a Python list of tensors, ``name.append(...)``,
    ``name.extend(...)``, ``name += [...]``, ``name = name + [...]``."""
    from xlacheck.analysis.tables import GROWING_OPS

    for node in ast.walk(loop):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LIST_GROWERS \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            return node
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(node.target, ast.Name) \
                and node.target.id == name and isinstance(node.value, (ast.List, ast.Tuple, ast.ListComp)):
            return node
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Add) \
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets) \
                and isinstance(node.value.left, ast.Name) and node.value.left.id == name \
                and isinstance(node.value.right, (ast.List, ast.Tuple)):
            return node
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        if not any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            continue
        if index.aliases.resolve(node.value.func) not in GROWING_OPS:
            continue
        if any(isinstance(sub, ast.Name) and sub.id == name for arg in node.value.args for sub in ast.walk(arg)):
            return node
    return None


def _rebound_fresh(name: str, loop: ast.AST) -> bool:
    """``loop`` also binds ``name`` anew, from a value that does not read it (``means, cov = [], []``
    before an inner loop appends to them): each pass starts over, so the length a call in ``loop``
    sees does not grow from pass to pass."""
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign) \
                and any(isinstance(t, ast.Name) and t.id == name and isinstance(t.ctx, ast.Store)
                        for target in node.targets for t in ast.walk(target)) \
                and not any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.value)):
            return True
    return False


def list_grown_in_loop(loop: ast.AST, name: str) -> ast.expr | ast.stmt | None:
    """Where ``loop`` lengthens the list ``name`` and never binds it afresh: ``name.append(...)``
    (``extend``/``insert``), ``name += [...]``, ``name = name + [...]``. A loop that also shortens
    it (``pop``/``remove``/``clear``, ``del name[...]``, ``name[...] = ...``: a sliding window) need
    not make it longer: None."""
    grown: ast.expr | ast.stmt | None = None
    for n in ast.walk(loop):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in LIST_SHRINKERS \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
            return None
        if isinstance(n, (ast.Delete, ast.Assign)) and any(
                isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
                for t in n.targets):
            return None
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in LIST_GROWERS \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
            grown = grown or n
        elif isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) and isinstance(n.target, ast.Name) \
                and n.target.id == name and isinstance(n.value, (ast.List, ast.Tuple)):
            grown = grown or n
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and n.targets[0].id == name:
            v = n.value
            if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Add) and isinstance(v.left, ast.Name) \
                    and v.left.id == name and isinstance(v.right, ast.List):
                grown = grown or n
            else:
                return None  # bound afresh on some pass: its length need not grow
    return grown


def grows_from(first: ast.expr, acc: str) -> bool:
    """``acc`` is the first operand of a growing ``jax.numpy`` call (``jnp.append(acc, x)``,
    ``jnp.pad(acc, ...)``) or an element of the sequence it joins (``jnp.concatenate([acc, x])``);
    ``acc[1:]`` (a rolling window) is not."""
    if isinstance(first, ast.Name):
        return first.id == acc
    if isinstance(first, (ast.List, ast.Tuple)):
        return any(isinstance(e, ast.Name) and e.id == acc for e in first.elts)
    return False


def jax_grown_in_loop(index: ModuleIndex, name: str, loop: ast.AST) -> tuple[ast.Assign, str] | None:
    """(the assignment, the call's name) where ``loop`` makes the array ``name`` longer on every
    pass, ``name = jnp.concatenate([name, x])`` (a :data:`JAX_GROWERS` call over it), and never
    binds it afresh from a value that does not read it: each pass sees a longer array (the table's
    ``eager.concatenate_grown_accumulator``, ``seq.growing_carry``)."""
    found: tuple[ast.Assign, str] | None = None
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == name and isinstance(node.value, ast.Call) and node.value.args:
            grower = index.aliases.resolve(node.value.func)
            if grower in JAX_GROWERS and grows_from(node.value.args[0], name):
                found = found or (node, grower)
    return found if found is not None and not _rebound_fresh(name, loop) else None


def jax_loop_grown_argument(index: ModuleIndex, arg: ast.expr, loops: Sequence[ast.AST]) -> tuple[str, int] | None:
    """(what it is, the line where it grows) when the argument ``arg`` of a jitted call inside
    ``loops`` (innermost first) is longer on every pass: a name that a :data:`JAX_GROWERS` call over
    itself rebinds (:func:`jax_grown_in_loop`), or (a name the innermost loop binds once to)
    ``jnp.array(tokens)`` (a :data:`JAX_LIST_JOINS`/:data:`HOST_LIST_JOINS` call, also of
    ``tokens + [t]``) of a Python list that loop makes longer and never starts afresh (the table's
    ``shape.new_length``, ``shape.jnp_array_of_list_new_length``). XLA416 reports it; XLA409
    (``--preview``) leaves it to XLA416."""
    if not loops:
        return None
    around = {id(loop) for loop in loops}

    def beside_call(node: ast.AST) -> bool:
        """The growth and the call share the innermost loop around the growth: a list filled by an
        inner loop and joined once after it (per pass of an outer loop) is not one item longer per call."""
        inner = next((lp for lp in index.loops_around(node) if isinstance(lp, (ast.For, ast.AsyncFor, ast.While))),
                     None)
        return inner is not None and id(inner) in around

    if isinstance(arg, ast.Name):
        growth = next((g for loop in loops if (g := jax_grown_in_loop(index, arg.id, loop)) is not None
                       and beside_call(g[0])), None)
        if growth is not None:
            return f"`{arg.id}`, which `{growth[1]}` makes longer on every iteration of this loop", growth[0].lineno
        values = [n.value for n in ast.walk(loops[0]) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == arg.id for t in n.targets)]
        value: ast.expr | None = values[0] if len(values) == 1 else None
    else:
        value = arg
    if not isinstance(value, ast.Call) or not value.args:
        return None
    join = index.aliases.resolve(value.func)
    if join not in JAX_LIST_JOINS and join not in HOST_LIST_JOINS:
        return None
    first = value.args[0]
    seq = first.left if isinstance(first, ast.BinOp) and isinstance(first.op, ast.Add) else first
    if not isinstance(seq, ast.Name):
        return None
    grown = list_grown_in_loop(loops[0], seq.id)
    if grown is None or not beside_call(grown):
        return None
    return f"`{join}` of `{seq.id}`, a list this loop makes longer on every iteration", grown.lineno


def module_list_grown_per_call(index: ModuleIndex, call: ast.Call, arg: ast.expr) -> tuple[str, str, int] | None:
    """(the join, the list, the line where it grows) when ``arg`` of ``call``, outside loops, is
    ``jnp.array(history)`` (a :data:`JAX_LIST_JOINS`/:data:`HOST_LIST_JOINS` call) of a list bound at
    module level to a list display, that the function around the call appends to (``history.append``
    or ``.extend`` in its body, before the call, not under a condition or loop), that no code of this
    file starts afresh or keeps to a window (rebinds in a function, ``.clear()``, ``.pop()``,
    ``.remove()``, ``del``), and the function runs per step
    (:func:`per_batch`): the list, and the array joined from it, are longer on every call (the table's
    ``shape.jnp_array_of_list_new_length``)."""
    if not isinstance(arg, ast.Call) or len(arg.args) != 1 or not isinstance(arg.args[0], ast.Name):
        return None
    join = index.aliases.resolve(arg.func)
    if join not in JAX_LIST_JOINS and join not in HOST_LIST_JOINS:
        return None
    grown = module_list_passed_grown_per_call(index, call, arg.args[0])
    return (join, grown[0], grown[1]) if grown is not None and join is not None else None


def module_list_passed_grown_per_call(index: ModuleIndex, call: ast.Call, arg: ast.expr) -> tuple[str, int] | None:
    """(the list, the line where it grows) when ``arg`` of ``call``, outside loops, is a list bound at
    module level to a list display that the function around the call appends to (as
    :func:`module_list_grown_per_call` says), that nothing here starts afresh, in a function that runs
    per step: the list passed itself is one item longer on every call (``pytree.list_new_length``)."""
    if index.loops_around(call) or not isinstance(arg, ast.Name):
        return None
    name = arg.id
    func = index.function_of(call)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) \
            or not isinstance(index.module_binding(name), ast.List):
        return None
    grown = next((stmt for stmt in func.body if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
                  and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr in ("append", "extend")
                  and isinstance(stmt.value.func.value, ast.Name) and stmt.value.func.value.id == name
                  and stmt.lineno < call.lineno), None)
    if grown is None or not per_batch(index, call):
        return None
    for node in ast.walk(index.tree):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)) \
                and index.function_of(node) is not None:
            return None  # rebound (or deleted) in a function: it may start afresh
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("clear", "pop", "remove") \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            return None  # emptied, or a window kept to a bounded length
        if isinstance(node, ast.Delete) and any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                                                 and t.value.id == name for t in node.targets):
            return None
    return name, grown.lineno


def loop_grown_arguments(index: ModuleIndex, call: ast.Call
                         ) -> Iterator[tuple[ast.expr, ast.Name, ast.stmt | ast.expr]]:
    """The arguments of ``call`` that get longer on every pass of the ``for``/``while`` loops around
    it, as ``(argument, the name that grows, where it grows)``: the value itself, or a tensor made
    of it (``tf.stack(tokens)``, ``tf.constant(history)``). XLA409 reports them; XLA408 leaves such
    a call to it (one fact, one finding)."""
    loops = [loop for loop in index.loops_around(call) if isinstance(loop, (ast.For, ast.While))]
    if not loops:
        return
    for arg in [*call.args, *(kw.value for kw in call.keywords)]:
        names = [arg] if isinstance(arg, ast.Name) else [
            a for a in arg.args if isinstance(a, ast.Name)] if isinstance(arg, ast.Call) else []
        for name in names:
            growth = next((g for loop in loops if (g := _grows(index, name.id, loop)) is not None
                           and not _rebound_fresh(name.id, loop)), None)
            if growth is not None:
                yield arg, name, growth
                break


def dataset_batching(index: ModuleIndex, iterable: ast.expr, depth: int = 0) -> ast.Call | None:
    """The call that forms the batches a loop over ``iterable`` yields, where this file shows it:
    ``ds.batch(n)``, ``padded_batch``, ``bucket_by_sequence_length`` or ``ragged_batch``, read through
    ``enumerate(...)``, the dataset methods that keep a batch's shape (``prefetch``, ``map``,
    ``take``...) and names assigned in straight-line code before the loop (``ds = ...batch(4)``,
    ``ds = ds.prefetch(2)``) or once at module level (``DATA = ...batch(4)`` read in a function).
    XLA402 (a last, partial
    batch) and XLA401 (batches padded to their longest element) judge the shapes such a batch
    call gives, at the call; None for an iterable this file does not build."""
    if depth > 6:
        return None
    if isinstance(iterable, ast.Name):
        bound = index.straight_line_binding(iterable)
        if bound is None and index.function_of(iterable) is not None:
            bound = index.module_constant(iterable)  # a dataset built once at module level
        return dataset_batching(index, bound, depth + 1) if bound is not None else None
    if not isinstance(iterable, ast.Call):
        return None
    if isinstance(iterable.func, ast.Name) and iterable.func.id in ("enumerate", "iter", "next") and iterable.args:
        return dataset_batching(index, iterable.args[0], depth + 1)  # next(iter(ds)): one of its batches
    if isinstance(iterable.func, ast.Attribute):
        if iterable.func.attr in _DATASET_BATCHING:
            return iterable
        if iterable.func.attr in _DATASET_PASS_THROUGH:
            return dataset_batching(index, iterable.func.value, depth + 1)
    return None


# -- tokenizers (XLA401 judges their padding; XLA408 leaves an argument they shape to it; the
# tokenizer test itself is module_index.is_tokenizer) ----------------------------------------------


def padding_kind(node: ast.expr | None) -> str | None:
    """'longest', 'max_length', 'off' for a literal padding argument; None if unknown/absent."""
    if node is None:
        return None
    if isinstance(node, ast.Constant):
        if node.value is True or node.value == "longest":
            return "longest"
        if node.value == "max_length":
            return "max_length"
        if node.value is False or node.value == "do_not_pad":
            return "off"
        return None
    if isinstance(node, ast.Attribute):  # PaddingStrategy.LONGEST
        return {"LONGEST": "longest", "MAX_LENGTH": "max_length", "DO_NOT_PAD": "off"}.get(node.attr)
    return None


# The Keras packages whose ``pad_sequences`` pads to the longest sequence it is given when ``maxlen`` is
# None (its default, documented: "If maxlen is not provided, sequences will be padded to the length of
# the longest individual sequence").
_KERAS_ROOTS = frozenset({"tf", "keras", "tf_keras", "tensorflow"})


def pads_to_longest(index: ModuleIndex, call: ast.Call) -> bool:
    """``call`` is Keras ``pad_sequences`` without ``maxlen`` (or with ``maxlen=None``): the result is
    as long as the longest sequence of this call's input, a new length whenever that changes (XLA401
    for the call, XLA412 for the tf.function it feeds)."""
    name = index.aliases.resolve(call.func) or ""
    if not name.endswith("pad_sequences") or name.split(".", 1)[0] not in _KERAS_ROOTS \
            or has_kwargs_splat(call):
        return False
    maxlen = next((k.value for k in call.keywords if k.arg == "maxlen"), call.args[1] if len(call.args) > 1 else None)
    return maxlen is None or isinstance(maxlen, ast.Constant) and maxlen.value is None


def padding_to_longest(index: ModuleIndex, arg: ast.expr, loops: Sequence[ast.AST], shape_keeping: frozenset[str],
                       depth: int = 0) -> ast.Call | None:
    """The ``pad_sequences`` call without ``maxlen`` (:func:`pads_to_longest`) whose result ``arg`` is:
    directly, wrapped in a call that keeps its shape (``tf.constant(ids)``), or through a name the
    innermost of ``loops`` assigns it to once (XLA412 for the tf.function argument it reaches, XLA401,
    which leaves that call to XLA412/XLA408)."""
    if isinstance(arg, ast.Call) and arg.args and index.aliases.resolve(arg.func) in shape_keeping:
        return padding_to_longest(index, arg.args[0], loops, shape_keeping, depth)
    if isinstance(arg, ast.Name) and depth == 0:
        values = [n.value for loop in loops[:1] for n in ast.walk(loop) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == arg.id for t in n.targets)]
        return padding_to_longest(index, values[0], loops, shape_keeping, depth + 1) if len(values) == 1 else None
    return arg if isinstance(arg, ast.Call) and arg.args and pads_to_longest(index, arg) else None


# -- state classes (analysis.pytrees.state_classes): a construction and whether a step reads one --


def bound_fields(call: ast.Call, fields: list[str]) -> Iterator[tuple[str, ast.expr]]:
    """(field, value) pairs of a construction of a state class with ``fields``; none when
    ``*args``/``**kwargs`` hide which is which."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return
    yield from zip(fields, call.args)
    yield from ((k.arg, k.value) for k in call.keywords if k.arg is not None and k.arg in fields)


def reads_state(index: ModuleIndex, call: ast.Call, fields: list[str]) -> bool:
    """The jitted function around ``call`` takes the state in: it reads a field from a parameter."""
    func = index.function_of(call)
    if func is None or isinstance(func, ast.Lambda):
        return False
    params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
    return any(isinstance(n, ast.Attribute) and n.attr in fields and isinstance(n.value, ast.Name)
               and n.value.id in params for n in index.scope_nodes(func))
