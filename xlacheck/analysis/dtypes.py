"""Proven TensorFlow dtypes of expressions: what the value model knows about a tensor's dtype.

Used through :meth:`xlacheck.analysis.values.ValueEnv.dtype` (the one entry point rules call).
This module is also the one home of the dtype facts (dtype names and aliases, casts, factories'
dtype arguments and documented defaults, ops that keep their input's dtype, calls that return
bool): :mod:`xlacheck.rewrites.dtypes` reads calls through :func:`call_dtype`.
Only proofs, never guesses from names: a dtype comes from

* an explicit dtype: ``tf.cast(x, tf.int8)`` / ``tf.dtypes.cast`` / ``tf.saturate_cast``,
  ``tf.bitcast(x, type)``, the ``dtype=`` of a factory (``tf.zeros``, ``tf.ones``, ``tf.eye``,
  ``tf.range``, ``tf.constant``, ``tf.one_hot``, ``tf.random.*``, ``tf.Variable``,
  ``tf.zeros_like``/``tf.ones_like``) or ``output_type=``/``out_type=`` (``tf.argmax``, ``tf.shape``);
* a documented default, where the signature fixes it (``tf.zeros(shape)`` is float32,
  ``tf.argmax`` int64, ``tf.shape``/``tf.size`` int32, ``tf.random.categorical`` int64), and
  the dtype TensorFlow infers for Python literals (``tf.constant(3)`` int32, ``tf.fill(d, 0.5)``
  float32; integers outside int32 stay unknown);
* comparisons (``<``, ``==`` ... on a tensor; ``tf.equal``, ``tf.logical_and``, the API table's
  measured ``dtype: "bool"`` entries) and ``~``/``&``/``|``/``^`` of booleans: bool;
* ops that keep their input's dtype (``tf.reshape``, ``tf.transpose``, ``tf.gather``, ``tf.boolean_mask`` ...,
  and for a real float input the elementwise unary functions measured to keep it: ``tf.abs``,
  ``tf.nn.relu``, ``tf.exp`` ..., ``keeps_real_float`` in ``xlacheck/data/tf_dtypes.json``, and the
  real float dtype proven for either tensor of a function measured to take two of one dtype
  (``tf.matmul``, ``tf.maximum``: ``same_dtype_binary``);
  subscripts, ``+ - * // % **`` with an operand of the same dtype, a literal that fits it or any
  other tensor: TensorFlow's binary ops raise on operands of two dtypes; ``/`` the same for a real
  float operand (``tf.truediv`` turns only integers into floats); ``tf.complex`` of a proven part);
* a local name bound exactly once in the function (one plain assignment, no other binding of
  it anywhere in the function: a read sees that value or raises);
* an attribute ``self.x`` of the function's class that the class assigns exactly once, a value
  that names nothing but imported modules (``self.w = tf.Variable([[0.0, 1.0]])``: float32);
* a parameter that the function never rebinds, typed by its decorator's
  ``tf.function(input_signature=[tf.TensorSpec(shape, tf.int8), ...])`` (TensorFlow refuses a
  call whose argument has another dtype), or else given the same proven dtype by every compiled
  caller in the file (``ModuleFacts.call_dtypes``);
* a free variable of a nested function that it never binds: its dtype in the enclosing function
  where the nested one is defined (``def grad(dy)`` inside a ``tf.custom_gradient`` function).

Everything else is unknown (None). ``x.dtype`` flows and Keras mixed-precision policies are not
followed.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from xlacheck import api_table, tf_dtype_table
from xlacheck.analysis import argument
from xlacheck.analysis.tables import BOOL_FUNCS

# The dtype facts, one home for the value model and the rewrites (:mod:`xlacheck.rewrites.dtypes`
# reads its tables from here).
INT_DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
REAL_FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")
DTYPE_NAMES = frozenset({*INT_DTYPES, *REAL_FLOAT_DTYPES, *COMPLEX_DTYPES, "bool", "string"})
DTYPE_ALIASES = {"half": "float16", "double": "float64"}
# Real floating dtypes as TensorFlow spells them (`tf.float32`), without and with the aliases.
TF_REAL_FLOATS = frozenset(f"tf.{d}" for d in REAL_FLOAT_DTYPES)
TF_REAL_FLOATS_AND_ALIASES = TF_REAL_FLOATS | frozenset(f"tf.{a}" for a in DTYPE_ALIASES)
# Modules whose attribute of a dtype's name is that dtype (tf.int8, tf.dtypes.int8, np.int8).
_DTYPE_MODULES = frozenset({"tf", "tf.dtypes", "tf.compat.v1", "tf.compat.v2", "tf.experimental.numpy", "np",
                            "numpy", "tnp"})

# Casts: (x, dtype) in TensorFlow and in Keras (keras.ops.cast and keras.backend.cast, resolved as
# tf.keras.*, take the same two arguments).
_CASTS = frozenset({"tf.cast", "tf.dtypes.cast", "tf.saturate_cast", "tf.dtypes.saturate_cast", "tf.compat.v1.cast",
                    "tf.keras.ops.cast", "tf.keras.backend.cast"})
# name -> (positional index of dtype, keyword, default dtype or None: from the first argument / unknown).
_FACTORIES: dict[str, tuple[int, str, str | None]] = {
    "tf.bitcast": (1, "type", None),
    "tf.zeros": (1, "dtype", "float32"),
    "tf.ones": (1, "dtype", "float32"),
    "tf.eye": (3, "dtype", "float32"),
    "tf.linalg.eye": (3, "dtype", "float32"),
    "tf.random.uniform": (3, "dtype", "float32"),
    "tf.random.normal": (3, "dtype", "float32"),
    "tf.random.truncated_normal": (3, "dtype", "float32"),
    "tf.random.stateless_uniform": (4, "dtype", "float32"),
    "tf.random.stateless_normal": (4, "dtype", "float32"),
    "tf.random.stateless_truncated_normal": (4, "dtype", "float32"),
    "tf.random.poisson": (2, "dtype", "float32"),
    "tf.random.gamma": (3, "dtype", "float32"),
    "tf.random.categorical": (2, "dtype", "int64"),
    "tf.argmax": (2, "output_type", "int64"),
    "tf.argmin": (2, "output_type", "int64"),
    "tf.math.argmax": (2, "output_type", "int64"),
    "tf.math.argmin": (2, "output_type", "int64"),
    "tf.shape": (1, "out_type", "int32"),
    "tf.size": (1, "out_type", "int32"),
    "tf.math.count_nonzero": (3, "dtype", "int64"),
    "tf.sequence_mask": (2, "dtype", "bool"),
}
# name -> (positional index of dtype, keyword): the explicit dtype, else the dtype of the first argument.
_LIKE = {"tf.zeros_like": (1, "dtype"), "tf.ones_like": (1, "dtype"), "tf.constant": (1, "dtype"),
         "tf.convert_to_tensor": (1, "dtype"), "tf.Variable": (6, "dtype")}
# Ops whose result has the dtype of their first argument (whatever it is: shape ops and selections).
KEEPS_DTYPE = frozenset({
    "tf.reshape", "tf.transpose", "tf.identity", "tf.expand_dims", "tf.squeeze", "tf.stop_gradient", "tf.tile",
    "tf.reverse", "tf.gather", "tf.gather_nd", "tf.broadcast_to", "tf.roll", "tf.pad", "tf.boolean_mask",
    "tf.ragged.boolean_mask", "tf.linalg.adjoint", "tf.linalg.matrix_transpose", "tf.math.conj", "tf.conj",
})
# tf.complex(real, imag): complex64 from float32 parts, complex128 from float64 ones (TensorFlow's Tout).
_COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}
_FLOAT_DTYPES = REAL_FLOAT_DTYPES + COMPLEX_DTYPES
_KEEP_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Pow)
_CMP_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)
_INT32_RANGE = range(-(2**31), 2**31)
_MAX_DEPTH = 8


def dtype_literal(e: ast.AST | None, resolve: Callable[[ast.expr], str | None]) -> str | None:
    """The dtype a dtype argument names: ``tf.int8``, ``tf.dtypes.int8``, ``np.int8``, ``"int8"``."""
    if isinstance(e, ast.Constant) and isinstance(e.value, str):
        name = DTYPE_ALIASES.get(e.value, e.value)
        return name if name in DTYPE_NAMES else None
    if isinstance(e, ast.Attribute):
        full = resolve(e)
        if full is None or "." not in full:
            return None
        module, last = full.rsplit(".", 1)
        last = DTYPE_ALIASES.get(last, last)
        if module in _DTYPE_MODULES and last in DTYPE_NAMES:
            return last
    return None


_BOOL_MODULES = _DTYPE_MODULES | {"jax.numpy", "jnp"}


def names_bool(e: ast.AST | None, resolve: Callable[[ast.expr], str | None]) -> bool:
    """Whether a dtype argument names the boolean dtype: the builtin ``bool``, ``"bool"``,
    ``np.bool_``, ``jnp.bool_``, ``tf.bool`` (``x.astype(bool)`` is a boolean array in NumPy and JAX)."""
    if isinstance(e, ast.Name):
        return e.id == "bool" and resolve(e) is None  # the builtin, not an imported name
    if isinstance(e, ast.Constant):
        return e.value in ("bool", "bool_")
    full = resolve(e) if isinstance(e, ast.Attribute) else None
    if full is None or "." not in full:
        return False
    module, last = full.rsplit(".", 1)
    return module in _BOOL_MODULES and last in ("bool", "bool_")


def literal_dtype(e: ast.AST) -> str | None:
    """The dtype TensorFlow gives a Python literal (or nested list/tuple of them): int32 for ints
    in int32's range, float32 when any element is a float, bool for bools only."""
    kinds: set[str] = set()
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.List, ast.Tuple)):
            if not node.elts:
                return None
            stack.extend(node.elts)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            stack.append(node.operand)
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                kinds.add("bool")
            elif isinstance(value, int):
                if value not in _INT32_RANGE:
                    return None
                kinds.add("int")
            elif isinstance(value, float):
                kinds.add("float")
            else:
                return None
        else:
            return None
    if kinds == {"bool"}:
        return "bool"
    if "bool" in kinds:
        return None
    return "float32" if "float" in kinds else "int32" if kinds == {"int"} else None


def local_bindings(function: ast.AST | None) -> dict[str, ast.expr | None]:
    """Name -> the value of its one plain assignment in ``function``'s own scope, or None when the
    name is bound any other way or more than once (parameters, loops, ``with``, augmented
    assignment, tuple targets, ``global``/``nonlocal``, nested definitions)."""
    out: dict[str, ast.expr | None] = {}
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return out
    args = function.args
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
        if arg is not None:
            out[arg.arg] = None
    seen_once: set[str] = set()
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp,
                             ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            # their own scopes, which may still rebind a name of this one (nonlocal, :=)
            if not isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                out[node.name] = None
            for inner in ast.walk(node):
                if isinstance(inner, ast.Nonlocal):
                    for name in inner.names:
                        out[name] = None
                elif isinstance(inner, ast.NamedExpr) and isinstance(inner.target, ast.Name):
                    out[inner.target.id] = None
            continue
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                out[name] = None
            continue
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            for target in node.targets:
                name = target.id  # type: ignore[attr-defined]
                if name in seen_once or name in out:
                    out[name] = None
                else:
                    out[name] = node.value
                seen_once.add(name)
            stack.append(node.value)
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out[node.id] = None
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                out[(alias.asname or alias.name).split(".")[0]] = None
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out[node.name] = None
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            out[node.name] = None
        stack.extend(ast.iter_child_nodes(node))
    return out


def single_self_attrs(cls: ast.ClassDef, resolve: Callable[[ast.expr], str | None]) -> dict[str, ast.expr]:
    """``self.<attr>`` -> its value, for the attributes that ``cls``'s methods assign exactly once
    (one plain ``self.x = value``, no other store, augmented assignment or ``setattr``), when the
    value names nothing but imported modules (``tf.Variable([[0.0, 1.0]])``, ``tf.constant(2,
    tf.int8)``): such a value means the same in every function of the class."""
    stores: dict[str, int] = {}
    values: dict[str, ast.expr] = {}
    for node in ast.walk(cls):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
            return {}
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
                and not isinstance(node.ctx, ast.Load):
            stores[node.attr] = stores.get(node.attr, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Attribute):
            target = node.targets[0]
            if isinstance(target.value, ast.Name) and target.value.id == "self":
                values[target.attr] = node.value
    return {attr: value for attr, value in values.items() if stores.get(attr) == 1 and all(
        resolve(n) is not None for n in ast.walk(value) if isinstance(n, ast.Name))}


def _straight_line(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body``'s statements in order, with the bodies of its ``with`` blocks in their place."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            out.extend(_straight_line(stmt.body))
        else:
            out.append(stmt)
    return out


def straight_line_rebinds(function: ast.AST | None) -> dict[str, list[tuple[ast.Assign, ast.expr | None]]]:
    """Name -> its plain assignments, in order, for the names that :func:`local_bindings` cannot
    give one value (a parameter rebound, ``x = tf.cast(x, tf.int8)``; a name assigned twice) but
    whose every binding other than a parameter is a single-name ``Assign`` directly in the
    function's body (straight-line code: no branch, loop, ``with`` or ``try`` around it, no other
    way of binding it, not rebound from a nested scope). A ``with`` block's body counts as
    straight-line code (``with tf.GradientTape() as tape:`` runs it once, in order), but not its
    ``as`` target. A flat tuple unpacking there (``images, padding = inputs``) is such a binding
    too, of an unknown value. At a read, the value that reaches it is the last of these assignments
    that ends before the read (else the parameter's)."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {}
    top: dict[str, list[tuple[ast.Assign, ast.expr | None]]] = {}
    for stmt in _straight_line(function.body):
        if not isinstance(stmt, ast.Assign):
            continue
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                top.setdefault(target.id, []).append((stmt, stmt.value if len(stmt.targets) == 1 else None))
            elif isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
                for e in target.elts:
                    top.setdefault(e.id, []).append((stmt, None))  # type: ignore[attr-defined]
    if not top:
        return {}
    args = function.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
              if a is not None}
    stores: dict[str, int] = {}
    excluded: set[str] = set()
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp,
                             ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                excluded.add(node.name)
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Nonlocal, ast.Global)):
                    excluded.update(inner.names)
                elif isinstance(inner, ast.NamedExpr) and isinstance(inner.target, ast.Name):
                    excluded.add(inner.target.id)
            continue
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            excluded.update(node.names)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            excluded.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            excluded.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            excluded.add(node.name)
        stack.extend(ast.iter_child_nodes(node))
    return {name: assigns for name, assigns in top.items()
            if name not in excluded and stores.get(name, 0) == len(assigns) and (name in params or len(assigns) > 1)}


_TF_FUNCTIONS = frozenset({"tf.function", "tf.compat.v1.function", "tf.compat.v2.function"})
_SPECS = frozenset({"tf.TensorSpec", "tf.compat.v1.TensorSpec"})


def signature_dtypes(function: ast.AST | None, resolve: Callable[[ast.expr], str | None]) -> dict[str, str]:
    """Parameter -> dtype from ``@tf.function(input_signature=[tf.TensorSpec(shape, dtype), ...])``
    (a list or tuple literal of ``TensorSpec`` calls; ``self``/``cls`` skipped). Parameters that the
    function rebinds are dropped by the caller."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {}
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if params and params[0] in ("self", "cls"):
        params = params[1:]
    for decorator in function.decorator_list:
        if not isinstance(decorator, ast.Call) or resolve(decorator.func) not in _TF_FUNCTIONS:
            continue
        signature = next((kw.value for kw in decorator.keywords if kw.arg == "input_signature"), None)
        if not isinstance(signature, (ast.List, ast.Tuple)):
            continue
        out: dict[str, str] = {}
        for param, spec in zip(params, signature.elts):
            if isinstance(spec, ast.Call) and resolve(spec.func) in _SPECS:
                given = argument(spec, 1, "dtype")
                dtype = dtype_literal(given, resolve) if given is not None else "float32"
                if dtype is not None:
                    out[param] = dtype
        return out
    return {}


class DtypeModel:
    """Proven dtypes of the expressions of one function (see the module docstring)."""

    __slots__ = ("resolve", "is_tensor", "bindings", "params", "signature", "rebinds", "attrs", "_memo")

    def __init__(self, function: ast.AST | None, resolve: Callable[[ast.expr], str | None],
                 is_tensor: Callable[[ast.AST], bool], cls: ast.ClassDef | None = None,
                 given: Mapping[str, str] | None = None) -> None:
        """``given``: dtypes the surrounding analysis proves for names the function reads but does not
        bind: a parameter (what every caller in the file passes) or a free variable (its value in the
        enclosing function); a name the function binds again keeps only its own proofs."""
        self.resolve = resolve
        self.is_tensor = is_tensor
        self.attrs = single_self_attrs(cls, resolve) if cls is not None else {}
        self.bindings = local_bindings(function)
        self.signature = signature_dtypes(function, resolve)
        self.params = {name: dtype for name, dtype in self.signature.items() if name not in _rebound(function, name)}
        if given:
            params = set(_parameter_names(function))
            for name, dtype in given.items():
                free = name not in self.bindings
                if name not in self.params and (free or (name in params and not _rebound(function, name))):
                    self.params[name] = dtype
        self.rebinds = straight_line_rebinds(function)
        self._memo: dict[int, str | None] = {}

    def name_dtype(self, name: str, line: int, col: int) -> str | None:
        """The proven dtype of ``name`` read at (``line``, ``col``) of the function (a closure's free
        variable read where the nested function is defined), not memoized."""
        return self._dtype(ast.Name(id=name, ctx=ast.Load(), lineno=line, col_offset=col), 0)

    def dtype(self, e: ast.AST | None, depth: int = 0) -> str | None:
        if e is None or depth > _MAX_DEPTH:
            return None
        key = id(e)
        if key not in self._memo:
            self._memo[key] = self._dtype(e, depth)
        return self._memo[key]

    def _dtype(self, e: ast.AST, depth: int) -> str | None:
        if isinstance(e, ast.Name):
            if e.id in self.params:
                return self.params[e.id]
            assigns = self.rebinds.get(e.id)
            if assigns is not None:
                read_at = (e.lineno, e.col_offset)
                before = [v for a, v in assigns if (a.end_lineno or a.lineno, a.end_col_offset or 0) <= read_at]
                if not before:
                    return self.signature.get(e.id)
                return self.dtype(before[-1], depth + 1) if before[-1] is not None else None
            value = self.bindings.get(e.id)
            return self.dtype(value, depth + 1) if value is not None else None
        if isinstance(e, ast.Call):
            return self._call(e, depth)
        if isinstance(e, ast.Subscript):
            return self.dtype(e.value, depth + 1)
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
            value = self.attrs.get(e.attr)
            return self.dtype(value, depth + 1) if value is not None else None
        if isinstance(e, ast.IfExp):
            body = self.dtype(e.body, depth + 1)
            return body if body is not None and body == self.dtype(e.orelse, depth + 1) else None
        if isinstance(e, ast.Compare):
            if len(e.ops) == 1 and isinstance(e.ops[0], _CMP_OPS) and any(
                    self.dtype(side, depth + 1) is not None or self.is_tensor(side)
                    for side in (e.left, e.comparators[0])):
                return "bool"
            return None
        if isinstance(e, ast.UnaryOp):
            inner = self.dtype(e.operand, depth + 1)
            if isinstance(e.op, ast.Invert):
                return inner if inner == "bool" or inner in INT_DTYPES else None
            return inner if isinstance(e.op, (ast.USub, ast.UAdd)) and inner != "bool" else None
        if isinstance(e, ast.BinOp):
            left, right = self.dtype(e.left, depth + 1), self.dtype(e.right, depth + 1)
            if isinstance(e.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
                return left if left == right and left is not None and (left == "bool" or left in INT_DTYPES) else None
            if isinstance(e.op, _KEEP_OPS):
                if left is not None and left == right and left != "bool":
                    return left
                for known, other in ((left, e.right), (right, e.left)):
                    # a literal TensorFlow converts to the tensor's dtype, or another tensor: TensorFlow's
                    # binary ops take operands of one dtype only (else the op raises), so the result has it
                    if known is not None and known != "bool" and (_literal_fits(other, known) or self.is_tensor(other)):
                        return known
            elif isinstance(e.op, ast.Div):
                # `/` is tf.truediv: a real float operand keeps its dtype (integers become floats)
                for known, other in ((left, e.right), (right, e.left)):
                    if known in REAL_FLOAT_DTYPES and (_literal_fits(other, known) or self.is_tensor(other)):
                        return known
        return None

    def _call(self, e: ast.Call, depth: int) -> str | None:
        name = self.resolve(e.func)
        if name is None:
            return None
        return call_dtype(e, name, self.resolve, lambda sub: self.dtype(sub, depth + 1))


def returns_bool(name: str) -> bool:
    """Whether the TensorFlow call ``name`` returns a boolean tensor (:data:`BOOL_FUNCS` and the
    API table's measured ``dtype: "bool"`` entries; ``tf.debugging.is_numeric_tensor`` returns a
    Python bool)."""
    if name in BOOL_FUNCS:
        return name != "tf.debugging.is_numeric_tensor"
    if name.startswith("tf."):
        fact = api_table.fact_for(name)
        return fact is not None and fact.dtype == "bool"
    return False


def call_dtype(e: ast.Call, name: str, resolve: Callable[[ast.expr], str | None],
               dtype_of: Callable[[ast.expr], str | None]) -> str | None:
    """The dtype of the call ``e`` to ``name`` (its resolved name) that the tables prove: a cast, a
    factory's ``dtype=`` or documented default, an op that keeps its first argument's dtype
    (``dtype_of`` reads the argument's), a call that returns bool. None when not proven."""
    if name.startswith("tf.compat.v2."):
        name = "tf." + name[len("tf.compat.v2."):]
    if name in _CASTS:
        return dtype_literal(argument(e, 1, "dtype"), resolve)
    if name in _FACTORIES:
        index, keyword, default = _FACTORIES[name]
        given = argument(e, index, keyword) if keyword else None
        if given is not None:
            return dtype_literal(given, resolve)
        return default
    if name in _LIKE:
        index, keyword = _LIKE[name]
        given = argument(e, index, keyword)
        if given is not None:
            return dtype_literal(given, resolve)
        first = argument(e, 0, "initial_value" if name == "tf.Variable" else
                          "value" if name in ("tf.constant", "tf.convert_to_tensor") else "input")
        if first is None:
            return None
        return literal_dtype(first) or dtype_of(first)
    if name == "tf.fill":
        value = argument(e, 1, "value")
        return None if value is None else literal_dtype(value) or dtype_of(value)
    if name == "tf.one_hot":
        given = argument(e, 5, "dtype")
        if given is not None:
            return dtype_literal(given, resolve)
        if argument(e, 2, "on_value") is None and argument(e, 3, "off_value") is None:
            return "float32"
        return None
    if name == "tf.range":
        return _range(e, resolve, dtype_of)
    if name in ("tf.complex", "tf.dtypes.complex"):
        parts = [argument(e, 0, "real"), argument(e, 1, "imag")]
        # TensorFlow requires both parts of one dtype (a Python number is converted to the other's):
        # one proven part decides, two must agree
        known = {dtype_of(part) for part in parts if part is not None} - {None}
        widths = {_COMPLEX_OF.get(dtype or "") for dtype in known}
        return widths.pop() if len(widths) == 1 and None not in widths else None
    if name in KEEPS_DTYPE:
        first = e.args[0] if e.args and not isinstance(e.args[0], ast.Starred) else None
        return None if first is None else dtype_of(first)
    if name in tf_dtype_table.keeps_real_float():
        # measured (tools/generate_tf_dtype_table.py): a float16/32/64 input's dtype is the result's
        first = e.args[0] if e.args and not isinstance(e.args[0], ast.Starred) else None
        kept = None if first is None else dtype_of(first)
        return kept if kept in REAL_FLOAT_DTYPES else None
    if name in tf_dtype_table.same_dtype_binary():
        # measured: both tensors must have one dtype, the result's; a proven real float one decides
        found = {dtype_of(arg) for arg in (argument(e, 0, ""), argument(e, 1, "")) if arg is not None} - {None}
        return found.pop() if len(found) == 1 and found <= set(REAL_FLOAT_DTYPES) else None
    return "bool" if returns_bool(name) else None


def _range(e: ast.Call, resolve: Callable[[ast.expr], str | None],
           dtype_of: Callable[[ast.expr], str | None]) -> str | None:
    """``tf.range``: its ``dtype=``, else the widest of its arguments' dtypes (literals or proven)."""
    given = argument(e, 3, "dtype")
    if given is not None:
        return dtype_literal(given, resolve)
    order = ("int32", "int64", "float32", "float64")
    found = []
    for arg in [*e.args[:3], *(kw.value for kw in e.keywords if kw.arg in ("start", "limit", "delta"))]:
        if isinstance(arg, ast.Starred):
            return None
        kind = literal_dtype(arg) or dtype_of(arg)
        if kind not in order:
            return None
        found.append(order.index(kind))
    return order[max(found)] if found else None


def _parameter_names(function: ast.AST | None) -> list[str]:
    """The names of ``function``'s parameters (none for a module or a missing function)."""
    args = getattr(function, "args", None)
    if not isinstance(args, ast.arguments):
        return []
    return [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a is not None]


def _rebound(function: ast.AST | None, name: str) -> set[str]:
    """``{name}`` when ``function`` binds ``name`` anywhere (assignment, loop, ``with``, ``del``,
    ``nonlocal``/``global``, a nested scope's ``nonlocal``), else the empty set."""
    if function is None:
        return set()
    body = getattr(function, "body", [])
    for node in (n for stmt in (body if isinstance(body, list) else [body]) for n in ast.walk(stmt)):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return {name}
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return {name}
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return {name}
    return set()



def _literal_fits(e: ast.AST, dtype: str) -> bool:
    """A Python number literal that TensorFlow converts to ``dtype`` without changing it
    (small non-negative integers for integer dtypes, integers and floats for float and complex
    dtypes, complex numbers for complex dtypes)."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        e = e.operand
    if not isinstance(e, ast.Constant) or isinstance(e.value, bool):
        return False
    if isinstance(e.value, int):
        return dtype in _FLOAT_DTYPES or (dtype in INT_DTYPES and 0 <= e.value < 128)
    if isinstance(e.value, complex):
        return dtype in ("complex64", "complex128")
    return isinstance(e.value, float) and dtype in _FLOAT_DTYPES
