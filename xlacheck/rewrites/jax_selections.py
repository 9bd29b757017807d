"""Data-sized JAX results that are a boolean selection of an array of static shape (XLA207).

The JAX API table (``xlacheck/data/jax_api.json``) records which ``jax.numpy`` calls have a result
whose length depends on the values (``jit: false``, a ``sized_by`` argument that lifts it). Most of
them compute exactly the entries of a static array where a mask holds, in order (NumPy's own
definitions; measured equal under ``jax.jit``, every rank, 200 random draws: jax 0.10.2):

* ``jnp.nonzero(a)[k]`` / ``jnp.where(a)[k]`` / ``jnp.argwhere(a)[:, k]``: the positions along
  axis ``k`` of the nonzero entries, in row-major order: ``lax.broadcasted_iota(int32, a.shape, k)``
  selected by ``a != 0``; ``jnp.flatnonzero(a)``: ``jnp.arange(a.size)`` selected by
  ``jnp.ravel(a) != 0``;
* ``jnp.extract(c, a)`` and ``jnp.compress(c, a)`` (no ``axis``): ``jnp.ravel(a)`` selected by
  ``jnp.ravel(c) != 0``;
* ``jnp.unique(a)`` (``unique_values``, and ``[0]``/``.values`` of ``unique_counts/_all/_inverse``):
  the sorted distinct values, which are ``jnp.unique(a, size=a.size)`` (padded) selected by
  ``jnp.unique_counts(a, size=a.size).counts > 0`` (a padding entry counts 0);
* ``jnp.setdiff1d(a, b)`` / ``jnp.intersect1d(a, b)``: those distinct values of ``a`` that are not
  / are in ``b`` (``jnp.isin``); ``jnp.union1d(a, b)`` / ``jnp.setxor1d(a, b)``: the distinct values
  of both concatenated (that are in exactly one of them);
* ``jnp.delete(a, obj)`` (no ``axis``): ``jnp.ravel(a)`` selected by a mask that is False at ``obj``.

:func:`sized_selection` gives the (whole array, mask) texts, so that every consumer of a boolean
selection that :mod:`xlacheck.rewrites.jax_masks` rewrites (reductions with ``where=``, their NaN
twins, a name bound to the selection and read by reductions) covers these calls too, whatever
their spelling (positional or keyword arguments, as the table's parameters bind them).

UNSAFE, beside the masked reduction's own reasons (:data:`SIZED`): ``extract``/``compress`` assume
the condition has as many entries as the array (a shorter condition of ``compress`` selects from
the first entries only); ``delete`` ignores an index out of bounds where the original raises, and
a boolean ``obj``; the distinct-value forms were measured on finite values only (NaN entries not).
"""

from __future__ import annotations

import ast

from xlacheck.api_table import bind_arguments, fact_for
from xlacheck.rewrites._expr import full_slice, int_literal
from xlacheck.rewrites._source import Source, jax_alias
from xlacheck.rewrites.jax_static import canonical

SIZED = ("the data-sized result is read as the entries of a static array where a mask holds (NumPy's definition: "
         "exact for nonzero/where/argwhere/flatnonzero); extract/compress assume the condition has the array's size, "
         "delete ignores an index out of bounds where the original raises, and unique/set results were measured on "
         "finite values only (not with NaN entries)")

_POSITIONS = frozenset({"jax.numpy.nonzero", "jax.numpy.where"})
_UNIQUE = frozenset({"jax.numpy.unique", "jax.numpy.unique_values"})
_UNIQUE_TUPLES = frozenset({"jax.numpy.unique_counts", "jax.numpy.unique_all", "jax.numpy.unique_inverse"})
_SETS = frozenset({"jax.numpy.setdiff1d", "jax.numpy.intersect1d", "jax.numpy.union1d", "jax.numpy.setxor1d"})
# the arguments each form reads (every other argument, size= among them, leaves the call as it is)
_READS = {
    "jax.numpy.nonzero": ("a",), "jax.numpy.where": ("condition",), "jax.numpy.argwhere": ("a",),
    "jax.numpy.flatnonzero": ("a",), "jax.numpy.extract": ("condition", "arr"),
    "jax.numpy.compress": ("condition", "a"), "jax.numpy.unique": ("ar",), "jax.numpy.unique_values": ("x",),
    "jax.numpy.unique_counts": ("x",), "jax.numpy.unique_all": ("x",), "jax.numpy.unique_inverse": ("x",),
    "jax.numpy.setdiff1d": ("ar1", "ar2"), "jax.numpy.intersect1d": ("ar1", "ar2"),
    "jax.numpy.union1d": ("ar1", "ar2"), "jax.numpy.setxor1d": ("ar1", "ar2"), "jax.numpy.delete": ("arr", "obj"),
}


def _arguments(src: Source, call: ast.Call) -> tuple[str, dict[str, ast.expr]] | None:
    """(canonical name, the call's arguments by parameter) for a call of a form above that passes
    exactly the arguments the form reads; None otherwise."""
    if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords):
        return None
    name = canonical(src, call.func)
    reads = _READS.get(name or "")
    fact = fact_for(name) if reads else None
    if fact is None or not fact.params or name is None:
        return None
    bound = bind_arguments(fact.params, call.args, {k.arg: k.value for k in call.keywords if k.arg})
    if name == "jax.numpy.compress" and "axis" in bound and int_literal(bound["axis"]) == 0:
        bound = {k: v for k, v in bound.items() if k != "axis"}  # rows: `a[c]` for a 1-D c of a's length
        return (name + ":rows", bound) if set(bound) == set(reads) else None
    if set(bound) != set(reads):
        return None
    return name, bound


def _text(src: Source, node: ast.expr) -> str:
    text = src.segment(node)
    return text if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Constant)) else f"({text})"


def _nonzero(src: Source, jnp: str, node: ast.expr) -> str:
    """The mask of the nonzero entries of ``node``: itself for a comparison or a boolean combination of them."""
    boolean = isinstance(node, ast.Compare) or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert) \
        or isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor))
    return src.segment(node) if boolean else f"{_text(src, node)} != 0"


def sized_selection(src: Source, jnp: str, node: ast.AST) -> tuple[str, str] | None:
    """(whole array, mask) texts for a data-sized call of the forms above (``node`` the call, or its
    ``[k]`` / ``[:, k]`` / ``.values`` where the form returns several arrays); None otherwise. The
    positions of ``nonzero``/``where``/``argwhere`` used as an index of another array are left to
    :mod:`xlacheck.rewrites.jax_masks` (``x[jnp.nonzero(m)[0]]`` reads as ``x[m]``)."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Call):
        call, picked = node.value, node.slice
    elif isinstance(node, ast.Attribute) and node.attr == "values" and isinstance(node.value, ast.Call):
        call, picked = node.value, None
    elif isinstance(node, ast.Call):
        call, picked = node, None
    else:
        return None
    found = _arguments(src, call)
    jax = jax_alias(src.tree)
    if found is None or jax is None:
        return None
    name, args = found
    if name == "jax.numpy.compress:rows":  # along axis 0: the rows of `a` where `c` holds, as `a[c]`
        return (src.segment(args["a"]), _nonzero(src, jnp, args["condition"])) if node is call else None
    parent = src.parents.get(node)
    if isinstance(parent, ast.Subscript) and parent.slice is node:
        return None  # an index: jax_masks reads x[jnp.nonzero(m)[0]] as x[m]
    axis: int | None = None
    if name == "jax.numpy.argwhere" and node is call:
        # the whole coordinate table: row p of argwhere(a) is the p-th nonzero entry's coordinates, which are
        # the entries of jnp.indices(a.shape) stacked last, selected where a != 0 (NumPy's definition); the
        # mask gets the coordinate axis (size 1) so that it broadcasts over the stacked coordinates
        array = args["a"]
        return (f"{jnp}.stack({jnp}.indices({jnp}.shape({src.segment(array)})), axis=-1)",
                f"({_nonzero(src, jnp, array)})[..., None]")
    if name in _POSITIONS or name == "jax.numpy.argwhere":
        if name == "jax.numpy.argwhere":
            parts = picked.elts if isinstance(picked, ast.Tuple) else []
            axis = int_literal(parts[1]) if len(parts) == 2 and full_slice(parts[0]) else None
        else:
            axis = int_literal(picked) if picked is not None and node is not call else None
        if axis is None or axis < 0:
            return None
        array = args["a" if "a" in args else "condition"]
        return (f"{jax}.lax.broadcasted_iota({jnp}.int32, {jnp}.shape({src.segment(array)}), {axis})",
                _nonzero(src, jnp, array))
    if name in _UNIQUE_TUPLES:
        if not (node is not call and (picked is None or int_literal(picked) == 0)):
            return None
    elif node is not call:
        return None
    if name == "jax.numpy.flatnonzero":
        array = args["a"]
        return f"{jnp}.arange({jnp}.size({src.segment(array)}))", f"{jnp}.ravel({_nonzero(src, jnp, array)})"
    if name in ("jax.numpy.extract", "jax.numpy.compress"):
        if isinstance(args["condition"], ast.Constant):
            return None  # a scalar condition: a mask of another size than the array
        values = args["arr" if "arr" in args else "a"]
        return f"{jnp}.ravel({src.segment(values)})", f"{jnp}.ravel({_nonzero(src, jnp, args['condition'])})"
    if name == "jax.numpy.delete":
        values = src.segment(args["arr"])
        return (f"{jnp}.ravel({values})",
                f"{jnp}.ones({jnp}.size({values}), dtype=bool).at[{src.segment(args['obj'])}].set(False)")
    if name in ("jax.numpy.union1d", "jax.numpy.setxor1d"):
        first, second = src.segment(args["ar1"]), src.segment(args["ar2"])
        values = f"{jnp}.concatenate([{jnp}.ravel({first}), {jnp}.ravel({second})])"
        size = f"{jnp}.size({first}) + {jnp}.size({second})"
    else:
        values = src.segment(args["ar1" if name in _SETS else "ar" if "ar" in args else "x"])
        size = f"{jnp}.size({values})"
    distinct = f"{jnp}.unique({values}, size={size})"
    mask = f"({jnp}.unique_counts({values}, size={size}).counts > 0)"
    if name in _SETS and name != "jax.numpy.union1d":
        other = src.segment(args["ar2"])
        if name == "jax.numpy.setdiff1d":
            mask += f" & ~{jnp}.isin({distinct}, {other})"
        elif name == "jax.numpy.intersect1d":
            mask += f" & {jnp}.isin({distinct}, {other})"
        else:
            mask += f" & ({jnp}.isin({distinct}, {src.segment(args['ar1'])}) != {jnp}.isin({distinct}, {other}))"
    return distinct, mask
