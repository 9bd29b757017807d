"""A ``lax.fori_loop`` carry that starts empty and gains one row per step (XLA206) -> a buffer of
the final size, written at the step's row.

``history = jnp.concatenate([history, row[None, :]], axis=0)`` in the body of
``lax.fori_loop(lo, hi, body, (..., jnp.zeros((0, 3)), ...))`` returns a carry one row longer than
the one it received, which JAX rejects (the carry must keep its type). When ``lo`` and ``hi`` are
Python ints the reader can see (literals or module constants, :func:`static_int`), the loop runs
exactly ``hi - lo`` steps, so after it the original's ``history`` holds the rows of steps
``lo .. hi - 1`` in order: the fix starts from ``jnp.zeros((hi - lo, 3))`` and writes step ``i``'s
row at ``i - lo`` (``history.at[i - lo].set(row)``). After the loop both hold the same rows. A loop
of no steps (``hi <= lo``) is left alone: JAX traces the body anyway, and the write into a buffer
of 0 rows raises IndexError while tracing.

Taken only when the body reads ``history`` nowhere else but in sums and means over axis 0 after
the step's row is written (mid-loop the buffer's later rows are zeros, where the original had no
rows: a sum is unchanged, and a mean becomes that sum divided by ``i - lo + 1``, the rows written), the step variable is not rebound, the carry element is
unpacked from the carry (``history, pos = carry``) or is the carry, and the empty start is a
``jnp.zeros``/``jnp.empty`` call read only there. UNSAFE: ``.at[].set`` writes the row in the
buffer's dtype, where ``jnp.concatenate`` promoted the two dtypes (a float32 buffer and a float64
row).
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Edit, Fix
from xlacheck.rewrites._expr import static_int
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.jax_masks import _jnp, _reduction
from xlacheck.rewrites.jax_static import canonical

PROMOTION = ("`.at[].set` writes each row in the buffer's dtype, where jnp.concatenate promoted the buffer's and "
             "the row's dtypes")
WINDOW = ("the window starts as W zero rows where the original starts empty: W must be a positive int, a mean "
          "over its rows becomes their sum divided by the rows filled (float16 sums are not widened first), and "
          "the loop's final window (not read here) holds W rows where the original holds min(steps, W)")
MEAN_READ = ("a mean of the rows written so far is their sum divided by the step count (a float16 sum is not "
             "widened first)")
_EMPTY = frozenset({"jax.numpy.zeros", "jax.numpy.empty"})


def _row(src: Source, node: ast.expr) -> ast.expr | None:
    """``x`` of ``x[None]``, ``x[None, :]``, ``x[None, ...]`` or ``jnp.expand_dims(x, 0)``: one new
    leading axis of length 1."""
    if isinstance(node, ast.Subscript):
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        lead, rest = parts[0], parts[1:]
        if isinstance(lead, ast.Constant) and lead.value is None and all(
                (isinstance(p, ast.Slice) and p.lower is None and p.upper is None and p.step is None)
                or (isinstance(p, ast.Constant) and p.value is Ellipsis) for p in rest):
            return node.value
        return None
    if isinstance(node, ast.Call) and canonical(src, node.func) == "jax.numpy.expand_dims" and len(node.args) == 2 \
            and not node.keywords and isinstance(node.args[1], ast.Constant) and node.args[1].value == 0:
        return node.args[0]
    return None


def _empty_start(src: Source, init: ast.expr, scope: ast.AST) -> ast.Constant | None:
    """The literal ``0`` leading a ``jnp.zeros((0, ...))``/``jnp.empty((0,) + x.shape)`` call, given
    inline or through a name bound once and read only here."""
    if isinstance(init, ast.Name):
        bound = src.local_binding(init.id, init)
        if bound is None or len(_own_loads(src, init.id, scope)) != 1:
            return None
        init = bound
    if not (isinstance(init, ast.Call) and canonical(src, init.func) in _EMPTY and init.args):
        return None
    shape = init.args[0]
    if isinstance(shape, ast.BinOp) and isinstance(shape.op, ast.Add):
        shape = shape.left
    if isinstance(shape, ast.Tuple) and shape.elts and isinstance(shape.elts[0], ast.Constant) \
            and type(shape.elts[0].value) is int and shape.elts[0].value == 0:
        return shape.elts[0]
    return None


def _slot(body: ast.FunctionDef, carry: str, name: str) -> int | None:
    """Where ``name`` sits in the carry: -1 when it is the carry itself, else its index in the one
    top-level ``a, b = carry`` that unpacks the carry."""
    if name == carry:
        return -1
    for stmt in body.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple) \
                and isinstance(stmt.value, ast.Name) and stmt.value.id == carry:
            names = [t.id if isinstance(t, ast.Name) else None for t in stmt.targets[0].elts]
            return names.index(name) if name in names else None
    return None


def _window(stmt: ast.AST | None, node: ast.Call) -> ast.expr | None:
    """``W`` of ``jnp.concatenate([...])[-W:]``: the grown carry cut back to its last ``W`` rows."""
    if isinstance(stmt, ast.Subscript) and stmt.value is node and isinstance(stmt.slice, ast.Slice) \
            and stmt.slice.upper is None and stmt.slice.step is None and isinstance(stmt.slice.lower, ast.UnaryOp) \
            and isinstance(stmt.slice.lower.op, ast.USub):
        return stmt.slice.lower.operand
    return None


def _own_loads(src: Source, name: str, scope: ast.AST) -> list[ast.Name]:
    """The reads of ``name`` under ``scope`` that read ``scope``'s own variable: not those in a
    nested function that binds a local ``name`` of its own."""
    return [r for r in src.loads_of(name, scope)
            if src.scope_of(r) is scope or name not in src.stores_in(src.scope_of(r))]


def _static_window(src: Source, window: ast.expr, body: ast.FunctionDef, scope: ast.AST) -> bool:
    """``W`` means the same number in the loop body and where the carry starts: a positive Python
    int the reader can see, or a parameter of the function around the body that nothing rebinds."""
    value = static_int(src, window)
    if value is not None:
        return value > 0
    if not (isinstance(window, ast.Name) and isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef))):
        return False
    params = [a.arg for a in (*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs)]
    return window.id in params and window.id not in src.stores_in(scope)


def _window_fix(src: Source, body: ast.FunctionDef, stmt: ast.Assign, loop: ast.Call, slot: int,
                window: ast.expr, read_rows: list[ast.Name], scope: ast.AST) -> Fix | None:
    """The sliding window ``h = jnp.concatenate([h, row[None]])[-W:]`` of a carry that starts empty:
    it starts as ``W`` zero rows instead, so every step's carry keeps ``W`` rows. The rows the
    original holds are the last ``min(steps so far, W)``; the rows before them are still the
    start's zeros, so a sum over axis 0 is unchanged and a mean over axis 0 becomes that sum
    divided by the rows filled. Taken when the body reads the window only in such sums and means
    after the step's update, and the loop's result leaves the window unread."""
    jnp = _jnp(src)
    lo_int = static_int(src, loop.args[0])
    init = loop.args[3]
    if jnp is None or slot == -1 or lo_int is None or not _static_window(src, window, body, scope) \
            or not (isinstance(init, ast.Tuple) and len(init.elts) > slot):
        return None
    zero = _empty_start(src, init.elts[slot], scope)
    result = src.parents.get(loop)
    if zero is None or not (isinstance(result, ast.Assign) and len(result.targets) == 1
                            and isinstance(result.targets[0], ast.Tuple) and len(result.targets[0].elts) > slot):
        return None
    kept = result.targets[0].elts[slot]
    if not isinstance(kept, ast.Name) or _own_loads(src, kept.id, scope):
        return None
    step = body.args.args[0].arg
    lo = src.segment(loop.args[0])
    filled = f"{jnp}.minimum({step} + 1, {src.segment(window)})" if lo_int == 0 else \
        f"{jnp}.minimum({step} - {lo} + 1, {src.segment(window)})"
    reads = _row_reads(src, jnp, body, stmt, read_rows, filled)
    if reads is None:
        return None
    edits = [replace(src, zero, src.segment(window)), *reads]
    name = stmt.targets[0].id  # type: ignore[attr-defined]
    return make_fix(f"Start `{name}` (a window of its last {src.segment(window)} rows) as "
                    f"{src.segment(window)} zero rows and divide its means by the rows filled so far: the carry "
                    "keeps its shape, and every step reads the rows the original holds", edits, [WINDOW])


def _row_reads(src: Source, jnp: str, body: ast.FunctionDef, stmt: ast.Assign, read_rows: list[ast.Name],
               filled: str) -> list[Edit] | None:
    """The edits that keep the body's reads of the carry exact, or None where one is no sum or mean
    over axis 0 after the step's update: the rows not yet filled are the start's zeros, so a sum
    stays and a mean becomes the sum divided by ``filled``, the rows the original holds."""
    edits = []
    for read in read_rows:
        call = src.parents.get(read)
        if isinstance(call, ast.Attribute):
            call = src.parents.get(call)
        reading = next((s for s in body.body if any(n is read for n in ast.walk(s))), None)
        found = _reduction(src, jnp, call) if isinstance(call, ast.Call) else None
        if found is None or found[0] not in ("sum", "mean") or found[3] != 0 or len(found[1]) != 1 \
                or found[1][0] is not read or reading is None or reading is stmt \
                or not src.runs_after(stmt, reading):
            return None
        if found[0] == "mean":
            total = f"{src.segment(read)}.sum(axis=0)" if found[2] == "method" \
                else f"{jnp}.sum({src.segment(read)}, axis=0)"
            mean = f"{total} / {filled}"
            plain = isinstance(src.parents.get(call), (ast.Assign, ast.AnnAssign, ast.Return))
            edits.append(replace(src, call, mean if plain else f"({mean})"))
    return edits


@rewriter(ast.Call, ast.Subscript, pointed=True)
def rewrite_jax_grown_carry(src: Source, node: ast.AST) -> Fix | None:
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) and _window(node, node.value) is not None:
        node = node.value  # the window: XLA206 points at the cut, the join is inside it
    if not (isinstance(node, ast.Call) and canonical(src, node.func) == "jax.numpy.concatenate"
            and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))
            and len(node.args[0].elts) == 2 and all(k.arg == "axis" for k in node.keywords)):
        return None
    if node.keywords and not (isinstance(node.keywords[0].value, ast.Constant) and node.keywords[0].value.value == 0):
        return None
    grown, appended = node.args[0].elts
    row = _row(src, appended)
    stmt = src.parents.get(node)
    window = _window(stmt, node)
    if window is not None:
        stmt = src.parents.get(stmt)
    body = src.parents.get(stmt) if stmt is not None else None
    if not (isinstance(grown, ast.Name) and row is not None and isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == grown.id
            and isinstance(body, ast.FunctionDef) and len(body.args.args) == 2 and not body.decorator_list):
        return None
    step, carry = (a.arg for a in body.args.args)
    stores = src.stores_in(body)
    slot = _slot(body, carry, grown.id)
    if slot is None or stores.get(step) or len(stores.get(grown.id, [])) != (1 if slot == -1 else 2):
        return None
    returns = [r for r in ast.walk(body) if isinstance(r, ast.Return)]
    if len(returns) != 1 or returns[0] is not body.body[-1] or returns[0].value is None:
        return None
    returned = returns[0].value
    if slot == -1:
        ok = isinstance(returned, ast.Name) and returned.id == grown.id
    else:
        ok = isinstance(returned, ast.Tuple) and len(returned.elts) > slot \
            and isinstance(returned.elts[slot], ast.Name) and returned.elts[slot].id == grown.id
    reads = src.loads_of(grown.id, body)
    kept = (grown, getattr(returned, "elts", [returned])[slot])
    read_rows = [r for r in reads if all(r is not k for k in kept)]
    if not ok or len(reads) != 2 + len(read_rows):
        return None
    scope = src.scope_of(body)
    uses = src.loads_of(body.name, scope)
    loop = src.parents.get(uses[0]) if len(uses) == 1 else None
    if not (isinstance(loop, ast.Call) and canonical(src, loop.func) == "jax.lax.fori_loop" and len(loop.args) == 4
            and not loop.keywords and loop.args[2] is uses[0]):
        return None
    lo, hi, init = loop.args[0], loop.args[1], loop.args[3]
    lo_int, hi_int = static_int(src, lo), static_int(src, hi)
    if window is not None:
        return _window_fix(src, body, stmt, loop, slot, window, read_rows, scope)
    if lo_int is None or hi_int is None or hi_int <= lo_int:  # no step: JAX still traces the body's write
        return None
    if slot != -1:
        if not (isinstance(init, ast.Tuple) and len(init.elts) > slot):
            return None
        init = init.elts[slot]
    zero = _empty_start(src, init, scope)
    if zero is None:
        return None
    count = src.segment(hi) if lo_int == 0 else f"{src.segment(hi)} - {src.segment(lo)}"
    at = step if lo_int == 0 else f"{step} - {src.segment(lo)}"
    jnp = _jnp(src)
    reads = _row_reads(src, jnp, body, stmt, read_rows, f"({at} + 1)") if read_rows and jnp is not None else []
    if reads is None or read_rows and jnp is None:
        return None
    edits = [replace(src, zero, count), replace(src, node, f"{grown.id}.at[{at}].set({src.segment(row)})"), *reads]
    return make_fix(f"Preallocate `{grown.id}` with the loop's {hi_int - lo_int} rows and write step `{step}`'s row "
                    "into it: the carry keeps its shape, and after the loop it holds the rows the original appended",
                    edits, [PROMOTION] + ([MEAN_READ] if len(reads) else []))
