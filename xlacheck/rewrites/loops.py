"""Loops: unroll growing loops with a static trip count, ``tf.while_loop`` for unconverted
``while`` loops, and a static size for TensorArrays filled by a counted loop.

Loops whose body grows a Python list or a tensor: unroll when the trip count is static.

Inside ``for i in tf.range(n)`` AutoGraph builds a ``tf.while_loop``: a Python list appended to
in the body is out of scope (InaccessibleTensorError) and a tensor that grows changes shape from
one iteration to the next, which XLA rejects. When ``n`` is known at trace time (int literals,
module constants, ``self.<attr>`` that ``__init__`` alone sets to one, ``x.shape[k]``), iterating
over Python's ``range`` unrolls the loop: every iteration is traced in order, exactly as eager
execution runs it, so lists and growing tensors work. A parameter whose default is an int literal
(``max_new_tokens=4``), never rebound, in a function AutoGraph converts, counts too: AutoGraph runs
``range`` of a Python int as a Python loop and turns ``range`` of a tensor into the ``tf.range`` loop
(``py_builtins.range_``), so ``range(n)`` is the original loop for a tensor a caller passes and the
unrolled one for an int. Eagerly the loop variable is a scalar int32 tensor; unrolled it is the Python int of the
same value. The fix is SAFE when the loop variable is unused or only indexes
(``x[:, t]``, ``outputs[t]``): a Python int and an int32 scalar tensor select the same entries
(tensors and lists both accept either), so every value and gradient is that of the eager loop.
Otherwise it is UNSAFE: arithmetic on a Python int no longer makes tensors (``t / 2`` is a
Python float, ``x * t`` converts ``t`` to ``x``'s dtype where the original raises). Trace time
and program size grow with the trip count, and an unknown dimension (``None``) fails loudly at
trace time; neither changes a value, so neither makes the fix unsafe, but the message says so.

A ``while`` on a tensor condition that counts (``i = tf.constant(i0)``, ``while i < N``, ``i += 1``)
and collects one value per iteration in a list becomes a ``tf.TensorArray`` of the exact trip count
(:func:`rewrite_counted_list_loop`); any other ``while`` that grows something has a data-dependent
trip count and gets an explanation only.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from xlacheck.analysis.scopes import parameter_defaults
from xlacheck.diagnostics import Edit, Fix, Location
from xlacheck.rewrites._expr import arg, call_name, calls_only_tensorflow, has_kw, int_literal, number_value, static_int
from xlacheck.rewrites._fix import explain, make_fix, replace, replace_lines, rewriter
from xlacheck.rewrites._source import Source, dotted
from xlacheck.rewrites.dtypes import DTYPES, argument, certain_dtype, counter_start, dtype_of_source
from xlacheck.rewrites.truth import bool_condition, sequence_equality
from xlacheck.rewrites.loop_returns import PURE_BUILTINS

_STAGED_GROWTH = ("{loop} is staged as a tf.while_loop inside tf.function: a Python list appended to in its body "
                  "holds tensors of the loop's inner graph (InaccessibleTensorError), and a tensor grown with "
                  "tf.concat changes shape between iterations, which XLA rejects. The trip count is known only at "
                  "run time, so the collected result's length is data, and no fixed-shape program returns it. ")
TENSOR_WHILE = _STAGED_GROWTH.format(loop="A `while` loop on a tensor condition") + (
    "Loop over a static maximum instead, `for step in range(MAX_LEN)`, carry a `done` mask "
    "(`token = tf.where(done, pad_id, new_token)`; `done = done | (token == stop_id)`) and write every step into "
    "a tf.TensorArray(dtype, size=MAX_LEN): the result then always has MAX_LEN entries, padded after `done`. "
    "A counted loop (`i = tf.constant(0)`, `while i < n:`, one `i += 1` and one `append`, then tf.stack) is "
    "rewritten to a tf.TensorArray of its exact trip count.")
WHILE_LOOP_GROWTH = (
    "A tf.while_loop whose body returns a loop variable grown with tf.concat (or tf.stack/tf.pad) changes that "
    "variable's shape every iteration; a None shape invariant lets TensorFlow trace it, but XLA needs one static "
    "shape for every loop variable, and the number of iterations (so the final length) is data. Loop over a "
    "static maximum instead: allocate the full buffer up front (`tf.zeros([batch, MAX_LEN], dtype)` or "
    "tf.TensorArray(dtype, size=MAX_LEN)), write step i at index i (tf.tensor_scatter_nd_update or ta.write), "
    "carry a `done` mask for the steps past the data-dependent end, and pass maximum_iterations=MAX_LEN.")
TENSOR_RANGE = _STAGED_GROWTH.format(loop="A tf.range loop over a data-dependent count") + (
    "Write into a tf.TensorArray(dtype, size=n) at the loop index and stack it (under XLA that compiles once "
    "per value of n), or loop over a static maximum with a mask.")


def _static(src: Source, node: ast.AST) -> str | None:
    """``node`` as Python code whose value is known at trace time, or None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return src.segment(node)
    if isinstance(node, ast.Name):
        return node.id if static_int(src, node) is not None else None
    if isinstance(node, ast.Attribute) and static_int(src, src.literal_of(node)) is not None:
        return src.segment(node)  # `self.steps` set once in __init__ from an int (Source.literal_of)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        left, right = _static(src, node.left), _static(src, node.right)
        if left is None or right is None:
            return None
        op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//"}[type(node.op)]
        return f"{left} {op} {right}"
    if isinstance(node, ast.Subscript) and isinstance(number_value(node.slice), int):
        base = node.value
        if isinstance(base, ast.Call) and call_name(src, base) == "tf.shape" and len(base.args) == 1:
            return f"{src.segment(base.args[0])}.shape[{src.segment(node.slice)}]"
        if isinstance(base, ast.Attribute) and base.attr == "shape":
            return src.segment(node)
    return None


GROWING_OPS = frozenset({"tf.concat", "tf.stack", "tf.pad", "tf.experimental.numpy.append"})


def _grows(src: Source, node: ast.AST) -> bool:
    """``xs.append(...)`` or ``x = tf.concat([x, ...])``-like: the loop body grows something."""
    call = node.value if isinstance(node, (ast.Expr, ast.Assign)) else node
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in ("append", "extend"):
        return True
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        name = node.targets[0].id
        return isinstance(call, ast.Call) and call_name(src, call) in GROWING_OPS and any(
            isinstance(n, ast.Name) and n.id == name for a in call.args for n in ast.walk(a))
    return False


def _only_indexes(loop: ast.For) -> bool:
    """The loop variable is a plain name that the body reads only as a subscript index
    (``x[t]``, ``x[:, t]``) and never rebinds, or not at all."""
    if not isinstance(loop.target, ast.Name):
        return False
    name = loop.target.id
    index_uses: set[int] = set()
    for node in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
        if isinstance(node, ast.Subscript):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            index_uses.update(id(p) for p in parts if isinstance(p, ast.Name) and p.id == name)
    for node in ast.walk(ast.Module(body=loop.body + loop.orelse, type_ignores=[])):
        if isinstance(node, ast.Name) and node.id == name and (
                not isinstance(node.ctx, ast.Load) or id(node) not in index_uses):
            return False
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return False  # a closure could capture the variable: keep it simple
    return True


@rewriter(ast.Expr, ast.Assign, ast.Call, ast.For, ast.While)
def rewrite_loop(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None:
        return None
    if isinstance(node, (ast.For, ast.While)):  # the finding is about the loop itself
        if not any(isinstance(s, ast.stmt) and _grows(src, s) for s in ast.walk(node)):
            return None
        loops: list[ast.AST] = [node]
    else:
        found = src.statement_of(node)
        if isinstance(found, ast.Return) and found.value is not None and any(
                isinstance(n, ast.Call) and call_name(src, n) in GROWING_OPS for n in ast.walk(found.value)):
            return explain(WHILE_LOOP_GROWTH)  # a loop body function returns the grown variable
        if found is None or not _grows(src, found):
            return None
        loops = list(src.ancestors(found))
    grown = src.statement_of(node) if not isinstance(node, (ast.For, ast.While)) else None
    for loop in loops:
        if isinstance(loop, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return None
        if isinstance(loop, ast.For) and grown is not None and _iterates_tensor(src, loop) is not None:
            return _unstack_loops(src, grown, loops)
        if isinstance(loop, ast.While):
            return rewrite_counted_list_loop(src, loop) or _unroll_counted_while(src, loop) or explain(TENSOR_WHILE)
        if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and call_name(src, loop.iter) == "tf.range":
            if loop.iter.keywords:
                return None
            bounds = [_static(src, a) or _int_default_parameter(src, loop, a) for a in loop.iter.args]
            if any(b is None for b in bounds):
                return rewrite_range_list_loop(src, loop) or explain(TENSOR_RANGE)
            reasons = [] if _only_indexes(loop) else [
                "the loop variable becomes a Python int, and it is used other than as an index"]
            return make_fix("Unroll the loop over its static trip count with Python's range() (trace time and "
                            "program size grow with the trip count; fails at trace time if the dimension is "
                            "unknown)",
                            [replace(src, loop.iter, f"range({', '.join(b for b in bounds if b)})")], reasons)
    return None


def _int_default_parameter(src: Source, loop: ast.For, node: ast.AST) -> str | None:
    """``n`` when it is a parameter of the AutoGraph-converted function around ``loop`` whose default
    is an int literal and which the function never rebinds: ``range(n)`` is then the same loop as
    ``tf.range(n)`` for every value a caller may pass. AutoGraph converts ``range`` of a tensor into
    ``tf.range`` (a staged loop, as before), and a Python int, the default or any other, is a Python
    loop it unrolls, as tf.function traces each Python argument value apart."""
    if not isinstance(node, ast.Name):
        return None
    function = src.scope_of(loop)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or _not_converted(function):
        return None
    default = parameter_defaults(function).get(node.id)
    if static_int(src, default) is None or src.stores_in(function).get(node.id):  # type: ignore[arg-type]
        return None
    return node.id


def _unroll_counted_while(src: Source, loop: ast.While) -> Fix | None:
    """``i = i0`` (a Python int) and ``while i < tf.shape(x)[k]:`` with one ``i += 1`` in its body ->
    ``while i < x.shape[k]:``, the ``while`` counterpart of unrolling ``for i in tf.range(...)``.

    AutoGraph stages the loop because its test is a tensor; a tensor grown in the body then changes
    shape per iteration, which XLA rejects. With the bound's static form (:func:`_static`) the test
    is a Python bool, so the loop unrolls while tracing: the body runs for i = i0, i0 + 1, ... while
    ``i < x.shape[k]``, the same iterations as the staged loop (``tf.shape(x)[k]`` is that static
    size), with the same values. Trace time and program size grow with the trip count, and an
    unknown dimension fails at trace time (``i < None``), loudly. Pattern: the counter bound just
    once before the loop in its block, to a Python int (a ``tf.constant`` counter stays a tensor),
    and once in the body, by the increment; no break, continue, return or nested function; nothing
    in the body binds what the bound reads. UNSAFE where the counter, a tensor in the staged loop
    and a Python int once unrolled, is read other than as a subscript index or slice bound
    (:func:`_index_names`) or after the loop, and where the body calls a function other than
    TensorFlow's (traced once staged, run per iteration unrolled)."""
    counted = counted_test(loop)
    if counted is None:
        return None
    counter, bound = counted
    static = _static(src, bound)
    if static is None or static == src.segment(bound):
        return None
    if any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and _not_converted(f) for f in src.ancestors(loop)):
        return None
    bindings = _loop_bindings(ast.Module(body=loop.body, type_ignores=[]))
    if bindings is None or len(bindings.get(counter, ())) != 1 or not any(_is_increment(s, counter) for s in loop.body):
        return None
    if not _bound_kept(src, loop, bound, bindings):
        return None
    block = src.body_containing(loop)
    if block is None:
        return None
    before = block[:block.index(loop)]
    start = _counter_start_before(src, before, counter)
    if start is None or start[1]:
        return None  # a tf.constant counter keeps the test a tensor
    reasons = []
    index_uses = {id(n) for node in ast.walk(ast.Module(body=loop.body, type_ignores=[]))
                  if isinstance(node, ast.Subscript)
                  for p in (node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice])
                  for n in _index_names(p, counter)}
    increment = next(s for s in loop.body if _is_increment(s, counter))
    in_increment = {id(n) for n in ast.walk(increment)}
    if any(isinstance(n, ast.Name) and n.id == counter and id(n) not in index_uses and id(n) not in in_increment
           for s in loop.body for n in ast.walk(s)):
        reasons.append("the counter becomes a Python int, and the body uses it other than as an index")
    end = (loop.end_lineno or loop.lineno, loop.end_col_offset or 0)
    if any(isinstance(n, ast.Name) and n.id == counter and (n.lineno, n.col_offset) > end
           for n in ast.walk(src.scope_of(loop))):
        reasons.append("after the loop the counter is a Python int where it was a tensor")
    other = next((c for s in loop.body if (c := calls_only_tensorflow(src, s)) is not None), None)
    if other is not None:
        reasons.append(f"`{other}` is not a TensorFlow function: its Python side effects ran once while the staged "
                       "loop was traced, and run once per iteration unrolled")
    return make_fix("Unroll the counted loop over its static trip count: compare the counter with the static size "
                    f"`{static}` (trace time and program size grow with the trip count; fails at trace time if the "
                    "dimension is unknown)", [replace(src, bound, static)], reasons)


def _index_names(part: ast.expr, counter: str) -> list[ast.Name]:
    """Reads of ``counter`` in one subscript part that index the same elements whether it is a
    Python int or an int32 scalar tensor: the part itself (``x[i]``), or a slice bound that is
    ``i`` or ``i`` plus or minus an int literal (``x[i:i + 1]``)."""
    if isinstance(part, ast.Name) and part.id == counter:
        return [part]
    if not isinstance(part, ast.Slice):
        return []
    found = []
    for bound in (part.lower, part.upper):
        if isinstance(bound, ast.Name) and bound.id == counter:
            found.append(bound)
        elif isinstance(bound, ast.BinOp) and isinstance(bound.op, (ast.Add, ast.Sub)) \
                and isinstance(bound.left, ast.Name) and bound.left.id == counter \
                and int_literal(bound.right) is not None:
            found.append(bound.left)
    return found


# Calls whose result is already a Python sequence of tensors (iterating it unrolls), or a
# tf.range (its own rewrites above).
_SEQUENCE_CALLS = frozenset({"tf.unstack", "tf.split", "tf.nest.flatten", "tf.meshgrid", "tf.shape_n",
                             "tf.dynamic_partition", "tf.range"})
_PYTHON_ITERABLES = frozenset({"range", "enumerate", "zip", "reversed", "list", "tuple", "sorted", "dict", "set",
                               "iter", "map", "filter"})


def _iterates_tensor(src: Source, loop: ast.For) -> str | None:
    """How ``for t in x`` is known to iterate a tensor: "op" when ``x`` is the result of a
    TensorFlow op (directly, or a name bound once to one), "parameter" when it is a parameter of
    the function (a finding inside the loop says the loop is staged, so it is a tensor unless it
    is a Python list that some enclosing loop stages); None otherwise (a Python sequence, an
    attribute such as ``self.layers``, anything unknown)."""
    it = loop.iter
    if isinstance(it, ast.Name):
        bound = src.local_binding(it.id, it)
        if bound is not None:
            it = bound
        else:
            func = src.function_of(loop)
            if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and it.id not in ("self", "cls") \
                    and it.id in {a.arg for a in [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]} \
                    and not src.stores_in(func).get(it.id):
                return "parameter"
            return None
    if isinstance(it, ast.Call):
        name = call_name(src, it)
        return "op" if name is not None and name not in _SEQUENCE_CALLS else None
    return None


def _unstack_loops(src: Source, grown: ast.stmt, loops: list[ast.AST]) -> Fix | None:
    """``for t in x:`` loops over tensors around a statement that grows a list or a tensor ->
    ``for t in tf.unstack(x):``, every such loop from the statement out to the one whose body
    creates what grows.

    AutoGraph stages a ``for`` over a tensor as a ``tf.while_loop``: a list appended to in its
    body is out of scope (InaccessibleTensorError), and a tensor grown there changes shape per
    iteration, which XLA rejects. ``tf.unstack(x)`` is the Python list of exactly the rows the
    loop iterates, in order, so the loop is unrolled while tracing and every iteration runs as in
    eager execution (same rows, same values, same gradients): SAFE when ``x`` is a TensorFlow
    op's result. Trace time and program size grow with the number of rows, and an unknown first
    dimension fails at trace time, loudly. UNSAFE when ``x`` is only a parameter: a Python list of
    tensors passed there would be packed by tf.unstack first, which raises for items of different
    shapes. Growth inside an ``if`` (or ``with``/``try``) below the innermost loop gets no rewrite
    here: a finding there may be about a tensor branch, whose own rewrite applies; loops above
    such a statement stay as they are."""
    target = _grown_name(grown)
    if target is None:
        return None
    edits, reasons = [], []
    for loop in loops:
        if isinstance(loop, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            break
        if isinstance(loop, (ast.If, ast.With, ast.Try)):
            if not edits:
                return None  # the growth sits in a branch (a tensor `if` is its own finding and fix)
            break
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        if _creates(loop, target, grown):
            break  # what grows is made fresh in each iteration of this loop: it need not unroll
        if isinstance(loop, ast.While) or loop.orelse:
            return None
        kind = _iterates_tensor(src, loop)
        if kind is None:
            if isinstance(loop.iter, ast.Call) and call_name(src, loop.iter) in _SEQUENCE_CALLS - {"tf.range"}:
                continue  # already a Python list of rows
            if isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Name) \
                    and loop.iter.func.id in _PYTHON_ITERABLES:
                continue  # a Python loop around it: not staged
            return None
        if kind == "parameter":
            reasons.append(f"cannot prove `{src.segment(loop.iter)}` is a tensor: if it is a Python list of tensors, "
                           "tf.unstack packs it first, which raises for items of different shapes")
        edits.append(replace(src, loop.iter, f"{src.tf}.unstack({arg(src, loop.iter)})"))
    if not edits:
        return None
    return make_fix("Iterate over tf.unstack(x), the list of its rows, so the loop unrolls while tracing and the "
                    f"`{target}` it grows holds the traced tensors (trace time and program size grow with the "
                    "number of rows; fails at trace time if that number is unknown)", edits, reasons)


def _grown_name(stmt: ast.stmt) -> str | None:
    """The list appended to (``xs.append(v)``) or the tensor grown (``x = tf.concat([x, v])``)."""
    call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    if isinstance(stmt, ast.Expr) and isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
            and isinstance(call.func.value, ast.Name):
        return call.func.value.id
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    return None


def _creates(loop: ast.For | ast.While, name: str, grown: ast.stmt) -> bool:
    """The loop's body binds ``name`` other than by the growing statement itself."""
    for sub in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
        if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Store) \
                and not any(sub is t for t in getattr(grown, "targets", [])):
            return True
    return False


def carried_names(src: Source, loop: ast.For | ast.While) -> list[str] | None:
    """The names a loop body of assignments assigns (``x = ...`` or ``x op= ...`` at its top level),
    in order, all bound before the loop: what a ``tf.while_loop``/``jax.lax`` loop carries. None for
    any other statement (a call for its effect, a nested block) or a name unbound before."""
    names: list[str] = []
    for stmt in loop.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            name = stmt.target.id
        else:
            return None
        if name not in names:
            names.append(name)
    if not names or not all(src.bound_before(n, loop) for n in names):
        return None
    return names


def counted_test(loop: ast.While) -> tuple[str, ast.expr] | None:
    """``while i < N:`` / ``while N > i:`` without ``else``: (the counter's name, N)."""
    if loop.orelse:
        return None
    match loop.test:
        case ast.Compare(left=ast.Name(id=counter), ops=[ast.Lt()], comparators=[bound]):
            return counter, bound
        case ast.Compare(left=bound, ops=[ast.Gt()], comparators=[ast.Name(id=counter)]):
            return counter, bound
    return None


@rewriter(ast.While, ast.expr)
def rewrite_while(src: Source, node: ast.AST) -> Fix | None:
    """``while c: x = f(x)`` (only assignments in the body) -> ``tf.while_loop``.

    Where AutoGraph does not convert the loop (``autograph=False``, ``do_not_convert``), a
    tensor condition fails while tracing. ``tf.while_loop(cond, body, loop_vars)`` runs the same
    assignments in the same order while the condition holds, over the names the body assigns;
    names it only reads are closed over. Values and gradients are those of the original; XLA
    rejects (loudly) loop variables whose shape or dtype changes between iterations, and, to
    differentiate through the loop under XLA, needs ``maximum_iterations`` (a loud compile
    error otherwise: add the bound you know). UNSAFE when the body calls a non-TensorFlow
    function: its Python side effects run once, while tracing."""
    if src.tf is None:
        return None
    loop = node if isinstance(node, ast.While) else src.parents.get(node)
    if not isinstance(loop, ast.While) or loop.orelse or (node is not loop and node is not loop.test):
        return None
    if sequence_equality(loop.test):
        return None
    names = carried_names(src, loop)
    if names is None or not src.alone_on_lines(loop, loop):
        return None
    reasons: list[str] = []
    cond = bool_condition(src, loop.test, reasons)
    for stmt in loop.body:
        callee = calls_only_tensorflow(src, stmt)
        if callee is not None:
            reasons.append(f"Python side effects of `{callee}` run once, while tracing, not once per iteration")
            break
    indent = src.indent_of(loop)
    inner = src.indent_of(loop.body[0])
    body_fn = src.fresh_name("loop_body")
    params = ", ".join(names)
    packed = f"({params},)" if len(names) == 1 else f"({params})"
    header_end = loop.test.end_lineno or loop.lineno
    last = loop.body[-1].end_lineno or loop.body[-1].lineno
    lines = [*(f"{indent}{c}\n" for c in src.comments_in(loop.lineno, header_end)),
             f"{indent}def {body_fn}({params}):\n",
             *src.lines[header_end:last],  # the body as written, comments included
             f"{inner}return {packed}\n",
             f"{indent}{packed} = {src.tf}.while_loop(lambda {params}: {cond}, {body_fn}, {packed})\n"]
    return make_fix("Loop with tf.while_loop over the names the body assigns",
                    [replace_lines(loop.lineno, last, "".join(lines))], reasons)


@rewriter(ast.Call)
def rewrite_tensorarray_size(src: Source, node: ast.AST) -> Fix | None:
    """``ta = tf.TensorArray(dtype, size=0, dynamic_size=True)`` (or a truthy int, which tracing
    rejects) filled once per iteration at the iteration's index -> ``size=<trip count>``.

    The loops whose trip count is known where the TensorArray is made:

    * ``ta = ta.write(i, v)`` directly in the body of ``for i in tf.range(n)`` / ``range(n)``:
      ``size=n``; of ``for i, x in enumerate(seq)``: ``size=len(seq)``;
    * ``tf.while_loop(lambda i, ...: i < N, body, (i0, ..., ta, ...))`` with ``i0`` the literal 0
      (or ``tf.constant(0)``), ``body`` a function defined in the same scope whose one
      ``return`` gives ``i + 1`` for the counter and ``ta.write(i, v)`` for the TensorArray, and
      no ``maximum_iterations``: ``size=tf.maximum(N, 0)`` (``size=N`` for a literal N >= 0).
      ``N`` is written where the TensorArray is made: as is when its names are bound there,
      else a name's single binding (``seq_len = tf.shape(x)[0]``) is written in its place;
    * a Python ``while i < N:`` that AutoGraph converts, with ``ta = ta.write(i, v)`` and then
      ``i += 1`` at the top level of its body, ``i`` starting at 0 (``i = 0`` with a provably int32
      ``N``, or ``tf.constant(0)``) in the loop's block after the TensorArray is made, and nothing
      else in the body binding ``i``, ``ta`` or what ``N`` reads (no break, continue, return or
      nested function; :func:`_python_while_size`): the same ``size`` as for ``tf.while_loop``.

    Under XLA a dynamically sized TensorArray stacked to an empty tensor (a silent wrong result).
    The loop writes indices 0..n-1 exactly once, so a TensorArray of static size n holds the same
    elements in the same places as the grown one: SAFE. ``n`` must be evaluable where the
    TensorArray is created (its names unchanged in between), and nothing else in the function
    may write, scatter or unstack into a TensorArray (it could write past ``n``)."""
    if src.tf is None or not isinstance(node, ast.Call) or call_name(src, node) != "tf.TensorArray":
        return None
    dynamic = next((k.value for k in node.keywords if k.arg == "dynamic_size"), None)
    if not (isinstance(dynamic, ast.Constant) and type(dynamic.value) in (bool, int) and dynamic.value):
        return None
    size = next((k.value for k in node.keywords if k.arg == "size"), None)
    if len(node.args) > 1 or (size is not None and number_value(size) != 0) or not (
            node.args or any(k.arg == "dtype" for k in node.keywords)):
        return None
    assign = src.parents.get(node)
    if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name)):
        return None
    ta = assign.targets[0].id
    scope = src.scope_of(assign)
    filled = [c for c in ast.walk(scope) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
              and c.func.attr in ("write", "scatter", "unstack", "split")]
    bound = _for_loop_size(src, assign, ta, filled) or _while_loop_size(src, assign, ta, scope, filled) \
        or _python_while_size(src, assign, ta, filled)
    if bound is None:
        return None
    kept = [*(src.segment(a) for a in node.args), f"size={bound}", *(
        f"{k.arg}={src.segment(k.value)}" for k in node.keywords if k.arg not in ("size", "dynamic_size"))]
    text = f"{src.segment(node.func)}({', '.join(kept)})"
    return make_fix("Give the TensorArray the loop's static trip count as its size", [replace(src, node, text)])


def _unchanged_between(src: Source, scope: ast.AST, names: set[str], start: ast.AST, stop: ast.AST) -> bool:
    """No binding of ``names`` from ``start`` up to ``stop`` (source order, in ``scope``)."""
    begin, end = (start.lineno, start.col_offset), (stop.lineno, stop.col_offset)  # type: ignore[attr-defined]
    return not any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in names
                   and begin <= (n.lineno, n.col_offset) < end for n in ast.walk(scope))


def _for_loop_size(src: Source, assign: ast.Assign, ta: str, filled: list[ast.Call]) -> str | None:
    """The trip count of the ``for`` loop whose body writes ``ta`` at its index, as code."""
    writes = [c for c in filled if isinstance(c.func.value, ast.Name) and c.func.value.id == ta]  # type: ignore[attr-defined]
    if len(writes) != 1 or len(filled) != 1 or writes[0].func.attr != "write":  # type: ignore[attr-defined]
        return None
    stmt = src.statement_of(writes[0])
    loop = src.parents.get(stmt) if stmt is not None else None
    if not (isinstance(loop, ast.For) and stmt in loop.body and isinstance(loop.iter, ast.Call)
            and len(loop.iter.args) == 1 and not loop.iter.keywords and not loop.orelse):
        return None
    index = writes[0].args[0] if writes[0].args else None
    target = loop.target
    iterated = loop.iter.args[0]
    if call_name(src, loop.iter) == "tf.range" or (
            isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "range"):
        bound = src.segment(iterated)
    elif isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "enumerate" and isinstance(target, ast.Tuple) \
            and len(target.elts) == 2:
        target, bound = target.elts[0], f"len({src.segment(iterated)})"
    else:
        return None
    if not (isinstance(index, ast.Name) and isinstance(target, ast.Name) and index.id == target.id):
        return None
    if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == target.id
           for s in loop.body for n in ast.walk(s)):
        return None  # the index rebound in the body
    reads = {n.id for n in ast.walk(iterated) if isinstance(n, ast.Name)}
    if not _unchanged_between(src, src.scope_of(assign), reads, assign, loop):
        return None
    return bound


def _while_loop_size(src: Source, assign: ast.Assign, ta: str, scope: ast.AST, filled: list[ast.Call]) -> str | None:
    """The trip count of the counted ``tf.while_loop`` that carries ``ta`` and writes it at its
    counter (see :func:`rewrite_tensorarray_size`), as code valid where ``ta`` is made."""
    loops = [c for c in ast.walk(scope) if isinstance(c, ast.Call) and call_name(src, c) == "tf.while_loop"]
    found = []
    for call in loops:
        loop_vars = argument(call, 2, "loop_vars")
        if isinstance(loop_vars, (ast.Tuple, ast.List)):
            at = [k for k, e in enumerate(loop_vars.elts) if isinstance(e, ast.Name) and e.id == ta]
            if at:
                found.append((call, loop_vars, at))
    if len(found) != 1 or len(found[0][2]) != 1:
        return None
    call, loop_vars, (position,) = found[0]
    if position == 0 or any(k.arg == "maximum_iterations" for k in call.keywords) or len(call.args) > 3:
        return None
    start = counter_start(src, loop_vars.elts[0])
    if start is None or start[0] != 0:
        return None
    cond, body = argument(call, 0, "cond"), argument(call, 1, "body")
    width = len(loop_vars.elts)
    match cond:
        case ast.Lambda(args=ast.arguments(posonlyargs=[], args=params, vararg=None, kwonlyargs=[], kwarg=None,
                                           defaults=[]),
                        body=ast.Compare(left=ast.Name(id=counter), ops=[ast.Lt()], comparators=[limit])):
            if len(params) != width or params[0].arg != counter or any(
                    isinstance(n, ast.Name) and n.id in {p.arg for p in params} for n in ast.walk(limit)):
                return None
        case _:
            return None
    if not _counted_body_writes(src, scope, body, width, position, filled):
        return None
    if not _pure_bound(src, limit):
        return None
    text = _available_at(src, limit, assign, call)
    if text is None:
        return None
    literal = static_int(src, limit)
    return text if literal is not None and literal >= 0 else f"{src.tf}.maximum({text}, 0)"


def _python_while_size(src: Source, assign: ast.Assign, ta: str, filled: list[ast.Call]) -> str | None:
    """The trip count of the counted Python ``while`` whose body writes ``ta`` at its counter (see
    :func:`rewrite_tensorarray_size`), as code valid where ``ta`` is made. The iteration that
    starts with ``i == k`` writes index k (the write runs before the increment), for k from 0 while
    ``k < N``: indices 0..max(N, 0)-1, once each."""
    if len(filled) != 1 or filled[0].func.attr != "write" or not (  # type: ignore[attr-defined]
            isinstance(filled[0].func.value, ast.Name) and filled[0].func.value.id == ta):  # type: ignore[attr-defined]
        return None
    write = filled[0]
    stmt = src.parents.get(write)
    loop = src.parents.get(stmt) if stmt is not None else None
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == ta and isinstance(loop, ast.While) and stmt in loop.body and not loop.orelse):
        return None
    counted = counted_test(loop)
    if counted is None:
        return None
    counter, bound = counted
    if any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and _not_converted(f) for f in src.ancestors(loop)):
        return None  # a Python loop on a tensor: XLA101's case
    if not (len(write.args) == 2 and isinstance(write.args[0], ast.Name) and write.args[0].id == counter):
        return None
    increments = [k for k, s in enumerate(loop.body) if _is_increment(s, counter)]
    if len(increments) != 1 or increments[0] < loop.body.index(stmt):
        return None
    bindings = _loop_bindings(ast.Module(body=loop.body, type_ignores=[]))
    if bindings is None or len(bindings.get(counter, ())) != 1 or len(bindings.get(ta, ())) != 1:
        return None
    if not _pure_bound(src, bound) or not _bound_kept(src, loop, bound, bindings) or ta in {
            n.id for n in ast.walk(bound) if isinstance(n, ast.Name)}:
        return None
    block = src.body_containing(loop)
    if block is None or assign not in block:
        return None
    before = block[block.index(assign) + 1:block.index(loop)] if block.index(assign) < block.index(loop) else None
    if before is None or _last_store(before, ta) is not None:
        return None
    start = _counter_start_before(src, before, counter)
    if start is None or start[0] != 0 or (not start[1] and not _int32_count(src, bound)):
        return None  # a Python-int counter compares in N's dtype: a float N would run ceil(N) times
    text = _available_at(src, bound, assign, loop)  # type: ignore[arg-type]
    if text is None:
        return None
    literal = static_int(src, bound)
    return text if literal is not None and literal >= 0 else f"{src.tf}.maximum({text}, 0)"


def _bound_kept(src: Source, loop: ast.While, bound: ast.expr, bindings: dict[str, list[ast.Name]]) -> bool:
    """Nothing in the loop's body changes what ``bound`` reads: no binding of its names, no store
    to its attributes, no ``N.assign(...)`` / ``tf.compat.v1.assign(N, ...)`` of a variable."""
    bound_names = {n.id for n in ast.walk(bound) if isinstance(n, ast.Name)}
    if bound_names & set(bindings):
        return False
    attributes = {src.segment(n) for n in ast.walk(bound) if isinstance(n, ast.Attribute)}
    for node in (n for s in loop.body for n in ast.walk(s)):
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) and src.segment(node) in attributes:
            return False
        if isinstance(node, ast.Call) and "assign" in (dotted(node.func) or "").rpartition(".")[2] and {
                n.id for n in ast.walk(node) if isinstance(n, ast.Name)} & bound_names:
            return False
    return True


def _counted_body_writes(src: Source, scope: ast.AST, body: ast.AST | None, width: int, position: int,
                         filled: list[ast.Call]) -> bool:
    """``body`` names a function defined once in ``scope`` with ``width`` plain parameters,
    whose one ``return`` (its last statement) gives ``p0 + 1`` first and ``pK.write(p0, v)`` at
    ``position``, the only write of the function, with ``p0`` and ``pK`` never rebound."""
    if not isinstance(body, ast.Name):
        return False
    defs = [d for d in ast.walk(scope) if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and d.name == body.id]
    if len(defs) != 1 or src.scope_of(defs[0]) is not scope:
        return False
    fn = defs[0]
    args = fn.args
    if args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults or len(args.args) != width:
        return False
    params = [a.arg for a in args.args]
    counter, carried = params[0], params[position]
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    if len(returns) != 1 or fn.body[-1] is not returns[0] or not isinstance(returns[0].value, (ast.Tuple, ast.List)):
        return False
    values = returns[0].value.elts
    if len(values) != width or not _is_increment(ast.Assign([ast.Name(counter, ast.Store())], values[0]), counter):
        return False
    write = values[position]
    if isinstance(write, ast.Name):  # bound once in the body to the write
        bindings = [s for s in fn.body if isinstance(s, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == write.id for t in s.targets)]
        write = bindings[0].value if len(bindings) == 1 and len(bindings[0].targets) == 1 else None
    if not (isinstance(write, ast.Call) and isinstance(write.func, ast.Attribute) and write.func.attr == "write"
            and isinstance(write.func.value, ast.Name) and write.func.value.id == carried and len(write.args) == 2
            and isinstance(write.args[0], ast.Name) and write.args[0].id == counter):
        return False
    if [c for c in filled] != [write]:  # the function's (and scope's) only write
        return False
    return not any(isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id in (counter, carried)
                   for n in ast.walk(fn) if n not in args.args)


def _available_at(src: Source, limit: ast.expr, assign: ast.Assign, loop: ast.Call) -> str | None:
    """``limit`` as code with the same value where ``assign`` runs: as written when no name it
    reads is bound from there to the loop (and each is bound before), else a name's single
    binding before the loop, written in its place."""
    scope = src.scope_of(assign)
    local = src.stores_in(scope)

    def ready(names: set[str]) -> bool:  # local names bound before `assign` (others are globals)
        return all(n not in local or src.bound_before(n, assign) for n in names)

    reads = {n.id for n in ast.walk(limit) if isinstance(n, ast.Name)}
    if ready(reads) and _unchanged_between(src, scope, reads, assign, loop):
        return src.segment(limit)
    if isinstance(limit, ast.Name):
        value = src.local_binding(limit.id, loop)  # read in a lambda: bound in the scope around the loop
        if value is None or not _pure_bound(src, value):
            return None
        inner = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
        binding = src.statement_of(value)
        if binding is None or not _unchanged_between(src, scope, {limit.id}, value, loop) or not (
                ready(inner) and _unchanged_between(src, scope, inner, assign, loop)):
            return None
        return src.segment(value)
    return None


# -- a counted `while` that fills a Python list -> tf.TensorArray ------------------------------------
# Built-in Keras layers whose call has no Python side effect but building (once: on the first eager
# call, or while tracing): calling them once per trace or once per iteration is the same.
_PURE_KERAS_LAYERS = frozenset(f"tf.keras.layers.{n}" for n in (
    "Dense", "Embedding", "LayerNormalization", "Conv1D", "Conv2D", "Activation", "Flatten", "Reshape"))


def _is_increment(stmt: ast.stmt, counter: str) -> bool:
    """``i += 1`` or ``i = i + 1``."""
    if isinstance(stmt, ast.AugAssign):
        return (isinstance(stmt.target, ast.Name) and stmt.target.id == counter and isinstance(stmt.op, ast.Add)
                and int_literal(stmt.value) == 1)
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
            and stmt.targets[0].id == counter and isinstance(stmt.value, ast.BinOp) \
            and isinstance(stmt.value.op, ast.Add):
        operands = (stmt.value.left, stmt.value.right)
        return any(isinstance(a, ast.Name) and a.id == counter and int_literal(b) == 1
                   for a, b in (operands, operands[::-1]))
    return False


def _int32_count(src: Source, node: ast.AST) -> bool:
    """``tf.shape(x)[k]`` or ``tf.size(x)``: an int32 scalar tensor."""
    if isinstance(node, ast.Subscript) and int_literal(node.slice) is not None:
        return isinstance(node.value, ast.Call) and call_name(src, node.value) == "tf.shape" and \
            len(node.value.args) == 1 and not node.value.keywords
    return isinstance(node, ast.Call) and call_name(src, node) == "tf.size" and len(node.args) == 1 \
        and not node.keywords


def _pure_bound(src: Source, node: ast.AST) -> bool:
    """The loop bound reads names only (no call with side effects): evaluating it once more, just
    before the loop, gives the value the loop's first test sees."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.Attribute):
        return _pure_bound(src, node.value)
    if _int32_count(src, node):
        inner = node.value if isinstance(node, ast.Subscript) else node
        return isinstance(inner.args[0], ast.Name)  # type: ignore[attr-defined]
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
        node.value.attr == "shape" and isinstance(node.value.value, ast.Name) and int_literal(node.slice) is not None


def _keras_layer_attributes(src: Source, loop: ast.While) -> set[str]:
    """Attributes ``self.X`` that the enclosing class assigns exactly once, to a built-in Keras
    layer from _PURE_KERAS_LAYERS built without an activity regularizer (which adds a loss per call)."""
    cls = next((a for a in src.ancestors(loop) if isinstance(a, ast.ClassDef)), None)
    if cls is None:
        return set()
    assigned: dict[str, list[ast.expr]] = {}
    for node in ast.walk(cls):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                assigned.setdefault(target.attr, []).append(node.value if isinstance(node, ast.Assign) else target)
    return {name for name, values in assigned.items() if len(values) == 1 and isinstance(values[0], ast.Call)
            and call_name(src, values[0]) in _PURE_KERAS_LAYERS and not has_kw(values[0], "activity_regularizer")}


def _not_converted(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated with ``tf.function(autograph=False)`` or ``do_not_convert``."""
    for decorator in function.decorator_list:
        if "do_not_convert" in ast.unparse(decorator):
            return True
        if isinstance(decorator, ast.Call) and any(
                k.arg == "autograph" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in decorator.keywords):
            return True
    return False


def _last_store(block: list[ast.stmt], name: str) -> int | None:
    """Index of the last statement in ``block`` that binds ``name`` anywhere inside it."""
    found = None
    for k, stmt in enumerate(block):
        if any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in ast.walk(stmt)):
            found = k
    return found



def _counter_start_before(src: Source, before: list[ast.stmt], counter: str) -> tuple[int, bool] | None:
    """The start of ``counter`` set by its last plain ``counter = ...`` among ``before`` (the
    statements ahead of the loop), as :func:`counter_start` reads it; None without one."""
    at = _last_store(before, counter)
    start_at = before[at] if at is not None else None
    if not (isinstance(start_at, ast.Assign) and len(start_at.targets) == 1
            and isinstance(start_at.targets[0], ast.Name)):
        return None
    return counter_start(src, start_at.value)

def _reads(stmts: list[ast.stmt], name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for s in stmts for n in ast.walk(s))


def rewrite_counted_list_loop(src: Source, loop: ast.While) -> Fix | None:
    """``L = []``, ``i = tf.constant(i0)``, ``while i < N:`` with one ``L.append(v)`` and one
    ``i += 1`` in its body, then ``tf.stack(L, axis=k)`` -> a ``tf.TensorArray`` of the loop's
    trip count; an explanation (a display-only :class:`Fix`, no edits) where the loop counts
    but the rewrite is not certain.

    Pattern, in AutoGraph-converted code (anything else keeps the general explanation; a value
    whose dtype is not certain gets a specific one): ``L = []`` and the counter bound before
    the loop in its block, nothing rebinding them in between; in the body, at top level, exactly
    one ``L.append(v)`` and one ``i += 1`` / ``i = i + 1``, no other binding of ``i`` or ``L``, no
    other use of ``L``, no break/continue/return/yield, no nested function; after the loop ``L``
    is read once, as ``tf.stack(L)`` / ``tf.stack(L, axis=k)`` with a literal k.

    The rewrite::

        num_steps = tf.reshape(tf.maximum(N, i) - i, [])   # just before the loop (`L = []` goes)
        L = tf.TensorArray(D, size=num_steps)               # below the comments of `L = []`
        while i < N:
            tf.autograph.experimental.set_loop_options(maximum_iterations=num_steps)
            ...
            L = L.write(i - i0, v)                          # i - (i0 + 1) after the increment
        ... L.stack() ...                                   # moveaxis(L.stack(), 0, k) for k != 0

    Equivalence (each step checked by running TensorFlow 2.21):

    * Trip count. With ``i = tf.constant(i0)`` (int32), ``i < N`` converts N to int32 exactly as
      ``tf.maximum(N, i)`` does (the same op conversion: numpy floats truncate, Python ints wrap,
      any other tensor dtype raises in the original), so the loop runs ``max(N, i0) - i0`` times:
      no overflow for i0 >= 0, zero when N <= i0 (NaN converts to INT_MIN: zero, as the
      original). A one-element N of rank 1 passes ``bool()`` in the original; ``tf.reshape(.., [])``
      makes the size a scalar for it. With a Python-int counter, ``i < N`` compares in N's dtype
      (a float N runs ceil(N - i0) times), so N must be provably int32 (``tf.shape(x)[k]``,
      ``tf.size(x)``). N is evaluated once more, just before the loop: it must read names only,
      which the body does not rebind or ``.assign``.
    * Elements. The iteration with counter value i writes index i - i0 (the append runs before
      the increment; i - i0 - 1 after it): indices 0..n-1, once each, in the order of the appends,
      so ``L.stack()`` equals ``tf.stack(list)``. Elements of different shapes make the original's
      ``tf.stack`` raise (unconstrained).
    * dtype. ``TensorArray.write`` raises on a dtype mismatch where ``tf.stack`` would not, so D
      must be certain: it is inferred only from the appended value's own binding in the body
      (``tf.argmax(output_type=)``, ``tf.cast``, ``tf.one_hot``, comparisons, ...), or as the dtype
      of a tensor ``x`` read in the body and not bound there that the value is computed from by
      dtype-keeping ops (:func:`dtype_of_source`: ``h = tf.tanh(h + x[i])``), written ``x.dtype``;
      otherwise the loop gets an explanation.
    * Axis. ``tf.stack(L, axis=k)`` inserts the new axis at k (negative k counted from the end of
      the result); ``tf.experimental.numpy.moveaxis(L.stack(), 0, k)`` moves it there, and
      compiles under XLA.
    * Zero iterations. ``tf.stack([], axis=k)`` raises IndexError for k != 0 (unconstrained); for
      k == 0 it returns an empty float32 vector, which the TensorArray (dtype D, element shape)
      does not reproduce: SAFE only when N and i0 are literals with N > i0, else UNSAFE.
    * Gradients. The body runs as before; under XLA, differentiating a while loop needs
      ``maximum_iterations``, which ``set_loop_options`` gives as the exact trip count (a no-op
      eagerly). The values written are differentiable like the appended ones.
    * Side effects. Eagerly the fixed loop runs the body as often as the original. Inside
      tf.function, AutoGraph traces the body once: calls other than TensorFlow functions and
      built-in Keras layers (whose only Python side effect, building, happens once either way)
      make the fix UNSAFE.
    * XLA needs the TensorArray's size at compile time: with a tensor N the function compiles
      once per value of N (value-specialized), with a literal N once.
    """
    tf = src.tf
    block = src.body_containing(loop)
    if tf is None or block is None:
        return None
    counted = _counted_append_loop(src, loop)
    if counted is None:
        return None
    here = next(k for k, s in enumerate(block) if s is loop)
    before = _list_and_counter_before(src, counted, block[:here])
    if before is None:
        return None
    made, i0 = before
    after = _stacked_after(src, loop, counted, block[here + 1:])
    if after is None:
        return None
    stack, axis, axis_node = after
    resolve = _body_resolver(loop, _body_bindings(loop, counted.bindings))
    dtype = certain_dtype(src, counted.value, resolve)
    # the TensorArray needs the exact dtype: a name, or a tensor read in the body (not bound there)
    # whose dtype the value certainly has (see rewrite_range_list_loop)
    source = None if dtype in DTYPES else dtype_of_source(src, counted.value, resolve,
                                                          set(counted.bindings) | {counted.counter})
    dtype_text = f"{tf}.{dtype}" if dtype in DTYPES else source
    if dtype_text is None:
        return explain(
            f"This `while` counts with `{counted.counter}`, so `{counted.name}` could be a tf.TensorArray(DTYPE, "
            f"size=tf.maximum({src.segment(counted.bound)}, {counted.counter}) - {counted.counter}) written at the "
            f"iteration index and stacked with .stack(); it is not rewritten automatically because the dtype of "
            f"`{src.segment(counted.value)}` is not certain (TensorArray.write raises on a mismatch). Bind the "
            "appended value with an explicit dtype (tf.cast(..., tf.float32), tf.argmax(..., "
            "output_type=tf.int32)) to get the fix.")
    append = counted.append
    if not (src.alone_on_lines(made, made) and src.alone_on_lines(append, append) and src.alone_on_lines(loop, loop)
            and loop.body[0].lineno > loop.test.end_lineno):
        return None
    return _tensorarray_fix(src, tf, loop, counted, made, i0, stack, axis, axis_node, dtype_text)


@dataclass(frozen=True)
class _CountedAppendLoop:
    """The body of ``while i < N:`` that appends once to a list ``name`` and counts ``i`` once."""

    counter: str
    bound: ast.expr
    name: str  # the list appended to
    value: ast.expr  # what is appended
    append: ast.Expr
    append_first: bool  # the append runs before the increment
    bindings: dict[str, list[ast.Name]]  # names the body binds


# Nodes that make a loop body more than straight-line code over its own names.
_LOOP_ESCAPES = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal,
                 ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _loop_bindings(body: ast.Module) -> dict[str, list[ast.Name]] | None:
    """The names a loop body binds, with their binding nodes; None when the body jumps out,
    yields, declares a name global/nonlocal or defines a function or class."""
    bindings: dict[str, list[ast.Name]] = {}
    for node in ast.walk(body):
        if isinstance(node, _LOOP_ESCAPES):
            return None
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bindings.setdefault(node.id, []).append(node)
    return bindings


def _counted_append_loop(src: Source, loop: ast.While) -> _CountedAppendLoop | None:
    """The loop's counter, bound and single append, when nothing else in the body could change
    the trip count or the list (no other binding of either, no jumps, no nested functions, a
    bound that reads names only and that the body does not rebind or assign)."""
    counted = counted_test(loop)
    if counted is None:
        return None
    counter, bound = counted
    if any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and _not_converted(f) for f in src.ancestors(loop)):
        return None  # without AutoGraph the `while` stays a Python loop on a tensor: tf.while_loop's case
    appends = [k for k, s in enumerate(loop.body) if _appends_one_value(s)]
    increments = [k for k, s in enumerate(loop.body) if _is_increment(s, counter)]
    if len(appends) != 1 or len(increments) != 1:
        return None
    append = loop.body[appends[0]]
    call = append.value  # type: ignore[attr-defined]
    name = call.func.value.id
    if name == counter:
        return None
    body = ast.Module(body=loop.body, type_ignores=[])
    bound_names = {n.id for n in ast.walk(bound) if isinstance(n, ast.Name)}
    bindings = _loop_bindings(body)
    if bindings is None:
        return None
    if not _bound_kept(src, loop, bound, bindings):
        return None  # `N.assign(...)`, `tf.compat.v1.assign(N, ...)`: a variable bound that changes
    if len(bindings.get(counter, ())) != 1 or name in bindings:
        return None
    if sum(isinstance(n, ast.Name) and n.id == name for n in ast.walk(body)) != 1:
        return None
    if not _pure_bound(src, bound) or name in bound_names or counter in bound_names:
        return None
    return _CountedAppendLoop(counter, bound, name, call.args[0], append,  # type: ignore[arg-type]
                              appends[0] < increments[0], bindings)


def _appends_one_value(stmt: ast.stmt) -> bool:
    """``name.append(value)`` as a statement."""
    match stmt:
        case ast.Expr(value=ast.Call(func=ast.Attribute(value=ast.Name(), attr="append"), args=[_], keywords=[])):
            return True
    return False


def _list_and_counter_before(src: Source, counted: _CountedAppendLoop,
                             before: list[ast.stmt]) -> tuple[ast.Assign, int] | None:
    """``L = []`` (unread until the loop) and the counter's start ``i0`` before the loop in its
    block; a Python-int counter only with a provably int32 bound."""
    list_at, counter_at = _last_store(before, counted.name), _last_store(before, counted.counter)
    if list_at is None or counter_at is None:
        return None
    made = before[list_at]
    if not (isinstance(made, ast.Assign) and len(made.targets) == 1 and isinstance(made.targets[0], ast.Name)
            and isinstance(made.value, ast.List) and not made.value.elts) or _reads(before[list_at + 1:], counted.name):
        return None
    start_at = before[counter_at]
    start = counter_start(src, start_at.value) if isinstance(start_at, ast.Assign) and len(start_at.targets) == 1 \
        and isinstance(start_at.targets[0], ast.Name) else None
    if start is None:
        return None
    i0, tensor_counter = start
    if not tensor_counter and not _int32_count(src, counted.bound):
        return None  # a Python-int counter compares in N's dtype: a float N would run ceil(N - i0) times
    return made, i0


def _stacked_after(src: Source, loop: ast.While, counted: _CountedAppendLoop,
                   later_block: list[ast.stmt]) -> tuple[ast.Call, int, ast.expr | None] | None:
    """The list's one read after the loop, ``tf.stack(L[, axis=k])`` with a literal k, in a later
    statement of the loop's block: (the call, k, the axis node)."""
    name, counter = counted.name, counted.counter
    scope = src.scope_of(loop)
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) and {name, counter} & set(n.names) for n in ast.walk(scope)):
        return None
    reads = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Store)]
    later = [n for n in reads if n is not counted.append.value.func.value]  # type: ignore[attr-defined]
    if len(later) != 1 or not isinstance(later[0].ctx, ast.Load):
        return None
    stack = src.parents.get(later[0])
    if not (isinstance(stack, ast.Call) and call_name(src, stack) == "tf.stack" and stack.args
            and stack.args[0] is later[0] and len(stack.args) <= 2 and {k.arg for k in stack.keywords} <= {"axis"}
            and src.scope_of(stack) is scope):
        return None
    axis_node = argument(stack, 1, "axis")
    axis = 0 if axis_node is None else number_value(axis_node)
    if type(axis) is not int:
        return None
    after = (loop.end_lineno, loop.end_col_offset)
    if not any(s is src.statement_of(stack) or any(a is s for a in src.ancestors(stack)) for s in later_block):
        return None
    if any(isinstance(n, ast.Name) and n.id == name and after <= (n.lineno, n.col_offset) < (
            stack.lineno, stack.col_offset) for n in ast.walk(scope)):
        return None
    return stack, axis, axis_node


def _traced_once_reasons(src: Source, loop: ast.While, body: ast.AST, call: ast.AST) -> list[str]:
    """Why the staged loop may differ: a call in ``body`` (other than ``call``, the append) that is
    neither a framework op nor a Keras layer of ``self`` has Python side effects that a traced body
    runs once, not once per iteration."""
    layers = _keras_layer_attributes(src, loop)
    for node in ast.walk(body):
        if isinstance(node, ast.Call) and node is not call and call_name(src, node) is None and not (
                isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "self" and node.func.attr in layers):
            return [f"inside tf.function the body is traced once: Python side effects of "
                    f"`{src.segment(node.func)}` run once, not once per iteration"]
    return []


def _tensorarray_fix(src: Source, tf: str, loop: ast.While, counted: _CountedAppendLoop, made: ast.Assign, i0: int,
                     stack: ast.Call, axis: int, axis_node: ast.expr | None, dtype_text: str) -> Fix:
    """The edits (see :func:`rewrite_counted_list_loop`) and the reasons the fix may be unsafe."""
    name, counter, bound, append = counted.name, counted.counter, counted.bound, counted.append
    call = append.value
    body = ast.Module(body=loop.body, type_ignores=[])
    reasons = _traced_once_reasons(src, loop, body, call)
    static_bound = static_int(src, bound)  # a literal or a module constant
    if axis == 0 and not (static_bound is not None and static_bound > i0):
        reasons.append("when the loop runs zero times the original returns tf.stack([]), an empty float32 "
                       f"vector, and the fix an empty TensorArray stack of dtype {dtype_text}")
    indent, inner = src.indent_of(loop), src.indent_of(loop.body[0])
    steps = src.fresh_name("num_steps")
    bound_text = src.segment(bound)
    if counted.append_first:
        index = counter if i0 == 0 else f"{counter} - {i0}"
    else:
        index = f"{counter} - {i0 + 1}"
    stacked = f"{name}.stack()" if axis == 0 else \
        f"{tf}.experimental.numpy.moveaxis({name}.stack(), 0, {src.segment(axis_node)})"  # type: ignore[arg-type]
    tail = src.lines[append.end_lineno - 1][src.end(append).col:].rstrip("\n")  # type: ignore[operator]
    edits = [
        replace_lines(made.lineno, made.end_lineno, ""),  # type: ignore[arg-type]
        Edit(Location(loop.lineno, 0), Location(loop.lineno, 0),
             f"{indent}{steps} = {tf}.reshape({tf}.maximum({bound_text}, {counter}) - {counter}, [])\n"
             + "".join(f"{indent}{c}\n" for c in src.comments_in(made.lineno, made.end_lineno))  # about the list
             + f"{indent}{name} = {tf}.TensorArray({dtype_text}, size={steps})\n"),
        Edit(Location(loop.body[0].lineno, 0), Location(loop.body[0].lineno, 0),
             f"{inner}{tf}.autograph.experimental.set_loop_options(maximum_iterations={steps})\n"),
        replace_lines(append.lineno, append.end_lineno,  # type: ignore[arg-type]
                      f"{inner}{name} = {name}.write({index}, {arg(src, counted.value)}){tail}\n"),
        replace(src, stack, stacked),
    ]
    if static_bound is not None:
        compiles = "compiles once"
    elif _int32_count(src, bound) or isinstance(bound, ast.Subscript):
        compiles = "compiles once per input shape"
    else:
        compiles = (f"compiles once per value of `{bound_text}`, the TensorArray's size: value-specialized, "
                    "as the result's shape is that value")
    trips = f"max({bound_text} - {i0}, 0)" if i0 else f"max({bound_text}, 0)"
    return make_fix(f"Collect `{name}` in a tf.TensorArray({dtype_text}) sized to the loop's trip count, {trips} "
                    f"(under XLA the function {compiles})", edits, reasons)


def _body_bindings(loop: ast.While, bindings: dict[str, list[ast.Name]]) -> dict[str, tuple[int, ast.expr]]:
    """Names bound exactly once in the loop body, by a top-level ``name = value``: (index, value)."""
    found: dict[str, tuple[int, ast.expr]] = {}
    for k, stmt in enumerate(loop.body):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and len(bindings.get(stmt.targets[0].id, ())) == 1:
            found[stmt.targets[0].id] = (k, stmt.value)
    return found


def _body_resolver(loop: ast.While, found: dict[str, tuple[int, ast.expr]]):
    """Resolve a name read in the loop body to its single top-level binding in an earlier
    statement of the body (a binding later in the body, or outside it, is not certain)."""

    def resolve(name: ast.Name) -> ast.expr | None:
        binding = found.get(name.id)
        if binding is None:
            return None
        reader = next((k for k, stmt in enumerate(loop.body) if any(n is name for n in ast.walk(stmt))), None)
        return binding[1] if reader is not None and binding[0] < reader else None

    return resolve


# -- `for i in tf.range(n)` that fills a Python list -> tf.TensorArray ----------------------------------
def _int32_bound(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """An int32 scalar tensor the reader can see: ``tf.shape(x)[k]``, ``tf.size(x)``, or a name
    bound once, before its read, to one."""
    if isinstance(node, ast.Name) and depth < 4:
        bound = src.local_binding(node.id, node)
        return bound is not None and _int32_bound(src, bound, depth + 1)
    return _int32_count(src, node)


def rewrite_range_list_loop(src: Source, loop: ast.For) -> Fix | None:
    """``L = []``, ``for i in tf.range(n):`` with one ``L.append(v)`` in its body, then
    ``tf.stack(L, axis=k)``, ``tf.concat(L, axis=0)`` or ``tf.add_n(L)`` -> a ``tf.TensorArray``
    of the loop's trip count.

    Pattern (anything else keeps the explanation): ``n`` reading names only (no call that could
    have side effects: it is evaluated once more);
    ``L = []`` earlier in the loop's block and unread until the loop; in the body, at top level,
    exactly one ``L.append(v)``, no other use of ``L``, no binding of ``i`` or of the names ``n``
    reads, no break/continue/return/yield, no nested function, no ``else``; after the loop ``L``
    is read once, as ``tf.stack(L[, axis=k])`` or ``tf.concat(L, axis=0)`` (literal axes).

    The rewrite::

        L = tf.TensorArray(D, size=tf.maximum(n, 0))   # just before the loop (`L = []` goes)
        for i in tf.range(n):
            ...
            L = L.write(i, v)
        ... L.stack() / L.concat() ...                 # moveaxis(L.stack(), 0, k) for k != 0

    Size: for ``n`` an int32 scalar tensor the reader can see (``tf.shape(x)[k]``, ``tf.size(x)``,
    or a name bound once to one) ``tf.maximum(n, 0)``, written at ``i``; for any other ``n``
    ``tf.size(tf.range(n))``, the number of values the loop's own ``tf.range(n)`` yields whatever
    n's dtype (a float n runs ceil(n) times), written at ``tf.cast(i, tf.int32)`` (0, 1, ...
    exactly); XLA then compiles once per value of n. ``tf.add_n(L)`` becomes
    ``tf.reduce_sum(L.stack(), axis=0)``: the same elementwise sum, reordered (float sums may
    round differently, as XLA's own reductions do); ``add_n([])`` raises in the original.

    Equivalence: ``tf.range(n)`` with an int32 scalar n yields 0..n-1 (nothing for n <= 0), so
    the iteration with index i writes index i, once each, in the order of the appends: the
    TensorArray holds the list's elements in the list's order, ``stack()`` equals ``tf.stack(L)``
    and ``concat()`` equals ``tf.concat(L, 0)``. n is evaluated once more, just before the loop,
    where nothing has rebound the names it reads. The dtype D must be exact (``write`` raises on
    a mismatch): certain from the value's own bindings (:func:`certain_dtype`), or the dtype of a
    tensor ``x`` the value is made of by dtype-keeping ops only (indexing, reshapes, elementwise
    ops of two such values: :func:`dtype_of_source`), written ``x.dtype``. Otherwise the loop
    gets an explanation.

    UNSAFE: ``tf.concat`` (it joins elements whose first dimensions differ, the TensorArray
    raises on them); ``tf.stack`` on axis 0 when the loop may run zero times (the original's
    ``tf.stack([])`` is an empty float32 vector; for other axes it raises); calls other than
    TensorFlow functions and built-in Keras layers in the body (AutoGraph traces it once).
    Under XLA the TensorArray's size is ``n``, a compile-time constant from the input's shape:
    the function compiles once per input shape.
    """
    tf = src.tf
    block = src.body_containing(loop)
    if tf is None or block is None or loop.orelse or not isinstance(loop.target, ast.Name):
        return None
    if not (isinstance(loop.iter, ast.Call) and len(loop.iter.args) == 1 and not loop.iter.keywords):
        return None
    bound, index = loop.iter.args[0], loop.target.id
    if not _pure_bound(src, bound):
        return None
    counted_int32 = _int32_bound(src, bound)
    appends = [k for k, stmt in enumerate(loop.body) if _appends_one_value(stmt)]
    if len(appends) != 1:
        return None
    append = loop.body[appends[0]]
    call = append.value  # type: ignore[attr-defined]
    name = call.func.value.id
    body = ast.Module(body=loop.body, type_ignores=[])
    bound_names = {n.id for n in ast.walk(bound) if isinstance(n, ast.Name)}
    bindings = _loop_bindings(body)
    if bindings is None:
        return None
    if {name, index} & set(bindings) or bound_names & set(bindings) or name == index or name in bound_names:
        return None
    if sum(isinstance(n, ast.Name) and n.id == name for n in ast.walk(body)) != 1:
        return None
    here = next(k for k, stmt in enumerate(block) if stmt is loop)
    before = block[:here]
    made_at = _last_store(before, name)
    if made_at is None:
        return None
    made = before[made_at]
    if not (isinstance(made, ast.Assign) and len(made.targets) == 1 and isinstance(made.targets[0], ast.Name)
            and isinstance(made.value, ast.List) and not made.value.elts) or _reads(before[made_at + 1:], name):
        return None
    counted = _CountedAppendLoop(index, bound, name, call.args[0], append, True, bindings)
    joined = _joined_after(src, loop, counted, block[here + 1:])
    if joined is None:
        return None
    join, axis, axis_node = joined
    resolve = _body_resolver(loop, _body_bindings(loop, bindings))  # type: ignore[arg-type]
    dtype = certain_dtype(src, counted.value, resolve)
    if dtype in DTYPES:
        dtype_text = f"{tf}.{dtype}"
    else:
        source = dtype_of_source(src, counted.value, resolve, set(bindings) | {index})
        if source is None:
            return explain(
                f"`{name}` could be a tf.TensorArray(DTYPE, size={src.segment(bound)}) written at the loop index and "
                f"joined with .stack() or .concat(); it is not rewritten automatically because the dtype of "
                f"`{src.segment(counted.value)}` is not certain (TensorArray.write raises on a mismatch). Bind the "
                "appended value with an explicit dtype (tf.cast(..., tf.float32)) to get the fix.")
        dtype_text = source
    if not (src.alone_on_lines(made, made) and src.alone_on_lines(append, append) and src.alone_on_lines(loop, loop)
            and loop.body[0].lineno > loop.lineno):
        return None
    reasons = _traced_once_reasons(src, loop, body, call)  # type: ignore[arg-type]
    if call_name(src, join) == "tf.add_n":
        joined_text = f"{tf}.reduce_sum({name}.stack(), axis=0)"
    elif call_name(src, join) == "tf.concat":
        reasons.append("tf.concat joins elements whose first dimensions differ; the TensorArray raises on "
                       "elements of different shapes")
        joined_text = f"{name}.concat()"
    elif axis == 0:
        reasons.append("when the loop runs zero times the original returns tf.stack([]), an empty float32 "
                       "vector, and the fix an empty TensorArray stack of the values' dtype")
        joined_text = f"{name}.stack()"
    else:
        joined_text = f"{tf}.experimental.numpy.moveaxis({name}.stack(), 0, {src.segment(axis_node)})"  # type: ignore[arg-type]
    indent, inner = src.indent_of(loop), src.indent_of(append)
    tail = src.lines[append.end_lineno - 1][src.end(append).col:].rstrip("\n")  # type: ignore[operator]
    if counted_int32:
        size, position = f"{tf}.maximum({src.segment(bound)}, 0)", index
    else:  # the bound's dtype is not known: tf.range(n) itself counts the trips, the index is cast
        size, position = f"{tf}.size({tf}.range({src.segment(bound)}))", f"{tf}.cast({index}, {tf}.int32)"
    edits = [
        replace_lines(made.lineno, made.end_lineno, ""),  # type: ignore[arg-type]
        Edit(Location(loop.lineno, 0), Location(loop.lineno, 0),
             "".join(f"{indent}{c}\n" for c in src.comments_in(made.lineno, made.end_lineno))
             + f"{indent}{name} = {tf}.TensorArray({dtype_text}, size={size})\n"),
        replace_lines(append.lineno, append.end_lineno,  # type: ignore[arg-type]
                      f"{inner}{name} = {name}.write({position}, {arg(src, counted.value)}){tail}\n"),
        replace(src, join, joined_text),
    ]
    compiles = "once per input shape" if counted_int32 else \
        f"once per value of `{src.segment(bound)}` (value-specialized: the TensorArray's size is that value)"
    return make_fix(f"Collect `{name}` in a tf.TensorArray sized to the loop's trip count (under XLA the function "
                    f"compiles {compiles})", edits, reasons)


def _joined_after(src: Source, loop: ast.For, counted: _CountedAppendLoop,
                  later_block: list[ast.stmt]) -> tuple[ast.Call, int, ast.expr | None] | None:
    """The list's one read after the loop: ``tf.stack(L[, axis=k])`` (any literal k) or
    ``tf.concat(L, axis=0)``, in a later statement of the loop's block."""
    name = counted.name
    scope = src.scope_of(loop)
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) and {name, counted.counter} & set(n.names)
           for n in ast.walk(scope)):
        return None
    reads = [n for n in ast.walk(scope)
             if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Store)]
    later = [n for n in reads if n is not counted.append.value.func.value]  # type: ignore[attr-defined]
    if len(later) != 1 or not isinstance(later[0].ctx, ast.Load):
        return None
    join = src.parents.get(later[0])
    kind = call_name(src, join) if isinstance(join, ast.Call) else None
    if kind == "tf.add_n" and len(join.args) == 1 and not join.keywords and join.args[0] is later[0] \
            and src.scope_of(join) is scope:  # type: ignore[union-attr]
        axis_node = None
    elif not (kind in ("tf.stack", "tf.concat") and join.args and join.args[0] is later[0]  # type: ignore[union-attr]
            and len(join.args) <= 2 and {k.arg for k in join.keywords} <= {"axis"}  # type: ignore[union-attr]
            and src.scope_of(join) is scope):
        return None
    else:
        axis_node = argument(join, 1, "axis")  # type: ignore[arg-type]
    axis = 0 if axis_node is None else number_value(axis_node)
    if type(axis) is not int or (kind == "tf.concat" and (axis_node is None or axis != 0)):
        return None
    if not any(s is src.statement_of(join) or any(a is s for a in src.ancestors(join)) for s in later_block):
        return None
    after = (loop.end_lineno, loop.end_col_offset)
    if any(isinstance(n, ast.Name) and n.id == name and after <= (n.lineno, n.col_offset) < (
            join.lineno, join.col_offset) for n in ast.walk(scope)):  # type: ignore[union-attr]
        return None
    return join, axis, axis_node  # type: ignore[return-value]


BREAK_LOOP = ("the loop variable becomes an int32 scalar tensor where it was a Python int; the names the body "
              "assigns become loop variables of a tf.while_loop, so each must have a value before the loop and keep "
              "its dtype and shape across iterations (tracing fails loudly otherwise), and Python values the body "
              "changes (lists, counters) change once, while tracing")


@rewriter(ast.Break)
def rewrite_break_loop(src: Source, node: ast.AST) -> Fix | None:
    """``for i in range(n):`` whose body ``break``s on a tensor condition -> ``for i in
    tf.range(n):``.

    AutoGraph unrolls a loop over a Python ``range`` while tracing and cannot stop it on a tensor
    condition ("break and return statements which depend on a TF condition are not supported in
    Python for loops"). Over ``tf.range`` it stages the loop as a ``tf.while_loop`` with the break
    folded into its condition: the same iterations run, in order, and stop at the same one, so
    the body computes the same values; eagerly, iterating ``tf.range`` gives the same integers as
    tensors and ``break`` is Python's. UNSAFE, always (:data:`BREAK_LOOP`): the loop variable's
    type changes, and the body's names become loop variables with the constraints of
    ``tf.while_loop``. Only ``break`` out of the innermost loop, which must be a ``for`` over
    ``range(...)`` with no ``else`` (a ``return`` leaves the function: no rewrite)."""
    if src.tf is None or not isinstance(node, ast.Break):
        return None
    loop = next((a for a in src.ancestors(node) if isinstance(a, (ast.For, ast.AsyncFor, ast.While))), None)
    if not isinstance(loop, ast.For) or loop.orelse:
        return None
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            and 1 <= len(it.args) <= 3 and not it.keywords and not any(isinstance(a, ast.Starred) for a in it.args)):
        return None
    if "range" in src.stores_in(src.tree):
        return None  # a module rebinds `range`
    return make_fix("Loop over tf.range so AutoGraph stages the loop and can stop it on the tensor condition",
                    [replace(src, it.func, f"{src.tf}.range")], [BREAK_LOOP])




@rewriter(ast.Return, pointed=True)
def rewrite_loop_return(src: Source, node: ast.AST) -> Fix | None:
    """``if c: return a`` on a tensor condition inside a ``for`` over Python's ``range`` (XLA110),
    in a function that ends in ``return b``: the flag-and-``tf.where`` selection of
    :mod:`xlacheck.rewrites.loop_returns` (``break`` has :func:`rewrite_break_loop`)."""
    from xlacheck.rewrites.loop_returns import LoopReturnOps, select_returned

    if src.tf is None or not isinstance(node, ast.Return):
        return None
    branch = src.parents.get(node)
    if not isinstance(branch, ast.If):
        return None

    def pure(stmts) -> bool:  # type: ignore[no-untyped-def]
        return all(call_name(src, sub) is not None or isinstance(sub.func, ast.Name) and sub.func.id in PURE_BUILTINS
                   and not src.stores_in(src.tree).get(sub.func.id)
                   for stmt in stmts for sub in ast.walk(stmt) if isinstance(sub, ast.Call))

    reasons: list[str] = []
    pred = bool_condition(src, branch.test, reasons)
    return select_returned(src, branch, LoopReturnOps(src.tf, pred, pure, reasons))
