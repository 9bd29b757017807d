"""The dtype an expression certainly has, read from the code: one algorithm for every rewrite.

A rewrite needs a dtype when being wrong about it would make the fixed code raise or compute in
another type where the original returns: a ``tf.TensorArray`` must be declared with its elements'
dtype (``write`` raises on a mismatch), ``tf.where(c, v, float("nan"))`` and ``-inf`` fills raise
for integer ``v``, and a mean written as ``sum / count`` is a float64 division for integers where
``tf.reduce_mean`` truncates. :func:`certain_dtype` answers only from what the code shows, and
only for values that evaluate without raising (TensorFlow's binary ops take one dtype, or raise;
``tf.math.log`` of an integer raises): ``"int32"``, ``"float32"``, ``"bool"``..., or
:data:`FLOATING` when the value is a floating-point tensor of a width the code does not fix, or
None when it cannot tell.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.rewrites._expr import ELEMENTWISE_UNARY, call_name, is_number, kw, tf_name
from xlacheck.rewrites._source import Source

FLOATING = "floating"
FLOAT_DTYPES = frozenset({"float16", "bfloat16", "float32", "float64"})
DTYPES = FLOAT_DTYPES | {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
_ALIASES = {"half": "float16", "double": "float64"}

# Calls whose result dtype is a dtype argument (position, keyword) or, when it is absent, a default.
_DTYPE_ARGUMENT = {
    **{f"tf.{m}{op}": (2, "output_type", "int64") for m in ("", "math.") for op in ("argmax", "argmin")},
    "tf.cast": (1, "dtype", None), "tf.dtypes.cast": (1, "dtype", None),
    "tf.one_hot": (5, "dtype", "float32"),  # only without on_value/off_value, which set the dtype
    "tf.random.categorical": (2, "dtype", "int64"),
    "tf.random.uniform": (3, "dtype", "float32"), "tf.random.normal": (3, "dtype", "float32"),
    "tf.zeros": (1, "dtype", "float32"), "tf.ones": (1, "dtype", "float32"),
    "tf.constant": (1, "dtype", None), "tf.convert_to_tensor": (1, "dtype", None),
}
_BOOL_CALLS = frozenset(
    f"tf.{m}{op}" for m in ("", "math.") for op in ("logical_and", "logical_or", "logical_not", "logical_xor", "equal",
                                                     "not_equal", "less", "less_equal", "greater", "greater_equal",
                                                     "reduce_any", "reduce_all")
) | {"tf.math.is_nan", "tf.math.is_inf", "tf.math.is_finite", "tf.sequence_mask"}
# The result has the first argument's dtype (real dtypes only: `abs` of a complex is real).
_SAME_DTYPE_CALLS = ELEMENTWISE_UNARY | {"tf.nn.softmax", "tf.nn.log_softmax", "tf.math.softmax"} | frozenset(
    f"tf.{m}reduce_{op}" for m in ("", "math.") for op in ("sum", "mean", "max", "min", "prod"))
# Ops that return only for floating-point inputs (integer inputs raise) and keep that dtype, and
# losses whose result is a floating-point tensor.
_FLOAT_ONLY = frozenset(
    f"tf.{m}{op}" for m in ("", "math.") for op in ("log", "log1p", "exp", "sqrt", "rsqrt", "tanh", "sigmoid",
                                                    "softplus", "sin", "cos", "reciprocal")
) | {"tf.nn.sigmoid", "tf.nn.softplus", "tf.nn.tanh", "tf.nn.softmax", "tf.nn.log_softmax", "tf.math.softmax",
     "tf.norm", "tf.linalg.norm", "tf.nn.sparse_softmax_cross_entropy_with_logits",
     "tf.nn.softmax_cross_entropy_with_logits", "tf.nn.sigmoid_cross_entropy_with_logits",
     "tf.keras.losses.sparse_categorical_crossentropy", "tf.keras.losses.categorical_crossentropy",
     "tf.keras.losses.binary_crossentropy", "tf.keras.losses.mean_squared_error"}

# The result holds some of the first argument's entries: its dtype.
_SELECTIONS = frozenset({"tf.boolean_mask", "tf.gather", "tf.gather_nd", "tf.reshape", "tf.squeeze", "tf.expand_dims",
                         "tf.transpose", "tf.identity", "tf.ragged.boolean_mask"})

Resolve = Callable[[ast.Name], "ast.expr | None"]


def dtype_name(src: Source, node: ast.AST | None) -> str | None:
    """``int32`` for ``tf.int32`` / ``tf.dtypes.int32`` spelled with this file's alias."""
    name = tf_name(src, node) if node is not None else None
    if name is None:
        return None
    short = name.removeprefix("tf.dtypes.").removeprefix("tf.")
    short = _ALIASES.get(short, short)
    return short if short in DTYPES else None


def argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    value = kw(call, keyword)
    return call.args[position] if value is None and len(call.args) > position else value


def is_floating(dtype: str | None) -> bool:
    return dtype == FLOATING or dtype in FLOAT_DTYPES


def certain_dtype(src: Source, node: ast.AST, resolve: Resolve | None = None, depth: int = 0) -> str | None:
    """The dtype ``node`` has whenever it evaluates without raising (see the module docstring).

    Names are followed through ``resolve`` (default: the single assignment that reaches the
    read in its function, :meth:`Source.local_binding`)."""
    if depth > 8:
        return None
    again = lambda sub: certain_dtype(src, sub, resolve, depth + 1)  # noqa: E731
    if isinstance(node, ast.Name):
        bound = resolve(node) if resolve is not None else src.local_binding(node.id, node)
        return again(bound) if bound is not None else None
    if isinstance(node, ast.Call):
        name = call_name(src, node)
        if name in _DTYPE_ARGUMENT:
            position, keyword, default = _DTYPE_ARGUMENT[name]
            given = argument(node, position, keyword)
            if given is not None:
                return dtype_name(src, given)
            if name == "tf.one_hot" and (argument(node, 2, "on_value") or argument(node, 3, "off_value")):
                return None
            if name in ("tf.constant", "tf.convert_to_tensor") and node.args:
                return again(node.args[0])
            return default
        if name in _BOOL_CALLS:
            return "bool"
        if name in _SAME_DTYPE_CALLS and node.args:
            dtype = again(node.args[0])
            if dtype is not None or name not in _FLOAT_ONLY:
                return dtype
        if name in _FLOAT_ONLY:
            return FLOATING
        if name in _SELECTIONS and node.args:
            return again(node.args[0])
        return None
    if isinstance(node, ast.Subscript):  # indexing, slicing and boolean masks keep the dtype
        return again(node.value)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and not isinstance(
            node.ops[0], (ast.In, ast.NotIn, ast.Is, ast.IsNot)):
        # A tensor on the left compares elementwise (the right side is converted to its dtype or
        # the comparison raises): a bool tensor.
        return "bool" if again(node.left) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Pow)):
        # A tensor combined with a literal or a tensor of the same dtype keeps its dtype (the
        # literal is converted to it, or the operation raises); a float operand makes the result
        # a float of some width.
        left = None if is_number(node.left) else again(node.left)
        right = None if is_number(node.right) else again(node.right)
        if left and (right == left or is_number(node.right)):
            return left
        if right and is_number(node.left):
            return right
        # A tensor of an exact dtype on either side fixes it: TensorFlow converts the other operand
        # (a Python or NumPy number or array) to that dtype, or raises (another tensor's dtype).
        for known in (left, right):
            if known in DTYPES and known != "bool":
                return known
        return FLOATING if is_floating(left) or is_floating(right) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        # True division of tensors: float64 for int32/int64, float32 for smaller ints, the
        # operand's dtype for floats.
        left = None if is_number(node.left) else again(node.left)
        right = None if is_number(node.right) else again(node.right)
        if left in FLOAT_DTYPES and (right == left or is_number(node.right)):
            return left
        return FLOATING if (left or right) and "bool" not in (left, right) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return again(node.operand)
    return None


# Calls whose result has their first argument's dtype whatever it is (no dtype argument).
_KEEP_DTYPE = _SELECTIONS | _SAME_DTYPE_CALLS | {"tf.concat", "tf.stack", "tf.tile", "tf.pad", "tf.linalg.matmul",
                                                  "tf.matmul"}


def dtype_of_source(src: Source, node: ast.AST, resolve: Resolve, local: set[str], depth: int = 0) -> str | None:
    """The name ``x`` (a name read, not bound in the code that ``local`` names) when ``node``
    certainly has ``x``'s dtype: ``x`` indexed, reshaped or passed through dtype-keeping ops, or
    two such values combined by ``+ - *`` (TensorFlow's binary ops take one dtype or raise).
    Names in ``local`` are followed through ``resolve``; any other name is a source. None when
    not certain (a Python number operand, a dtype argument, any other op)."""
    if depth > 8:
        return None
    again = lambda sub: dtype_of_source(src, sub, resolve, local, depth + 1)  # noqa: E731
    if isinstance(node, ast.Name):
        if node.id in local:
            bound = resolve(node)
            return again(bound) if bound is not None else None
        return node.id
    if isinstance(node, ast.Subscript):
        return again(node.value)
    if isinstance(node, ast.Call):
        name = call_name(src, node)
        if name in _KEEP_DTYPE and node.args and not kw(node, "dtype") and not kw(node, "output_type"):
            first = node.args[0]
            if name in ("tf.concat", "tf.stack") and isinstance(first, (ast.List, ast.Tuple)):
                sources = {again(e) for e in first.elts}
                return sources.pop() if len(sources) == 1 and None not in sources else None
            if name in ("tf.matmul", "tf.linalg.matmul") and len(node.args) >= 2:
                a, b = again(node.args[0]), again(node.args[1])
                return a if a is not None and a == b else None
            return again(first)
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.MatMult)):
        left, right = again(node.left), again(node.right)
        return left if left is not None and left == right else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return again(node.operand)
    return None
