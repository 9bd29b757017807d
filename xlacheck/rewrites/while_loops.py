"""Arguments of ``tf.while_loop`` (and AutoGraph ``while`` loops) that tracing or XLA rejects.

**A TensorArray's shape invariant** (XLA209). Inside a graph a ``tf.TensorArray`` loop variable is
carried as its flow, a scalar variant tensor: ``tf.while_loop`` turns the invariant given for it
into the spec of that flow (``control_flow_ops._shape_invariant_to_type_spec`` converts the
TensorArray to its flow first). A ranked ``tf.TensorShape([None, 2])`` contradicts the flow's
shape ``()`` after one iteration, so tracing fails; eagerly the loop runs in Python and the
invariant is never read. ``tf.TensorShape(None)`` describes the flow truthfully; the elements,
their shapes and the stacked result are the TensorArray's own and do not change. SAFE: the values
the loop computes are those of the eager run.

The same fix indexes the one-row slices that start at a loop variable in the loop's body
(``x[i:i + 1, :]`` -> ``x[i, tf.newaxis, :]``): XLA gives a strided slice whose start is not a
constant a size bounded by the axis length, not 1, so the TensorArray stores rows of padding and
what reads its stacked result fails ("Input to reshape is a tensor with 72 values, but the
requested shape has 24") or reads padding; an index plus ``tf.newaxis`` has the static size 1.
Equal for ``0 <= i < n``; SAFE when the loop proves it (``_counter_row_slices``), else UNSAFE and
the message says where it differs.

**A bound for the gradient's accumulators** (XLA210). Differentiating a while loop keeps each
iteration's values in TensorLists sized by the loop's ``maximum_iterations``; without one XLA fails
("XLA compilation requires a fixed tensor list size"). The fix passes the bound the loop condition
already states, when the loop provably counts:

* ``tf.while_loop(cond, body, loop_vars)`` whose ``cond`` (a lambda, or a function with one
  ``return``) tests ``v < B`` or ``v <= B`` (alone or as one operand of ``tf.logical_and``/``&``)
  on the loop variable at position k, whose initial value is a non-negative int literal (or
  ``tf.constant`` of one) and which ``body`` (a lambda or a function whose every ``return`` is a
  tuple or list) returns as ``v + m`` (m an int literal >= 1) and never rebinds: the loop runs at
  most ``max(B - v0, 0) <= B`` iterations (``B + 1`` for ``<=``), so ``maximum_iterations=B``
  never stops it earlier than its condition does;
* a ``while v < B:`` statement converted by AutoGraph whose body increments ``v`` once at its top
  level (``v += m``, m >= 1), has no ``continue``, rebinds nothing ``B`` reads, and where every
  binding of ``v`` in the function is such an increment or a non-negative int literal (or
  ``tf.constant`` of one): ``tf.autograph.experimental.set_loop_options(maximum_iterations=B)``
  as the body's first statement. AutoGraph evaluates the options once, before the loop (where
  the test reads the same names), and passes them to the ``tf.while_loop`` it builds; run
  eagerly, or where AutoGraph keeps a Python loop, the call does nothing.

``maximum_iterations`` caps the trip count; it never adds an iteration. A cap no smaller than the
number of iterations the condition allows leaves every value and gradient as it was: SAFE when
``B`` is provably known while tracing (an int literal or module constant, ``x.shape[k]``,
``tf.shape(x)[k]``, ``tf.size(x)``, ``len(...)``, arithmetic of these, or a name bound once to
one), which XLA folds to the constant it needs. A ``B`` the reader cannot see (a parameter, an
attribute) gets the same edit as UNSAFE: it is still the exact bound, but XLA compiles it only
when that value is a Python number or a shape when the function is traced. A ``B`` computed by
other ops (``tf.reduce_max(lengths)``) is data: XLA cannot take it as a bound, and no fix is offered.

A bound is not always enough: in a differentiated loop body, the gradient of ``tf.vectorized_map(fn,
elems)`` fails to compile when ``fn`` uses one of the ops measured in ``_PFOR_GRADIENT_BREAKERS``
(pfor's gradient computes a shape from values XLA cannot fold across the loop), and
``tf.map_fn(fn, elems)`` computes the same map, element by element, and compiles. The same fix then
calls ``tf.map_fn`` there, UNSAFE: map_fn takes fn's results to have the elements' dtype and
structure (it raises where fn returns another), and it runs fn once per element (slower; batched
kernels may round floats differently). ``fallback_to_while_loop``/``warn`` arguments (map_fn has
neither) leave the call as it is.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.analysis.scopes import own_nodes, own_nodes_in_loops
from xlacheck.analysis.tables import TENSOR_ARRAYS, TF_TENSOR_SHAPES
from xlacheck.diagnostics import Edit, Fix, Location
from xlacheck.rewrites._expr import atom, call_name, full_slice, int_literal, static_int
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import argument, counter_start

_WHILE_LOOPS = frozenset({"tf.while_loop", "tf.compat.v1.while_loop", "tf.compat.v2.while_loop"})
_SHAPE_CALLS = frozenset({"tf.shape", "tf.size", "tf.rank", "tf.compat.v1.shape"})
_LOGICAL_AND = frozenset({"tf.logical_and", "tf.math.logical_and"})
_LESS = frozenset({"tf.less", "tf.math.less"})
_LESS_EQUAL = frozenset({"tf.less_equal", "tf.math.less_equal"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


# -- XLA209: the shape invariant of a TensorArray loop variable -------------------------------------
def _tensor_array(src: Source, node: ast.expr, call: ast.Call) -> bool:
    """A ``tf.TensorArray(...)`` call, or a name every binding of which in the function around
    ``call`` is such a call, a write to it (``ta = ta.write(...)`` keeps a TensorArray) or the
    result of ``call`` itself (``_, ta = tf.while_loop(...)``)."""
    if isinstance(node, ast.Call):
        return call_name(src, node) in TENSOR_ARRAYS
    if not isinstance(node, ast.Name):
        return False
    scope = src.scope_of(call)
    bindings = src.own_bindings(scope).get(node.id, [])
    made = False
    for stmt in bindings:
        if isinstance(stmt, ast.Assign) and stmt.value is call:
            continue  # `_, ta = tf.while_loop(...)`: the loop gives back the TensorArray
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            return False
        value = stmt.value
        if isinstance(value, ast.Call) and call_name(src, value) in TENSOR_ARRAYS:
            made = True
        elif not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                  and isinstance(value.func.value, ast.Name) and value.func.value.id == node.id
                  and value.func.attr in ("write", "scatter", "unstack", "split")):
            return False
    params = {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)} if isinstance(scope, _FUNCTIONS) else set()
    return made and node.id not in params


def _ranked_shape(src: Source, node: ast.expr) -> bool:
    """``tf.TensorShape([d, ...])`` with at least one dimension."""
    if not (isinstance(node, ast.Call) and call_name(src, node) in TF_TENSOR_SHAPES and len(node.args) == 1
            and not node.keywords):
        return False
    dims = node.args[0]
    return isinstance(dims, (ast.List, ast.Tuple)) and bool(dims.elts)


@rewriter(ast.Call)
def rewrite_tensorarray_invariant(src: Source, node: ast.AST) -> Fix | None:
    """``shape_invariants=[..., tf.TensorShape([None, 2])]`` for a TensorArray loop variable ->
    ``tf.TensorShape(None)`` (see the module docstring)."""
    if src.tf is None or not isinstance(node, ast.Call) or call_name(src, node) not in _WHILE_LOOPS:
        return None
    loop_vars, invariants = argument(node, 2, "loop_vars"), argument(node, 3, "shape_invariants")
    if not (isinstance(loop_vars, (ast.List, ast.Tuple)) and isinstance(invariants, (ast.List, ast.Tuple))
            and len(loop_vars.elts) == len(invariants.elts)):
        return None
    edits = [replace(src, shape, f"{src.segment(shape.func)}(None)")  # type: ignore[attr-defined]
             for var, shape in zip(loop_vars.elts, invariants.elts)
             if _tensor_array(src, var, node) and _ranked_shape(src, shape)]
    if not edits:
        return None
    slices, reasons = _counter_row_slices(src, node)
    message = ("Give the TensorArray loop variable the shape invariant TensorShape(None): a graph carries it "
               "as its scalar flow tensor, and its elements keep their shapes")
    if slices:
        message += (f"; index the one-row slices that start at a loop variable ({src.segment(slices[0][0])} -> "
                    f"{slices[0][1]}): XLA gives such a slice a padded, data-dependent size, which the "
                    "TensorArray stores and stacks")
    return make_fix(message, edits + [replace(src, element, text) for element, text in slices], reasons)


def _counter_row_slices(src: Source, call: ast.Call) -> tuple[list[tuple[ast.Slice, str]], list[str]]:
    """The ``v:v + 1`` slice elements in the loop's body whose start is a loop variable ``v``,
    each with its replacement ``v, tf.newaxis`` (one row as a static-size index plus a new axis),
    and the reasons the replacement may differ. Under XLA a strided slice whose start is not a
    constant has a size XLA bounds by the axis length, not the constant ``1``: the TensorArray
    (and everything computed from the slice) gets rows of padding. ``x[v, tf.newaxis]`` equals
    ``x[v:v + 1]`` for ``0 <= v < n`` (n the axis length); outside it the slice is empty, while
    the index raises eagerly (XLA clamps it). SAFE when the loop proves the range: ``v`` starts at
    a non-negative int, the body only adds a positive int to it, and the condition tests
    ``v < tf.shape(x)[d]`` (or ``x.shape[d]``, or a name bound once to either) for the ``x`` and
    the axis ``d`` that the slice indexes, with only full slices ``:`` before it."""
    body_fn = _function(src, argument(call, 1, "body"), call)
    params = _plain_params(body_fn) if body_fn is not None else None
    if body_fn is None or params is None:
        return [], []
    if isinstance(body_fn, ast.Lambda):
        body_nodes: list[ast.AST] = list(ast.walk(body_fn.body))
    else:
        body_nodes = list(own_nodes(body_fn))
    found: list[tuple[ast.Slice, str]] = []
    reasons: list[str] = []
    for sub in body_nodes:
        if not isinstance(sub, ast.Subscript) or not isinstance(sub.ctx, ast.Load):
            continue
        elements = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        for axis, element in enumerate(elements):
            counter = _row_slice_start(element)
            if counter is None or counter not in params or _stores(body_nodes, counter):
                continue
            found.append((element, f"{counter}, {src.tf}.newaxis"))
            if not _counter_within_axis(src, call, body_fn, params.index(counter), sub.value, elements[:axis]):
                reasons.append(f"`{src.segment(element)}` is empty when `{counter}` is outside the axis, where "
                               f"`{counter}, {src.tf}.newaxis` raises eagerly (XLA clamps the index)")
    return found, reasons


def _row_slice_start(element: ast.expr) -> str | None:
    """``v`` for the slice ``v:v + 1`` (or ``v:1 + v``), no step."""
    if not (isinstance(element, ast.Slice) and element.step is None and isinstance(element.lower, ast.Name)
            and isinstance(element.upper, ast.BinOp) and isinstance(element.upper.op, ast.Add)):
        return None
    v, upper = element.lower.id, element.upper
    for a, b in ((upper.left, upper.right), (upper.right, upper.left)):
        if isinstance(a, ast.Name) and a.id == v and int_literal(b) == 1:
            return v
    return None


def _counter_within_axis(src: Source, call: ast.Call, body_fn: ast.Lambda | ast.FunctionDef, k: int,
                         sliced: ast.expr, before: list[ast.expr]) -> bool:
    """Loop variable ``k`` counts up from a non-negative int while it is below the length of the
    axis of ``sliced`` that follows the full slices ``before`` (see _counter_row_slices)."""
    if not isinstance(sliced, ast.Name) or any(
            not full_slice(e) for e in before):
        return False
    loop_vars = argument(call, 2, "loop_vars")
    cond_fn = _function(src, argument(call, 0, "cond"), call)
    cond_params = _plain_params(cond_fn) if cond_fn is not None else None
    test = _result(cond_fn) if cond_fn is not None else None
    if not isinstance(loop_vars, (ast.Tuple, ast.List)) or cond_params is None or test is None \
            or len(cond_params) != len(loop_vars.elts) or k >= len(cond_params):
        return False
    if counter_start(src, loop_vars.elts[k]) is None:
        return False
    returned = [body_fn.body] if isinstance(body_fn, ast.Lambda) else \
        [n.value for n in own_nodes(body_fn) if isinstance(n, ast.Return)]
    counter = _plain_params(body_fn)[k]  # type: ignore[index]
    if not returned or not all(isinstance(r, (ast.Tuple, ast.List)) and len(r.elts) == len(loop_vars.elts)
                               and _step(r.elts[k], counter) for r in returned):
        return False
    limit = _limit(src, test, cond_params[k])
    if limit is None or limit[1]:
        return False
    bound = limit[0]
    for _ in range(3):  # `n = tf.shape(x)[0]` ... `i < n`
        if not isinstance(bound, ast.Name) or bound.id in cond_params:
            break
        bound = src.local_binding(bound.id, call)
    if not (isinstance(bound, ast.Subscript) and int_literal(bound.slice) == len(before)):
        return False
    base = bound.value
    if isinstance(base, ast.Attribute) and base.attr == "shape":
        base = base.value
    elif isinstance(base, ast.Call) and call_name(src, base) == "tf.shape" and len(base.args) == 1 \
            and not base.keywords:
        base = base.args[0]
    else:
        return False
    scope = src.scope_of(call)
    return isinstance(base, ast.Name) and base.id == sliced.id and not src.stores_in(scope).get(sliced.id) \
        and not src.stores_in(body_fn).get(sliced.id) and sliced.id not in cond_params \
        and sliced.id not in (_plain_params(body_fn) or [])


# -- XLA210: maximum_iterations from the loop's own counted condition --------------------------------
def _function(src: Source, node: ast.expr | None, call: ast.Call) -> ast.Lambda | ast.FunctionDef | None:
    """The lambda, or the function the name refers to where ``call`` runs: defined once in the
    function around ``call``, or once at module level and not shadowed there."""
    if isinstance(node, ast.Lambda):
        return node
    if not isinstance(node, ast.Name):
        return None
    scope = src.scope_of(call)
    for where in ([scope, src.tree] if scope is not src.tree else [src.tree]):
        body = where.body if isinstance(where, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)) else []
        defs = [s for s in ast.walk(ast.Module(body=list(body), type_ignores=[]))
                if isinstance(s, ast.FunctionDef) and s.name == node.id and src.scope_of(s) is where]
        stores = [n for n in src.stores_in(where).get(node.id, []) if src.scope_of(n) is where]
        if defs or stores:
            return defs[0] if len(defs) == 1 and not stores else None
    return None


def _plain_params(fn: ast.Lambda | ast.FunctionDef) -> list[str] | None:
    a = fn.args
    if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults:
        return None
    return [p.arg for p in a.args]


def _result(fn: ast.Lambda | ast.FunctionDef) -> ast.expr | None:
    """The one expression a lambda or a one-``return`` function gives."""
    if isinstance(fn, ast.Lambda):
        return fn.body
    returns = [n for n in own_nodes(fn) if isinstance(n, ast.Return)]
    if len(returns) == 1 and fn.body[-1] is returns[0]:
        return returns[0].value
    return None


def _limit(src: Source, test: ast.expr, counter: str) -> tuple[ast.expr, bool] | None:
    """(B, inclusive) when ``test`` implies ``counter < B`` (``<=`` when inclusive)."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(left, ast.Name) and left.id == counter and isinstance(op, (ast.Lt, ast.LtE)):
            return right, isinstance(op, ast.LtE)
        if isinstance(right, ast.Name) and right.id == counter and isinstance(op, (ast.Gt, ast.GtE)):
            return left, isinstance(op, ast.GtE)
        return None
    if isinstance(test, ast.Call) and len(test.args) == 2 and not test.keywords:
        name = call_name(src, test)
        first, second = test.args
        if name in _LESS | _LESS_EQUAL and isinstance(first, ast.Name) and first.id == counter:
            return second, name in _LESS_EQUAL
        if name in _LOGICAL_AND:
            return _limit(src, first, counter) or _limit(src, second, counter)
        return None
    if isinstance(test, ast.BinOp) and isinstance(test.op, ast.BitAnd):
        return _limit(src, test.left, counter) or _limit(src, test.right, counter)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return next((found for v in test.values if (found := _limit(src, v, counter))), None)
    return None


def _step(node: ast.expr, counter: str) -> bool:
    """``counter + m`` or ``m + counter`` with m an int literal >= 1."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return False
    for a, b in ((node.left, node.right), (node.right, node.left)):
        if isinstance(a, ast.Name) and a.id == counter and (int_literal(b) or 0) >= 1:
            return True
    return False


def _stores(nodes: list[ast.AST], name: str) -> list[ast.Name]:
    return [n for n in nodes if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)]


def _static_count(src: Source, node: ast.AST, at: ast.AST, depth: int = 0) -> bool:
    """A number known while tracing (see the module docstring); names are followed through their
    single binding before ``at``."""
    if depth > 6:
        return False
    if static_int(src, node) is not None:
        return True
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, at)
        return bound is not None and _static_count(src, bound, at, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        return _static_count(src, node.left, at, depth + 1) and _static_count(src, node.right, at, depth + 1)
    if isinstance(node, ast.Subscript) and int_literal(node.slice) is not None:
        base = node.value
        if isinstance(base, ast.Attribute) and base.attr == "shape":
            return True
        return isinstance(base, ast.Call) and call_name(src, base) == "tf.shape" and len(base.args) == 1
    if isinstance(node, ast.Call):
        if call_name(src, node) in ("tf.size", "tf.rank") and len(node.args) == 1 and not node.keywords:
            return True
        return isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1 \
            and "len" not in src.stores_in(src.tree)
    return False


def _computed(src: Source, node: ast.AST, at: ast.AST, depth: int = 0) -> bool:
    """``node`` reads the result of an op that is not a shape fact (the bound is data)."""
    if depth > 6:
        return False
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and call_name(src, sub) not in _SHAPE_CALLS and not (
                isinstance(sub.func, ast.Name) and sub.func.id == "len"):
            return True
        if isinstance(sub, ast.Name):
            bound = src.local_binding(sub.id, at)
            if bound is not None and _computed(src, bound, at, depth + 1):
                return True
    return False


def _bound_fix(src: Source, limit: ast.expr, inclusive: bool, at: ast.AST,
               edit_for: Callable[[str], list[Edit]], mapped: int = 0) -> Fix | None:
    """The fix that passes ``limit`` (+ 1 when inclusive) as the loop's maximum_iterations (and,
    where ``mapped``, says that the body's ``tf.vectorized_map`` calls became ``tf.map_fn``)."""
    if _computed(src, limit, at):
        return None
    text = f"{atom(src, limit)} + 1" if inclusive else src.segment(limit)
    if "\n" in text:
        text = f"({text})"
    reasons = [] if _static_count(src, limit, at) else [
        f"XLA takes `{src.segment(limit)}` as the bound only when it is a Python number or a shape value while "
        "tracing; computed from tensor data, compilation still fails"]
    message = (f"Pass maximum_iterations={text}, the bound the loop condition states: the gradient's "
               "accumulators get a static size and the loop still stops where its condition says")
    if mapped:
        message += f"; and map with tf.map_fn instead of tf.vectorized_map in the body ({_VECTORIZED_WHY})"
        reasons += _MAP_FN_REASONS
    return make_fix(message, edit_for(text), reasons)


# -- XLA210: tf.vectorized_map in a differentiated loop body -> tf.map_fn ------------------------------
# Measured (TF 2.21, XLA:CPU; tests/xlacheck/test_fix_equivalence.py compiles both): inside the body
# of a tf.while_loop with maximum_iterations that a GradientTape differentiates, the gradient of
# tf.vectorized_map(fn, elems) fails to compile when fn uses tf.tile, tf.concat, tf.gather,
# tf.split, tf.repeat, tf.reduce_sum or tf.transpose (pfor's gradient computes a shape, a
# ConcatOffset or a DynamicStitch from values XLA cannot fold across the loop: "must be a
# compile-time constant"); tf.map_fn of the same fn compiles for all of them but tf.repeat. A body
# that only multiplies, pads, slices or reshapes compiles either way. map_fn computes the same
# map, element by element.
_VECTORIZED_MAPS = frozenset({"tf.vectorized_map"})
# the ops measured to break vectorized_map's gradient in the loop and to compile under map_fn
_PFOR_GRADIENT_BREAKERS = frozenset({
    "tf.tile", "tf.concat", "tf.gather", "tf.split", "tf.reduce_sum", "tf.math.reduce_sum", "tf.transpose",
    "tf.compat.v1.gather", "tf.compat.v1.transpose", "tf.compat.v1.reduce_sum"})
_VECTORIZED_WHY = ("the gradient of vectorized_map's vectorized ops inside a while loop computes shapes from "
                   "values XLA cannot fold, 'must be a compile-time constant'; map_fn computes the same map, "
                   "one element at a time")
_MAP_FN_REASONS = [
    "tf.map_fn takes fn's results to have the elements' dtype and structure: where fn returns another, it "
    "raises (pass fn_output_signature there)",
    "map_fn runs fn once per element where vectorized_map batches it: slower, and batched kernels may round "
    "floats differently"]


def _vectorized_maps(src: Source, body_nodes: list[ast.AST]) -> list[Edit] | None:
    """Edits that call ``tf.map_fn`` where the loop body calls ``tf.vectorized_map(fn, elems)``
    (those two arguments only) with ``fn`` a lambda or a function the reader finds that calls one
    of the measured ops (``_PFOR_GRADIENT_BREAKERS``); None where one has other arguments
    (fallback_to_while_loop, warn: map_fn has neither), [] where there is none."""
    edits = []
    for node in body_nodes:
        if isinstance(node, ast.Call) and call_name(src, node) in _VECTORIZED_MAPS:
            if len(node.args) + len(node.keywords) != 2 or any(k.arg not in ("fn", "elems") for k in node.keywords):
                return None
            fn = _function(src, argument(node, 0, "fn"), node)
            if fn is None or not any(isinstance(n, ast.Call) and call_name(src, n) in _PFOR_GRADIENT_BREAKERS
                                     for n in ast.walk(fn)):
                continue
            edits.append(replace(src, node.func, f"{src.tf}.map_fn"))
    return edits


def _inside_any(edit: Edit, others: list[Edit]) -> bool:
    return any(o.start <= edit.start and edit.end <= o.end for o in others)


def _call_bound(src: Source, call: ast.Call) -> Fix | None:
    if len(call.args) > 7 or any(k.arg in ("maximum_iterations", None) for k in call.keywords):
        return None
    loop_vars = argument(call, 2, "loop_vars")
    cond_fn, body_fn = _function(src, argument(call, 0, "cond"), call), _function(src, argument(call, 1, "body"), call)
    if not isinstance(loop_vars, (ast.Tuple, ast.List)) or cond_fn is None or body_fn is None:
        return None
    width = len(loop_vars.elts)
    cond_params, body_params = _plain_params(cond_fn), _plain_params(body_fn)
    test = _result(cond_fn)
    if cond_params is None or body_params is None or len(cond_params) != width or len(body_params) != width \
            or test is None:
        return None
    if isinstance(body_fn, ast.Lambda):
        body_nodes: list[ast.AST] = list(ast.walk(body_fn.body))
        returned = [body_fn.body]
    else:
        body_nodes = list(own_nodes(body_fn, include_signature=True))
        returned = [n.value for n in body_nodes if isinstance(n, ast.Return)]
    cond_nodes = list(own_nodes(cond_fn, include_signature=True))
    if not returned or any(not isinstance(r, (ast.Tuple, ast.List)) or len(r.elts) != width for r in returned):
        return None
    for k, counter in enumerate(cond_params):
        found = _limit(src, test, counter)
        if found is None:
            continue
        limit, inclusive = found
        start = counter_start(src, loop_vars.elts[k])
        stepped = body_params[k]
        if start is None or _stores(body_nodes, stepped) or not all(
                _step(r.elts[k], stepped) for r in returned):  # type: ignore[attr-defined]
            continue
        reads = {n.id for n in ast.walk(limit) if isinstance(n, ast.Name)}
        if reads & set(cond_params) or any(_stores(cond_nodes, name) for name in reads):
            continue
        if src.scope_of(cond_fn) is not src.scope_of(call) and not isinstance(cond_fn, ast.Lambda):
            # a module-level cond reads globals: the names must mean the same where the loop is called
            scope = src.scope_of(call)
            params = {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)} \
                if isinstance(scope, _FUNCTIONS) else set()
            if any(name in params or src.stores_in(scope).get(name) for name in reads):
                continue
        # Eagerly, with maximum_iterations, tf.while_loop compares the body's result with
        # `loop_vars` by sequence type too (a list is not a tuple there): returns are retyped.
        found_edits = [_retyped(src, r, loop_vars) for r in returned if type(r) is not type(loop_vars)]
        retyped = [e for e in found_edits if e is not None]
        if len(retyped) != len(found_edits):
            continue
        inside = isinstance(body_fn, ast.Lambda) and src.parents.get(body_fn) is call
        mapped = _vectorized_maps(src, body_nodes) or []
        if any(_inside_any(e, retyped) for e in mapped):
            mapped = []  # a retyped return holds the call: the bound alone
        return _bound_fix(src, limit, inclusive, call, _keyword_edits(src, call, retyped + mapped, inside),
                          len(mapped))
    return None


def _keyword_edits(src: Source, call: ast.Call, retyped: list[Edit], inside: bool) -> Callable[[str], list[Edit]]:
    """The edits that add ``maximum_iterations=TEXT`` after the call's last argument (its text
    kept as written), with the retyped returns: spliced into the call's text when they are part
    of it (a lambda body), else as edits of their own."""
    last = max([*call.args, *(k.value for k in call.keywords)], key=lambda n: (n.end_lineno, n.end_col_offset))
    start = src.offset(src.start(call))
    whole, cut = src.segment(call), src.offset(src.end(last)) - start
    if inside:
        for edit in sorted(retyped, key=lambda e: (e.start, e.end), reverse=True):
            a, b = src.offset(edit.start) - start, src.offset(edit.end) - start
            whole = whole[:a] + edit.content + whole[b:]
            if a < cut:
                cut += len(edit.content) - (b - a)

    def edits(text: str) -> list[Edit]:
        added = replace(src, call, f"{whole[:cut]}, maximum_iterations={text}{whole[cut:]}")
        return [added] if inside else [added, *retyped]

    return edits


def _retyped(src: Source, returned: ast.Tuple | ast.List, loop_vars: ast.Tuple | ast.List) -> Edit | None:
    """An edit that makes the body's returned tuple a list (or the list a tuple) like ``loop_vars``,
    its elements written as they are; None where its text cannot be reframed."""
    text = src.segment(returned)
    if isinstance(returned, ast.List):
        inner = text[1:-1]
        single = len(returned.elts) == 1 and not inner.rstrip().endswith(",")
        return replace(src, returned, f"({inner}{',' if single else ''})")
    if text.startswith("(") and text.endswith(")") and _parenthesized(returned, text):
        return replace(src, returned, f"[{text[1:-1]}]")
    if "\n" in text:
        return None
    return replace(src, returned, f"[{text}]")


def _parenthesized(node: ast.Tuple, text: str) -> bool:
    """The tuple's own parentheses enclose the text (not ``(a), (b)``)."""
    try:
        inner = ast.parse(f"[{text[1:-1]}]", mode="eval").body
    except SyntaxError:
        return False
    return isinstance(inner, ast.List) and len(inner.elts) == len(node.elts)


def _while_bound(src: Source, loop: ast.While) -> Fix | None:
    if loop.orelse or not loop.body:
        return None
    scope = src.scope_of(loop)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    counters = [n.id for n in ast.walk(loop.test) if isinstance(n, ast.Name)]
    body_nodes = [n for stmt in loop.body for n in [stmt, *own_nodes(stmt, include_signature=True)]]
    # a `continue` of this loop: not inside a nested loop or function
    if any(isinstance(n, ast.Continue) and not loops for n, loops in own_nodes_in_loops(loop)) or any(
            isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
            and call_name(src, s.value) == "tf.autograph.experimental.set_loop_options" for s in loop.body):
        return None  # `continue` can skip the increment; the loop's options are already set
    params = {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)}
    for counter in dict.fromkeys(counters):
        found = _limit(src, loop.test, counter)
        if found is None or counter in params or counter in src.declared_outside(scope):
            continue
        limit, inclusive = found
        reads = {n.id for n in ast.walk(limit) if isinstance(n, ast.Name)}
        if counter in reads or any(_stores(body_nodes, name) for name in reads):
            continue
        increments = [s for s in loop.body if _increment(s, counter)]
        if len(increments) != 1 or len(_stores(body_nodes, counter)) != 1:
            continue
        if not all(_non_negative_binding(src, store, counter) for store in src.stores_in(scope).get(counter, [])):
            continue
        first = loop.body[0]
        indent = src.indent_of(first)
        if first.lineno == loop.lineno or not src.alone_on_lines(first, first):
            return None  # `while c: body` on one line

        at = Location(first.lineno, 0)
        option = f"{indent}{src.tf}.autograph.experimental.set_loop_options(maximum_iterations={{}})\n"
        return _bound_fix(src, limit, inclusive, loop,
                          lambda text, at=at, option=option: [Edit(at, at, option.format(text))])
    return None


def _increment(stmt: ast.stmt, counter: str) -> bool:
    """``counter += m`` or ``counter = counter + m`` (m an int literal >= 1)."""
    if isinstance(stmt, ast.AugAssign):
        return isinstance(stmt.target, ast.Name) and stmt.target.id == counter and isinstance(stmt.op, ast.Add) \
            and (int_literal(stmt.value) or 0) >= 1
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
        and stmt.targets[0].id == counter and _step(stmt.value, counter)


def _non_negative_binding(src: Source, store: ast.Name, counter: str) -> bool:
    """The store gives ``counter`` a value >= 0 when the value before it was: an increment, or a
    non-negative int literal (or tf.constant of one), also as an element of a tuple assignment."""
    stmt = src.parents.get(store)
    if isinstance(stmt, ast.AugAssign) or (isinstance(stmt, ast.Assign) and stmt.targets == [store]):
        if _increment(stmt, counter):
            return True
        return isinstance(stmt, ast.Assign) and counter_start(src, stmt.value) is not None
    if isinstance(stmt, ast.Tuple) and isinstance(src.parents.get(stmt), ast.Assign):
        assign = src.parents[stmt]
        k = next(i for i, e in enumerate(stmt.elts) if e is store)
        value = assign.value
        if assign.targets == [stmt] and isinstance(value, ast.Tuple) and len(value.elts) == len(stmt.elts):
            return counter_start(src, value.elts[k]) is not None
    return False


@rewriter(ast.Call, ast.While, pointed=True)  # only the loop the finding names needs the bound
def rewrite_loop_bound(src: Source, node: ast.AST) -> Fix | None:
    """``maximum_iterations`` from a counted loop's own condition (see the module docstring)."""
    if src.tf is None:
        return None
    if isinstance(node, ast.Call) and call_name(src, node) in _WHILE_LOOPS:
        return _call_bound(src, node)
    if isinstance(node, ast.While):
        return _while_bound(src, node)
    return None
