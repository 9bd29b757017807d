"""Arrays created at a traced size that has a static bound (XLA207) -> the array at that bound and
the mask of its first entries, read by the reductions of :mod:`xlacheck.rewrites.jax_masks`.

``jnp.arange(n)``, ``jnp.zeros/ones/empty(shape)`` and ``jnp.full(shape, v)`` whose (first) size
``n`` is traced fail under ``jax.jit`` (ConcretizationTypeError): the shape must be static. Where
``n`` counts entries of an array (``jnp.sum(m)`` or ``m.sum()`` of a boolean ``m``, its ``astype``,
``jnp.count_nonzero(a)``) or is a position in one (``jnp.argmax/argmin(a)`` without ``axis``), it is
at most that array's ``size``, which is static under ``jax.jit``; a non-negative int literal added to
it raises the bound by as much, one subtracted lowers the value only, and ``jnp.minimum`` is bounded
by either operand. The same call at the bound ``N`` holds the original as its first ``n`` entries
along axis 0 (``jnp.arange(N)[:n]`` is ``jnp.arange(n)``; a constant fill is the same everywhere),
so the :func:`~xlacheck.rewrites.jax_masks` machinery treats it as the slice ``[:n]`` of the bound
array: a ``jnp.sum/mean/prod`` of arithmetic on it reads the whole array with ``where=`` the
positions below ``n`` (``lax.broadcasted_iota`` along axis 0), and a name bound to it and read only
by such reductions keeps the bound array and a mask of its own.

The bound is evaluated where the array is created: the count must be bound in the same block before
it, with nothing the count reads stored in between (a rebound array could change its size).

UNSAFE: the reductions run over the bound's length with the entries past ``n`` masked out, so a
float sum or mean runs over more terms (its last bits may differ); a negative ``n`` (a count minus a
literal) creates an empty ``arange`` as the original does, but where the original's ``zeros`` raises
the fix reads no entry.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import atom, int_literal
from xlacheck.rewrites._fix import make_fix, replace
from xlacheck.rewrites._source import Source, jax_alias
from xlacheck.rewrites.jax_static import canonical

PADDED = ("the array is created at a static bound of its size and the entries past the traced size are masked out: "
          "a float sum or mean runs over more terms (its last bits may differ); where the size is negative the "
          "original's zeros/ones/full raise and the fix reads no entry")

INDEXED = ("the array is created at a static bound of its size: every entry holds the fill value, so each item read "
           "is the same (an index past the traced size reads it too, where JAX clamps the original's); where the "
           "traced size is 0 or negative the original raises")

_COUNTS = frozenset({"jax.numpy.count_nonzero", "jax.numpy.argmax", "jax.numpy.argmin"})
_FILLED = frozenset({"jax.numpy.zeros", "jax.numpy.ones", "jax.numpy.empty", "jax.numpy.full"})
# Data-dependent results of one array whose length is at most that array's size: the bound their
# ``size=`` (the JAX API table's ``sized_by``) can always take, and a bound of their length.
HITS_OF_ONE = frozenset({"jax.numpy.nonzero", "jax.numpy.flatnonzero", "jax.numpy.argwhere", "jax.numpy.where",
                         "jax.numpy.unique", "jax.numpy.unique_values"})
_DEPTH = 4


@dataclass(frozen=True)
class BoundedCreation:
    """The text of the array created at the bound, and of the mask of the original's entries;
    ``filled``: every entry holds one value (zeros, ones, empty, full)."""

    whole: str
    mask: str
    filled: bool


def _boolean(node: ast.AST) -> bool:
    """A comparison or a boolean combination of comparisons (a count of it is at most its size)."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return _boolean(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return _boolean(node.left) and _boolean(node.right)
    return False


def _counted(src: Source, node: ast.AST, depth: int) -> bool:
    """``node`` holds 0/1 per entry: a boolean expression, its ``astype``, or a name bound to one."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "astype" \
            and len(node.args) == 1 and not node.keywords:
        return _counted(src, node.func.value, depth)
    if isinstance(node, ast.Name) and depth < _DEPTH:
        bound = src.local_binding(node.id, node)
        return bound is not None and _counted(src, bound, depth + 1)
    return _boolean(node)


def _bound(src: Source, jnp: str, node: ast.AST, names: set[str], bindings: list[ast.expr],
           depth: int = 0) -> str | None:
    """The text of a static int at least ``node``'s value, collecting in ``names`` the names that
    text reads (they must keep their arrays until the creation) and in ``bindings`` the values of
    the names followed to it."""
    if isinstance(node, ast.Name) and depth < _DEPTH:
        bound = src.local_binding(node.id, node)
        if bound is None:
            return None
        bindings.append(bound)
        return _bound(src, jnp, bound, names, bindings, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        literal = int_literal(node.right)
        if literal is None or literal < 0:
            return None
        inner = _bound(src, jnp, node.left, names, bindings, depth)
        return None if inner is None else inner if isinstance(node.op, ast.Sub) else f"{inner} + {literal}"
    sized = _length_of(node)
    if sized is not None:
        call = sized.value if isinstance(sized, ast.Subscript) and int_literal(sized.slice) is not None else sized
        if isinstance(call, ast.Call) and not call.keywords and len(call.args) == 1 \
                and not isinstance(call.args[0], ast.Starred) and canonical(src, call.func) in HITS_OF_ONE:
            names.update(n.id for n in ast.walk(call.args[0]) if isinstance(n, ast.Name))
            return f"{jnp}.size({src.segment(call.args[0])})"
        return None
    if not isinstance(node, ast.Call) or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    name = canonical(src, node.func)
    operand: ast.expr | None = None
    if name == "jax.numpy.minimum" and len(node.args) == 2:
        for side in node.args:
            literal = int_literal(side)
            if literal is not None and literal >= 0:
                return str(literal)
        return (_bound(src, jnp, node.args[0], names, bindings, depth)
                or _bound(src, jnp, node.args[1], names, bindings, depth))
    if name == "jax.numpy.sum" and len(node.args) == 1 and _counted(src, node.args[0], depth):
        operand = node.args[0]
    elif name in _COUNTS and len(node.args) == 1:
        operand = node.args[0]
    elif isinstance(node.func, ast.Attribute) and node.func.attr == "sum" and not node.args \
            and _counted(src, node.func.value, depth):
        operand = node.func.value
    if operand is None:
        return None
    names.update(n.id for n in ast.walk(operand) if isinstance(n, ast.Name))
    return f"{jnp}.size({src.segment(operand)})"


def _length_of(node: ast.AST) -> ast.AST | None:
    """``v`` of ``v.size``, ``v.shape[0]`` or ``len(v)``; None for anything else."""
    if isinstance(node, ast.Attribute) and node.attr == "size":
        return node.value
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
            and int_literal(node.slice) == 0:
        return node.value.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
            and len(node.args) == 1 and not node.keywords:
        return node.args[0]
    return None


def _kept_until(src: Source, creation: ast.AST, bindings: list[ast.expr], names: set[str]) -> bool:
    """The names the bound reads hold, where the array is created, the arrays the count read: every
    name followed to the count is bound in the block of the creating statement, before it, and none
    of ``names`` is stored from the first of those bindings to the creation."""
    here = src.statement_of(creation)
    block = src.body_containing(here) if here is not None else None
    if here is None or block is None:
        return False
    first = block.index(here)
    for value in bindings:
        there = src.statement_of(value)
        if there is None or there not in block or block.index(there) >= block.index(here):
            return False
        first = min(first, block.index(there))
    between = block[first + 1:block.index(here)]
    return not any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in names
                   for stmt in between for n in ast.walk(stmt))


def _static_dimension(node: ast.AST) -> bool:
    """An int literal or ``<expr>.shape[k]`` / ``len(<expr>)``: a size known while tracing."""
    if int_literal(node) is not None:
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return int_literal(node.slice) is not None
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
        and len(node.args) == 1 and not node.keywords


def bounded_creation(src: Source, jnp: str, node: ast.AST) -> BoundedCreation | None:
    """``jnp.arange(n)`` (or ``arange(0, n)``), ``jnp.zeros/ones/empty(shape)``, ``jnp.full(shape, v)``
    with ``shape`` ``n`` or ``(n, <static>...)``, ``n`` traced with a static bound; None otherwise."""
    if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args) \
            or any(k.arg is None for k in node.keywords):
        return None
    jax = jax_alias(src.tree)
    name = canonical(src, node.func)
    if jax is None or name is None:
        return None
    if name == "jax.numpy.arange":
        if any(k.arg != "dtype" for k in node.keywords) or not 1 <= len(node.args) <= 2 \
                or len(node.args) == 2 and int_literal(node.args[0]) != 0:
            return None
        size, rest, shape_node = node.args[-1], [], None
    elif name in _FILLED:
        wanted = 2 if name == "jax.numpy.full" else 1
        if len(node.args) < wanted or any(k.arg not in ("dtype", "fill_value") for k in node.keywords):
            return None
        shape_node = node.args[0]
        parts = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [shape_node]
        if not parts or any(isinstance(p, ast.Starred) for p in parts):
            return None
        size, rest = parts[0], parts[1:]
        if not all(_static_dimension(p) for p in rest):
            return None
    else:
        return None
    names: set[str] = set()
    bindings: list[ast.expr] = []
    bound = _bound(src, jnp, size, names, bindings)
    if bound is None or not _kept_until(src, node, bindings, names):
        return None
    func = src.segment(node.func)
    if shape_node is None:  # arange: the bound replaces the stop
        args = [bound]
        positions = f"{jnp}.arange({bound})"
    else:
        dims = ", ".join([bound, *(src.segment(p) for p in rest)])
        shape = f"({dims},)" if not rest else f"({dims})"
        args = [shape]
        positions = f"{jax}.lax.broadcasted_iota({jnp}.int32, {shape}, 0)" if rest else f"{jnp}.arange({bound})"
    args += [src.segment(a) for a in node.args[1:]] if shape_node is not None else []
    args += [f"{k.arg}={src.segment(k.value)}" for k in node.keywords]
    return BoundedCreation(f"{func}({', '.join(args)})", f"{positions} < {atom(src, size)}", shape_node is not None)


def _item_read(src: Source, jnp: str, read: ast.AST) -> bool:
    """``read[i]`` loaded with an index that holds no slice, ellipsis, new axis or mask: the entries
    it reads, whatever the array's length along axis 0 (JAX clamps an index past the end)."""
    parent = src.parents.get(read)
    if not (isinstance(parent, ast.Subscript) and parent.value is read and isinstance(parent.ctx, ast.Load)):
        return False
    parts = parent.slice.elts if isinstance(parent.slice, ast.Tuple) else [parent.slice]
    from xlacheck.rewrites.jax_masks import is_mask

    return not any(isinstance(p, (ast.Slice, ast.Starred)) or isinstance(p, ast.Constant) and p.value in (None, ...)
                   or is_mask(src, jnp, p) for p in parts)


def indexed_fill(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """``jnp.zeros/ones/empty/full`` at a traced size with a static bound (:func:`bounded_creation`),
    read only by items (``s[idx]``, directly or through a name bound once) -> created at the bound:
    every entry holds the fill value, so each item read is the same value in the same shape."""
    created = bounded_creation(src, jnp, node)
    if created is None or not created.filled:
        return None
    assign = src.parents.get(node)
    if isinstance(assign, ast.Assign) and assign.value is node:
        if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
            return None
        scope = src.scope_of(assign)
        name = assign.targets[0].id
        reads = src.loads_of(name, scope)
        if len(src.stores_in(scope).get(name, [])) != 1 or not reads \
                or not all(_item_read(src, jnp, r) for r in reads):
            return None
    elif not _item_read(src, jnp, node):
        return None
    return make_fix("create the constant array at a static bound of its size: the items read are the same",
                    [replace(src, node, created.whole)], unsafe=[INDEXED])
