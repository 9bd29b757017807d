"""XLA422: a jitted function's argument whose pytree structure depends on a per-iteration condition."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis import is_none
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    bound_arguments,
    bound_before_loop,
    call_params,
    in_test,
    jax_jitted_callee,
    jax_jitted_calls_in_host_code,
    jax_loop_varying_names,
    jits_with_jax,
    jitted_call_resolver,
    list_grown_in_loop,
    module_list_passed_grown_per_call,
    runs_traced,
)
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule


class JitArgumentStructurePerIteration(ModuleRule):
    """
    ## What it does
    Flags a non-static argument of a function this file jits, passed in a loop, whose pytree
    structure depends on a condition that changes from one iteration to the next (it reads the
    loop variable, a name the loop augments or assigns from it): a dict built in the loop body
    that gets a key only under such an `if` (`feed = {"x": x}`, then `if step % k == 0:
    feed["aux"] = ...`), or a value that is `None` under such a condition and an array
    otherwise (`mask if i > 0 else None`, or `m = None` in one branch of such an `if`, an array in
    the other). Also an argument the loop carries to the next call with another structure than
    the first call got: bound before the loop to a dict display and rebound in the loop to one
    with other keys (`extra = {}`, then `extra = {"scale": s}`), to a list display of another
    length, to the other container (a tuple, then a list or a list comprehension: `state = (a, b)`,
    then `state = [out, out]`), or a list the loop makes longer (`history.append(out)`) without
    starting it afresh (the jitted function called directly or through a forwarder,
    `def run_step(x, h): return step(x, h)`), and, outside loops, a module-level list that the
    function around the call appends to before passing it, in a function that runs per step (called
    in a loop here, a batch hook), where nothing here empties it or keeps it to a window
    (`.clear()`, `.pop()`, `.remove()`, `del`, a rebinding in a function). Which changes miss the cache is read from the
    measured table `xlacheck/data/jax_cache_key.json` (`pytree.dict_new_key`,
    `pytree.none_then_array`, `pytree.list_new_length`, `pytree.tuple_then_list`).
    A key set on every iteration, or a condition on a value fixed for the whole loop (a flag,
    a config field), is not flagged, nor is a test of which fields the loop's item holds
    (`"mask" in batch`, `batch.get("mask") is not None`, `hasattr(batch, "mask")`): a loader's
    batches usually share their fields, so the structure need not change.

    ## Why is this bad?
    `jax.jit` keys its cache on the pytree structure of the arguments: dict keys, and `None`
    (an empty node) versus an array (a leaf), are part of it. Every structure the loop produces
    is traced and compiled once more; with several optional keys that is one compile per
    combination, and each first occurrence stalls the loop mid-training.

    ## Example
    ```python
    for step, (x, y) in enumerate(batches):
        feed = {"x": x, "y": y}
        if step % 100 == 0:
            feed["debug"] = x
        state = train_step(state, feed)
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(batches):
        feed = {"x": x, "y": y, "debug": x}  # one structure; gate the use inside with a traced flag
        state = train_step(state, feed, step % 100 == 0)
    ```

    ## Fix safety
    No automatic fix: the missing entries need placeholder arrays of the right shapes.
    """

    code = "XLA422"
    fix = None
    name = "jit-argument-structure-per-iteration"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import jax\n@jax.jit\ndef step(s, feed):\n    return s + feed['x'].sum()\n"
                "def train(s, xs, with_aux):\n    for x in xs:\n        feed = {'x': x}\n"
                "        if with_aux:\n            feed['aux'] = x\n        s = step(s, feed)\n    return s\n"),
        Example("import jax\n@jax.jit\ndef step(s, feed):\n    return s + feed['x'].sum()\n"
                "def train(s, xs):\n    for i, x in enumerate(xs):\n        feed = {'x': x}\n"
                "        feed['i'] = i\n        s = step(s, feed)\n    return s\n"),
        # a test of the batch's fields, not of a per-iteration value: one structure per loader
        Example("import jax\n@jax.jit\ndef step(s, x, mask):\n"
                "    return s + (x.sum() if mask is None else (x * mask).sum())\n"
                "def train(s, loader):\n    for batch in loader:\n"
                "        mask = batch['mask'] if 'mask' in batch else None\n"
                "        s = step(s, batch['x'], mask)\n    return s\n"),
        Example(
                "import jax\n"
                "@jax.jit\n"
                "def step(x, history):\n"
                "    return x + sum(history)\n"
                "def run(xs):\n"
                "    history = [xs[0]]\n"
                "    for x in xs:\n"
                "        y = step(x, history)\n"
                "        history = [y]\n"
                "    return y\n"),
        # rebuilt as a tuple: the same structure
        Example("import jax\n@jax.jit\ndef step(x, state):\n    return x * 0.5 + state[1]\n"
                "def train(x, n):\n    state = (x, x)\n    for _ in range(n):\n"
                "        out = step(x, state)\n        state = (out, out)\n    return out\n"),
        # a module-level window kept to a bounded length (.pop): a fixed number of structures
        Example("import jax\n@jax.jit\ndef step(x, history):\n    return x + sum(history)\n"
                "history = []\ndef run_step(x):\n    history.append(x)\n    if len(history) > 3:\n"
                "        history.pop(0)\n    return step(x, history)\n"
                "def train(xs):\n    for x in xs:\n        run_step(x)\n"),
    )
    INVALID = (
        Example("import jax\n@jax.jit\ndef step(s, feed):\n    return s + feed['x'].sum()\n"
                "def train(s, xs):\n    for i, x in enumerate(xs):\n        feed = {'x': x}\n"
                "        if i % 10 == 0:\n            feed['aux'] = x\n        s = step(s, feed)\n    return s\n",
                expected=(
                    (10, 21, 'argument `feed` of jitted `step` gets the key \'aux\' only when `i % 10 == 0` (line 8), '
                             'which changes between iterations: the dict\'s keys are part of its pytree structure, so '
                             'jax.jit traces and compiles again for each set of keys; give every key a value on every '
                             'iteration (a placeholder array) and pass the condition as a traced flag'),
                )),
        Example("import jax\n@jax.jit\ndef step(s, x, prev):\n    return s + x.sum() if prev is None else s + "
                "prev.sum()\n"
                "def train(s, xs):\n    for i in range(len(xs)):\n"
                "        s = step(s, xs[i], xs[i - 1] if i > 0 else None)\n    return s\n",
                expected=(
                    (7, 28, 'argument `prev` of jitted `step` is None when `i > 0` is false and an array otherwise, '
                            'and that condition changes between iterations: None and an array are different pytree '
                            'structures, so jax.jit traces and compiles again; pass an array every time (zeros and '
                            'a traced flag)'),
                )),
        Example(
                "import jax\n"
                "@jax.jit\n"
                "def step(x, extra):\n"
                "    return x * extra.get('scale', 1.0)\n"
                "def run(xs):\n"
                "    extra = {}\n"
                "    for x in xs:\n"
                "        y = step(x, extra)\n"
                "        extra = {'scale': y.mean()}\n"
                "    return y\n",
                expected=(
                    (8, 21, "argument `extra` of jitted `step` is a dict with no keys on the first call and keys "
                            "{'scale'} after the loop rebinds it (line 9): dict keys and list lengths are part of "
                            "the pytree structure, so jax.jit traces and compiles again for each structure; pass the "
                            "same structure every call (every key with a placeholder array, a fixed-size stacked "
                            "buffer)"),
                )),
        Example(
                "import jax\n"
                "@jax.jit\n"
                "def step(x, history):\n"
                "    return x + sum(history)\n"
                "def run(xs):\n"
                "    history = []\n"
                "    for x in xs:\n"
                "        y = step(x, history)\n"
                "        history.append(y)\n"
                "    return y\n",
                expected=(
                    (8, 21, "argument `history` of jitted `step` is a list the loop makes longer on every pass (line "
                            "9): dict keys and list lengths are part of the pytree structure, so jax.jit traces and "
                            "compiles again for each structure; pass the same structure every call (every key with a "
                            "placeholder array, a fixed-size stacked buffer)"),
                )),
        # a tuple rebuilt as a list (pytree.tuple_then_list)
        Example("import jax\n@jax.jit\ndef step(x, state):\n    return x * 0.5 + state[1]\n"
                "def train(x, n):\n    state = (x, x)\n    for _ in range(n):\n"
                "        out = step(x, state)\n        state = [out, out]\n    return out\n",
                expected=(
                    (8, 23, "argument `state` of jitted `step` is a tuple on the first call and a list after the "
                            "loop rebinds it (line 9): a list and a tuple are different pytree nodes, so jax.jit "
                            "traces and compiles again; rebuild it as the container it started as"),
                )),
        # a module-level list a per-step helper appends to, passed itself (pytree.list_new_length)
        Example("import jax\n@jax.jit\ndef step(x, history):\n    return x + sum(history)\n"
                "history = []\ndef run_step(x):\n    history.append(x)\n    return step(x, history)\n"
                "def train(xs):\n    for x in xs:\n        run_step(x)\n",
                expected=(
                    (8, 20, "argument `history` of jitted `step` is `history`, a module-level list that `run_step()` "
                            "makes longer on every call (line 7): list lengths are part of the pytree structure, so "
                            "jax.jit traces and compiles again on every call; pass a fixed-size stacked buffer and "
                            "the length traced"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not jits_with_jax(ctx.facts):
            return
        index = ctx.index
        dict_keys = jax_cache.recompiles("pytree.dict_new_key")
        none_array = jax_cache.recompiles("pytree.none_then_array")
        list_length = jax_cache.recompiles("pytree.list_new_length")
        container = jax_cache.recompiles("pytree.tuple_then_list")
        if list_length:
            self._module_list_grown_per_call(ctx)
        callee = jax_jitted_callee(ctx.facts, index)
        resolve = jitted_call_resolver(ctx.facts, index)
        for outer_call, _ in index.calls:
            if not index.loops_around(outer_call) or in_test(index, ctx.path, outer_call) \
                    or runs_traced(ctx.facts, index, outer_call):
                continue
            loop = next((lp for lp in index.loops_around(outer_call)
                         if isinstance(lp, (ast.For, ast.AsyncFor, ast.While))), None)
            if loop is None:
                continue
            through = resolve(outer_call)  # also through a forwarder: the structure the loop carries
            if through is not None and self._rebound_structure(ctx, index, through[0], through[1], through[2], loop,
                                                               dict_keys, list_length, container):
                continue
            call = outer_call
            hit = callee(call)
            if hit is None:
                continue
            name, info = hit
            node = info.node
            assert not isinstance(node, ast.Lambda)
            varying = jax_loop_varying_names(index, call)
            if not varying:
                continue
            for param, arg in bound_arguments(call_params(info, call), call, index):
                if param in info.static_params:
                    continue
                if dict_keys and isinstance(arg, ast.Name):
                    key = _conditional_key(index, loop, arg.id, varying)
                    if key is not None:
                        k, test = key
                        ctx.report(self, arg, f"argument `{param}` of jitted `{name}` gets the key {k} only when "
                                              f"`{ast.unparse(test)}` (line {test.lineno}), which changes between "
                                              "iterations: the dict's keys are part of its pytree structure, so "
                                              "jax.jit traces and compiles again for each set of keys; give every key "
                                              "a value on every iteration (a placeholder array) and pass the "
                                              "condition as a traced flag")
                        break
                if none_array:
                    when = _none_when(index, loop, arg, varying)
                    if when is not None:
                        test, if_true = when
                        ctx.report(self, arg, f"argument `{param}` of jitted `{name}` is None when "
                                              f"`{ast.unparse(test)}` is {str(if_true).lower()} and an array "
                                              "otherwise, and that "
                                              "condition changes between iterations: None and an array are different "
                                              "pytree structures, so jax.jit traces and compiles again; pass an array "
                                              "every time (zeros and a traced flag)")
                        break


    def _module_list_grown_per_call(self, ctx: ModuleContext) -> None:
        """Outside loops: a module-level list that the function around the call appends to, passed
        itself to a jitted function, where that function runs per step
        (:func:`module_list_passed_grown_per_call`): one item longer on every call, a new pytree
        structure (``pytree.list_new_length``); the helper site of the loop's grown list."""
        index = ctx.index
        for call, info in jax_jitted_calls_in_host_code(ctx.facts, index, ctx.path):
            for param, arg in bound_arguments(call_params(info, call), call, index):
                if param.startswith("#") or param in info.static_params:
                    continue
                grown = module_list_passed_grown_per_call(index, call, arg)
                if grown is None:
                    continue
                name, line = grown
                func = index.function_of(call)
                assert isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))
                ctx.report(self, arg, f"argument `{param}` of jitted `{ast.unparse(call.func)}` is `{name}`, a "
                                      f"module-level list that `{func.name}()` makes longer on every call (line "
                                      f"{line}): list lengths are part of the pytree structure, so jax.jit traces "
                                      "and compiles again on every call; pass a fixed-size stacked buffer and the "
                                      "length traced")
                break

    def _rebound_structure(self, ctx: ModuleContext, index: ModuleIndex, call: ast.Call, name: str, info,
                           loop: ast.AST, dict_keys: bool, list_length: bool, container: bool) -> bool:
        """An argument the loop carries to the next call with another structure than the first call
        gets: bound before the loop to a dict (list) display and rebound in the loop to a dict with
        other keys (a list of another length), or a list the loop grows (``history.append(out)``,
        ``history = history + [out]``) and never starts afresh. Reported: True."""
        for param, arg in bound_arguments(call_params(info, call), call, index):
            if param in info.static_params or not isinstance(arg, ast.Name):
                continue
            before = bound_before_loop(index, call, arg.id)
            if before is None:
                continue
            how = None
            kinds_differ = False
            for value in _rebound_in(loop, arg.id):
                if dict_keys and isinstance(before, ast.Dict) and isinstance(value, ast.Dict):
                    first, later = _keys(before), _keys(value)
                    if first is not None and later is not None and first != later:
                        how = (f"a dict with {_show(first)} on the first call and {_show(later)} after the "
                               f"loop rebinds it (line {value.lineno})")
                elif list_length and isinstance(before, (ast.List, ast.Tuple)) \
                        and isinstance(value, type(before)) and not _starred(before) and not _starred(value) \
                        and len(before.elts) != len(value.elts):
                    how = (f"a {type(before).__name__.lower()} of {len(before.elts)} on the first call and of "
                           f"{len(value.elts)} after the loop rebinds it (line {value.lineno})")
                first_kind, later_kind = _sequence_kind(before), _sequence_kind(value)
                if how is None and container and first_kind is not None and later_kind is not None \
                        and first_kind != later_kind:
                    how = (f"a {first_kind} on the first call and a {later_kind} after the loop rebinds it "
                           f"(line {value.lineno})")
                    kinds_differ = True
                if how is not None:
                    break
            if how is None and list_length and isinstance(before, ast.List):
                grown = list_grown_in_loop(loop, arg.id)
                if grown is not None:
                    how = f"a list the loop makes longer on every pass (line {grown.lineno})"
            if how is None:
                continue
            if kinds_differ:
                ctx.report(self, arg, f"argument `{param}` of jitted `{name}` is {how}: a list and a tuple are "
                                      "different pytree nodes, so jax.jit traces and compiles again; rebuild it as "
                                      "the container it started as")
                return True
            ctx.report(self, arg, f"argument `{param}` of jitted `{name}` is {how}: dict keys and list lengths are "
                                  "part of the pytree structure, so jax.jit traces and compiles again for each "
                                  "structure; pass the same structure every call (every key with a placeholder "
                                  "array, a fixed-size stacked buffer)")
            return True
        return False


def _rebound_in(loop: ast.AST, name: str) -> list[ast.expr]:
    """The values ``loop`` binds ``name`` to (plain assignments)."""
    return [n.value for n in ast.walk(loop) if isinstance(n, ast.Assign) and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name]


def _sequence_kind(e: ast.expr) -> str | None:
    """``"list"`` or ``"tuple"`` for a display, a comprehension or a ``list(...)``/``tuple(...)`` call
    (the pytree node type it makes), else None."""
    if isinstance(e, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(e, ast.Tuple):
        return "tuple"
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("list", "tuple") and len(e.args) == 1:
        return e.func.id
    return None


def _keys(d: ast.Dict) -> frozenset[str] | None:
    """The constant keys of a dict display (None: a ``**`` entry or a computed key)."""
    if any(k is None or not isinstance(k, ast.Constant) for k in d.keys):
        return None
    return frozenset(repr(k.value) for k in d.keys if isinstance(k, ast.Constant))


def _show(keys: frozenset[str]) -> str:
    return "keys {" + ", ".join(sorted(keys)) + "}" if keys else "no keys"


def _starred(seq: ast.List | ast.Tuple) -> bool:
    return any(isinstance(e, ast.Starred) for e in seq.elts)


def _structure_test(node: ast.AST) -> bool:
    """A test of what an item holds rather than of a value: ``"mask" in batch``,
    ``batch.get("mask") is not None``, ``hasattr(batch, "mask")``. Every batch of a loader usually
    holds the same fields, so such a test need not change between iterations (the argument's
    structure then follows the batch's, which the batch itself shares)."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        if isinstance(node.ops[0], (ast.In, ast.NotIn)):
            return isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
        if isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            return is_none(node.comparators[0]) and not isinstance(node.left, ast.Name)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hasattr"


def _changes(test: ast.AST, varying: set[str]) -> bool:
    """``test`` reads a name that changes between iterations outside tests of an item's fields."""
    if _structure_test(test):
        return False
    if isinstance(test, ast.Name):
        return test.id in varying
    return any(_changes(child, varying) for child in ast.iter_child_nodes(test))


def _conditional_key(index: ModuleIndex, loop: ast.AST, name: str, varying: set[str]
                     ) -> tuple[str, ast.expr] | None:
    """(the key, the condition) when the loop body builds ``name`` as a dict display and adds a
    key to it only under an ``if`` whose test changes between iterations."""
    body = loop.body if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) else []
    built = [s for s in body if isinstance(s, ast.Assign) and len(s.targets) == 1
             and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name and isinstance(s.value, ast.Dict)]
    if len(built) != 1:
        return None
    always = {ast.unparse(k) for k in built[0].value.keys if k is not None} if isinstance(built[0].value, ast.Dict) \
        else set()
    for stmt in body:
        if not isinstance(stmt, ast.If) or not _changes(stmt.test, varying):
            continue
        for n in ast.walk(stmt):
            if isinstance(n, ast.Assign) and any(
                    isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
                    and isinstance(t.slice, ast.Constant) and ast.unparse(t.slice) not in always
                    for t in n.targets):
                target = next(t for t in n.targets if isinstance(t, ast.Subscript))
                key = ast.unparse(target.slice)
                # the same key set in the other branch too: one structure
                other = stmt.orelse
                if any(isinstance(m, ast.Subscript) and isinstance(m.value, ast.Name) and m.value.id == name
                       and ast.unparse(m.slice) == key for o in other for m in ast.walk(o)):
                    continue
                return key, stmt.test
    return None


def _none_when(index: ModuleIndex, loop: ast.AST, arg: ast.expr, varying: set[str]
               ) -> tuple[ast.expr, bool] | None:
    """The per-iteration condition under which ``arg`` is None (an arm of a conditional
    expression, or a branch of an ``if`` in the loop body binding the name) while the other arm
    is a value, and whether it is None when the condition holds; None when no such condition."""
    if isinstance(arg, ast.IfExp):
        if is_none(arg.body) != is_none(arg.orelse) and _changes(arg.test, varying):
            return arg.test, is_none(arg.body)
        return None
    if not isinstance(arg, ast.Name):
        return None
    body = loop.body if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) else []
    binds = [s for s in body if isinstance(s, ast.Assign) and len(s.targets) == 1
             and isinstance(s.targets[0], ast.Name) and s.targets[0].id == arg.id]
    if len(binds) == 1 and isinstance(binds[0].value, ast.IfExp):
        return _none_when(index, loop, binds[0].value, varying)
    for stmt in body:
        if not isinstance(stmt, ast.If) or not stmt.orelse or not _changes(stmt.test, varying):
            continue
        arms = [_bound_value(stmt.body, arg.id), _bound_value(stmt.orelse, arg.id)]
        if all(a is not None for a in arms) and is_none(arms[0]) != is_none(arms[1]):
            return stmt.test, is_none(arms[0])
    return None


def _bound_value(stmts: list[ast.stmt], name: str) -> ast.expr | None:
    values = [s.value for s in stmts if isinstance(s, ast.Assign) and len(s.targets) == 1
              and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name]
    return values[-1] if values else None
