"""Boolean-mask selections under ``jax.jit`` (XLA207) -> the same computation on the whole array,
the mask applied by ``where``.

``x[m]`` (``m`` boolean), ``x[jnp.nonzero(m)]`` and ``x[jnp.where(m)]`` have as many entries as
``m`` has true ones, so tracing fails (NonConcreteBooleanIndexError, ConcretizationTypeError). Two
consumers of such a selection have a static form that computes the same values:

* a reduction ``jnp.sum/mean/prod(E)`` or ``E.sum/mean/prod()`` of an arithmetic expression ``E``
  (``+ - * / ** %`` and unary minus) whose array leaves are selections by one mask -> the same
  reduction of ``E`` on the whole arrays with ``where=m`` (``jnp.sum(b[~s] ** 2)`` ->
  ``jnp.sum(b ** 2, where=~s)``): the reduction reads exactly the selected entries; an empty
  selection gives 0, NaN and 1, as the original does;
* the same with a slice ``x[a:b]`` (no step) whose bounds may be traced: the mask is the positions
  ``a <= i < b`` along axis 0, ``jax.lax.broadcasted_iota`` of ``x``'s shape (every rank);
* ``x.at[m].set(c)`` with a number ``c`` -> ``jnp.where(m, c, x)``; also where the coordinates
  are unpacked first (``i, j = jnp.where(m)``, read only as ``x.at[i, j].set(c)`` later in the
  block, nothing they or the mask read rebound): the unpacking goes.

* an order statistic of every entry, ``jnp.median(E)``, ``jnp.quantile(E, q)`` or
  ``jnp.percentile(E, q)`` (``method=`` kept), which takes no ``where=`` -> its NaN-ignoring twin
  of ``E`` on the whole arrays with NaN where the mask is false
  (``jnp.nanmedian(jnp.where(m, x, jnp.nan))``): the entries that are not NaN are the selected ones.

A selection assigned to a name (``pos = x[m]``) that is read only inside such reductions is read
as the selection it names: the assignment goes, and each reduction gets ``where=m``.

``x[jnp.nonzero(m)[0]]`` (or ``jnp.where(m)[0]``, ``jnp.argwhere(m)[:, 0]``,
``jnp.flatnonzero(m)``) reads ``x`` at the positions of the true entries of a 1-D ``m``: the same
rows as ``x[m]``, so it is read as that selection (unsafe: a mask of higher rank reads other rows),
also through ``idx = jnp.nonzero(m)[0]`` bound once and read only as ``x[idx]`` inside such
reductions (the assignment goes).

``jnp.nonzero(a)``/``jnp.where(a)`` as an index select where ``a != 0`` (the mask is ``a`` itself
for a boolean expression). Only the call without ``size=`` is a selection.

A module-level function that returns a selection (``return x[m]``) or a tuple holding selections
by one mask (``return c, a[rows], b[rows]``) returns the whole arrays and the mask, and each caller
in the file reads them with ``where=``; rows of a product by a plain operand (``h = x[m] @ W``) are
reduced over axis 0 or in full with the mask broadcast over the product's trailing axes.

Coordinates unpacked from ``jnp.where(m)``/``jnp.nonzero(m)`` and read only as ``i[k]`` with
literal ``k`` get ``size=K`` (one past the largest ``k``): the first hits, in order, are the same.

Always UNSAFE, for what the reader cannot see: the rewrite assumes the mask has the array's shape
(a mask over the leading axes only selects whole rows, where ``where`` broadcasts it against the
trailing axes); ``E`` is computed on the masked-out entries too, so where they are not finite the
gradient there is NaN (0 times inf) where the original's is 0; a sum runs in another order (the
last bits of a float sum may differ); a negative slice bound counts from the end, the mask's
does not; ``.at[m].set`` casts ``c`` to ``x``'s dtype where
``jnp.where`` promotes (a float into an integer array); with ``size=``, fewer hits than read
raise IndexError in the original and read the fill value 0 in the fix; a NaN twin skips a NaN
among the selected entries, where the original returns NaN, and gives NaN for an empty selection,
where the original raises.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Edit, Fix, Location
from xlacheck.analysis.dtypes import names_bool
from xlacheck.analysis.tables import JAX_ELEMENTWISE
from xlacheck.rewrites._expr import atom, full_slice, int_literal, is_number
from xlacheck.rewrites._callers import callers, module_function, parameter_passed, passed_for
from xlacheck.rewrites._fix import apply_edits, make_fix, replace, replace_lines, rewriter
from xlacheck.rewrites._source import Source, dotted, jax_alias, module_alias
from xlacheck.rewrites.jax_selections import SIZED, sized_selection
from xlacheck.rewrites.jax_sizes import HITS_OF_ONE, PADDED, bounded_creation, indexed_fill
from xlacheck.rewrites.jax_static import canonical

# the reductions of JAX_REDUCTIONS whose `where=` mask the fix writes (a subset on purpose: argmax,
# median, ptp take no `where=`; checked against the installed JAX in tests/xlacheck/test_scopes.py)
_REDUCTIONS = frozenset({"sum", "mean", "prod", "var", "std", "any", "all", "max", "min"})
_EXTREMES = ("max", "min")  # no identity: `where=` needs `initial=`
# reductions of every entry without a `where=` of their own (norm, count_nonzero) or with one under
# another module (logsumexp): canonical name -> op, and op -> the same over the whole array with the
# mask (`{e}` the whole expression, `{m}` the mask, `{f}` the function as written). The 2-norm is the
# root of the sum of squared magnitudes (its gradient at 0 is NaN either way: measured, jax 0.10.2);
# an empty selection gives 0, 0 and -inf, as the original does.
_FULL_REDUCTIONS = {"jax.numpy.linalg.norm": "norm", "jax.numpy.count_nonzero": "count_nonzero",
                    "jax.nn.logsumexp": "logsumexp", "jax.scipy.special.logsumexp": "logsumexp"}
_FULL_TEXT = {"norm": "{jnp}.sqrt({jnp}.sum({jnp}.abs({e}) ** 2, where={m}))",
              "count_nonzero": "{jnp}.sum(({e}) != 0, where={m})", "logsumexp": "{f}({e}, where={m})"}
_PRODUCTS = ("dot", "inner")
_COMPARISONS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.Mod: "%", ast.FloorDiv: "//"}
_ARITH = tuple(_SYMBOLS)
_LOGICAL = ("logical_and", "logical_or", "logical_not", "logical_xor", "isnan", "isinf", "isfinite", "isclose",
            "isin", "greater", "less", "equal", "not_equal", "greater_equal", "less_equal")
ASSUMES_SHAPE = ("assumes the mask has the array's shape (a mask over leading axes selects whole rows, where `where` "
                 "broadcasts it against the trailing axes)")
MASKED_GRADIENT = ("the expression is computed on the masked-out entries too: where they are not finite the gradient "
                   "there is NaN (0 times inf) where the original's is 0")
NEGATIVE_BOUND = "a negative slice bound counts from the end in the slice, not in the mask"
_INDEX_DTYPE = "int32"  # lax.broadcasted_iota's dtype: the positions of any array XLA indexes
FEWER_HITS = ("where fewer entries are true than the code reads, the original raises IndexError and the fix reads "
              "the fill value 0")
REORDERED = "the reduction runs in another order (the last bits of a float sum or product may differ)"
EMPTY_EXTREME = ("the maximum or minimum of an empty selection raises in the original, and is -inf or inf (the "
                 "integer dtype's extreme) in the fix")
ONE_D = ("a dot product of two selections by one mask is read as the sum of their entries' products: exact for a "
         "mask of the arrays' shape (the selections are 1-D), not for a mask over leading axes (matrix products)")
ROWS = ("a reduction over axis 0 of the selection reduces the axes the mask covers, with the mask broadcast over the "
        "array's trailing axes (exact for a mask of any rank up to the array's); arrays selected beside the first are "
        "taken to have its rank")
ROW_PRODUCT = ("`E @ W` is read row by row: exact when the selection keeps the last axis of `E` (a mask over its "
               "leading axes, an array of rank 2 or more) and `W` is a matrix")
ALL_ROWS = ("a reduction of every entry of a product's rows (`jnp.sum(h)`, `h = sel @ W`) reads the whole product with "
            "the mask broadcast over its trailing axes: exact where the product's leading axes are the mask's")
PER_ROW = ("a per-row operation of the selection (a reduction over the last axis, one_hot) is read as the same "
           "selection of the operation on the whole array: exact for a mask over every axis but the last of the "
           "reduced array, as a per-token mask of a [batch, tokens, classes] array is")
# order statistics of every entry, which take no `where=`: the NaN-skipping twin over the whole array with
# NaN where the mask is false (`jnp.median(x[m])` -> `jnp.nanmedian(jnp.where(m, x, jnp.nan))`): the
# entries that are not NaN are exactly the selected ones (an empty selection raises in the original, NaN here)
_NAN_TWINS = {"jax.numpy.median": "nanmedian", "jax.numpy.quantile": "nanquantile",
              "jax.numpy.percentile": "nanpercentile"}
_NAN_KEYWORDS = frozenset({"q", "method"})
NAN_SKIPPED = ("a NaN among the selected entries is skipped by the NaN-ignoring reduction, where the original returns "
               "NaN; an empty selection gives NaN where the original raises")
POSITIONS = ("`x[jnp.nonzero(m)[0]]` (argwhere, flatnonzero) is read as `x[m]`: exact for a 1-D mask (for a "
             "mask of higher rank the original reads other rows)")
CAST = ".at[] updates cast the value to the array's dtype, jnp.where promotes it (a float into an integer array)"


def _jnp(src: Source) -> str | None:
    return module_alias(src.tree, "jax.numpy") or next(
        (a.asname or a.name for n in src.tree.body if isinstance(n, ast.ImportFrom) and n.module == "jax"
         for a in n.names if a.name == "numpy"), None)


def _boolean(src: Source, jnp: str, node: ast.AST, depth: int = 0) -> bool:
    """Whether ``node`` is a boolean array expression: a comparison, ``~``/``&``/``|``/``^`` of
    such, a ``jnp.logical_*``/``isnan``-like call, or a name bound once to one."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return True  # `~m` indexes by a mask: an integer index would not be flagged
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return _boolean(src, jnp, node.left, depth) or _boolean(src, jnp, node.right, depth)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "astype" \
            and len(node.args) == 1 and not node.keywords:
        return names_bool(node.args[0], lambda e: canonical(src, e))  # `m.astype(bool)`
    if isinstance(node, ast.Call):
        name = dotted(node.func)
        return name is not None and name.startswith(f"{jnp}.") and name[len(jnp) + 1:] in _LOGICAL
    if isinstance(node, ast.Name) and depth < 4:
        bound = src.local_binding(node.id, node)
        return bound is not None and _boolean(src, jnp, bound, depth + 1)
    return False


def is_mask(src: Source, jnp: str, index: ast.AST) -> bool:
    """Whether an index selects by a boolean mask (:func:`_mask`)."""
    return _mask(src, jnp, index) is not None


def _mask(src: Source, jnp: str, index: ast.AST) -> str | None:
    """The text of the boolean mask an index selects by, or None when it is no mask."""
    if isinstance(index, ast.Call) and not index.keywords and len(index.args) == 1 \
            and dotted(index.func) in (f"{jnp}.nonzero", f"{jnp}.where") \
            and not isinstance(index.args[0], ast.Starred):
        inner = index.args[0]
        return src.segment(inner) if _boolean(src, jnp, inner) else f"{atom(src, inner)} != 0"
    inner = positions_of(src, jnp, index)
    if inner is not None:
        return src.segment(inner) if _boolean(src, jnp, inner) else f"{atom(src, inner)} != 0"
    if isinstance(index, ast.Tuple) or isinstance(index, ast.Slice) or is_number(index):
        return None
    return src.segment(index) if _boolean(src, jnp, index) else None


def positions_of(src: Source, jnp: str, index: ast.AST) -> ast.expr | None:
    """``m`` of ``jnp.nonzero(m)[0]``, ``jnp.where(m)[0]``, ``jnp.argwhere(m)[:, 0]`` or
    ``jnp.flatnonzero(m)`` (no ``size=``): the positions of the true entries along axis 0, which
    select what ``m`` selects when ``m`` is 1-D (:data:`POSITIONS`); None for any other index."""
    call: ast.AST = index
    if isinstance(index, ast.Subscript) and isinstance(index.value, ast.Call):
        call = index.value
        name = dotted(call.func)
        parts = index.slice.elts if isinstance(index.slice, ast.Tuple) else []
        if not ((name in (f"{jnp}.nonzero", f"{jnp}.where") and int_literal(index.slice) == 0)
                or (name == f"{jnp}.argwhere" and len(parts) == 2 and full_slice(parts[0])
                    and int_literal(parts[1]) == 0)):
            return None
    elif not (isinstance(index, ast.Call) and dotted(index.func) == f"{jnp}.flatnonzero"):
        return None
    assert isinstance(call, ast.Call)
    if call.keywords or len(call.args) != 1 or isinstance(call.args[0], ast.Starred):
        return None
    return call.args[0]


def _rows(src: Source, jnp: str, node: ast.Subscript) -> tuple[str, str] | None:
    """(whole array, mask) texts of ``x[a:b]`` (no step; either bound may be traced): ``x`` and the
    positions along axis 0 from ``a`` up to ``b``, as ``lax.broadcasted_iota`` of ``x``'s shape (exact
    for every rank). In a tuple index (``x[:, :n]``, ``x[i, :n]``) the other entries before the
    bounded slice may be full slices or indices (which remove their axis, or, for index arrays, put
    theirs first), those after it only full slices: the whole is ``x`` indexed with ``:`` in place of
    the bounded slice, whose axis there counts from the end (``W.ndim - x.ndim + k`` for the k-th
    entry) where an index comes before it."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if isinstance(node.value, ast.Subscript) and _selection(src, jnp, node.value) is not None:
        return None  # `x[m][:n]`: the first entries of a selection, not of an array
    jax = jax_alias(src.tree)
    bounded = [i for i, p in enumerate(parts) if isinstance(p, ast.Slice) and (p.lower or p.upper)]
    if jax is None or len(bounded) != 1:
        return None
    k = bounded[0]
    bounds = parts[k]
    assert isinstance(bounds, ast.Slice)
    if bounds.step is not None or any(
            isinstance(p, ast.Slice) and p.step is not None
            or not isinstance(p, ast.Slice) and (i > k or not _plain_index(src, jnp, p))
            for i, p in enumerate(parts) if i != k):
        return None
    array = atom(src, node.value)
    if all(isinstance(p, ast.Slice) for p in parts):  # the others are full slices: the whole array
        whole, axis = array, str(k)
    else:
        whole = f"{array}[{', '.join(':' if i == k else src.segment(p) for i, p in enumerate(parts))}]"
        indexed = any(not isinstance(p, ast.Slice) for p in parts[:k])
        axis = f"{whole}.ndim - {array}.ndim + {k}" if indexed else str(k)
    iota = f"{jax}.lax.broadcasted_iota({jnp}.{_INDEX_DTYPE}, {whole}.shape, {axis})"
    length = f"{whole}.shape[{axis}]"
    tests = [f"({iota} >= {_position(src, jnp, bounds.lower, length)})" if bounds.lower is not None else "",
             f"({iota} < {_position(src, jnp, bounds.upper, length)})" if bounds.upper is not None else ""]
    tests = [t for t in tests if t]
    return whole, tests[0][1:-1] if len(tests) == 1 else " & ".join(tests)


def _position(src: Source, jnp: str, bound: ast.expr, length: str) -> str:
    """The position a slice bound stands for, as the mask compares it: a bound written negative
    counts from the end (``x[-k:]``: ``length - k``; ``-0`` is 0, the start), as the slice reads it;
    any other bound as written (:data:`NEGATIVE_BOUND` says a traced one may still be negative)."""
    if isinstance(bound, ast.UnaryOp) and isinstance(bound.op, ast.USub):
        literal = int_literal(bound.operand)
        if literal is not None:
            return f"({length} - {literal})" if literal else "0"
        text = atom(src, bound)
        return f"{jnp}.where({text} < 0, {text} + {length}, {text})"
    return atom(src, bound)


def _plain_index(src: Source, jnp: str, node: ast.AST) -> bool:
    """An index that is no mask, ellipsis or new axis: a name, a number, an attribute or an item."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.BinOp)) and not _boolean(src, jnp, node)


def _selection(src: Source, jnp: str, node: ast.AST) -> tuple[str, str] | None:
    """(whole array, mask) texts for ``x[m]`` and ``x[a:b]``, and for an array created at a traced
    size with a static bound (:func:`~xlacheck.rewrites.jax_sizes.bounded_creation`: the array at the
    bound and its first entries); None for any other expression."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        mask = _mask(src, jnp, node.slice) or _position_reads(src).get(id(node))
        if mask is not None:
            return atom(src, node.value), mask
        rows = _rows(src, jnp, node)
        if rows is not None:
            return rows
    created = bounded_creation(src, jnp, node)
    if created is not None:
        return created.whole, created.mask
    sized = sized_selection(src, jnp, node)
    if sized is not None:
        _sized_read(src).add(id(node))
    return sized


COLUMN = ("a column of a selection (`sel[:, k]`) is read as that column of the whole array with the same mask: "
          "exact for a mask over the rows only (1-D; compress along axis 0 has one)")


def _column_parts(node: ast.AST | None) -> bool:
    """``v[:, k]`` (``v[:, k, :]``, ``v[:, :, k]``): a full slice first, then literal non-negative
    indices and full slices, one index at least: a column of each row of ``v``."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Tuple)):
        return False
    parts = node.slice.elts
    indices = [int_literal(p) for p in parts[1:]]
    return len(parts) >= 2 and full_slice(parts[0]) and any(i is not None for i in indices) and all(
        i is not None and i >= 0 or full_slice(p) for i, p in zip(indices, parts[1:]))


def _column(src: Source, jnp: str, node: ast.AST, named: Named | None) -> tuple[str, str] | None:
    """(whole array, mask) texts of a column read (:func:`_column_parts`) of a boolean selection
    ``x[m]``, of ``jnp.compress(c, x, axis=0)``, or of a name standing for one (``named``): the same
    column of the whole array, with the same mask (:data:`COLUMN`). None for a slice's positions,
    whose mask has the whole array's shape."""
    if not _column_parts(node):
        return None
    assert isinstance(node, ast.Subscript)
    value = node.value
    if named and isinstance(value, ast.Name) and value.id in named:
        whole, mask = named[value.id]
    elif isinstance(value, ast.Subscript) and _mask(src, jnp, value.slice) is not None \
            or isinstance(value, ast.Call) and canonical(src, value.func) == "jax.numpy.compress":
        selected = _selection(src, jnp, value)
        if selected is None:
            return None
        whole, mask = selected
    else:
        return None
    if "broadcasted_iota" in mask or f"{jnp}.ravel(" in whole:
        return None
    _column_read(src).add(id(node))
    parts = node.slice.elts  # type: ignore[attr-defined]
    index = ", ".join(src.segment(p) if not full_slice(p) else ":" for p in parts)
    return f"{whole if whole.isidentifier() else f'({whole})'}[{index}]", mask


def _column_read(src: Source) -> set[int]:
    """The column reads of selections read since the current rewrite started (:data:`COLUMN`)."""
    read: set[int] = src.memo("column reads", set)
    return read


def _sized_read(src: Source) -> set[int]:
    """The data-sized calls read as selections (:func:`~xlacheck.rewrites.jax_selections.sized_selection`)
    since the current rewrite started: its fix says how it differs (:data:`SIZED`)."""
    read: set[int] = src.memo("sized selections read", set)
    return read


Named = dict[str, tuple[str, str]]  # a name that stands for a selection -> (whole array, mask) texts


def _whole(src: Source, jnp: str, node: ast.expr, masks: set[str], named: Named | None = None,
           leaves: list[tuple[str, str]] | None = None, rows: bool = False) -> str | None:
    """``node``'s text with each selection replaced by its whole array, every selection by one
    mask (collected in ``masks``, and each selection's (whole array, mask) in ``leaves``); None
    unless ``node`` is elementwise arithmetic, comparisons and elementwise ``jax.numpy`` functions
    (:data:`~xlacheck.analysis.tables.JAX_ELEMENTWISE`) of selections and numbers; with ``rows``
    (a reduction over the selection's axis 0) also ``E @ W``, a product on the right by an operand
    that selects nothing, which maps each row of ``E`` to a row. ``named``: names that stand for a
    selection (``pos = x[m]``: ``pos`` reads as ``x`` with mask ``m``)."""
    again = lambda sub: _whole(src, jnp, sub, masks, named, leaves, rows)  # noqa: E731
    if named and isinstance(node, ast.Name) and node.id in named:
        whole, mask = named[node.id]
        masks.add(mask)
        if leaves is not None:
            leaves.append((whole, mask))
        return whole
    selected = _selection(src, jnp, node) or _column(src, jnp, node, named)
    if selected is not None:
        masks.add(selected[1])
        if leaves is not None:
            leaves.append(selected)
        return selected[0]
    if is_number(node):
        return src.segment(node)
    if _full_reduction(src, jnp, node) or isinstance(node, ast.Name) and _scalar(src, jnp, node):
        # a scalar: the same for every selected entry (`x[m] - x.mean()`, `sel - mu`); a full reduction
        # of selections by the mask is itself read with `where=` (`jnp.sum((sel - jnp.mean(sel)) ** 2)`)
        if not any(_selection(src, jnp, n) is not None or isinstance(n, ast.Name) and named and n.id in named
                   for n in ast.walk(node)):
            return src.segment(node)
        nested = _reduced_whole(src, jnp, node, named) if isinstance(node, ast.Call) else None
        if nested is None or "axis=" in nested[0].replace(src.segment(node), ""):
            return None
        masks.add(nested[1])
        return nested[0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = again(node.operand)
        return None if inner is None else f"{'-' if isinstance(node.op, ast.USub) else '+'}({inner})"
    if rows and isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult) \
            and _selects_nothing(src, jnp, node.right, named):
        left = again(node.left)
        return None if left is None else f"({left} @ {src.segment(node.right)})"
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH):
        left, right = again(node.left), again(node.right)
        if left is None or right is None:
            return None
        return f"({left} {_SYMBOLS[type(node.op)]} {right})"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARISONS:
        left, right = again(node.left), again(node.comparators[0])
        if left is None or right is None:
            return None
        return f"({left} {_COMPARISONS[type(node.ops[0])]} {right})"
    if isinstance(node, ast.Call) and not node.keywords and node.args \
            and not any(isinstance(a, ast.Starred) for a in node.args) \
            and JAX_ELEMENTWISE.get(canonical(src, node.func) or "") == len(node.args):
        operands = [again(a) for a in node.args]
        if any(o is None for o in operands):
            return None
        return f"{src.segment(node.func)}({', '.join(operands)})"  # type: ignore[arg-type]
    pieces = _concatenated(src, node)
    if pieces is not None:
        return _whole_concatenation(src, jnp, pieces, masks, named, leaves)
    per_row = _per_row(src, jnp, node)
    if per_row is not None and leaves is not None and not rows:
        start = len(leaves)
        inner = again(per_row)
        if inner is None:
            return None
        if reduces_row(src, node):  # the rows it keeps or adds (one_hot, softmax) are reduced here
            leaves[start:] = [leaf for leaf in leaves[start:] if leaf != _ROW_KEPT]
        else:
            leaves.append(_ROW_KEPT)
        leaves.append(_PER_ROW)  # after the selections inside it: they come first
        rest = src.segment(node)[src.offset(src.end(per_row)) - src.offset(src.start(node)):]
        return f"{src.segment(node.func)}({inner}{rest}"  # type: ignore[attr-defined]
    return None


def _concatenated(src: Source, node: ast.AST) -> list[ast.expr] | None:
    """The pieces of ``jnp.concatenate([a, b, ...])`` along axis 0 (no other argument, or ``axis=0``)."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))
            and canonical(src, node.func) == "jax.numpy.concatenate"):
        return None
    if any(k.arg != "axis" or int_literal(k.value) != 0 for k in node.keywords):
        return None
    elts = node.args[0].elts
    return None if not elts or any(isinstance(e, ast.Starred) for e in elts) else list(elts)


def _whole_concatenation(src: Source, jnp: str, pieces: list[ast.expr], masks: set[str],
                         named: Named | None, leaves: list[tuple[str, str]] | None) -> str | None:
    """``jnp.concatenate([S, P])`` of selections ``S`` (elementwise in selections by one mask each)
    and plain arrays ``P`` (no selection in them) is a selection itself: the concatenation of the
    wholes, selected by the concatenation of the masks, all-True for a plain piece (exact where the
    selections are 1-D, as concatenating them with 1-D pieces needs; :data:`ASSUMES_SHAPE`)."""
    wholes, piece_masks = [], []
    for piece in pieces:
        if not any(_selection(src, jnp, n) is not None or isinstance(n, ast.Name) and named and n.id in named
                   for n in ast.walk(piece)):
            wholes.append(src.segment(piece))
            piece_masks.append(f"{jnp}.ones({jnp}.shape({wholes[-1]}), dtype=bool)")
            continue
        own: set[str] = set()
        whole = _whole(src, jnp, piece, own, named)
        if whole is None or len(own) != 1 or "broadcasted_iota" in next(iter(own)):
            return None  # several masks, or a slice's positions (a mask of the array's rank)
        wholes.append(whole)
        piece_masks.append(next(iter(own)))
    if len(set(piece_masks)) == len([m for m in piece_masks if m.startswith(f"{jnp}.ones(")]):
        return None  # no selection among the pieces
    whole, mask = f"{jnp}.concatenate([{', '.join(wholes)}])", f"{jnp}.concatenate([{', '.join(piece_masks)}])"
    masks.add(mask)
    if leaves is not None:
        leaves.append((whole, mask))
    return whole


_PER_ROW = ("", "per row")  # a leaf marker: a per-row operation of selections (:func:`_per_row`)
# a leaf marker: a per-row operation that keeps or adds a last axis (softmax, one_hot) that no
# reduction over the last axis encloses: a `where=` mask over the leading axes would be broadcast
# against the last axis, so the reduction of such an expression is declined
_ROW_KEPT = ("", "row kept")
_LAST_AXIS = frozenset({"sum", "mean", "max", "min", "prod", "any", "all", "var", "std", "argmax", "argmin"})
_LAST_AXIS_BY_DEFAULT = frozenset({"jax.nn.softmax", "jax.nn.log_softmax"})  # axis=-1 is their default
_LAST_AXIS_GIVEN = frozenset({"jax.nn.logsumexp", "jax.scipy.special.logsumexp", "jax.numpy.linalg.norm"})


def _per_row(src: Source, jnp: str, node: ast.expr) -> ast.expr | None:
    """The operand of an operation that maps each row (the entries over the last axis) of its
    operand to a row or a number on its own: ``jnp.sum/mean/max/min/prod/any/all/var/std/argmax/
    argmin(E, axis=-1)`` (the axis as a keyword or the second argument), ``jax.nn.softmax/
    log_softmax(E)`` (over the last axis, by default or ``axis=-1``), ``jax.nn.logsumexp(E, axis=-1)``,
    ``jnp.linalg.norm(E, axis=-1)`` and ``jax.nn.one_hot(E, n)`` (a new last axis). Applied to a
    selection by a mask over the leading axes, it is the same selection of the operation on the
    whole array (:data:`PER_ROW`)."""
    if not isinstance(node, ast.Call) or not node.args or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    name = canonical(src, node.func) or ""
    if name == "jax.nn.one_hot" and len(node.args) == 2 and not node.keywords:
        return node.args[0]
    axis = [k.value for k in node.keywords if k.arg == "axis"] + node.args[1:]
    last = len(axis) == 1 and isinstance(axis[0], ast.UnaryOp) and isinstance(axis[0].op, ast.USub) \
        and int_literal(axis[0].operand) == 1
    if len(node.args) + len(node.keywords) != 1 + len(axis):
        return None  # another keyword (keepdims, where, ...)
    if name in _LAST_AXIS_BY_DEFAULT and (not axis or last) or name in _LAST_AXIS_GIVEN and last:
        return node.args[0]
    if name.startswith("jax.numpy.") and name[len("jax.numpy."):] in _LAST_AXIS and last:
        return node.args[0]
    return None


def reduces_row(src: Source, node: ast.Call) -> bool:
    """A per-row operation (:func:`_per_row`) that maps each row to one number (a reduction over the
    last axis), not to a row (softmax, log_softmax) or a new row (one_hot)."""
    name = canonical(src, node.func) or ""
    return name not in _LAST_AXIS_BY_DEFAULT and name != "jax.nn.one_hot"


def _selects_nothing(src: Source, jnp: str, node: ast.expr, named: Named | None) -> bool:
    """A plain operand (a name, an attribute, an item at a literal key: ``params["w"]``) that is no
    selection: the same array for every row."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name) and not (named and node.id in named) and _selection(src, jnp, node) is None


def _reduction(src: Source, jnp: str, node: ast.Call) -> tuple[str, list[ast.expr], str, int | None] | None:
    """(name, reduced expressions, how it is written, the axis reduced or None for every entry) for
    ``jnp.sum(E)`` or ``E.sum()`` (any of :data:`_REDUCTIONS`), also over one literal axis
    (``jnp.mean(E, axis=0)``, ``E.mean(1)``), and ``jnp.dot(A, B)`` / ``jnp.inner(A, B)`` (two operands)."""
    if any(isinstance(a, ast.Starred) for a in node.args):
        return None
    name = dotted(node.func)
    op = name[len(jnp) + 1:] if name is not None and name.startswith(f"{jnp}.") else None
    method = isinstance(node.func, ast.Attribute) and node.func.attr in _REDUCTIONS and op is None
    if method:
        op = node.func.attr  # type: ignore[attr-defined]
    axis = [k.value for k in node.keywords if k.arg == "axis"]
    if len(node.keywords) != len(axis) or len(axis) > 1:
        return None
    operands = list(node.args) if not method else [node.func.value, *node.args]  # type: ignore[attr-defined]
    if op in _REDUCTIONS and len(operands) == 2 and not axis:
        axis, operands = [operands[1]], operands[:1]
    if axis:  # over one axis: the selection's own (:func:`_over_rows`)
        number = int_literal(axis[0])
        if op not in _REDUCTIONS or len(operands) != 1 or number is None or number < 0:
            return None
        return op, operands, "method" if method else "function", number  # type: ignore[return-value]
    if op in _REDUCTIONS and len(operands) == 1:
        return op, operands, "method" if method else "function", None  # type: ignore[return-value]
    if method:
        return None
    if op in _PRODUCTS and len(node.args) == 2:
        return op, list(node.args), "function", None
    full = _FULL_REDUCTIONS.get(canonical(src, node.func) or "")
    if full is not None and len(node.args) == 1:
        return full, list(node.args), "function", None
    return None


def _reduced_whole(src: Source, jnp: str, node: ast.AST, named: Named | None = None,
                   bound_slice: tuple[str, str] | None = None) -> tuple[str, str, tuple[str, ...]] | None:
    """(the text of reduction ``node`` over the whole arrays with ``where=``, its mask's text, and
    what the reduction adds to the fix's reasons). ``bound_slice``: the (whole array, mask) texts of
    a slice that the one name in ``named`` is bound to with its mask of the whole array's shape
    (``sel, sel_mask = x, <positions>``)."""
    if not isinstance(node, ast.Call):
        return None
    twin = _nan_twin(src, jnp, node, named)
    if twin is not None:
        return twin
    found = _reduction(src, jnp, node)
    if found is None:
        return None
    op, reduced, form, axis = found
    rows = axis is not None
    masks: set[str] = set()
    leaves: list[tuple[str, str]] = []
    wholes = [_whole(src, jnp, r, masks, named, leaves, axis == 0) for r in reduced]
    if any(w is None for w in wholes) or len(masks) != 1:
        return None
    (mask,) = masks
    per_row = _PER_ROW in leaves
    if _ROW_KEPT in leaves:
        return None
    leaves = [leaf for leaf in leaves if leaf not in (_PER_ROW, _ROW_KEPT)]
    if per_row and (rows or op in _PRODUCTS or op in _FULL_REDUCTIONS.values()):
        return None  # the per-row operation changes the rank the axis and the mask are read at
    if op in _PRODUCTS:  # the selections are 1-D: the product of two is the sum of their entries' products
        return f"{jnp}.sum({' * '.join(wholes)}, where={mask})", mask, (ONE_D,)  # type: ignore[arg-type]
    (whole,) = wholes
    assert whole is not None
    leaf = _selection(src, jnp, reduced[0]) is not None or bool(
        named and isinstance(reduced[0], ast.Name) and reduced[0].id in named)
    if whole.startswith("(") and whole.endswith(")") and not leaf:
        whole = whole[1:-1]
    if op in _FULL_REDUCTIONS.values():
        return _FULL_TEXT[op].format(jnp=jnp, e=whole, m=mask, f=src.segment(node.func)), mask, ()
    initial = f", initial={'-' if op == 'max' else ''}{jnp}.inf" if op in _EXTREMES else ""
    extra: tuple[str, ...] = (EMPTY_EXTREME,) if op in _EXTREMES else ()
    if per_row:
        extra += (PER_ROW,)
    if rows and bound_slice is not None:  # the mask of the array's shape, positions along the axis reduced
        if "@" in whole or _over_rows(src, jnp, [bound_slice], bound_slice[1], axis) is None:  # type: ignore[arg-type]
            return None  # a product's rows have another shape than the mask; a slice along another axis
        axes, where = f"axis={axis}, ", mask
        extra += (ROWS,)
    elif rows:
        over = _over_rows(src, jnp, leaves, mask, axis)  # type: ignore[arg-type]
        if over is None:
            return None
        axes, where = over
        extra += (ROWS,) + ((ROW_PRODUCT,) if "@" in whole else ())
    else:
        axes, where = "", mask
    keywords = f"{axes}where={where}{initial}"
    if form == "function":
        return f"{jnp}.{op}({whole}, {keywords})", mask, extra
    # a method of the whole array: an atom as it stands, else parenthesized
    return f"{whole if leaf else f'({whole})'}.{op}({keywords})", mask, extra


def _nan_twin(src: Source, jnp: str, node: ast.Call, named: Named | None) -> tuple[str, str, tuple[str, ...]] | None:
    """``jnp.median(E)`` / ``jnp.quantile(E, q)`` / ``jnp.percentile(E, q)`` (every entry: no ``axis``),
    ``E`` elementwise in selections by one mask -> the NaN-ignoring twin of ``E`` on the whole arrays
    with NaN where the mask is false (see :data:`_NAN_TWINS`)."""
    twin = _NAN_TWINS.get(canonical(src, node.func) or "")
    if twin is None or not node.args or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    if any(k.arg not in _NAN_KEYWORDS for k in node.keywords):
        return None  # axis, keepdims, out, overwrite_input: another shape, or nothing this reads
    wanted = 1 if twin == "nanmedian" else 2  # the array, then q (positional or keyword)
    if twin == "nanmedian" and any(k.arg == "q" for k in node.keywords):
        return None
    if len(node.args) + sum(k.arg == "q" for k in node.keywords) != wanted or len(node.args) > wanted:
        return None
    rest = [*node.args[1:], *(k.value for k in node.keywords)]
    if any(_selection(src, jnp, n) is not None or (named and isinstance(n, ast.Name) and n.id in named)
           for r in rest for n in ast.walk(r)):
        return None  # q or method read a selection
    masks: set[str] = set()
    leaves: list[tuple[str, str]] = []
    whole = _whole(src, jnp, node.args[0], masks, named, leaves)
    if whole is None or len(masks) != 1 or _PER_ROW in leaves or _ROW_KEPT in leaves:
        return None
    (mask,) = masks
    others = "".join(f", {src.segment(a)}" for a in node.args[1:]) + "".join(
        f", {src.segment(k)}" for k in node.keywords)
    return f"{jnp}.{twin}({jnp}.where({mask}, {whole}, {jnp}.nan){others})", mask, (NAN_SKIPPED,)


def _over_rows(src: Source, jnp: str, leaves: list[tuple[str, str]], mask: str,
               axis: int = 0) -> tuple[str, str] | None:
    """(``axis=...,`` text, ``where=`` text) of a reduction over axis 0 of a selection, on the whole
    array: ``x[m]`` lists the entries of ``x``'s first ``m.ndim`` axes where ``m`` holds, each with
    ``x``'s trailing axes, so its axis 0 is those ``m.ndim`` axes of ``x`` with ``m`` broadcast over
    the trailing ones (exact for a mask of every rank up to ``x``'s); ``x[a:b]`` is ``x``'s axis 0
    at positions ``a <= i < b`` (a 1-D mask of those positions, broadcast the same way). The rank
    is the first selected array's (:data:`ROWS`). A slice ``x[:, a:b]`` reduced over its own axis
    ``k`` (``axis=k``) is ``x`` reduced over axis ``k`` at those positions: the mask of ``x``'s
    shape as it is. None for a slice along another axis than the one reduced, a boolean selection
    reduced over another axis than 0, or an array created at a bounded size."""
    array = leaves[0][0]
    jax = jax_alias(src.tree)
    iota = f"{jax}.lax.broadcasted_iota({jnp}.{_INDEX_DTYPE}, {array}.shape, {axis})"
    if "broadcasted_iota" in mask:
        if mask.count("broadcasted_iota") != mask.count(iota):
            return None  # a slice along another axis, or of an indexed array
        if axis:
            return f"axis={axis}, ", mask
        row = mask.replace(iota, f"{jnp}.arange({array}.shape[0])")
        return "axis=0, ", f"{jnp}.expand_dims({row}, tuple(range(1, {array}.ndim)))"
    if axis:
        return None
    m = mask if mask.isidentifier() else f"({mask})"
    return (f"axis=tuple(range({jnp}.ndim({m}))), ",
            f"{jnp}.expand_dims({m}, tuple(range({jnp}.ndim({m}), {array}.ndim)))")


def _reduction_fix(edits: list, mask: str, created: bool = False, extra: tuple[str, ...] = ()) -> Fix:
    if created:
        return make_fix("create the array at a static bound of its size and reduce it with `where=` its first "
                        "entries (a static shape)", edits, unsafe=[PADDED, *extra])
    shape = [NEGATIVE_BOUND] if "broadcasted_iota" in mask else [] if ROWS in extra else [ASSUMES_SHAPE]
    return make_fix("reduce the whole array with `where=` instead of the boolean selection (a static shape)", edits,
                    unsafe=[*shape, MASKED_GRADIENT, REORDERED, *extra])


def _masked_reduction(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    found = _reduced_whole(src, jnp, node)
    return None if found is None else _reduction_fix([replace(src, node, found[0])], found[1],
                                                     _created_only(src, jnp, node), found[2])


def _created_only(src: Source, jnp: str, node: ast.AST) -> bool:
    """Every selection under ``node`` is an array created at a bounded size (no boolean selection)."""
    leaves = [n for n in ast.walk(node) if _selection(src, jnp, n) is not None]
    return bool(leaves) and all(bounded_creation(src, jnp, n) is not None for n in leaves)


def _assigned_selection(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """``pos = x[m]`` whose name is read only inside reductions that :func:`_masked_reduction`
    rewrites (``jnp.sum(pos * 2.0)``) -> each reduction reads the whole arrays with ``where=m``;
    a boolean selection's length read beside them in arithmetic with an array (``pos.sum() /
    pos.shape[0]``, ``len(pos)``) -> ``jnp.count_nonzero(m)``, its rows for a mask of any rank.
    Only where ``pos`` is bound once. Where nothing the selection reads is rebound in the function,
    the assignment goes (each reduction then sees the selection the assignment made); where
    something is (``x = x * jnp.sum(pos)``, a loop carry), the assignment binds the whole array
    and the mask there instead (``pos, pos_mask = x, x > 0``), so each reduction reads the values
    the selection was made from."""
    selected = _selection(src, jnp, node)
    if not isinstance(node, (ast.Subscript, ast.Call)) or selected is None:
        return None
    per_row_value = row_kept = False
    # `nll = -picked[valid]`: elementwise arithmetic of selections by one mask, assigned, reads as the
    # same arithmetic of the whole arrays, with that mask
    value: ast.expr = node
    while isinstance(src.parents.get(value), (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call)) \
            and src.parents.get(value) is not None:
        parent = src.parents[value]
        if isinstance(parent, ast.Call) and value is parent.func:
            break
        value = parent  # type: ignore[assignment]
    assign = src.parents.get(value)
    product = False  # `h = x[m] @ W`: rows of a product, reduced over its axis 0 or every entry only
    if value is not node:
        masks_of_value: set[str] = set()
        value_leaves: list[tuple[str, str]] = []
        whole = _whole(src, jnp, value, masks_of_value, leaves=value_leaves)
        if whole is None and "broadcasted_iota" not in selected[1]:
            masks_of_value, value_leaves = set(), []
            whole = _whole(src, jnp, value, masks_of_value, leaves=value_leaves, rows=True)
            product = whole is not None and "@" in whole
        if whole is None or masks_of_value != {selected[1]}:
            return None
        per_row_value = _PER_ROW in value_leaves  # `logp = jax.nn.log_softmax(logits[keep])`: full reductions only
        row_kept = _ROW_KEPT in value_leaves  # ... whose reads a reduction over the last axis must enclose
        selected = (whole if whole.startswith("(") else f"({whole})", selected[1])
    if not (isinstance(assign, ast.Assign) and assign.value is value and len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name) and src.alone_on_lines(assign, assign)):
        return None
    name = assign.targets[0].id
    scope = src.scope_of(assign)
    stores = src.stores_in(scope)
    if len(stores.get(name, [])) != 1:
        return None
    lines = (assign.lineno, assign.end_lineno or assign.lineno)
    if product or isinstance(node, ast.Call) and any(stores.get(n.id) for n in ast.walk(value)
                                                     if isinstance(n, ast.Name) and n.id != name) \
            or not src.settled_before(assign, {n.id for n in ast.walk(value)
                                               if isinstance(n, ast.Name) and n.id != name}):
        # the product stays bound to its name: its rank, which a reduction of every entry reads, is its own
        mask_name = src.fresh_name(f"{name}_mask")
        named = {name: (name, mask_name)}
        bound_slice = selected if "broadcasted_iota" in selected[1] else None
        computed = selected[0][1:-1] if product else selected[0]
        binding = f"{src.indent_of(assign)}{name}, {mask_name} = {computed}, {selected[1]}\n"
        edits = [replace_lines(*lines, src.page_break_of(assign) + binding)]
    else:
        named = {name: selected}
        edits = [replace_lines(*lines, "")]
        bound_slice = None
    # a boolean selection read by reductions and for its length: the rows counted on the device (the
    # mask's hits), in arithmetic with an array (read only for its length: _counted_hits)
    boolean = value is node and isinstance(node, ast.Subscript) and _mask(src, jnp, node.slice) is not None
    # names bound the same way to selections by the same mask (`a_ub = a[m]`, `b_ub = b[m]`), read together
    # (`a_ub @ x - b_ub`): rewritten with this one, else this one alone
    siblings = _sibling_selections(src, jnp, assign, selected[1]) if boolean and named[name] is selected \
        and not (per_row_value or row_kept) else {}
    for together in ([siblings] if siblings else []) + [{}]:
        both = named | {n: (whole, selected[1]) for n, (_, whole) in together.items()}
        gone = [replace_lines(a.lineno, a.end_lineno or a.lineno, "") for a, _ in together.values()]
        rewritten = _reads_rewritten(src, jnp, name, scope, both, bound_slice, boolean, row_kept, per_row_value,
                                     edits + gone, product)
        for sibling in together:
            if rewritten is None:
                break
            done, extra = rewritten
            if all(any(e.start <= src.start(r) and src.end(r) <= e.end for e in done)
                   for r in src.loads_of(sibling, scope)):
                continue  # read only where this name's reads were rewritten
            more = _reads_rewritten(src, jnp, sibling, scope, both, None, True, edits=done)
            rewritten = None if more is None else (more[0], extra + [r for r in more[1] if r not in extra])
        if rewritten is not None:
            edits, extra = rewritten
            return _reduction_fix(edits, selected[1], bounded_creation(src, jnp, node) is not None, tuple(extra))
    return None


def _sibling_selections(src: Source, jnp: str, assign: ast.Assign,
                        mask: str) -> dict[str, tuple[ast.Assign, str]]:
    """The other names of ``assign``'s scope bound, as ``assign``'s is, once, alone on their lines, to
    a boolean selection by ``mask`` (the same text: ``b_ub = upper[m]`` beside ``a_ub = a[m]``), with
    nothing they read rebound after them, each with its assignment and the selected array's text:
    each reads as that selection wherever it is read."""
    scope = src.scope_of(assign)
    stores = src.stores_in(scope)
    found: dict[str, tuple[ast.Assign, str]] = {}
    for other in src.scope_nodes(scope):
        if other is assign or not (isinstance(other, ast.Assign) and len(other.targets) == 1
                                   and isinstance(other.targets[0], ast.Name)
                                   and isinstance(other.value, ast.Subscript) and src.alone_on_lines(other, other)):
            continue
        name = other.targets[0].id
        if _mask(src, jnp, other.value.slice) != mask or len(stores.get(name, [])) != 1 \
                or not src.settled_before(other, {n.id for n in ast.walk(other.value) if isinstance(n, ast.Name)}):
            continue
        found[name] = (other, atom(src, other.value.value))
    return found


def _reads_rewritten(src: Source, jnp: str, name: str, scope: ast.AST, named: Named,
                     bound_slice: tuple[str, str] | None, boolean: bool, row_kept: bool = False,
                     per_row_value: bool = False, edits: list | None = None,
                     product: bool = False) -> tuple[list, list[str]] | None:
    """The edits that make every read of ``name`` (a name that stands for a selection, ``named``) in
    ``scope`` read the whole arrays with the mask: each reduction that holds it through elementwise
    operations gets ``where=``, a chain of assignments is computed on the whole arrays, and (for a
    ``boolean`` selection) its length read in arithmetic with an array is the mask's count. With the
    reasons those reductions add; None unless every read is one of these, with one mask. ``edits``:
    the ones made so far (extended). ``product``: ``name`` holds the rows of a product (``h = sel @ W``),
    read only by reductions over its axis 0 or every entry."""
    edits = list(edits or [])
    masks: set[str] = set()
    extra: list[str] = []
    readers = src.loads_of(name, scope)
    lengths = [_count_read(src, read, frozenset({name})) if boolean else None for read in readers]
    if all(lengths):
        return None
    # the reads, with the names that the chain of assignments below binds (name, read, length read)
    work = [(name, read, length) for read, length in zip(readers, lengths)]
    rows_only = {name} if product else set()  # names whose rows went through `@ W`: reduced over axis 0 or all
    while work:
        current, read, length = work.pop(0)
        if length is not None:
            edits.append(replace(src, length, f"{jnp}.count_nonzero({named[name][1]})"))
            masks.add(named[name][1])
            continue
        call = src.parents.get(read)  # the reduction that holds this read, through elementwise operations
        enclosed = not row_kept
        while isinstance(call, (ast.BinOp, ast.UnaryOp, ast.Compare)) or _column_parts(call) or (
                isinstance(call, (ast.List, ast.Tuple)) and _concatenated(src, src.parents.get(call)) is not None) \
                or _concatenated(src, call) is not None or (
                isinstance(call, ast.Attribute) and call.attr in _REDUCTIONS) or (
                isinstance(call, ast.Call) and _reduction(src, jnp, call) is None
                and (canonical(src, call.func) or "") in JAX_ELEMENTWISE) or (
                isinstance(call, ast.Call) and _per_row(src, jnp, call) is not None):
            enclosed = enclosed or isinstance(call, ast.Call) and _per_row(src, jnp, call) is not None \
                and reduces_row(src, call)
            call = src.parents.get(call)
        if not enclosed:
            return None
        if isinstance(call, ast.Assign):  # `h = jnp.tanh(valid @ w)`: a chain, h computed on the whole arrays
            if any(e.start == src.start(call.value) for e in edits):
                continue  # read twice in one chained value (`w = sel[:, 2] - sel[:, 0]`): rewritten once
            chained = _chained(src, jnp, call, named, bound_slice is None)
            if chained is None:
                return None
            target, text, rows = chained
            edits.append(replace(src, call.value, text))
            if rows or current in rows_only:
                rows_only.add(target)
            work += [(target, r, None) for r in src.loads_of(target, scope)]
            continue
        found = _reduced_whole(src, jnp, call, named, bound_slice) if isinstance(call, ast.Call) else None
        reduced = _reduction(src, jnp, call) if found is not None else None  # type: ignore[arg-type]
        axis = reduced[3] if reduced is not None else None  # (None also for an order statistic's NaN twin)
        if found is not None and current in rows_only and axis is None:
            found = _all_rows(src, jnp, current, found, reduced)
        if found is None or current in rows_only and axis not in (0, None) or per_row_value and axis is not None:
            return None
        if per_row_value:
            found = (found[0], found[1], found[2] + (PER_ROW,))
        if current in rows_only:
            found = (found[0], found[1], found[2] + (ROW_PRODUCT,))
        if not any(e.start == src.start(call) for e in edits):
            edits.append(replace(src, call, found[0]))
            masks.add(found[1])
            extra += found[2]
    if not readers or len(masks) != 1:
        return None
    # a reduction inside another that is rewritten (`jnp.sum((sel - jnp.mean(sel)) ** 2)`): written by the outer one
    edits = [e for e in edits if not any(o is not e and o.start <= e.start and e.end <= o.end
                                         and (o.start, o.end) != (e.start, e.end) for o in edits)]
    return edits, extra


def _all_rows(src: Source, jnp: str, product: str, found: tuple[str, str, tuple[str, ...]],
              reduced: tuple[str, list[ast.expr], str, int | None] | None) -> tuple[str, str, tuple[str, ...]] | None:
    """A reduction of every entry (``jnp.sum(h)``, ``h.max()``) of ``product``, a name whose rows went
    through ``@ W`` (``h = sel @ W``: its leading axes are the mask's, its last one ``W``'s): the
    reduction ``found`` with its mask broadcast over the product's trailing axes, as a reduction over
    its axis 0 reads it (:func:`_over_rows`), so that a mask over the rows is not aligned with the
    product's last axis (:data:`ALL_ROWS`). None for products, norms and order statistics."""
    where = f"where={found[1]}"
    over = _over_rows(src, jnp, [(product, found[1])], found[1])
    if reduced is None or reduced[0] not in _REDUCTIONS or over is None or found[0].count(where) != 1:
        return None
    return found[0].replace(where, f"where={over[1]}"), found[1], (*found[2], ROWS, ALL_ROWS)


def _chained(src: Source, jnp: str, assign: ast.Assign, named: Named, settled: bool) -> tuple[str, str, bool] | None:
    """``h = f(valid)`` where ``valid`` names a selection (``named``) and ``f`` maps each selected
    entry (row) to one (elementwise arithmetic, comparisons and ``jnp`` functions; ``@ W`` with ``W`` a
    plain operand, row by row): (``h``, the text of ``f`` on the whole arrays, whether it went
    through ``@``). ``h`` is added to ``named`` as the whole array it now is, with the same mask (a
    slice's positions counted along ``h``'s axis 0). Only where ``h`` is bound once, alone on its
    lines, and the selection's texts are its own (``settled``: not a ``sel, sel_mask`` binding,
    whose mask has the selected array's shape)."""
    if not (settled and len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name)
            and src.alone_on_lines(assign, assign)):
        return None
    target = assign.targets[0].id
    if target in named or len(src.stores_in(src.scope_of(assign)).get(target, [])) != 1:
        return None
    masks: set[str] = set()
    leaves: list[tuple[str, str]] = []
    text = _whole(src, jnp, assign.value, masks, named, leaves, rows=True)
    if text is None or len(masks) != 1 or not leaves or _PER_ROW in leaves or _ROW_KEPT in leaves:
        return None
    (mask,) = masks
    array = leaves[0][0]
    jax = jax_alias(src.tree)
    if "broadcasted_iota" in mask:  # positions along axis 0 of the selected array: the same along h's
        iota = f"{jax}.lax.broadcasted_iota({jnp}.{_INDEX_DTYPE}, {array}.shape, 0)"
        if mask.count("broadcasted_iota") != mask.count(iota):
            return None
        mask = mask.replace(iota, f"{jax}.lax.broadcasted_iota({jnp}.{_INDEX_DTYPE}, {target}.shape, 0)")
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    named[target] = (target, mask)
    return target, text, "@" in text


# ``x.at[m].<method>(c)`` -> the value of each selected entry (``{x}`` the array, ``{c}`` the value)
_AT_METHODS = {"set": "{c}", "add": "{x} + {c}", "multiply": "{x} * {c}", "divide": "{x} / {c}",
               "power": "{x} ** {c}", "min": "{jnp}.minimum({x}, {c})", "max": "{jnp}.maximum({x}, {c})"}
_SPECIAL_FLOATS = ("nan", "inf", "pi", "e")


def _full_reduction(src: Source, jnp: str, node: ast.AST) -> bool:
    """A reduction of every entry to one number: ``jnp.sum/mean/...(E)`` or ``E.sum()`` (any of
    :data:`_REDUCTIONS`), nothing else passed."""
    if not isinstance(node, ast.Call) or node.keywords:
        return False
    if isinstance(node.func, ast.Attribute) and node.func.attr in _REDUCTIONS and not node.args \
            and dotted(node.func) != f"{jnp}.{node.func.attr}":
        return True
    name = dotted(node.func)
    return len(node.args) == 1 and not isinstance(node.args[0], ast.Starred) and name is not None \
        and name.startswith(f"{jnp}.") and name[len(jnp) + 1:] in _REDUCTIONS


def _scalar(src: Source, jnp: str, node: ast.AST, depth: int = 0) -> bool:
    """A value the same at every selected entry: a number, ``jnp.nan``/``np.inf``/``math.pi`` (negated
    or not), ``float("-inf")``, a full reduction ``jnp.max(a)`` (no other argument), or a name bound
    once (in the function or the module) to one."""
    if is_number(node):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _scalar(src, jnp, node.operand, depth)
    if isinstance(node, ast.Attribute):
        return node.attr in _SPECIAL_FLOATS and canonical(src, node.value) in ("jax.numpy", "numpy", "math")
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        if isinstance(node.func, ast.Name) and node.func.id == "float":
            return isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
        name = dotted(node.func)
        return name is not None and name.startswith(f"{jnp}.") and name[len(jnp) + 1:] in _REDUCTIONS
    if isinstance(node, ast.Name) and node.id in _scalar_parameters(src).get(id(src.scope_of(node)), ()):
        return True  # a parameter the call being fixed passes a number (:func:`_passed_selection`)
    if isinstance(node, ast.Name) and depth < 4:
        bound = src.local_binding(node.id, node) or src.module_binding(node.id)
        return bound is not None and _scalar(src, jnp, bound, depth + 1)
    return False


def _set_value(src: Source, jnp: str, value: ast.AST, mask: str) -> str | None:
    """The text of what ``.at[m].set(value)`` writes at each selected entry, over the whole array:
    ``value`` itself for a scalar (:func:`_scalar`), the whole array for a selection by the same mask
    (``y[m]``); None otherwise."""
    if _scalar(src, jnp, value):
        return src.segment(value)
    selected = _selection(src, jnp, value)
    if selected is not None and selected[1] == mask and isinstance(value, ast.Subscript):
        return selected[0]
    return None


def _masked_set(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """``x.at[m].set(c)`` -> ``jnp.where(m, c, x)``; ``.add/multiply/divide/power/min/max(c)`` ->
    ``jnp.where(m, x + c, x)`` and so on; ``c`` the same at every entry (:func:`_scalar`) or ``y[m]``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _AT_METHODS
            and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred)):
        return None
    target = node.func.value
    if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute)
            and target.value.attr == "at"):
        return None
    mask = _mask(src, jnp, target.slice) or _position_reads(src).get(id(target))
    value = None if mask is None else _set_value(src, jnp, node.args[0], mask)
    if mask is None or value is None:
        return None
    array = atom(src, target.value.value)
    if node.func.attr in ("add", "multiply", "divide", "power") and value == src.segment(node.args[0]):
        value = atom(src, node.args[0])  # an operand of an operator
    written = _AT_METHODS[node.func.attr].format(x=array, c=value, jnp=jnp)
    text = f"{jnp}.where({mask}, {written}, {src.segment(target.value.value)})"
    return make_fix("select with jnp.where instead of updating through a boolean mask (a static shape)",
                    [replace(src, node, text)], unsafe=[ASSUMES_SHAPE, CAST])


def _unpacked_set(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """``i, j = jnp.where(m)`` whose names are read only together, as ``x.at[i, j].set(c)`` later in
    the same block -> the assignment goes and the set becomes ``jnp.where(m, c, x)``."""
    assign = src.parents.get(node)
    if not (isinstance(node, ast.Call) and isinstance(assign, ast.Assign) and assign.value is node
            and len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Tuple)
            and all(isinstance(t, ast.Name) for t in assign.targets[0].elts) and src.alone_on_lines(assign, assign)):
        return None
    mask = _mask(src, jnp, node)
    if mask is None or isinstance(node.args[0], ast.Starred):
        return None
    names = [t.id for t in assign.targets[0].elts]  # type: ignore[attr-defined]
    scope = src.scope_of(assign)
    stores = src.stores_in(scope)
    if len(set(names)) != len(names) or any(len(stores.get(n, [])) != 1 for n in names):
        return None  # a coordinate rebound: the later read may see another value
    readers = [n for name in names for n in src.loads_of(name, scope)]
    if len(readers) != len(names):
        return None
    index = src.parents.get(readers[0])
    if isinstance(index, ast.Subscript) and len(names) == 1:  # (i,) = jnp.nonzero(m); x.at[i]
        at, elts = index, [readers[0]] if index.slice is readers[0] else []
    else:
        at = src.parents.get(index) if isinstance(index, ast.Tuple) else None
        elts = index.elts if isinstance(index, ast.Tuple) else []
    if not (isinstance(at, ast.Subscript) and len(elts) == len(names) and all(e is r for e, r in zip(elts, readers))
            and (at.slice is index or at.slice is readers[0])):
        return None
    call = src.parents.get(src.parents.get(at))
    if not (isinstance(at.value, ast.Attribute) and at.value.attr == "at" and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute) and call.func.attr == "set" and call.func.value is at
            and len(call.args) == 1 and not call.keywords and is_number(call.args[0])):
        return None
    later, body = src.statement_of(call), src.body_containing(assign)
    if later is None or body is None or later not in body or body.index(later) <= body.index(assign):
        return None
    # The mask moves to the later statement where nothing it reads is stored in between; else it
    # is computed where the coordinates were, under a name of its own.
    binding = ""
    mask_names = {n.id for n in ast.walk(node.args[0]) if isinstance(n, ast.Name)}
    if _stored_between(body[body.index(assign) + 1:body.index(later) + 1], mask_names):
        fresh = src.fresh_name("hit_mask")
        binding, mask = f"{src.page_break_of(assign)}{src.indent_of(assign)}{fresh} = {mask}\n", fresh
    text = f"{jnp}.where({mask}, {src.segment(call.args[0])}, {src.segment(at.value.value)})"
    return make_fix("select with jnp.where instead of setting at the coordinates of a boolean mask (a static shape)",
                    [replace_lines(assign.lineno, assign.end_lineno or assign.lineno, binding),
                     replace(src, call, text)], unsafe=[ASSUMES_SHAPE, CAST])


def _stored_between(statements: list[ast.stmt], names: set[str]) -> bool:
    """Whether ``statements`` store any of ``names`` before the last one reads them: the last
    statement's own assignment targets are stored after its value is computed (``x = x.at[i].set(0)``
    reads ``x`` first), every other store counts."""
    *before, last = statements
    after = set()
    if isinstance(last, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = last.targets if isinstance(last, ast.Assign) else [last.target]
        after = {id(n) for t in targets for n in ast.walk(t)}
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in names and id(n) not in after
               for stmt in [*before, last] for n in ast.walk(stmt))


def _first_hits(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """``i, j = jnp.where(m)`` (or ``i = jnp.nonzero(m)[0]``) whose coordinates are read only as
    ``i[k]`` (literal ``k >= 0``) ->
    ``jnp.where(m, size=K)``, ``K`` one past the largest ``k``: the first ``K`` hits, in the same
    order, have a static shape."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
            and dotted(node.func) in (f"{jnp}.nonzero", f"{jnp}.where") and not isinstance(node.args[0], ast.Starred)):
        return None
    value: ast.AST = node
    parent = src.parents.get(node)
    if isinstance(parent, ast.Subscript) and parent.value is node and int_literal(parent.slice) is not None:
        value = parent  # `idx = jnp.nonzero(m)[0]`: one coordinate array, named
    assign = src.parents.get(value)
    if not (isinstance(assign, ast.Assign) and assign.value is value and len(assign.targets) == 1):
        return None
    targets = assign.targets[0].elts if isinstance(assign.targets[0], ast.Tuple) and value is node \
        else [assign.targets[0]] if value is not node else []
    if not targets or not all(isinstance(t, ast.Name) for t in targets):
        return None
    scope = src.scope_of(assign)
    stores = src.stores_in(scope)
    wanted = 0
    for target in targets:
        name = target.id  # type: ignore[attr-defined]
        reads = src.loads_of(name, scope)
        if len(stores.get(name, [])) != 1 or not reads:
            return None
        for read in reads:
            at = src.parents.get(read)
            k = int_literal(at.slice) if isinstance(at, ast.Subscript) and at.value is read else None
            if k is None or k < 0:
                return None
            wanted = max(wanted, k + 1)
    text = f"{src.segment(node.func)}({src.segment(node.args[0])}, size={wanted})"
    return make_fix(f"keep the first {wanted} hit(s) the code reads (size={wanted}: a static shape)",
                    [replace(src, node, text)], unsafe=[FEWER_HITS])


_INTEGER_HITS = frozenset({"jax.numpy.nonzero", "jax.numpy.flatnonzero", "jax.numpy.argwhere", "jax.numpy.where"})
PADDED_SUM = "the padded entries are 0: a float sum runs over more terms (its last bits may differ)"
UNIQUE_NAN = "NaN entries are counted one by one; jnp.unique counts them as one value"


def _summed(src: Source, jnp: str, node: ast.AST) -> bool:
    """``node`` is the one operand of a sum: ``jnp.sum(node)`` or ``node.sum()``, nothing else passed."""
    parent = src.parents.get(node)
    if isinstance(parent, ast.Call) and not parent.keywords and parent.args == [node]:
        return dotted(parent.func) == f"{jnp}.sum"
    call = src.parents.get(parent)
    return (isinstance(parent, ast.Attribute) and parent.attr == "sum" and parent.value is node
            and isinstance(call, ast.Call) and call.func is parent and not call.args and not call.keywords)


def _result_reads(src: Source, value: ast.AST) -> tuple[ast.Assign | None, list[ast.AST]] | None:
    """(the assignment that binds ``value`` to a name bound once, or None, and the nodes that read
    it: that name's loads, else ``value`` itself)."""
    assign = src.parents.get(value)
    if not (isinstance(assign, ast.Assign) and assign.value is value):
        return None, [value]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
        return None
    scope = src.scope_of(assign)
    target = assign.targets[0].id
    if len(src.stores_in(scope).get(target, [])) != 1:
        return None
    return assign, list(src.loads_of(target, scope))


def _hit_reads(src: Source, node: ast.AST) -> tuple[str, ast.expr, ast.Assign | None, list[ast.AST]] | None:
    """For a size-less ``jnp.nonzero(a)``, ``jnp.where(a)``, ``jnp.unique(a)`` ... (one array, no
    other argument): (its canonical name, ``a``, and :func:`_result_reads` of its result, or of
    its ``[k]``)."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
            and not isinstance(node.args[0], ast.Starred)):
        return None
    name = canonical(src, node.func)
    if name not in HITS_OF_ONE:
        return None
    value: ast.AST = node
    parent = src.parents.get(node)
    if isinstance(parent, ast.Subscript) and parent.value is node and int_literal(parent.slice) is not None:
        if name == "jax.numpy.argwhere":
            return None  # jnp.argwhere(m)[k] is the k-th hit's coordinates (a row of ndim entries), not hits
        value = parent  # jnp.nonzero(m)[0]: one coordinate array
    elif name in ("jax.numpy.nonzero", "jax.numpy.where"):
        return None  # a tuple of coordinate arrays: read only one by one
    found = _result_reads(src, value)
    return None if found is None else (name, node.args[0], *found)


def _padded_hits(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """Size-less hits (:func:`_hit_reads`) read only as the operand of sums -> ``size=<a>.size,
    fill_value=0``: no such result is longer than ``a`` has entries, and the padding adds 0 to
    every sum. Exact for indices (integer sums); UNSAFE for the values of ``jnp.unique`` (a float
    sum over more terms)."""
    found = _hit_reads(src, node)
    if found is None:
        return None
    name, operand, _, reads = found
    if not reads or not all(_summed(src, jnp, read) for read in reads):
        return None
    text = f"{src.segment(node.func)}({src.segment(operand)}, size={atom(src, operand)}.size, fill_value=0)"
    return make_fix("pad the result to its largest size with zeros (size=, a static shape): the sums that read it "
                    "do not change", [replace(src, node, text)],
                    unsafe=[] if name in _INTEGER_HITS else [PADDED_SUM])


def _length_read(src: Source, read: ast.AST) -> ast.expr | None:
    """The expression that reads the length of ``read``: ``v.shape[0]``, ``v.size`` or ``len(v)``."""
    parent = src.parents.get(read)
    if isinstance(parent, ast.Attribute) and parent.value is read and parent.attr == "size":
        return parent
    if isinstance(parent, ast.Attribute) and parent.value is read and parent.attr == "shape":
        index = src.parents.get(parent)
        if isinstance(index, ast.Subscript) and index.value is parent and int_literal(index.slice) == 0:
            return index
    elif (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len"
          and parent.args == [read] and not parent.keywords and not src.stores_in(src.tree).get("len")):
        return parent
    return None


def _count_read(src: Source, read: ast.AST, arrays: frozenset[str] = frozenset()) -> ast.expr | None:
    """The expression that reads the length of ``read`` (:func:`_length_read`) where it is an
    operand of arithmetic with an array (a ``jax`` call, a name bound to one, or an expression
    that reads one of the names ``arrays``, which the fix turns into arrays): there a traced count
    gives the value the Python int gave (never where it could size a shape)."""
    count = _length_read(src, read)
    arithmetic = src.parents.get(count) if count is not None else None
    if not isinstance(arithmetic, ast.BinOp) or not isinstance(arithmetic.op, _ARITH):
        return None
    other = arithmetic.right if arithmetic.left is count else arithmetic.left
    if any(isinstance(n, ast.Name) and n.id in arrays for n in ast.walk(other)):
        return count
    if isinstance(other, ast.Name):
        other = src.local_binding(other.id, other)  # type: ignore[assignment]
    if not (isinstance(other, ast.Call) and (canonical(src, other.func) or "").startswith("jax.")):
        return None
    return count


def _counted_hits(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """Size-less hits (:func:`_hit_reads`) or a boolean selection ``x[m]`` whose result is read only
    for its length, in arithmetic with an array (``jnp.stack(rows) * levels.shape[0]``) -> that
    length counted on the device: ``jnp.count_nonzero(a)`` hits of ``a`` (``m`` for a selection:
    its rows), or the distinct values of ``a`` (``jnp.unique``) from its sorted entries. The count
    is a traced int32 where the original had a Python int: the arithmetic gives the same values.
    UNSAFE for ``jnp.unique`` (NaN entries count one each; the original counts them once) and for
    a selection's ``.size`` (it counts the mask's hits: the rows' other axes are not counted)."""
    unsafe: list[str] = []
    mask = _mask(src, jnp, node.slice) if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) else None
    if mask is not None:
        reads = _result_reads(src, node)
        if reads is None:
            return None
        name, assign, reads_of = "selection", reads[0], reads[1]
        a = mask
    else:
        found = _hit_reads(src, node)
        if found is None:
            return None
        name, operand, assign, reads_of = found
        a = src.segment(operand)
    counts = [_count_read(src, read) for read in reads_of]
    if not counts or any(c is None for c in counts):
        return None
    if name == "jax.numpy.argwhere" and any(isinstance(c, ast.Attribute) for c in counts):
        return None  # jnp.argwhere(m).size is hits * m.ndim: only its rows (.shape[0], len) are the hits
    if name == "selection" or name in _INTEGER_HITS:
        count = f"{jnp}.count_nonzero({a})"
        if name == "selection" and any(isinstance(c, ast.Attribute) for c in counts):
            unsafe.append(ASSUMES_SHAPE)
    else:
        ordered = f"{jnp}.sort({jnp}.ravel({a}))"
        count = f"{jnp}.count_nonzero({ordered}[1:] != {ordered}[:-1]) + min({atom(src, operand)}.size, 1)"
        unsafe.append(UNIQUE_NAN)
    edits = []
    if assign is not None:
        target = assign.targets[0].id  # type: ignore[attr-defined]
        fresh = src.fresh_name(f"{target}_count")
        edits += [replace(src, assign.targets[0], fresh), replace(src, assign.value, count)]
        count = fresh
    elif "+" in count:
        count = f"({count})"
    edits += [replace(src, c, count) for c in counts]  # type: ignore[arg-type]
    return make_fix("count the entries on the device instead of reading the length of a data-dependent result "
                    "(the arithmetic that reads it takes a traced count)", edits, unsafe)


RETURNED = ("the function now returns the whole array and its mask: a caller outside this file (none is seen here) "
            "reads a pair")
RETURNED_LAST = ("the function now returns the mask as one more item of its tuple: a caller outside this file (none "
                 "is seen here) unpacks one item too many")
PASSED = ("the function reduces its parameter with `where=` a new keyword parameter that defaults to None (every "
          "entry, as before); the other arguments of the call are read as numbers (the same for every entry)")


def _function_at_module_level(src: Source, node: ast.AST) -> ast.FunctionDef | None:
    """The plain module-level function ``node`` is in (no decorator, which could wrap it)."""
    function = src.scope_of(node)
    if isinstance(function, ast.FunctionDef) and src.parents.get(function) is src.tree \
            and not function.decorator_list:
        return function
    return None


def _returned_selection(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """A selection (``x[m]``, ``jnp.extract(c, a)``, a data-sized call :func:`_selection` reads) that
    a module-level function returns (``return x[m]``, or ``r = x[m]`` bound once and read only by
    its one ``return r``), where every caller in the file binds the result to a name read only as
    :func:`_assigned_selection` reads a selection (inside reductions, chains of elementwise
    assignments, its length in arithmetic) -> the function returns the whole array and the mask
    (``return x, m``; ``r, r_mask = x, m`` at the selection, read as it was then), and each caller
    unpacks them (``v, v_mask = select(...)``) and reduces the whole array with ``where=v_mask``.
    Declined when the function's name is read any other way (handed on, wrapped, called at module
    level), when a caller reads the result otherwise, or when the function returns elsewhere.
    UNSAFE as the in-function rewrite is, and for a caller outside the file (:data:`RETURNED`)."""
    if not isinstance(node, (ast.Subscript, ast.Call)):
        return None
    function = _function_at_module_level(src, node)
    selected = _selection(src, jnp, node) if function is not None else None
    if function is None or selected is None:
        return None
    returns = [n for n in src.scope_nodes(function) if isinstance(n, ast.Return)]
    if len(returns) != 1:
        return None
    # elementwise arithmetic of selections by one mask (`jnp.abs(x[m] - y[m])`) is that arithmetic of the
    # whole arrays, with that mask, as in _assigned_selection
    value: ast.expr = node
    while isinstance(src.parents.get(value), (ast.BinOp, ast.UnaryOp, ast.Compare)) or (
            isinstance(src.parents.get(value), ast.Call) and src.parents[value].func is not value
            and JAX_ELEMENTWISE.get(canonical(src, src.parents[value].func) or "") is not None):
        value = src.parents[value]  # type: ignore[assignment]
    if value is not node:
        masks: set[str] = set()
        leaves: list[tuple[str, str]] = []
        whole = _whole(src, jnp, value, masks, leaves=leaves)
        if whole is None or masks != {selected[1]} or _PER_ROW in leaves or _ROW_KEPT in leaves:
            return None
        selected = (whole, selected[1])
    parent = src.parents.get(value)
    if parent is returns[0]:
        edits = [replace(src, value, f"{selected[0]}, {selected[1]}")]
    else:
        if not (isinstance(parent, ast.Assign) and parent.value is value and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name) and src.alone_on_lines(parent, parent)):
            return None
        name = parent.targets[0].id
        reads = src.loads_of(name, function)
        if len(src.stores_in(function).get(name, [])) != 1 or len(reads) != 1 or returns[0].value is not reads[0]:
            return None
        mask = src.fresh_name(f"{name}_mask")
        binding = f"{src.indent_of(parent)}{name}, {mask} = {selected[0]}, {selected[1]}\n"
        edits = [replace_lines(parent.lineno, parent.end_lineno or parent.lineno, src.page_break_of(parent) + binding),
                 replace(src, reads[0], f"{name}, {mask}")]
    found = callers(src, function)
    if not found:
        return None
    boolean = isinstance(node, ast.Subscript) and _mask(src, jnp, node.slice) is not None
    bound_slice = selected if "broadcasted_iota" in selected[1] else None
    extra: list[str] = []
    for caller, calls in found:
        for call in calls:
            assign = src.parents.get(call)
            if not (isinstance(assign, ast.Assign) and assign.value is call and len(assign.targets) == 1
                    and isinstance(assign.targets[0], ast.Name)):
                return None
            target = assign.targets[0].id
            if len(src.stores_in(caller).get(target, [])) != 1:
                return None
            mask = src.fresh_name(f"{target}_mask")
            edits.append(replace(src, assign.targets[0], f"{target}, {mask}"))
            rewritten = _reads_rewritten(src, jnp, target, caller, {target: (target, mask)}, bound_slice, boolean,
                                         edits=edits)
            if rewritten is None:
                return None
            edits, more = rewritten
            extra += more
    fix = _reduction_fix(edits, selected[1], bounded_creation(src, jnp, node) is not None, (*extra, RETURNED))
    return make_fix(fix.message.split(" (unsafe: ")[0].replace("instead of the boolean selection",
                                                               f"returned by `{function.name}` with its mask"),
                    fix.edits, _reasons(fix))


def _returned_selections(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """A module-level function whose one ``return a, b, c`` returns a tuple with selections by one
    mask among its items (``b``/``c`` bound once, alone on their lines, to ``x[m]``/``y[m]`` and read
    only there, or the selections themselves), ``node`` one of them or the positions that select
    them (``idx = jnp.where(m)[0]``, read only as ``x[idx]``, ``y[idx]``) -> the function binds the
    whole arrays instead (``b = x``; ``idx = m``: the mask, evaluated where the positions were) and
    returns the mask last (``return a, b, c, m``); each caller in the file unpacks the tuple into as
    many names (``p, q, r = f(...)`` -> ``p, q, r, q_mask = f(...)``) and reads every selected name
    as :func:`_returned_selection` reads one (reductions with ``where=``, chains of row-wise
    assignments, its length counted). The mask must keep its value from the first selection to the
    return (a parameter or a name bound before, never rebound). UNSAFE as :func:`_returned_selection`."""
    if not isinstance(node, (ast.Subscript, ast.Call)):
        return None
    function = _function_at_module_level(src, node)
    returns = [n for n in src.scope_nodes(function) if isinstance(n, ast.Return)] if function is not None else []
    if function is None or len(returns) != 1 or not isinstance(returns[0].value, ast.Tuple) \
            or any(isinstance(e, ast.Starred) for e in returns[0].value.elts):
        return None
    items = returns[0].value.elts
    assign = src.parents.get(node)
    edits: list = []
    registry = _position_reads(src)
    indexed: list[ast.AST] = []
    try:
        if isinstance(assign, ast.Assign) and assign.value is node and positions_of(src, jnp, node) is not None:
            # `idx = jnp.where(m)[0]` read only as `x[idx]`: the positions become the mask, bound where they were
            mask = _mask(src, jnp, node)
            if mask is None or len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name) \
                    or len(src.stores_in(function).get(assign.targets[0].id, [])) != 1:
                return None
            returned_mask = assign.targets[0].id
            indexed = [src.parents.get(r) for r in src.loads_of(returned_mask, function)]  # type: ignore[misc]
            if not indexed or any(not (isinstance(p, ast.Subscript) and isinstance(p.ctx, ast.Load)
                                       and isinstance(p.slice, ast.Name) and p.slice.id == returned_mask)
                                  for p in indexed):
                return None
            registry.update((id(p), mask) for p in indexed)
            edits.append(replace(src, node, mask))
        else:  # `x[m]`: the mask, a name that keeps its value from the selection on, is returned as it is
            found = _selection(src, jnp, node)
            statement = src.statement_of(node)
            if found is None or not found[1].isidentifier() or statement is None \
                    or not src.settled_before(statement, {found[1]}):
                return None
            mask = returned_mask = found[1]
        slots = []  # the positions of the tuple's items that are selections by the mask
        texts = [src.segment(item) for item in items]  # the returned items, as the fix writes them
        for i, item in enumerate(items):
            value = item
            if isinstance(item, ast.Name):
                bound = src.local_binding(item.id, item)
                binding = src.parents.get(bound) if bound is not None else None
                if bound is None or not (isinstance(binding, ast.Assign) and len(binding.targets) == 1
                                         and src.alone_on_lines(binding, binding)) \
                        or len(src.stores_in(function).get(item.id, [])) != 1 \
                        or len(src.loads_of(item.id, function)) != 1:
                    bound = None
                value = bound if bound is not None else item
            selected = _selection(src, jnp, value) if isinstance(value, (ast.Subscript, ast.Call)) else None
            if selected is None or selected[1] != mask or bounded_creation(src, jnp, value) is not None:
                if any(_selection(src, jnp, n) is not None for n in ast.walk(value)):
                    return None  # a selection by another mask, or inside an expression
                continue
            slots.append(i)
            if value is item:
                texts[i] = selected[0]
                indexed = [p for p in indexed if p is not value]
            else:
                edits.append(replace(src, value, selected[0]))
        if not slots or not all(any(e.start == src.start(p) for e in edits) for p in indexed):
            return None  # the positions read by a selection that is not returned
        edits.append(replace(src, returns[0].value, ", ".join([*texts, returned_mask])))
    finally:
        for p in indexed:
            registry.pop(id(p), None)
    found_callers = callers(src, function)
    if not found_callers:
        return None
    extra: list[str] = []
    for caller, calls in found_callers:
        for call in calls:
            bind = src.parents.get(call)
            if not (isinstance(bind, ast.Assign) and bind.value is call and len(bind.targets) == 1
                    and isinstance(bind.targets[0], ast.Tuple) and len(bind.targets[0].elts) == len(items)
                    and all(isinstance(t, ast.Name) for t in bind.targets[0].elts)):
                return None
            targets = [bind.targets[0].elts[i].id for i in slots]  # type: ignore[attr-defined]
            if any(len(src.stores_in(caller).get(t, [])) != 1 for t in targets):
                return None
            caller_mask = src.fresh_name(f"{targets[0]}_mask")
            edits.append(replace(src, bind.targets[0], f"{src.segment(bind.targets[0])}, {caller_mask}"))
            named = {t: (t, caller_mask) for t in targets}
            for target in targets:
                reads = src.loads_of(target, caller)
                if reads and all(any(e.start <= src.start(r) and src.end(r) <= e.end for e in edits) for r in reads):
                    continue  # read only where another selected name's reads were rewritten
                rewritten = _reads_rewritten(src, jnp, target, caller, named, None, True, edits=edits)
                if rewritten is None:
                    return None
                edits, more = rewritten
                extra += [r for r in more if r not in extra]
    fix = _reduction_fix(edits, mask, False, (*extra, RETURNED_LAST))
    return make_fix(fix.message.split(" (unsafe: ")[0].replace("instead of the boolean selection",
                                                               f"returned by `{function.name}` with its mask"),
                    fix.edits, _reasons(fix))


_WHERE_NONE = frozenset({"sum", "mean", "prod", "var", "std", "any", "all"})  # `where=None`: every entry


def _scalar_parameters(src: Source) -> dict[int, frozenset[str]]:
    """Parameters that :func:`_scalar` reads as numbers while :func:`_passed_selection` rewrites the
    function they belong to (by the function's id): what the one call it fixes passes them."""
    found: dict[int, frozenset[str]] = src.memo("scalar parameters", dict)
    return found


def _passed_selection(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """A selection passed to a module-level function of the file (``loss(1.0, x[m])``, or ``v = x[m]``
    bound once and read only as that argument), which reads the parameter only inside full
    reductions that take ``where=`` (sum, mean, prod, var, std, any, all) of elementwise expressions,
    with its other parameters there read as numbers that the call passes (``1.0``, a name bound to
    one) -> the function gets a keyword parameter for the mask, default None, and each such
    reduction ``where=`` it (``jnp.mean(E, where=None)`` reduces every entry: its other callers get
    what they got); the call passes the whole array and the mask. UNSAFE as the in-function rewrite
    is (:data:`PASSED`)."""
    if not isinstance(node, (ast.Subscript, ast.Call)):
        return None
    selected = _selection(src, jnp, node)
    if selected is None:
        return None
    parent = src.parents.get(node)
    argument: ast.expr = node
    binding: list = []
    whole, mask = selected
    if isinstance(parent, ast.Assign):
        if not (parent.value is node and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)
                and src.alone_on_lines(parent, parent)):
            return None
        name = parent.targets[0].id
        scope = src.scope_of(parent)
        reads = src.loads_of(name, scope)
        if len(src.stores_in(scope).get(name, [])) != 1 or len(reads) != 1:
            return None
        argument, mask = reads[0], src.fresh_name(f"{name}_mask")
        whole = name
        binding = [replace_lines(parent.lineno, parent.end_lineno or parent.lineno, src.page_break_of(parent)
                                 + f"{src.indent_of(parent)}{name}, {mask} = {selected[0]}, {selected[1]}\n")]
    elif isinstance(parent, ast.keyword):
        parent = src.parents.get(parent)
    call = src.parents.get(argument) if argument is not node else parent
    if isinstance(call, ast.keyword):
        call = src.parents.get(call)
    if not isinstance(call, ast.Call) or argument is call.func:
        return None
    function = module_function(src, call)
    if function is None or function.args.vararg or function.args.kwarg:
        return None
    param = parameter_passed(function, call, argument)
    if param is None or len(src.stores_in(function).get(param, [])) != 0:
        return None
    reads = src.loads_of(param, function)
    others = {a.arg for a in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]} - {param}
    # the other parameters the reductions read must be numbers in this call
    scalars = frozenset(p for p in others if (lambda passed: passed is not None and _scalar(src, jnp, passed))(
        passed_for(function, call, p)))
    new = src.fresh_name(f"{param}_mask")
    named = {param: (param, new)}
    _scalar_parameters(src)[id(function)] = scalars
    try:
        edits: list = []
        for read in reads:
            reduction = src.parents.get(read)
            while isinstance(reduction, (ast.BinOp, ast.UnaryOp, ast.Compare)) or (
                    isinstance(reduction, ast.Call) and _reduction(src, jnp, reduction) is None
                    and (canonical(src, reduction.func) or "") in JAX_ELEMENTWISE):
                reduction = src.parents.get(reduction)
            if isinstance(reduction, ast.Attribute) and reduction.attr in _REDUCTIONS:
                reduction = src.parents.get(reduction)
            shape = _reduction(src, jnp, reduction) if isinstance(reduction, ast.Call) else None
            if shape is None or shape[0] not in _WHERE_NONE or shape[3] is not None:
                return None
            found = _reduced_whole(src, jnp, reduction, named)  # type: ignore[arg-type]
            if found is None or found[1] != new or src.scope_of(reduction) is not function:  # type: ignore[arg-type]
                return None
            if not any(e.start == src.start(reduction) for e in edits):  # type: ignore[arg-type]
                edits.append(replace(src, reduction, found[0]))  # type: ignore[arg-type]
    finally:
        _scalar_parameters(src).pop(id(function), None)
    if not reads:
        return None
    args = function.args
    last = max([*args.posonlyargs, *args.args, *args.kwonlyargs, *args.defaults,
                *(d for d in args.kw_defaults if d is not None)], key=lambda n: src.offset(src.end(n)), default=None)
    if last is None:
        return None
    keyword_only = ", " if args.kwonlyargs else ", *, "
    edits.append(Edit(src.end(last), src.end(last), f"{keyword_only}{new}=None"))
    # the function's lines rewritten as one statement (an edit inside its signature alone does not parse)
    first, end = function.lineno, function.end_lineno or function.lineno
    shifted = [Edit(Location(e.start.line - first + 1, e.start.col), Location(e.end.line - first + 1, e.end.col),
                    e.content) for e in edits]
    edits = [replace_lines(first, end, apply_edits("".join(src.lines[first - 1:end]), shifted))]
    passed = [src.segment(a) if a is not argument else whole for a in call.args]
    passed += [f"{k.arg}={src.segment(k.value) if k.value is not argument else whole}" for k in call.keywords]
    edits.append(replace(src, call, f"{src.segment(call.func)}({', '.join([*passed, f'{new}={mask}'])})"))
    edits += binding
    fix = _reduction_fix(edits, selected[1], bounded_creation(src, jnp, node) is not None, (PASSED,))
    return make_fix(fix.message.split(" (unsafe: ")[0].replace(
        "reduce the whole array with `where=` instead of the boolean selection",
        f"pass `{function.name}` the whole array and the mask, which it reduces with `where=`"),
        fix.edits, _reasons(fix))


@rewriter(ast.Call, ast.Subscript, pointed=True)
def rewrite_jax_boolean_mask(src: Source, node: ast.AST) -> Fix | None:
    jnp = _jnp(src)
    if jnp is None:
        return None
    # the padded sum of hits first: exact (SAFE) for positions, where the selection they also are
    # (jax_selections) is read with `where=` (UNSAFE)
    _sized_read(src).clear()
    _column_read(src).clear()
    fix = (_padded_hits(src, jnp, node) or _masked_set(src, jnp, node) or _masked_reduction(src, jnp, node)
           or _unpacked_set(src, jnp, node) or _first_hits(src, jnp, node) or _assigned_selection(src, jnp, node)
           or _counted_hits(src, jnp, node) or indexed_fill(src, jnp, node) or _named_positions(src, jnp, node)
           or _returned_selection(src, jnp, node) or _returned_selections(src, jnp, node)
           or _passed_selection(src, jnp, node))
    if fix is not None and fix.edits and _reads_positions(src, jnp, fix):
        fix = make_fix(fix.message.split(" (unsafe: ")[0], fix.edits, [POSITIONS, *_reasons(fix)])
    if fix is not None and fix.edits and _sized_read(src):
        fix = make_fix(fix.message.split(" (unsafe: ")[0], fix.edits, [*_reasons(fix), SIZED])
    if fix is not None and fix.edits and _column_read(src):
        fix = make_fix(fix.message.split(" (unsafe: ")[0], fix.edits, [*_reasons(fix), COLUMN])
    return fix


def _position_reads(src: Source) -> dict[int, str]:
    """``x[idx]`` -> the mask text, for ``idx = jnp.nonzero(m)[0]`` while :func:`_named_positions`
    rewrites its reads (empty otherwise)."""
    reads: dict[int, str] = src.memo("position reads", dict)
    return reads


def _named_positions(src: Source, jnp: str, node: ast.AST) -> Fix | None:
    """``idx = jnp.nonzero(m)[0]`` (or ``jnp.where``) alone on its lines, ``idx`` bound once and read
    only as ``x[idx]`` inside reductions that :func:`_reduced_whole` rewrites with ``where=m``: the
    assignment goes and each reduction gets the mask (``m``'s names keep their value from the
    assignment on: :meth:`Source.settled_before`)."""
    assign = src.parents.get(node)
    if not (isinstance(node, (ast.Subscript, ast.Call)) and isinstance(assign, ast.Assign) and assign.value is node
            and len(assign.targets) == 1 and src.alone_on_lines(assign, assign)):
        return None
    stored = assign.targets[0]
    if isinstance(stored, (ast.Tuple, ast.List)) and len(stored.elts) == 1 and isinstance(node, ast.Call) \
            and dotted(node.func) in (f"{jnp}.nonzero", f"{jnp}.where") and len(node.args) == 1 and not node.keywords:
        stored = stored.elts[0]  # `(idx,) = jnp.nonzero(m)`: one coordinate array, so `m` is 1-D
    elif positions_of(src, jnp, node) is None:
        return None
    if not isinstance(stored, ast.Name):
        return None
    mask = _mask(src, jnp, node)
    target = stored.id
    scope = src.scope_of(assign)
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    if mask is None or len(src.stores_in(scope).get(target, [])) != 1 \
            or not src.settled_before(assign, names, own={id(stored)}):
        return None
    reads = src.loads_of(target, scope)
    indexed = [src.parents.get(r) for r in reads]
    if not reads or any(src.scope_of(r) is not scope or not (isinstance(p, ast.Subscript) and p.slice is r)
                        for r, p in zip(reads, indexed)):
        return None
    registry = _position_reads(src)
    try:
        registry.update((id(p), mask) for p in indexed)
        edits, extra, seen = [replace_lines(assign.lineno, assign.end_lineno or assign.lineno, "")], [], set()
        updated = 0
        for read in indexed:
            method = src.parents.get(read)
            update = src.parents.get(method)
            if isinstance(read.value, ast.Attribute) and read.value.attr == "at" and isinstance(update, ast.Call):
                # `x.at[idx].set(c)`: the update through the mask (_masked_set), as `x.at[m].set(c)`
                written = _masked_set(src, jnp, update)
                if written is None:
                    return None
                edits += written.edits
                extra += [r for r in _reasons(written) if r not in extra]
                updated += 1
                continue
            call = src.parents.get(read)
            while isinstance(call, (ast.BinOp, ast.UnaryOp, ast.Compare)) or (
                    isinstance(call, ast.Call) and (canonical(src, call.func) or "") in JAX_ELEMENTWISE):
                call = src.parents.get(call)
            found = _reduced_whole(src, jnp, call) if isinstance(call, ast.Call) else None
            if found is None or found[1] != mask:
                return None
            if id(call) not in seen:
                seen.add(id(call))
                edits.append(replace(src, call, found[0]))
                extra += found[2]
        edits = [e for e in edits if not any(o is not e and o.start <= e.start and e.end <= o.end
                                             and (o.start, o.end) != (e.start, e.end) for o in edits)]
        if updated == len(indexed):  # only updates: no reduction's reasons
            return make_fix("update with jnp.where through the mask instead of its positions (a static shape)",
                            edits, unsafe=extra)
        return _reduction_fix(edits, mask, False, tuple(extra))
    finally:
        for p in indexed:
            registry.pop(id(p), None)


def _reads_positions(src: Source, jnp: str, fix: Fix) -> bool:
    """Whether an edit of ``fix`` replaces code that indexes by ``jnp.nonzero(m)[0]`` (also when the positions are
    bound to a name first); positions read otherwise (``jnp.flatnonzero(m).sum()``) are no index."""
    def used_as_index(n: ast.AST) -> bool:
        parent = src.parents.get(n)
        return (isinstance(parent, ast.Subscript) and parent.slice is n) or (
            isinstance(parent, ast.Assign) and parent.value is n)

    indexes = src.memo(("positions indexes", jnp), lambda: [  # once per file: fix paths stay linear
        n for n in src.nodes if isinstance(n, (ast.Subscript, ast.Call)) and positions_of(src, jnp, n) is not None
        and used_as_index(n)])
    spans = [(e.start, e.end) for e in fix.edits]
    return any(a <= src.start(n) and src.end(n) <= b for n in indexes for a, b in spans) or any(
        e.content == "" and e.start.line <= src.start(n).line <= e.end.line for n in indexes for e in fix.edits)


def _reasons(fix: Fix) -> list[str]:
    message = fix.message
    return message[message.index(" (unsafe: ") + 10:-1].split("; ") if " (unsafe: " in message else []
