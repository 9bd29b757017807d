"""Host reads and NumPy calls in compiled code -> tensor ops that run inside the program.

* ``x.numpy()`` / ``x.item()`` and ``tf.keras.backend.get_value(x)`` ask for a concrete value
  while tracing: they fail, or (``get_value``) read the value once at trace time and freeze it
  into the program. ``tf.convert_to_tensor(x)`` reads it when the program runs (a variable's
  current value), which is what eager execution computes.
* ``np.mean(t)`` and friends need concrete values. The TensorFlow op with the same name and
  axis semantics computes the same numbers inside the program; ``tf.constant(np_result,
  dtype=d)`` around it becomes ``tf.cast(..., d)`` (tf.constant cannot wrap a symbolic tensor).

All UNSAFE: the result is a tensor, not a NumPy value (NumPy calls on it fail, and it keeps
the input's dtype where NumPy may give float64), and float sums may round differently.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, call_name, kw
from xlacheck.rewrites._fix import make_fix, replace
from xlacheck.rewrites._source import Source, dotted

TENSOR_NOT_NUMPY = ("the result is a tensor, not a NumPy value (NumPy calls on it fail; it keeps the input's "
                    "dtype where NumPy may give float64)")
# NumPy function -> TensorFlow function with the same arguments (positional and axis/keepdims).
NUMPY_TO_TF = {
    "mean": "reduce_mean", "sum": "reduce_sum", "max": "reduce_max", "min": "reduce_min", "amax": "reduce_max",
    "amin": "reduce_min", "prod": "reduce_prod", "abs": "abs", "exp": "exp", "log": "math.log", "sqrt": "sqrt",
    "square": "square", "maximum": "maximum", "minimum": "minimum", "where": "where", "tanh": "tanh",
    "clip": "clip_by_value", "std": "math.reduce_std", "var": "math.reduce_variance", "all": "reduce_all",
    "any": "reduce_any",
}
GET_VALUE = frozenset({"tf.keras.backend.get_value", "tf.compat.v1.keras.backend.get_value"})


def _numpy_alias(src: Source) -> str | None:
    return src.memo(_numpy_alias, lambda: _find_numpy_alias(src.tree))


def _find_numpy_alias(tree: ast.Module) -> str | None:
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "numpy":
                    return alias.asname or "numpy"
    return None


def rewrite_host_read(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Call):
        return None
    tf = src.tf
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in ("numpy", "item") and not node.args and not node.keywords:
        text = f"{tf}.convert_to_tensor({arg(src, func.value)})"
        return make_fix(f"Read the value inside the program instead of calling `.{func.attr}()`",
                        [replace(src, node, text)], [TENSOR_NOT_NUMPY])
    if (call_name(src, func) in GET_VALUE or (dotted(func) or "").endswith("backend.get_value")) \
            and len(node.args) == 1 and not node.keywords:
        text = f"{tf}.convert_to_tensor({arg(src, node.args[0])})"
        return make_fix("Read the variable when the program runs instead of freezing it at trace time",
                        [replace(src, node, text)], [TENSOR_NOT_NUMPY])
    return _numpy_call(src, node)


def _numpy_call(src: Source, node: ast.Call) -> Fix | None:
    np_name = _numpy_alias(src)
    name = dotted(node.func) or ""
    if np_name is None or not name.startswith(np_name + "."):
        return None
    fn = name[len(np_name) + 1:]
    if fn not in NUMPY_TO_TF or any(k.arg not in ("axis", "keepdims") for k in node.keywords):
        return None
    if fn == "where" and len(node.args) != 3:
        return None  # one-argument np.where returns indices (a data-dependent shape)
    tf = src.tf
    args = ", ".join([*(src.segment(a) for a in node.args), *(f"{k.arg}={src.segment(k.value)}" for k in node.keywords)])
    text = f"{tf}.{NUMPY_TO_TF[fn]}({args})"
    target: ast.AST = node
    wrapper = src.parents.get(node)
    if isinstance(wrapper, ast.Call) and call_name(src, wrapper) == "tf.constant" and wrapper.args[:1] == [node]:
        dtype = kw(wrapper, "dtype") or (wrapper.args[1] if len(wrapper.args) > 1 else None)
        if dtype is not None and len(wrapper.args) <= 2 and all(k.arg == "dtype" for k in wrapper.keywords):
            target, text = wrapper, f"{tf}.cast({text}, {src.segment(dtype)})"
    return make_fix(f"Compute with {tf}.{NUMPY_TO_TF[fn]} inside the program instead of NumPy",
                    [replace(src, target, text)], [TENSOR_NOT_NUMPY, "float sums may round differently"])
