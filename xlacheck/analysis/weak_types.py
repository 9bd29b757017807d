"""Weakly and strongly typed JAX values, when the source makes it evident.

``jax.jit`` keys its cache on each argument's weak type: a Python number (or ``jnp.asarray(0.0)``)
is a *weakly typed* value, a ``float32`` array a strongly typed one, and a step that receives the
first and returns the second compiles twice. Which JAX functions return a weakly typed result is
measured, not guessed: ``xlacheck/data/jax_weak_types.json`` (``tools/generate_jax_weak_type_table.py``)
records, per function, whether the result is weakly typed when every numeric input is
(``propagates``), never (``strong``: random draws, ``jnp.sum``/``jnp.mean`` and the other
reductions, ``jax.nn.softmax``), or always (``weak``). :class:`WeakTypes` follows an expression
through arithmetic, those functions, indexing and the single assignment of a name (also a name
unpacked from a call of a function of this file, to that function's return value) and answers
``("strongly"|"weakly", why)`` only when the answer is evident; anything it cannot see (a
parameter, a field read from a state, a call it does not know) is unknown, never guessed.

A strongly typed operand decides the weak type of arithmetic only when it is not an integer array
mixed with a weakly typed float: ``jnp.sum(mask) + 0.5`` and ``jnp.int32(2) * 0.5`` are weakly typed
``float32`` (measured on jax 0.10.2; the table's ``integer`` field says which functions return an
integer array from integer inputs), so such a combination is unknown, except for the functions the
table measured to return a strongly typed result for it (``0.9 ** count``: ``jnp.power`` with an integer
exponent, inside ``jax.jit``).

Pytree leaves (:meth:`WeakTypes.leaf`): the leaf of a dict literal is its value; a name, a call of a
function of this file and a read the caller knows (``reads``) are followed to the tree they hold;
``jax.tree_util.tree_map(lambda p, m: ..., tree, other)`` is evaluated leafwise (each lambda parameter
is the same leaf of its tree); the gradients of ``jax.grad(f)(x)`` and ``jax.value_and_grad(f)(x)`` have
the weak type of ``x``'s leaf (measured: ``weak.python_float_then_jitted_grad`` in
``xlacheck/data/jax_cache_key.json``, the gradient of a weakly typed input is weakly typed).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable

from xlacheck import jax_cache
from xlacheck._data import load_json
from xlacheck.analysis.scopes import ScopeTree
from xlacheck.analysis.tables import JAX_BOOL_FUNCS, JAX_TREE_MAPS

# jax.numpy functions whose result takes its weak type from a Python value when no dtype is given
# (measured on jax 0.10.2: jnp.asarray(0.0), jnp.array(0) and jnp.full((), 1.0) are weakly typed;
# jnp.zeros(()) and jnp.ones(()) are float32, strongly typed). Value: the position of that value.
WEAK_FROM_VALUE = {"jnp.asarray": 1, "jnp.array": 1, "jnp.full": 2}
STRONG_WITHOUT_DTYPE = frozenset({"jnp.zeros", "jnp.ones", "jnp.empty", "jnp.eye", "jnp.arange", "jnp.linspace"})
SCALAR_TYPES = frozenset({f"jnp.{t}" for t in (
    "float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint32",
    "complex64", "bool_")})
# Module attributes that are Python floats (jnp.inf is `float("inf")`).
PYTHON_FLOAT_CONSTANTS = frozenset({f"{m}.{c}" for m in ("jnp", "np", "math") for c in ("inf", "nan", "pi", "e")})
# Python operators and the jax.numpy function each one calls.
_OPERATORS: dict[type[ast.operator], str] = {
    ast.Add: "jnp.add", ast.Sub: "jnp.subtract", ast.Mult: "jnp.multiply", ast.Div: "jnp.true_divide",
    ast.Pow: "jnp.power", ast.MatMult: "jnp.matmul"}
# Array methods that keep the receiver's weak type (a view or a reshaping of it).
_SHAPE_METHODS = frozenset({"reshape", "ravel", "flatten", "squeeze", "transpose", "swapaxes", "copy"})
# tree_map forms whose function takes one leaf of each tree (not the `_with_path` ones)
_LEAFWISE_MAPS = frozenset(m for m in JAX_TREE_MAPS if not m.endswith("with_path"))
# the position of the gradients in what the transformed function returns (None: the whole result)
_GRADIENTS: dict[str, int | None] = {"jax.grad": None, "jax.value_and_grad": 1}
# array constructors whose second positional argument is the dtype
_DTYPE_SECOND = frozenset({"jnp.zeros", "jnp.ones", "jnp.empty"})
# Which positional arguments decide the result's dtype (default: all of them).
_DTYPE_ARGUMENTS: dict[str, slice] = {"jnp.where": slice(1, 3), "jnp.take": slice(0, 1)}


@functools.cache
def _functions() -> dict[str, dict[str, object]]:
    functions: dict[str, dict[str, object]] = load_json("jax_weak_types.json")["functions"]
    return functions


def result_kind(name: str) -> str | None:
    """The measured kind of the JAX function ``name`` (``strong``, ``propagates``, ``weak``), or None."""
    entry = _functions().get(name)
    return None if entry is None else str(entry["kind"])


def mixed_result_weak(name: str, int_first: bool) -> bool | None:
    """Whether the two-argument JAX function ``name`` returns a weakly typed result when one argument is a
    strongly typed integer array (the first when ``int_first``) and the other a weakly typed float
    (measured inside ``jax.jit``: True for ``jnp.multiply``, False for ``jnp.power`` with the integer
    as exponent); None when not measured."""
    entry = _functions().get(name)
    value = None if entry is None else entry.get("int_then_weak_float" if int_first else "weak_float_then_int")
    return None if value is None else bool(value)


def returns_integer(name: str) -> bool:
    """The JAX function ``name`` measured to return an integer or boolean array from integer inputs."""
    entry = _functions().get(name)
    return bool(entry is not None and entry.get("integer"))


# dtype names of integer and boolean arrays, as jnp attributes, strings and Python builtins
_INTEGER_DTYPES = frozenset(
    {f"jnp.{t}" for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool_")}
    | {t for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool", "int")})


def python_number(expr: ast.expr) -> bool:
    """A Python int or float literal, signed or not."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float)


Strength = tuple[str, str]  # ("weakly" | "strongly", why)


def _static_size(e: ast.expr) -> bool:
    """``x.shape[0]``, ``len(x)``: a Python int, whatever ``x`` is."""
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
        return True
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len" and len(e.args) == 1


class WeakTypes:
    """Evident weak types of the expressions of one module (see the module docstring).

    ``resolve`` gives an expression's canonical API name (``jnp.sum``) or None; ``callee`` the
    ``def`` of this file a call runs, when it is known (for a name unpacked from its result)."""

    def __init__(self, scopes: ScopeTree, resolve: Callable[[ast.expr], str | None],
                 callee: Callable[[ast.Call], ast.FunctionDef | ast.AsyncFunctionDef | None] | None = None,
                 reads: Callable[[ast.expr], ast.expr | None] | None = None, max_depth: int = 12) -> None:
        self.scopes = scopes
        self.resolve = resolve
        self.callee = callee
        # what a read evidently holds (a state field read in a jitted step: the value the state's
        # initialisation binds it to, which the step's first call receives; a carried parameter: the
        # Python number the loop starts it from), else None
        self.reads = reads
        self.max_depth = max_depth
        # lambda (by id) -> its parameters -> (tree, key): the leaf a tree_map evaluates it on
        self._leafwise: dict[int, dict[str, tuple[ast.expr, object]]] = {}

    def strength(self, e: ast.expr, depth: int = 0) -> Strength | None:
        if depth > self.max_depth:
            return None
        if python_number(e):
            return "weakly", "a Python number"
        if isinstance(e, ast.Attribute) and self.resolve(e) in PYTHON_FLOAT_CONSTANTS:
            return "weakly", "a Python number"
        if _static_size(e):
            return "weakly", "a Python int (a static size)"
        if self.reads is not None and isinstance(e, (ast.Attribute, ast.Subscript, ast.Name)):
            held = self.reads(e)
            if held is not None:
                return self.strength(held, depth + 1)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
            return self.strength(e.operand, depth + 1)
        if isinstance(e, ast.BinOp):
            op = _OPERATORS.get(type(e.op))
            if op is None or result_kind(op) != "propagates":
                return None
            return self._combined([e.left, e.right], depth, op)
        if isinstance(e, ast.Subscript):
            return self.strength(e.value, depth + 1)
        if isinstance(e, ast.Name):
            return self._name(e, depth)
        if isinstance(e, ast.Call):
            return self._call(e, depth)
        return None

    def _combined(self, operands: list[ast.expr], depth: int, name: str | None = None) -> Strength | None:
        """A function that propagates: strongly typed when an operand is (unless every strongly typed
        operand is evidently an integer array and another operand may be a float: then the result may
        be a weakly typed float, unknown, except where the table measured the function ``name`` to
        return a strongly typed result for that pair, as ``0.9 ** count``), weakly when all are."""
        kinds = [self.strength(o, depth + 1) for o in operands]
        strong = next((k for k in kinds if k is not None and k[0] == "strongly"), None)
        if strong is not None:
            strong_operands = [o for o, k in zip(operands, kinds) if k is not None and k[0] == "strongly"]
            others = [o for o, k in zip(operands, kinds) if k is None or k[0] != "strongly"]
            if all(self.integral(o, depth + 1) for o in strong_operands) and not all(
                    self.integral(o, depth + 1) for o in others):
                # a weakly typed float with the integer array, or a strongly typed operand (strong
                # either way), or a weakly typed int (a strongly typed int): strong when measured so
                if name is not None and len(operands) == 2 and len(strong_operands) == 1 and mixed_result_weak(
                        name, operands[0] is strong_operands[0]) is False:
                    return "strongly", f"{name} of a float and an integer array (measured)"
                return None
            return strong
        if kinds and all(k is not None and k[0] == "weakly" for k in kinds):
            return "weakly", "arithmetic of Python numbers"
        return None

    def _call(self, e: ast.Call, depth: int) -> Strength | None:
        func = e.func
        target = self.callee(e) if self.callee is not None and isinstance(func, ast.Name) else None
        if target is not None:
            # a function of this file: its single return value (its parameters stay unknown)
            returns = [n.value for n in self.scopes.scope_nodes(target) if isinstance(n, ast.Return)]
            if len(returns) == 1 and returns[0] is not None and not isinstance(returns[0], ast.Tuple):
                return self.strength(returns[0], depth + 1)
            return None
        if isinstance(func, ast.Attribute) and self.resolve(func) is None:
            if func.attr == "astype" and e.args:
                return "strongly", ".astype(...)"
            if func.attr in _SHAPE_METHODS:
                return self.strength(func.value, depth + 1)
            if result_kind(f"jnp.{func.attr}") == "strong" and not e.args:
                return "strongly", f".{func.attr}()"
            return None
        name = self.resolve(func)
        if name is None:
            return None
        if name.startswith("np."):
            return "strongly", "a NumPy value"  # NumPy arrays and scalars are never weakly typed
        has_dtype = any(k.arg == "dtype" for k in e.keywords)
        if name in SCALAR_TYPES:
            return "strongly", f"{name}(...)"
        if name in WEAK_FROM_VALUE:
            position = WEAK_FROM_VALUE[name]
            if has_dtype or len(e.args) > position:
                return "strongly", f"{name} with a dtype"
            value = e.args[position - 1] if len(e.args) >= position else None
            if value is not None and (python_number(value) or isinstance(value, ast.UnaryOp) and isinstance(
                    value.operand, ast.Attribute) and self.resolve(value.operand) in PYTHON_FLOAT_CONSTANTS
                    or isinstance(value, ast.Attribute) and self.resolve(value) in PYTHON_FLOAT_CONSTANTS):
                return "weakly", f"{name} of a Python number, no dtype"
            return None
        if name in STRONG_WITHOUT_DTYPE:
            return "strongly", f"{name}(...)"
        kind = result_kind(name)
        if kind == "strong":
            return "strongly", f"{name}(...)"
        if kind == "propagates" and not has_dtype:
            args = e.args[_DTYPE_ARGUMENTS.get(name, slice(None))]
            if len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
                args = list(args[0].elts)
            return self._combined(list(args), depth, name) if args else None
        return None

    def integral(self, e: ast.expr, depth: int = 0) -> bool:
        """``e`` is evidently an integer or boolean value (a Python int, a comparison, an integer
        dtype, a function measured to keep integer inputs integer); False when not evident."""
        if depth > self.max_depth:
            return False
        if isinstance(e, ast.Constant):
            return type(e.value) in (int, bool)
        if isinstance(e, ast.UnaryOp):
            return self.integral(e.operand, depth + 1) or isinstance(e.op, ast.Not)
        if isinstance(e, ast.Compare) or _static_size(e):
            return True
        if isinstance(e, ast.BinOp):
            return not isinstance(e.op, ast.Div) and self.integral(e.left, depth + 1) and self.integral(
                e.right, depth + 1)
        if self.reads is not None and isinstance(e, (ast.Attribute, ast.Name, ast.Subscript)):
            held = self.reads(e)
            if held is not None:
                return self.integral(held, depth + 1)
        if isinstance(e, ast.Subscript):
            return self.integral(e.value, depth + 1)
        if isinstance(e, ast.Name):
            value = self._binding(e)
            return value is not None and self.integral(value, depth + 1)
        if isinstance(e, ast.Call):
            return self._integral_call(e, depth)
        return False

    def _dtype_integral(self, dtype: ast.expr) -> bool:
        if isinstance(dtype, ast.Constant) and isinstance(dtype.value, str):
            return dtype.value in _INTEGER_DTYPES
        if isinstance(dtype, ast.Name) and dtype.id in ("int", "bool"):
            return True
        return self.resolve(dtype) in _INTEGER_DTYPES

    def _integral_call(self, e: ast.Call, depth: int) -> bool:
        func = e.func
        dtype = next((k.value for k in e.keywords if k.arg == "dtype"), None)
        target = self.callee(e) if self.callee is not None and isinstance(func, ast.Name) else None
        if target is not None:
            returns = [n.value for n in self.scopes.scope_nodes(target) if isinstance(n, ast.Return)]
            return len(returns) == 1 and returns[0] is not None and self.integral(returns[0], depth + 1)
        if isinstance(func, ast.Attribute) and self.resolve(func) is None:
            if func.attr == "astype" and e.args:
                return self._dtype_integral(e.args[0])
            if func.attr in _SHAPE_METHODS or returns_integer(f"jnp.{func.attr}") and not e.args:
                return self.integral(func.value, depth + 1)
            return False
        name = self.resolve(func)
        if name is None:
            return False
        if dtype is None and name in _DTYPE_SECOND and len(e.args) > 1:
            dtype = e.args[1]
        if dtype is not None:
            return self._dtype_integral(dtype)
        if name in SCALAR_TYPES or name in JAX_BOOL_FUNCS:
            return name in _INTEGER_DTYPES or name in JAX_BOOL_FUNCS
        if name in WEAK_FROM_VALUE:
            position = WEAK_FROM_VALUE[name]
            if len(e.args) > position:
                return self._dtype_integral(e.args[position])
            return len(e.args) >= position and self.integral(e.args[position - 1], depth + 1)
        if name == "jnp.arange":
            return bool(e.args) and len(e.args) <= 3 and all(self.integral(a, depth + 1) for a in e.args)
        if not returns_integer(name):
            return False
        if result_kind(name) == "strong" and name.startswith("jax.random."):
            return True  # a draw's default dtype (randint, bernoulli, ...)
        args = e.args[_DTYPE_ARGUMENTS.get(name, slice(None))]
        if len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
            args = list(args[0].elts)
        return bool(args) and all(self.integral(a, depth + 1) for a in args)

    def owner(self, e: ast.Name) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None:
        """The function whose variable ``e`` reads: its own function, or, for a free name in a lambda,
        the nearest enclosing function (a lambda's parameter: that lambda)."""
        func = self.scopes.function_of(e)
        while isinstance(func, ast.Lambda) and not any(
                a.arg == e.id for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)):
            func = self.scopes.function_of(func)
        return func

    def _assigned(self, e: ast.Name) -> tuple[ast.expr | None, int | None, int] | None:
        """(value, position, size) of the single binding of ``e`` in its function (``position``: the
        element of ``value`` unpacked into ``size`` names, None for a plain assignment); None for a
        parameter, a rebound name, a loop variable."""
        func = self.owner(e)
        if func is None or isinstance(func, ast.Lambda):
            return None
        bindings: list[tuple[ast.expr | None, int | None, int]] = []
        for n in self.scopes.scope_nodes(func):
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == e.id:
                return None
            if isinstance(n, (ast.For, ast.AsyncFor)) and any(
                    isinstance(t, ast.Name) and t.id == e.id for t in ast.walk(n.target)):
                return None
            if isinstance(n, ast.Assign):
                for target in n.targets:
                    if isinstance(target, ast.Name) and target.id == e.id:
                        bindings.append((n.value, None, 1))
                    elif isinstance(target, ast.Tuple):
                        for i, elt in enumerate(target.elts):
                            if isinstance(elt, ast.Name) and elt.id == e.id:
                                bindings.append((n.value, i, len(target.elts)))
            elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == e.id:
                bindings.append((n.value, None, 1))
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                a.arg == e.id for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)):
            return None
        return bindings[0] if len(bindings) == 1 else None

    def binding(self, e: ast.Name) -> ast.expr | None:
        """The value ``e`` is bound to once in its function (None: a parameter, rebound, unknown)."""
        return self._binding(e)

    def _binding(self, e: ast.Name) -> ast.expr | None:
        """The value ``e`` is bound to once in its function (None: a parameter, rebound, unknown)."""
        found = self._assigned(e)
        if found is None:
            return None
        value, position, size = found
        if value is None:
            return None
        return value if position is None else self._unpacked(value, position, size)

    def _name(self, e: ast.Name, depth: int) -> Strength | None:
        """A name bound once in its function: what it is bound to (an element of a tuple that a
        call of a function of this file returns, followed into that function; a parameter of a
        lambda that a tree_map evaluates: the same leaf of its tree)."""
        func = self.owner(e)
        if isinstance(func, ast.Lambda):
            bound = self._leafwise.get(id(func), {}).get(e.id)
            return self.leaf(bound[0], bound[1], depth + 1) if bound is not None else None
        value = self._binding(e)
        return self.strength(value, depth + 1) if value is not None else None

    def _unpacked(self, value: ast.expr, position: int, size: int) -> ast.expr | None:
        """Element ``position`` of ``value`` unpacked into ``size`` names: of a tuple literal, or of
        the tuple the called function of this file returns (its single ``return``)."""
        if isinstance(value, ast.Tuple) and len(value.elts) == size:
            return value.elts[position]
        if not isinstance(value, ast.Call) or self.callee is None:
            return None
        target = self.callee(value)
        if target is None:
            return None
        returns = [n.value for n in self.scopes.scope_nodes(target) if isinstance(n, ast.Return)]
        if len(returns) != 1 or not isinstance(returns[0], ast.Tuple) or len(returns[0].elts) != size:
            return None
        return returns[0].elts[position]

    # -- Python numbers whose type depends on the data -------------------------------------------
    def number_types(self, e: ast.expr, depth: int = 0) -> frozenset[str] | None:
        """The Python number types (``int``, ``float``) ``e`` can evaluate to, when every way it can
        is evident: a literal, ``float(...)``, ``int(...)``, ``len(...)``, builtin ``max``/``min``
        (which return one of their arguments unchanged, so ``max(1, x)`` with a float ``x`` is an int
        or a float depending on the data), a conditional expression, a name bound once, a call of a
        function of this file (all its returns); None when anything is not evident."""
        if depth > self.max_depth:
            return None
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
            return self.number_types(e.operand, depth + 1)
        if isinstance(e, ast.Constant):
            return frozenset({type(e.value).__name__}) if type(e.value) in (int, float) else None
        if isinstance(e, ast.IfExp):
            body, orelse = self.number_types(e.body, depth + 1), self.number_types(e.orelse, depth + 1)
            return body | orelse if body is not None and orelse is not None else None
        if isinstance(e, ast.Name):
            value = self._binding(e)
            return self.number_types(value, depth + 1) if value is not None else None
        if not isinstance(e, ast.Call) or e.keywords or any(isinstance(a, ast.Starred) for a in e.args):
            return None
        if isinstance(e.func, ast.Name) and self.resolve(e.func) is None and (
                self.callee is None or self.callee(e) is None):
            builtin = e.func.id
            if builtin == "float" and len(e.args) == 1:
                return frozenset({"float"})
            if builtin in ("int", "len") and len(e.args) == 1:
                return frozenset({"int"})
            if builtin in ("max", "min") and len(e.args) >= 2:
                kinds = [k for a in e.args if (k := self.number_types(a, depth + 1)) is not None]
                return frozenset().union(*kinds) if len(kinds) == len(e.args) else None
            return None
        target = self.callee(e) if self.callee is not None and isinstance(e.func, ast.Name) else None
        if target is None:
            return None
        returns = [n.value for n in self.scopes.scope_nodes(target) if isinstance(n, ast.Return)]
        if not returns or any(r is None for r in returns):
            return None
        found = [k for r in returns if r is not None and (k := self.number_types(r, depth + 1)) is not None]
        return frozenset().union(*found) if len(found) == len(returns) else None

    # -- pytree leaves ----------------------------------------------------------------------------
    def leaf_value(self, tree: ast.expr, key: object, depth: int = 0) -> ast.expr | None:
        """The expression the leaf ``key`` of ``tree`` is built from, read syntactically: a dict
        literal's value, followed through a name bound once, a call of a function of this file (its
        single return) and a read the caller knows."""
        if depth > self.max_depth:
            return None
        if isinstance(tree, ast.Dict):
            return dict_value(tree, key)
        if self.reads is not None and isinstance(tree, (ast.Attribute, ast.Subscript, ast.Name)):
            held = self.reads(tree)
            if held is not None:
                return self.leaf_value(held, key, depth + 1)
        if isinstance(tree, ast.Name):
            value = self._binding(tree)
            return self.leaf_value(value, key, depth + 1) if value is not None else None
        if isinstance(tree, ast.Call):
            returned = self.single_return(tree)
            return self.leaf_value(returned, key, depth + 1) if returned is not None else None
        return None

    def leaf(self, tree: ast.expr, key: object, depth: int = 0) -> Strength | None:
        """The weak type of the leaf ``key`` (a dict key) of the pytree ``tree``, when evident."""
        if depth > self.max_depth:
            return None
        if isinstance(tree, ast.Dict):
            value = dict_value(tree, key)
            return self.strength(value, depth + 1) if value is not None else None
        if self.reads is not None and isinstance(tree, (ast.Attribute, ast.Subscript, ast.Name)):
            held = self.reads(tree)
            if held is not None:
                return self.leaf(held, key, depth + 1)
        if isinstance(tree, ast.Subscript) and isinstance(tree.slice, ast.Constant):
            inner = self.leaf_value(tree.value, tree.slice.value, depth + 1)  # a subtree: tree["mu"]
            return self.leaf(inner, key, depth + 1) if inner is not None else None
        if isinstance(tree, ast.Name):
            found = self._assigned(tree)
            if found is None:
                return None
            value, position, size = found
            if value is None:
                return None
            gradient = self._gradient_of(value, position)
            if gradient is not None:
                return self.leaf(gradient, key, depth + 1)
            value = value if position is None else self._unpacked(value, position, size)
            return self.leaf(value, key, depth + 1) if value is not None else None
        if isinstance(tree, ast.Call):
            gradient = self._gradient_of(tree, None)
            if gradient is not None:
                return self.leaf(gradient, key, depth + 1)
            if self.resolve(tree.func) in _LEAFWISE_MAPS:
                return self._tree_map_leaf(tree, key, depth)
            returned = self.single_return(tree)
            return self.leaf(returned, key, depth + 1) if returned is not None else None
        return None

    def single_return(self, call: ast.Call) -> ast.expr | None:
        """The single return value of the function of this file ``call`` runs (None: unknown)."""
        target = self.callee(call) if self.callee is not None and isinstance(call.func, ast.Name) else None
        if target is None:
            return None
        returns = [n.value for n in self.scopes.scope_nodes(target) if isinstance(n, ast.Return)]
        return returns[0] if len(returns) == 1 else None

    def _gradient_of(self, value: ast.expr, position: int | None) -> ast.expr | None:
        """The differentiated argument when ``value`` (element ``position``) is the gradient of
        ``jax.grad(f)(x, ...)`` / ``jax.value_and_grad(f)(x, ...)`` (first argument, no ``has_aux``),
        whose leaves have ``x``'s weak type (measured on the cache-key table's jitted gradient)."""
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Call) and value.args) or any(
                isinstance(a, ast.Starred) for a in value.args):
            return None
        transform = value.func
        name = self.resolve(transform.func)
        if name not in _GRADIENTS or _GRADIENTS[name] != position or any(
                k.arg in ("argnums", "has_aux") for k in transform.keywords) or len(transform.args) != 1:
            return None
        if jax_cache.recompiles("weak.python_float_then_jitted_grad"):
            return None  # only while the gradient of a weakly typed input is measured weakly typed
        return value.args[0]

    def _tree_map_leaf(self, call: ast.Call, key: object, depth: int) -> Strength | None:
        """``tree_map(fn, tree, *rest)`` at the leaf ``key``: a lambda's body with each parameter the
        same leaf of its tree, or a measured jnp function of the first tree's leaf."""
        if not call.args or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        fn, trees = call.args[0], call.args[1:]
        if isinstance(fn, ast.Lambda):
            params = fn.args
            if params.vararg or params.kwarg or params.kwonlyargs or params.defaults or params.posonlyargs \
                    or len(params.args) != len(trees) or not trees or id(fn) in self._leafwise:
                return None
            self._leafwise[id(fn)] = {a.arg: (t, key) for a, t in zip(params.args, trees)}
            try:
                return self.strength(fn.body, depth + 1)
            finally:
                del self._leafwise[id(fn)]
        name = self.resolve(fn)
        if name is None or len(trees) != 1:
            return None
        kind = result_kind(name)
        if kind == "strong":
            return "strongly", f"{name}(...)"
        return self.leaf(trees[0], key, depth + 1) if kind == "propagates" else None


def dict_value(tree: ast.Dict, key: object) -> ast.expr | None:
    """The value of the constant ``key`` in a dict literal (None: absent, or a ``**`` spread may hold it)."""
    if any(k is None for k in tree.keys):
        return None
    return next((v for k, v in zip(tree.keys, tree.values) if isinstance(k, ast.Constant) and k.value == key), None)


def dict_leaves(tree: ast.Dict) -> list[tuple[object, ast.expr]]:
    """(key, value) of a dict literal's constant keys (none when a ``**`` spread is in it)."""
    if any(k is None for k in tree.keys):
        return []
    return [(k.value, v) for k, v in zip(tree.keys, tree.values) if isinstance(k, ast.Constant)]
