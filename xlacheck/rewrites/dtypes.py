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

The facts about calls (casts, factories' dtype arguments and defaults, shape ops and selections
that keep their input's dtype, calls that return bool, dtype names and aliases) have one home,
:mod:`xlacheck.analysis.dtypes` (:func:`~xlacheck.analysis.dtypes.call_dtype`), shared with the
value model; this module adds what only the rewrites need: elementwise ops and reductions that
keep a real dtype, float-only ops (:data:`FLOATING`), arithmetic and true division.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.analysis.dtypes import INT_DTYPES, KEEPS_DTYPE, REAL_FLOAT_DTYPES, call_dtype, dtype_literal
from xlacheck.analysis import argument as argument
from xlacheck.rewrites._expr import ELEMENTWISE_UNARY, call_name, int_literal, is_number, kw, tf_name
from xlacheck.rewrites._source import Source, dotted

FLOATING = "floating"
FLOAT_DTYPES = frozenset(REAL_FLOAT_DTYPES)
# The dtypes a rewrite may name (complex and string tensors are left unknown).
DTYPES = FLOAT_DTYPES | frozenset(INT_DTYPES) | {"bool"}

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

Resolve = Callable[[ast.Name], "ast.expr | None"]


def dtype_name(src: Source, node: ast.AST | None) -> str | None:
    """``int32`` for ``tf.int32`` / ``tf.dtypes.int32`` spelled with this file's alias, or ``"int32"``
    (:func:`xlacheck.analysis.dtypes.dtype_literal`; complex and string dtypes: None)."""
    if node is None:
        return None
    name = dtype_literal(node, lambda e: tf_name(src, e))
    return name if name in DTYPES else None


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
        if name is None:
            return None
        # Casts, factories, shape ops and selections, bool results: the value model's tables.
        dtype = call_dtype(node, name, lambda e: tf_name(src, e), again)
        if dtype is not None:
            return dtype if dtype in DTYPES else None
        if name in _SAME_DTYPE_CALLS and node.args:
            dtype = again(node.args[0])
            if dtype is not None or name not in _FLOAT_ONLY:
                return dtype
        if name in _FLOAT_ONLY:
            return FLOATING
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
_KEEP_DTYPE = KEEPS_DTYPE | _SAME_DTYPE_CALLS | {"tf.concat", "tf.stack", "tf.tile", "tf.pad", "tf.linalg.matmul",
                                                  "tf.matmul"}


def dtype_of_source(src: Source, node: ast.AST, resolve: Resolve, local: set[str], depth: int = 0) -> str | None:
    """The text of a dtype ``node`` certainly has, read from a source: ``x.dtype`` for a name ``x``
    (read, not bound in the code that ``local`` names) when ``node`` is ``x`` indexed, reshaped or
    passed through dtype-keeping ops, cast to ``x.dtype``, or such a value (not a bare name: that
    may be a Python number) combined by ``+ - * @`` with an operand that is not a number literal
    (TensorFlow's binary ops take one dtype, or raise); ``self.X.compute_dtype`` for the output of
    a built-in layer (:func:`layer_dtype`) in the same place.
    Names in ``local`` are followed through ``resolve``; any other name is a source. None when
    not certain (a Python number operand, a dtype argument, any other op)."""
    if depth > 8:
        return None
    again = lambda sub: dtype_of_source(src, sub, resolve, local, depth + 1)  # noqa: E731
    if isinstance(node, ast.Name):
        if node.id in local:
            bound = resolve(node)
            return again(bound) if bound is not None else None
        return f"{node.id}.dtype"
    if isinstance(node, ast.Subscript):
        return again(node.value)
    if isinstance(node, ast.Call):
        layer = layer_dtype(src, node, resolve)
        if layer is not None:  # a built-in layer's output: its compute dtype
            return layer
        name = call_name(src, node)
        if name in ("tf.cast", "tf.dtypes.cast") and len(node.args) == 2 and not node.keywords:
            target = node.args[1]  # tf.cast(v, x.dtype): x's dtype, whatever v's
            if isinstance(target, ast.Attribute) and target.attr == "dtype":
                return again(target.value)
            return None
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
        # TensorFlow's binary ops take one dtype: another tensor operand has the known operand's
        # dtype, or the op raises. A number literal is left unknown (NumPy would promote an integer
        # array times 2.0 to float64), and so is a bare name read from outside as the known side:
        # it may be a Python number (`start + i` is an int32 tensor for a Python int `start`).
        if is_number(node.left) or is_number(node.right):
            return None
        left, right = again(node.left), again(node.right)
        if left is not None and left == right:
            return left
        outside = lambda e: isinstance(e, ast.Name) and e.id not in local  # noqa: E731
        for known, operand in ((left, node.left), (right, node.right)):
            if known is not None and not outside(operand):
                return known
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return again(node.operand)
    return None


def counter_start(src: Source, value: ast.expr) -> tuple[int, bool] | None:
    """A loop counter's start: (i0, is_tensor) for ``i = i0`` (a Python int) or ``i = tf.constant(i0)``
    (an int32 scalar), i0 a non-negative int literal."""
    start = int_literal(value)
    if start is not None:
        return (start, False) if start >= 0 else None
    if isinstance(value, ast.Call) and call_name(src, value) == "tf.constant" and len(value.args) in (1, 2):
        start = int_literal(value.args[0])
        dtype = argument(value, 1, "dtype")
        if {k.arg for k in value.keywords} <= {"dtype"} and start is not None and start >= 0 and (
                dtype is None or dtype_name(src, dtype) == "int32"):
            return start, True
    return None


def dtype_witness(src: Source, node: ast.AST, depth: int = 0) -> ast.expr | None:
    """A name or attribute chain inside ``node`` whose dtype ``node``'s value provably has, read
    where ``node`` reads it (so ``witness.dtype`` names that dtype without evaluating ``node``
    again): ``node`` itself when it is one; the first argument of a dtype-keeping call (a
    reduction, an elementwise op); the value of a subscript; an operand of ``+``, ``-``, ``*`` that
    is a TensorFlow call (a tensor: TensorFlow requires two tensors to share their dtype, and
    converts a Python number to the tensor's). Division is left out: ``int / int`` is a float."""
    if depth > 8:
        return None
    if dotted(node) is not None:
        return node  # type: ignore[return-value]
    if isinstance(node, ast.Call) and node.args and not isinstance(node.args[0], ast.Starred) \
            and call_name(src, node) in _SAME_DTYPE_CALLS:
        return dtype_witness(src, node.args[0], depth + 1)
    if isinstance(node, ast.Subscript):
        return dtype_witness(src, node.value, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        for side in (node.left, node.right):
            if isinstance(side, ast.Call) and call_name(src, side) is not None:
                found = dtype_witness(src, side, depth + 1)
                if found is not None:
                    return found
    return None


# Built-in Keras layers whose output has the layer's compute dtype (``layer.compute_dtype``, its dtype
# policy's) whenever the call returns: they cast their inputs to it (measured on TF 2.21's tf_keras and
# Keras 3 under the float32, float64, mixed_float16 and mixed_bfloat16 policies, float and integer inputs;
# tests/xlacheck/test_rewrites.py re-measures it). A value one of them returns has that dtype exactly, under
# mixed precision too, which a literal tf.float32 would not.
COMPUTE_DTYPE_LAYERS = frozenset(f"tf.keras.layers.{n}" for n in (
    "Dense", "Embedding", "Conv1D", "Conv2D", "LayerNormalization"))


def layer_dtype(src: Source, node: ast.AST, resolve: Resolve, depth: int = 0) -> str | None:
    """``self.X.compute_dtype`` when ``node`` (a name followed through ``resolve``) is a call
    ``self.X(...)`` of an attribute that its class assigns exactly once, anywhere in the class, to a
    layer of :data:`COMPUTE_DTYPE_LAYERS`; None otherwise."""
    if isinstance(node, ast.Name) and depth < 8:
        bound = resolve(node)
        return None if bound is None else layer_dtype(src, bound, resolve, depth + 1)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"):
        return None
    cls = next((a for a in src.ancestors(node) if isinstance(a, ast.ClassDef)), None)
    if cls is None:
        return None
    attr = node.func.attr
    assigned = [sub for sub in ast.walk(cls) if isinstance(sub, ast.Attribute) and sub.attr == attr
                and isinstance(sub.ctx, (ast.Store, ast.Del)) and isinstance(sub.value, ast.Name)]
    if len(assigned) != 1 or assigned[0].value.id != "self":  # type: ignore[attr-defined]
        return None
    statement = src.parents.get(assigned[0])
    if not (isinstance(statement, ast.Assign) and statement.targets == [assigned[0]]
            and isinstance(statement.value, ast.Call) and call_name(src, statement.value) in COMPUTE_DTYPE_LAYERS):
        return None
    return f"self.{attr}.compute_dtype"
