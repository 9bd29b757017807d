"""Batches whose shape follows the data: one home for XLA412 (tf.function) and XLA416 (jax.jit).

Rows padded by hand to a length that changes per batch (:func:`padded_rows`), and fixed-width
windows whose last one is shorter (:func:`remainder_window`).

``x[i:i + bs]`` for ``i`` in ``range(0, n, bs)`` (or ``x[i * bs:(i + 1) * bs]`` for ``i`` in
``range(ceil(n / bs))``) has ``bs`` rows on every pass but the last, which has ``n % bs`` unless
``n`` is a multiple of ``bs``: a second shape, so a compiled function called on each window traces
and compiles once more (measured: ``stepped_windows_last_shorter`` in ``xlacheck/data/tf_retrace.json``,
``seq.last_partial_batch`` in ``xlacheck/data/jax_cache_key.json``; the exact multiple,
``stepped_windows_exact_multiple``, compiles once). The window reaches the call directly, through
a shape-keeping wrapper (``tf.constant(x[i:i + bs])``), through a name the loop assigns once, or as
the target of a loop over the windows: a list comprehension of them, a name bound once to one, or a
function of this file that returns such a comprehension or yields such windows.

A stop that is evidently a multiple of the step is not a remainder: constants that divide, a stop
computed with the step (``n // bs * bs``, ``n - n % bs``, ``n - bs + 1``), a count of full windows
(``range(n // bs)``). Only a stop that is the sliced array's length (``len(x)``, ``x.shape[0]``) or a
plain name (a parameter or a local count) counts: other expressions are not judged.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xlacheck.analysis.module_index import ModuleIndex

_COMPREHENSIONS = (ast.ListComp, ast.GeneratorExp)
# Constructors from nested Python lists: the shape is the lists' lengths.
FROM_ROWS = frozenset({"tf.constant", "tf.convert_to_tensor", "np.array", "np.asarray", "jnp.array", "jnp.asarray"})


def padded_rows(rows: ast.expr, moving: Callable[[ast.expr], str | None]) -> str | None:
    """The loop-varying name (``moving`` says which a count reads) that sets the length of the rows
    of a comprehension padded by hand: ``[[pad] * (longest - len(p)) + p for p in prompts]`` with
    ``longest = max(len(p) for p in prompts)`` in the loop (each batch padded to its own longest: a
    new shape per longest length; padded to a constant, one shape)."""
    if not isinstance(rows, ast.ListComp):
        return None
    for node in ast.walk(rows.elt):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for seq, count in ((node.left, node.right), (node.right, node.left)):
                if isinstance(seq, (ast.List, ast.Tuple)) and (name := moving(count)):
                    return name
    return None


@dataclass(frozen=True)
class RemainderWindow:
    """The slice ``window`` of ``sliced`` in a loop over ``loop_range`` whose last pass is shorter than
    ``step`` (``rounds_up``: a count of windows rounded up, ``range(ceil(len(x) / bs))``); ``source``
    says where the loop took it from: ``""`` for a slice taken at the call, ``"yields NAME"`` /
    ``"returns NAME"`` for a function of this file, ``"holds NAME"`` for a name bound to a list of windows,
    ``"list"`` for a comprehension of them."""

    window: str
    loop_range: str
    sliced: str
    step: str
    rounds_up: bool
    source: str = ""

    def with_source(self, source: str) -> RemainderWindow:
        """The same window reached through ``source`` (the outermost source names it at the call)."""
        return RemainderWindow(self.window, self.loop_range, self.sliced, self.step, self.rounds_up, source)

    def last_shorter(self) -> str:
        """``the last batch is shorter whenever len(x) is not a multiple of bs``."""
        return f"the last batch is shorter whenever len({self.sliced}) is not a multiple of {self.step}"

    def slice_text(self) -> str:
        """``the slice `x[i:i + bs]` of a loop over `range(0, len(x), bs)` ``."""
        return (f"the slice `{self.window}` of a loop over `{self.loop_range}`"
                + (", which rounds the batch count up" if self.rounds_up else ""))

    def origin(self) -> str:
        """Where the call's argument comes from, as a phrase before :meth:`slice_text`: ``is``,
        ``comes from `chunks()`, which yields``, ``is an item of `batches`, which holds``."""
        kind, _, name = self.source.partition(" ")
        if kind in ("yields", "returns"):
            return f"comes from `{name}()`, which {kind}" + (" a list of" if kind == "returns" else "")
        if kind == "holds":
            return f"is an item of `{name}`, a list of"
        if kind == "list":
            return "is an item of a list of"
        return "is"


def remainder_window(index: ModuleIndex, arg: ast.expr, loops: list[ast.AST],
                     shape_keeping: frozenset[str]) -> RemainderWindow | None:
    """The remainder window ``arg`` is (see the module docstring), or None."""
    return _window(index, arg, loops, shape_keeping, 0)


def _window(index: ModuleIndex, arg: ast.expr, loops: list[ast.AST], shape_keeping: frozenset[str],
            depth: int) -> RemainderWindow | None:
    if depth > 6:
        return None
    if isinstance(arg, ast.Call) and arg.args and index.aliases.resolve(arg.func) in shape_keeping:
        return _window(index, arg.args[0], loops, shape_keeping, depth + 1)
    if isinstance(arg, ast.Subscript):
        return _sliced_window(index, arg, loops)
    if not isinstance(arg, ast.Name):
        return None
    for loop in loops:  # the target of a loop over windows
        for target, source in _loop_heads(loop):
            if isinstance(target, ast.Name) and target.id == arg.id:
                return _windows_of(index, source, loop, shape_keeping, depth + 1)
    if loops and isinstance(loops[0], (ast.For, ast.AsyncFor, ast.While)):  # a name the loop assigns once
        values = [n.value for n in ast.walk(loops[0]) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == arg.id for t in n.targets)]
        if len(values) == 1:
            return _window(index, values[0], loops, shape_keeping, depth + 1)
    return None


def _loop_heads(loop: ast.AST) -> Iterator[tuple[ast.expr, ast.expr]]:
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        yield loop.target, loop.iter
    elif isinstance(loop, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        for g in loop.generators:
            yield g.target, g.iter


def _windows_of(index: ModuleIndex, source: ast.expr, loop: ast.AST, shape_keeping: frozenset[str],
                depth: int) -> RemainderWindow | None:
    """The remainder window each item of ``source`` (a loop's iterable) is: a comprehension of windows, a
    name bound once to one, or a call of a function of this file that returns one or yields windows."""
    if isinstance(source, ast.Name):
        bound = index.local_binding(source.id, loop) or index.module_constant(source)
        if bound is None or isinstance(bound, ast.Name):
            return None
        found = _windows_of(index, bound, loop, shape_keeping, depth + 1)
        return None if found is None else found.with_source(f"holds {source.id}")
    if isinstance(source, _COMPREHENSIONS):
        found = _window(index, source.elt, index.loops_around(source.elt), shape_keeping, depth + 1)
        return None if found is None else found.with_source("list")
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Name):
        helper = next((n for n in index.tree.body if isinstance(n, ast.FunctionDef) and n.name == source.func.id), None)
        if helper is None:
            return None
        for node in index.scope_nodes(helper):
            value = node.value if isinstance(node, (ast.Return, ast.Yield)) else None
            if value is None:
                continue
            found = (_window(index, value, index.loops_around(node), shape_keeping, depth + 1)
                     if isinstance(node, ast.Yield) else _windows_of(index, value, node, shape_keeping, depth + 1))
            if found is not None:
                return found.with_source(f"{'yields' if isinstance(node, ast.Yield) else 'returns'} {helper.name}")
    return None


def _sliced_window(index: ModuleIndex, arg: ast.Subscript, loops: list[ast.AST]) -> RemainderWindow | None:
    """``X[i:i + bs]`` for ``i in range(a, stop, bs)``, or ``X[i * bs:(i + 1) * bs]`` for
    ``i in range(ceil(len(X) / bs))``, in the innermost loop whose target is ``i``."""
    part = arg.slice.elts[0] if isinstance(arg.slice, ast.Tuple) and arg.slice.elts else arg.slice
    if not isinstance(part, ast.Slice) or part.lower is None or part.upper is None or part.step is not None:
        return None
    sliced = ast.unparse(arg.value)
    lower, upper = _text(part.lower), _text(part.upper)
    for loop in loops:
        for target, it in _loop_heads(loop):
            if not (isinstance(target, ast.Name) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                    and it.func.id == "range" and not it.keywords):
                continue
            var, r = target.id, it.args
            if lower != var and not lower.startswith(f"{var}*"):
                continue
            shown = f"range({', '.join(map(ast.unparse, r))})"
            if len(r) == 3 and lower == var:
                step = _text(r[2])
                ends = (f"{var}+{step}", f"{step}+{var}")
                if (upper in ends or any(upper in (f"min({e},{s})", f"min({s},{e})")
                                         for e in ends for s in (_text(r[1]), f"len({sliced})")))  \
                        and _may_leave_remainder(index, r[0], r[1], r[2], sliced, loop):
                    return RemainderWindow(ast.unparse(arg), shown, sliced, ast.unparse(r[2]), False)
            if len(r) == 1:
                stop = r[0]
                if isinstance(stop, ast.Name):
                    stop = index.local_binding(stop.id, loop) or stop
                stop_text = _text(stop)
                ceil = "ceil(" in stop_text or stop_text.startswith("-(-")
                size = lower[len(var) + 1:]
                if ceil and upper == f"({var}+1)*{size}" and _length_of(stop, sliced):
                    return RemainderWindow(ast.unparse(arg), shown, sliced, "the batch size", True)
    return None


def _text(e: ast.expr) -> str:
    return ast.unparse(e).replace(" ", "")


def _length_of(e: ast.AST, sliced: str) -> bool:
    """``e`` reads ``len(X)`` or ``X.shape[0]`` of the sliced array ``X``."""
    return any(_text(n) in (f"len({sliced})", f"{sliced}.shape[0]") for n in ast.walk(e)
               if isinstance(n, (ast.Call, ast.Subscript)))


def _may_leave_remainder(index: ModuleIndex, start: ast.expr, stop: ast.expr, step: ast.expr, sliced: str,
                         loop: ast.AST) -> bool:
    """``range(start, stop, step)`` may end on a partial window: not evidently a multiple."""
    consts = [e.value if isinstance(e, ast.Constant) and type(e.value) is int else None for e in (start, stop, step)]
    if all(c is not None for c in consts):
        a, b, k = consts
        return bool(k) and (b - a) % k != 0  # type: ignore[operator]
    if isinstance(stop, ast.Name):
        bound = index.local_binding(stop.id, loop)
        if bound is not None and not isinstance(bound, ast.Name):
            stop = bound
    step_text = _text(step)
    array = index.local_binding(sliced, loop) if sliced.isidentifier() else None
    if array is not None and any(_text(n) == step_text for n in ast.walk(array) if isinstance(n, ast.expr)):
        return False  # built with the step: padded to a multiple (`tf.pad(x, [[0, (-n) % bs], ...])`)
    stop_text = _text(stop)
    if step_text in stop_text:  # n // bs * bs, n - n % bs, len(x) - bs + 1: computed with the step
        return False
    return isinstance(stop, ast.Name) or _length_of(stop, sliced) and isinstance(stop, (ast.Call, ast.Subscript))
