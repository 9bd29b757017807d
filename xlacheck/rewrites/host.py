"""Host reads and NumPy calls in compiled code -> tensor ops that run inside the program.

* ``x.numpy()`` / ``x.item()`` and ``tf.keras.backend.get_value(x)`` ask for a concrete value
  while tracing: they fail, or (``get_value``) read the value once at trace time and freeze it
  into the program. ``tf.convert_to_tensor(x)`` reads it when the program runs (a variable's
  current value), which is what eager execution computes.
* ``np.mean(t)`` and friends need concrete values. The TensorFlow op with the same name and
  axis semantics computes the same numbers inside the program; ``tf.constant(np_result,
  dtype=d)`` around it becomes ``tf.cast(..., d)`` and a bare ``tf.constant(np_result)`` the op's
  result (tf.constant cannot wrap a symbolic tensor); with other arguments there is no fix.

All UNSAFE: the result is a tensor, not a NumPy value (NumPy calls on it fail, and it keeps
the input's dtype where NumPy may give float64), and float sums may round differently.

The common path must keep working: a NumPy array has methods a tensor lacks (``.max()``,
``.tolist()``, ``.astype()``), and an f-string or ``str()`` of a tensor is not the text of the
number. So the rewrite looks at what consumes the value read (directly, or through the one name
it is assigned to): an ndarray reduction method becomes the TensorFlow reduction of the original
tensor (``err.numpy().max()`` -> ``tf.reduce_max(err)``), ``.astype(d)`` becomes ``tf.cast``,
operators, indexing, ``.shape``/``.dtype``, TensorFlow calls and returning it (also inside a
tuple) are kept, ``print(x.numpy())`` prints the tensor, and any other consumer (another method,
formatting, ``str``/``repr``/``len``/``list``, a dict key) gets no fix.
"""

from __future__ import annotations

import ast

from xlacheck.analysis.dtypes import INT_DTYPES
from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import atom, call_name, is_scalar, kw, tf_name
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source, module_alias, dotted
from xlacheck.rewrites.dtypes import certain_dtype

TENSOR_NOT_NUMPY = ("the result is a tensor, not a NumPy value (NumPy calls on it fail; it keeps the input's "
                    "dtype where NumPy may give float64)")
PRINTS_TENSOR = ("print shows the tensor: its value when run eagerly, a symbolic tensor once, at trace time, in "
                 "compiled code (not the array at every step)")
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
    return src.memo(_numpy_alias, lambda: module_alias(src.tree, "numpy"))




# ndarray method -> TensorFlow reduction with the same axis/keepdims semantics.
NDARRAY_REDUCTIONS = {
    "max": "reduce_max", "min": "reduce_min", "sum": "reduce_sum", "mean": "reduce_mean", "prod": "reduce_prod",
    "any": "reduce_any", "all": "reduce_all", "std": "math.reduce_std", "var": "math.reduce_variance",
}
# Attributes a tensor has with the meaning the ndarray's has.
SHARED_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "T"})
# Python builtins that accept a (scalar) tensor eagerly as they accept a NumPy value.
TENSOR_BUILTINS = frozenset({"float", "int", "bool", "abs"})


@rewriter(ast.Call)
def rewrite_host_read(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Call):
        return None
    tf = src.tf
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in ("numpy", "item") and not node.args and not node.keywords:
        return _read_fix(src, node, func.value, f"Read the value inside the program instead of calling `.{func.attr}()`")
    if (call_name(src, func) in GET_VALUE or (dotted(func) or "").endswith("backend.get_value")) \
            and len(node.args) == 1 and not node.keywords:
        return _read_fix(src, node, node.args[0], "Read the variable when the program runs instead of freezing it at trace time")
    return _numpy_call(src, node)


def _read_fix(src: Source, node: ast.Call, value: ast.expr, message: str) -> Fix | None:
    """``node`` (a host read of ``value``) -> the tensor, with its consumer adapted or no fix.

    A value read to the host is a constant to autodiff: eagerly, a GradientTape sends no gradient
    through ``.numpy()``, ``.item()`` or ``get_value``. The tensor that replaces it is read through
    ``tf.stop_gradient`` (the identity on values; not for an integer or boolean tensor, which has
    no gradient), so a loss or train step that scaled by the read
    value keeps the gradients it had (without it, the gradient flows into the reduction that
    computed the value, and a train step updates its weights differently)."""
    tf = src.tf
    parent = src.parents.get(node)
    integer = certain_dtype(src, value) in (*INT_DTYPES, "bool")
    held = atom(src, value) if integer else f"{tf}.stop_gradient({src.segment(value)})"  # no gradient anyway
    if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr not in SHARED_ATTRIBUTES:
        call = src.parents.get(parent)
        if not (isinstance(call, ast.Call) and call.func is parent):
            return None  # `.numpy().size`, `.real`...: an ndarray attribute a tensor lacks
        text = _method_as_op(src, call, parent.attr, held)
        if text is None or not tensor_consumer(src, call):
            return None  # (`err.numpy().max().item()`: the reduced value must suit its reader too)
        return make_fix(message, [replace(src, call, text)], [TENSOR_NOT_NUMPY])
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "print" \
            and node in parent.args:
        return make_fix("Print the tensor itself", [replace(src, node, src.segment(value))], [PRINTS_TENSOR])
    if not tensor_consumer(src, node, index=integer and _scalar_read(src, node, value)):
        return None
    return make_fix(message, [replace(src, node, held)], [TENSOR_NOT_NUMPY])


def _scalar_read(src: Source, node: ast.Call, value: ast.expr) -> bool:
    """``.item()`` always reads a scalar; ``.numpy()`` one when ``value`` is a full reduction (an
    array read by ``.numpy()`` cannot cut a list, and its tensor would cut a tensor otherwise)."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "item":
        return True
    return is_scalar(src, value)


def _method_as_op(src: Source, call: ast.Call, method: str, value: str) -> str | None:
    """``value.numpy().method(...)`` as a TensorFlow call on the tensor, when one means the same."""
    tf = src.tf
    if method in NDARRAY_REDUCTIONS:
        if len(call.args) > 1 or any(k.arg not in ("axis", "keepdims") for k in call.keywords):
            return None  # out=, dtype=, ddof=, initial=, where=: no TensorFlow counterpart here
        parts = [value, *(f"axis={src.segment(a)}" for a in call.args)]
        parts += [f"{k.arg}={src.segment(k.value)}" for k in call.keywords]
        return f"{tf}.{NDARRAY_REDUCTIONS[method]}({', '.join(parts)})"
    if method == "astype" and len(call.args) == 1 and not call.keywords:
        return f"{tf}.cast({value}, {src.segment(call.args[0])})"
    return None


def _jax_call(src: Source, func: ast.expr) -> bool:
    """A call through a name this file imports from JAX (``jnp.sum``, ``jax.nn.relu``): it takes an
    array where it takes a Python scalar."""
    from xlacheck.rewrites._framework import Frameworks

    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and Frameworks(src).names.get(func.id) == "jax"


def tensor_consumer(src: Source, node: ast.expr, follow: int = 1, jax_calls: bool = False,
                    index: bool = False) -> bool:
    """Whatever reads ``node``'s value works the same on a tensor (eagerly, on the common path);
    ``follow``: through how many assignments to one name its readers are followed (an arithmetic
    result assigned on is still a tensor, read the same way); ``jax_calls``: on a JAX array, so a
    call through a JAX name (``jnp.sum``) takes it too; ``index``: the value is an integer scalar,
    so a slice bound or an index takes it too (an eager integer tensor has ``__index__``: lists,
    NumPy arrays and tensors are cut by it as by the int)."""
    parent = src.parents.get(node)
    if isinstance(parent, (ast.BinOp, ast.UnaryOp)):  # arithmetic gives a tensor: its own reader must take one
        return tensor_consumer(src, parent, follow, jax_calls, index)
    if index and (isinstance(parent, ast.Slice) or isinstance(parent, ast.Subscript) and parent.slice is node):
        return True
    if isinstance(parent, (ast.Compare, ast.Return, ast.IfExp, ast.BoolOp, ast.Expr)):
        return True
    if isinstance(parent, (ast.Tuple, ast.List)) and isinstance(parent.ctx, ast.Load) \
            or isinstance(parent, ast.Dict) and any(v is node for v in parent.values):
        # an element: whatever takes the container takes it
        return tensor_consumer(src, parent, follow, jax_calls, index)
    if isinstance(parent, ast.Subscript):
        return parent.value is node
    if isinstance(parent, ast.Attribute):
        return parent.attr in SHARED_ATTRIBUTES
    if isinstance(parent, ast.keyword):
        parent = src.parents.get(parent)
    if isinstance(parent, ast.Call) and parent.func is not node:
        name = tf_name(src, parent.func) or ""
        return name.startswith("tf.") or (jax_calls and _jax_call(src, parent.func)) or (
            isinstance(parent.func, ast.Name) and parent.func.id in TENSOR_BUILTINS)
    if follow > 0 and isinstance(parent, ast.Assign) and len(parent.targets) == 1 \
            and isinstance(parent.targets[0], ast.Name):
        return all(tensor_consumer(src, use, follow - 1, jax_calls, index) for use in reads_after(src, parent))
    return False


def reads_after(src: Source, assign: ast.Assign) -> list[ast.Name]:
    """The reads of the name ``assign`` binds that may see its value: every read in its function,
    except, outside loops, those that come before it (``x = x - c`` reads the earlier ``x``)."""
    target = assign.targets[0]
    assert isinstance(target, ast.Name)
    scope = src.scope_of(assign)
    uses = src.loads_of(target.id, scope)
    in_loop = any(isinstance(a, (ast.For, ast.AsyncFor, ast.While)) for a in src.ancestors(assign)
                  if a is not scope and scope in src.ancestors(a))
    end = (assign.end_lineno or assign.lineno, assign.end_col_offset or 0)
    return uses if in_loop else [u for u in uses if (u.lineno, u.col_offset) >= end]


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
        # tf.constant cannot wrap a symbolic tensor (the fix would not trace): with only a dtype it
        # becomes a cast, alone it goes (the op's result is already a tensor), else no fix
        dtype = kw(wrapper, "dtype") or (wrapper.args[1] if len(wrapper.args) > 1 else None)
        if dtype is not None and len(wrapper.args) <= 2 and all(k.arg == "dtype" for k in wrapper.keywords):
            target, text = wrapper, f"{tf}.cast({text}, {src.segment(dtype)})"
        elif len(wrapper.args) == 1 and not wrapper.keywords:
            target = wrapper
        else:
            return None
    return make_fix(f"Compute with {tf}.{NUMPY_TO_TF[fn]} inside the program instead of NumPy",
                    [replace(src, target, text)], [TENSOR_NOT_NUMPY, "float sums may round differently"])
