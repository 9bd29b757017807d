"""Ops without an XLA kernel -> what compiles in their place.

* ``tf.print(...)`` as a statement (``StringFormat``/``PrintV2`` have no XLA kernel): the
  statement is guarded by ``if tf.executing_eagerly():``. ``executing_eagerly()`` is a Python
  bool while tracing, so the compiled program holds no print op; the same code prints when it
  runs eagerly (``tf.config.run_functions_eagerly(True)``, a debugging session). UNSAFE: a
  compiled or plain ``tf.function`` no longer prints. Outputs never change (tf.print returns
  nothing the program uses).
* ``tf.unravel_index(indices, dims)`` (``UnravelIndex``): coordinate ``k`` of a flat index ``i``
  is ``(i // stride_k) % dims_k`` with ``stride_k`` the product of the dimensions after ``k``
  (``tf.math.cumprod(dims, exclusive=True, reverse=True)``), for scalar and vector indices
  alike once shaped ``[len(dims), *shape(indices)]``, which is what ``unravel_index``
  returns. UNSAFE: equal for ``0 <= i < prod(dims)``; outside that range the original raises
  eagerly and the composition wraps around.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, call_name
from xlacheck.rewrites._fix import make_fix, replace, replace_block, rewriter
from xlacheck.rewrites._source import Source

PRINT_ONLY_EAGERLY = ("the print runs only when the code runs eagerly (tf.config.run_functions_eagerly(True)); "
                      "compiled and plain tf.function code prints nothing")
UNRAVEL_RANGE = ("equal for indices in [0, prod(dims)); an index outside it raises eagerly in the original and "
                 "wraps around in the fix")


@rewriter(ast.Expr)
def rewrite_print(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Expr) or call_name(src, node.value) != "tf.print":
        return None
    if not src.alone_on_lines(node, node) or _eager_guarded(src, node):
        return None
    step = src.indent_step(node)
    lines = [f"if {src.tf}.executing_eagerly():", *(step + line for line in src.segment(node).splitlines())]
    return make_fix("Print only when running eagerly (tf.print has no XLA kernel)",
                    replace_block(src, node, node, lines), [PRINT_ONLY_EAGERLY])


def _eager_guarded(src: Source, node: ast.stmt) -> bool:
    """Already inside ``if tf.executing_eagerly():``."""
    parent = src.parents.get(node)
    return isinstance(parent, ast.If) and node in parent.body and isinstance(parent.test, ast.Call) \
        and call_name(src, parent.test) == "tf.executing_eagerly"


@rewriter(ast.Call)
def rewrite_unravel_index(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Call) or call_name(src, node) != "tf.unravel_index":
        return None
    if len(node.args) != 2 or node.keywords:
        return None
    tf = src.tf
    i, dims = arg(src, node.args[0]), arg(src, node.args[1])
    strides = f"{tf}.math.cumprod({dims}, exclusive=True, reverse=True)"
    text = (f"{tf}.reshape({tf}.math.floormod({tf}.reshape({i}, [1, -1]) // {tf}.reshape({strides}, [-1, 1]), "
            f"{tf}.reshape({dims}, [-1, 1])), {tf}.concat([{tf}.shape({dims}), {tf}.shape({i})], 0))")
    return make_fix("Compute the coordinates with integer division (tf.unravel_index has no XLA kernel)",
                    [replace(src, node, text)], [UNRAVEL_RANGE])


# -- ops without a kernel that have an exact (or last-bits) composition of ops with one -----------------
LAST_BITS = "computed by another sequence of float operations: values may differ in the last bits"
NORM_DTYPES = ("for real float tensors; a complex tensor gets a real norm where the original's is complex, and an "
               "integer tensor (whose norm the original truncates) raises in tf.sqrt")
HISTOGRAM_NAN = ("NaN values: the original's kernel casts them to a bin index in an undefined way, the fix puts them "
                 "in a bin by XLA's rules")


def _call_arguments(node: ast.Call, names: tuple[str, ...]) -> dict[str, ast.expr] | None:
    """The call's arguments by parameter name (positional, then keywords); None for ``*args``,
    ``**kwargs``, an unknown keyword or an argument given twice."""
    if len(node.args) > len(names) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    found = dict(zip(names, node.args))
    for k in node.keywords:
        if k.arg is None or k.arg not in names or k.arg in found:
            return None
        found[k.arg] = k.value
    return found


def _euclidean_norm(src: Source, node: ast.Call) -> tuple[str, list[str]] | None:
    given = _call_arguments(node, ("input_tensor", "axis", "keepdims", "name"))
    if given is None or "input_tensor" not in given:
        return None
    tf = src.tf
    extra = "".join(f", {k}={src.segment(given[k])}" for k in ("axis", "keepdims") if k in given)
    return f"{tf}.sqrt({tf}.reduce_sum({tf}.square({tf}.abs({arg(src, given['input_tensor'])})){extra}))", [
        NORM_DTYPES, LAST_BITS]


def _scaled_bessel(scaled: str):
    def build(src: Source, node: ast.Call) -> tuple[str, list[str]] | None:
        given = _call_arguments(node, ("x", "name"))
        if given is None or "x" not in given:
            return None
        x = given["x"]
        if not isinstance(x, (ast.Name, ast.Attribute, ast.Constant)):
            return None  # read twice: only a name (evaluating it again is free)
        tf = src.tf
        return f"{tf}.math.{scaled}({arg(src, x)}) * {tf}.exp({tf}.abs({arg(src, x)}))", [LAST_BITS]
    return build


def _histogram(src: Source, node: ast.Call) -> tuple[str, list[str]] | None:
    """HistogramFixedWidth's kernel: ``min((max(v, lo) - lo) / step, nbins - 1)`` in double,
    truncated to int32, with ``step = (hi - lo) / nbins`` in double; then a count per bin. The
    fix writes the same arithmetic in the same dtypes, and counts with a one-hot sum."""
    given = _call_arguments(node, ("values", "value_range", "nbins", "dtype", "name"))
    if given is None or "values" not in given or "value_range" not in given:
        return None
    if not all(isinstance(given[k], (ast.Name, ast.Attribute)) or (k == "value_range" and isinstance(
            given[k], (ast.List, ast.Tuple))) for k in ("values", "value_range")):
        return None
    tf = src.tf
    values, bounds = arg(src, given["values"]), arg(src, given["value_range"])
    nbins = src.segment(given["nbins"]) if "nbins" in given else "100"
    dtype = src.segment(given["dtype"]) if "dtype" in given else f"{tf}.int32"
    reasons = [HISTOGRAM_NAN]
    if "nbins" in given and not (isinstance(given["nbins"], ast.Constant) and type(given["nbins"].value) is int):
        reasons.append(f"`{nbins}` is read twice and must be an int32 scalar (tf.one_hot's depth)")
    lo = f"{tf}.cast({bounds}, {values}.dtype)[0]" if isinstance(given["value_range"], (ast.List, ast.Tuple)) \
        else f"{bounds}[0]"
    hi = lo[:-3] + "[1]"
    step = f"{tf}.cast({hi} - {lo}, {tf}.float64) / {tf}.cast({nbins}, {tf}.float64)"
    index = (f"{tf}.cast({tf}.minimum({tf}.cast({tf}.maximum({values}, {lo}) - {lo}, {tf}.float64) / ({step}), "
             f"{tf}.cast({nbins} - 1, {tf}.float64)), {tf}.int32)")
    return f"{tf}.reduce_sum({tf}.one_hot({tf}.reshape({index}, [-1]), {nbins}, dtype={dtype}), axis=0)", reasons


# public name -> builder of (replacement text, reasons it may differ). Each entry is proven by
# running both versions (tests/xlacheck/rewrite_examples.py, test_fix_equivalence.py).
SUBSTITUTES = {
    "tf.math.reduce_euclidean_norm": _euclidean_norm,
    "tf.math.bessel_i0": _scaled_bessel("bessel_i0e"),
    "tf.math.special.bessel_i0": _scaled_bessel("bessel_i0e"),
    "tf.math.bessel_i1": _scaled_bessel("bessel_i1e"),
    "tf.math.special.bessel_i1": _scaled_bessel("bessel_i1e"),
    "tf.histogram_fixed_width": _histogram,
}


@rewriter(ast.Call)
def rewrite_kernel_substitute(src: Source, node: ast.AST) -> Fix | None:
    """A call of an op without an XLA kernel -> the composition of ops with kernels in
    :data:`SUBSTITUTES` (the one table of such replacements):

    * ``tf.math.reduce_euclidean_norm(x, axis, keepdims)`` -> ``tf.sqrt(tf.reduce_sum(tf.square(
      tf.abs(x)), axis, keepdims))``: the same sum of squares and root (``tf.abs`` changes no real
      value; its derivative at 0 is 0, so the gradient is 2x as before); UNSAFE: summation order
      (last bits), and complex or integer tensors (:data:`NORM_DTYPES`).
    * ``tf.math.bessel_i0/i1(x)`` -> ``tf.math.bessel_i0e/i1e(x) * tf.exp(tf.abs(x))``, the
      definition of the exponentially scaled functions (I0e(x) = exp(-|x|) I0(x); I1 is odd and
      I1e(x) = exp(-|x|) I1(x)); inf gives NaN in both (checked on TF 2.21); UNSAFE: within a few
      ULPs (measured: 4.7e-7 relative at most on 1000 normal draws).
    * ``tf.histogram_fixed_width(values, value_range, nbins, dtype)`` -> the kernel's own index
      arithmetic (``min((max(v, lo) - lo) / step, nbins - 1)`` in float64, truncated to int32)
      and a one-hot count of static depth; UNSAFE for NaN values only.
    """
    if src.tf is None or not isinstance(node, ast.Call):
        return None
    name = call_name(src, node)
    build = SUBSTITUTES.get(name or "")
    if build is None:
        return None
    built = build(src, node)
    if built is None:
        return None
    text, reasons = built
    return make_fix(f"Compute {name} with ops that have XLA kernels", [replace(src, node, text)], reasons)
