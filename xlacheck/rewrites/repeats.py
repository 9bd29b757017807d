"""``tf.repeat`` with data-dependent repeats that only feeds a sum or mean over the repeated axis
-> a weighted reduction of the tensor itself.

``r = tf.repeat(x, c, axis=k)`` has ``sum(c)`` rows along axis k: a data-dependent shape, which
XLA compiles once per value of ``c`` (or not at all). When ``r`` is read once, afterwards, as
``tf.reduce_sum(r, axis=k)`` or ``tf.reduce_mean(r, axis=k)`` (the same literal k), or the reduction
reads ``tf.repeat(...)`` in place (:func:`xlacheck.rewrites.summed_sizes.summed_reader`), the repeated
rows are never needed: row i of x appears c[i] times, so

* ``reduce_sum(r, axis=k) == reduce_sum(tf.where(w > 0, x * w, 0), axis=k)`` with
  ``w = tf.reshape(tf.cast(c, x.dtype), [-1] + [1] * (len(x.shape) - k - 1))`` (c along axis k;
  a scalar or one-element c, which tf.repeat broadcasts, broadcasts alike);
* ``reduce_mean(r, axis=k)`` divides that by the number of repeated rows,
  ``reduce_sum(w * tf.ones_like(x), axis=k)`` (0 / 0 = NaN when every count is 0, as the mean of
  the original's empty tensor).

Rows with a zero count are left out by ``tf.where``, so an inf or NaN in them stays out, as in
the original, and the gradient with respect to x is c[i] per row, as the original's. Negative
counts raise in tf.repeat (unconstrained there).

The assignment ``r = tf.repeat(...)`` becomes the weights' assignment (a fresh name; in place, that
assignment goes in front of the statement), and the reduction reads x again: x must be a name that
nothing rebinds in between, and r must have no other reader. Exact (SAFE) for integer x and a sum:
``x * c`` is the sum of c copies of x. For floats ``x * c`` is rounded once where the original adds
c copies (the last bits may differ), and an integer mean truncates in the original where the fix
divides into a float: UNSAFE, and the message says which.

``jnp.repeat(x, c, axis=k)`` (XLA207: jax.jit has no data-dependent shapes at all) read once by
``jnp.sum``/``jnp.mean`` over axis k, as a function or as the array's method (``r.mean(axis=k)``),
gets the same sums in jax.numpy (``jnp.asarray(c).astype(x.dtype)`` reshaped along axis k). A mean
of integers is a float in JAX too, so only the rounding makes it UNSAFE. Everywhere, a mean read
inside an expression (``2 / m``) is written in parentheses, one quotient.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, call_name, number_value
from xlacheck.rewrites._fix import make_fix, replace, replace_lines, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.dtypes import argument, certain_dtype, is_floating
from xlacheck.rewrites.jax_masks import _jnp
from xlacheck.rewrites.jax_static import canonical
from xlacheck.rewrites.summed_sizes import INT_MEAN, STATEMENTS, lines_before, summed_reader

ROUNDING = ("x * c is rounded once where the original adds c copies of x: float sums may differ in the last bits")


@rewriter(ast.Call)
def rewrite_repeat_reduction(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.Call):
        return None
    tf = src.tf
    jnp = _jnp(src) if canonical(src, node.func) == "jax.numpy.repeat" else None
    if jnp is None and (tf is None or call_name(src, node) != "tf.repeat"):
        return None
    data, counts = argument(node, 0, "a" if jnp else "input"), argument(node, 1, "repeats")
    axis_node = argument(node, 2, "axis")
    if data is None or counts is None or axis_node is None or len(node.args) + len(node.keywords) != 3:
        return None
    axis = number_value(axis_node)
    if type(axis) is not int or not isinstance(data, ast.Name):
        return None
    summed = summed_reader(src, node, jax=jnp is not None)
    if summed is None:
        return None
    reduction, op = summed.reduction, summed.op
    if len(summed.call.args) > 2 or {k.arg for k in summed.call.keywords} - {"axis"} \
            or number_value(argument(summed.call, 1, "axis")) != axis:  # type: ignore[arg-type]
        return None
    if summed.assign is not None:
        # x is read again at the reduction: nothing may rebind it in between
        start, stop = (summed.assign.lineno, summed.assign.col_offset), (reduction.lineno, reduction.col_offset)
        if any(isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id == data.id
               and start <= (n.lineno, n.col_offset) < stop for n in ast.walk(src.scope_of(summed.assign))):
            return None
    x = data.id
    weights = src.fresh_name(f"{summed.label if summed.assign is not None else 'repeat'}_weights")
    reasons = []
    if jnp is not None:  # jax.numpy: the same sums; a mean of integers is a float in JAX too
        trailing = f"{x}.ndim - {axis + 1}" if axis >= 0 else str(-axis - 1)
        lines = [f"{weights} = {jnp}.reshape({jnp}.asarray({arg(src, counts)}).astype({x}.dtype), "
                 f"(-1,) + (1,) * ({trailing}))"]
        total = f"{jnp}.sum({jnp}.where({weights} > 0, {x} * {weights}, 0), axis={axis})"
        text = total if op == "sum" else f"{total} / {jnp}.sum({weights} * {jnp}.ones_like({x}), axis={axis})"
        reasons.append(ROUNDING)
    else:
        trailing = f"len({x}.shape) - {axis + 1}" if axis >= 0 else str(-axis - 1)
        lines = [f"{weights} = {tf}.reshape({tf}.cast({arg(src, counts)}, {x}.dtype), [-1] + [1] * ({trailing}))"]
        total = f"{tf}.reduce_sum({tf}.where({weights} > 0, {x} * {weights}, 0), axis={axis})"
        dtype = certain_dtype(src, data)
        if op == "mean":
            text = f"{total} / {tf}.reduce_sum({weights} * {tf}.ones_like({x}), axis={axis})"
            if not is_floating(dtype):
                reasons.append(INT_MEAN)
            reasons.append(ROUNDING)
        else:
            text = total
            if dtype not in ("int32", "int64"):
                reasons.append(ROUNDING)
    if op == "mean" and not isinstance(src.parents.get(reduction), (*STATEMENTS, ast.keyword, ast.Call)):
        text = f"({text})"  # `2 / m` must divide by the whole quotient
    if summed.assign is not None:
        assign = summed.assign
        indent = src.indent_of(assign)
        tail = src.lines[assign.end_lineno - 1][src.end(assign).col:].rstrip("\n")  # type: ignore[operator]
        edits = [replace_lines(assign.lineno, assign.end_lineno or assign.lineno,  # type: ignore[arg-type]
                               "".join(f"{indent}{line}{tail}\n" for line in lines)),
                 replace(src, reduction, text)]
    else:
        edits = [lines_before(src, summed.statement, lines), replace(src, reduction, text)]
    return make_fix(f"Weight the rows of `{x}` by their repeat counts instead of materializing the repeated "
                    f"tensor (whose size is data-dependent)", edits, reasons)
