"""A shape argument read from a parameter of a ``jax.jit`` function (XLA207) -> that parameter static.

A slice bound is one too (``x[:n]``: 'Slice entries must be static integers'), where the boolean-mask
rewrite does not read the slice inside a reduction with ``where=`` (one program for every bound, so
preferred; the rule tries the window rewrite, ``jax.lax.dynamic_slice_in_dim``, before this one).

``jnp.fft.rfft(signal, n=n_fft)``, ``jnp.squeeze(x, axis)``, ``jnp.zeros((n,))`` need their size or
axis while tracing; a parameter of a jitted function is traced, so tracing fails
(ConcretizationTypeError). Which arguments must be static comes from the JAX API table
(:func:`xlacheck.analysis.tables.static_arguments`), the same table the rule reads. When such an
argument is made only of parameters of the decorated function (not rebound in it, or rebound once at
its top from such values: ``k = min(k, x.shape[0])``), numbers and
arithmetic, ``@jax.jit`` becomes ``@functools.partial(jax.jit, static_argnames=(...))`` naming
those parameters: they are Python values while tracing, exactly what the original asked of them.

The argument may also read static facts of the other parameters (``x.shape[0]``, ``x.ndim``,
``len(x)``), module constants bound once to a number (``N_MELS = 8``: a Python value in every trace),
comparisons, conditional expressions, the builtins ``min``/``max``/``abs``/``int``, and
local names bound once, before it, at the top of the function, to such values
(``rows = jnp.where(n < x.shape[0], n, x.shape[0])``) or unpacked from one (``b, t = x.shape``,
``h, w = size``: a tuple parameter is hashable, so it can be static). Under ``jax.jit`` every ``jax.numpy`` call is
traced, even on Python numbers, so the ``jax.numpy`` calls on such values that have a Python
equivalent (:data:`PYTHON_EQUIVALENTS`: ``where`` -> a conditional expression, ``minimum``/
``maximum`` -> ``min``/``max``, ``abs``) are rewritten into it: with the parameters static they
compute the same number as a Python value (a weakly typed scalar, as the ``jax.numpy`` result of
Python numbers is), and other reads of the local name see that number. ``E.astype(int)`` (``float``,
``jnp.int32``...) of such a value becomes ``int(E)``: both truncate toward zero, but Python converts
its float64 where jax.numpy converted float32 (:data:`PYTHON_INT`).

A size read from a field of a parameter annotated with a dataclass of the module that
``jax.tree_util.register_dataclass`` registers (``params.window``, a traced leaf) makes that field
static instead (``window: int = dataclasses.field(metadata=dict(static=True))``): a meta field, a
Python value while tracing, the same for every function that takes the class.

A helper that the jitted function calls through a transformation that hands its arguments on
unchanged (``jax.grad(loss)(x, m, n)`` runs ``loss(x, m, n)`` in the caller's trace; the shared table
``JAX_FUNCTION_TRANSFORMS`` less those that trace every argument) is called like a helper called by
name, for parameters the transformation does not differentiate (not in its ``argnums``, default 0);
``jax.vmap(f, in_axes=(0, None))(x, n)`` too, for what it maps with None and is passed by position
(vmap maps every keyword argument). ``jax.jit(jax.grad(f))`` is a jit site of ``f``: the
transformation keeps ``f``'s signature (``functools.wraps``), so jax.jit names ``f``'s parameters.

Always UNSAFE: each new value of a static argument compiles the function anew (the recompile the
rule's message warns about), and a static argument must be hashable: a caller that passes an
array there raises (pass a Python int or tuple). A size read from a parameter by a string key
(``batch["size"]``) is no candidate: that parameter is a mapping, and jax.jit rejects a dict as a
static argument on every call, even a dict of Python ints. Only for a bare ``@jax.jit`` (``@jit`` imported
from jax) decorator; ``import functools`` is added when the module has none.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from xlacheck import api_table
from xlacheck.analysis.tables import JAX_FUNCTION_TRANSFORMS, array_method_as_function, static_arguments
from xlacheck.diagnostics import Edit, Fix, Location
from xlacheck.rewrites._callers import callers, passed_for
from xlacheck.rewrites._fix import make_fix, replace, replace_lines, rewriter
from xlacheck.rewrites._source import Source, dotted, import_line, jax_alias, module_alias

RECOMPILES = ("each new value of a static argument compiles the function anew, and it must be hashable: a caller "
              "passing an array there raises (pass a Python int or tuple)")
STATIC_FIELD = ("a static dataclass field is static for every use of the class, not only this function: "
                "jax.tree_util maps, jax.grad and jax.vmap no longer see it as a leaf, and an array stored in it "
                "raises under jax.jit (a meta field must be hashable)")


def canonical(src: Source, node: ast.expr) -> str | None:
    """``jnp.fft.rfft`` as ``jax.numpy.fft.rfft``: the root name replaced by the module it imports."""
    name = dotted(node)
    if name is None:
        return None
    root, _, rest = name.partition(".")
    for stmt in src.tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if (alias.asname or alias.name.split(".")[0]) == root:
                    module = alias.name if alias.asname else root
                    return f"{module}.{rest}" if rest else module
        elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
            for alias in stmt.names:
                if (alias.asname or alias.name) == root:
                    return f"{stmt.module}.{alias.name}" + (f".{rest}" if rest else "")
    return None


# ``jax.numpy`` calls with a Python equivalent on Python numbers: name -> builtin (``where``: a
# conditional expression). The one table the static-argument fix reads.
PYTHON_EQUIVALENTS = {"jax.numpy.minimum": "min", "jax.numpy.maximum": "max", "jax.numpy.abs": "abs",
                      "jax.numpy.absolute": "abs", "jax.numpy.where": None,
                      # the math of a size (`jnp.log2(width)`): Python's in float64 where jnp's was float32
                      "jax.numpy.log2": "math.log2", "jax.numpy.log10": "math.log10", "jax.numpy.log": "math.log",
                      "jax.numpy.sqrt": "math.sqrt", "jax.numpy.exp": "math.exp", "jax.numpy.floor": "math.floor",
                      "jax.numpy.ceil": "math.ceil"}
PYTHON_MATH = ("the size is computed by Python's math in float64 where jax.numpy computed float32: a value rounded "
               "to an int at an exact boundary may differ, and math.floor/ceil give ints where jax.numpy gave floats")
_MATH_ROOT = re.compile(r"(?<![\w.])math\.")
# `E.astype(T)` of a Python value `E`: Python's conversion to T's kind (`int()` truncates toward zero, as
# astype does); the dtypes whose values a Python int or float holds exactly
_PYTHON_KINDS = {"int": "int", "float": "float"} | dict.fromkeys(
    [f"{root}.{t}" for root in ("jax.numpy", "numpy") for t in ("int32", "int64")], "int") | dict.fromkeys(
    [f"{root}.{t}" for root in ("jax.numpy", "numpy") for t in ("float32", "float64")], "float")
PYTHON_INT = ("the size is converted to int from Python's float64 where jax.numpy converted float32: a value within "
              "float32 rounding of an int may truncate to another one")
_BUILTINS = frozenset({"min", "max", "abs", "int", "len"})
_STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "size"})
# (``*x.shape[:-1]`` in a tuple: its elements, Python values when the unpacked value is one)
_OPERATORS = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Tuple, ast.List,
              ast.Starred, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context)


class _StaticValue:
    """The parameters a static argument reads, and the edits that make it a Python value (a
    ``jax.numpy`` call on Python numbers rewritten into its Python equivalent)."""

    def __init__(self, src: Source, function: ast.FunctionDef) -> None:
        self.src = src
        self.function = function
        args = function.args
        self.params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
        self.stores = src.stores_in(function)
        self.names: list[str] = []
        self.edits: list[Edit] = []
        self.fields: list[str] = []  # fields of registered dataclasses made static (`GuidanceParams.window`)
        self._followed: set[str] = set()
        self.outer: list[str] = []  # closure variables: parameters of the enclosing function (`loss_fn` in a step)

    def enclosing_parameter(self, name: str) -> ast.FunctionDef | None:
        """The function directly around this one when ``name`` is one of its parameters that no
        code under it rebinds (so a read of ``name`` here, a free variable, is that parameter's
        value), and nothing declares it ``global``/``nonlocal``."""
        outer = self.src.scope_of(self.function)
        if not isinstance(outer, ast.FunctionDef):
            return None
        args = outer.args
        if name not in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
            return None
        if self.src.stores_in(outer).get(name) or name in self.src.declared_outside(outer):
            return None
        return outer

    def read(self, expr: ast.expr) -> bool:
        """Whether ``expr`` is a Python value once the parameters it reads are static (recording
        them, and the edits its ``jax.numpy`` calls need)."""
        if isinstance(expr, ast.Name):
            return self._name(expr)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in self.params \
                and not self.stores.get(expr.value.id) and expr.attr not in _STATIC_ATTRIBUTES:
            return self._field(expr.value.id, expr.attr)
        if isinstance(expr, ast.Attribute) and expr.attr in _STATIC_ATTRIBUTES:  # an array's static facts
            return isinstance(expr.value, ast.Name) and (expr.value.id in self.params or (
                expr.value.id not in self.stores and self.enclosing_parameter(expr.value.id) is not None))
        if isinstance(expr, ast.Subscript):
            if isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
                return False  # `batch["size"]`: a mapping, and a dict is never hashable, so never static
            return self.read(expr.value) and self.read(expr.slice)
        if isinstance(expr, ast.Slice):
            return all(self.read(part) for part in (expr.lower, expr.upper, expr.step) if part is not None)
        if isinstance(expr, ast.Call):
            return self._call(expr)
        if not isinstance(expr, _OPERATORS):
            return False
        return all(self.read(child) for child in ast.iter_child_nodes(expr)
                   if isinstance(child, ast.expr))

    def _name(self, node: ast.Name) -> bool:
        if node.id in self.params and (not self.stores.get(node.id) or self._before_rebinding(node)):
            if node.id not in self.names:
                self.names.append(node.id)
            return True
        if node.id in self.params and not self._rebound_once(node.id):
            return False
        if node.id in self._followed:
            return True
        if node.id not in self.stores:
            outer = self.enclosing_parameter(node.id)
            if outer is not None:
                if node.id not in self.outer:
                    self.outer.append(node.id)
                return True
            if _number(self.src.literal_of(node)):  # a module constant bound once to a number: `N_MELS = 8`
                return True
        value = self.src.local_binding(node.id, node)
        assign = self.src.parents.get(value) if value is not None else None
        if value is None:
            value, assign = self._unpacked(node.id)
        if assign is None or self.src.parents.get(assign) is not self.function:
            return False  # bound in a block (a loop or a branch) or more than once: not followed
        reads = self.src.loads_of(node.id, self.function)
        if any(isinstance(self.src.parents.get(r), ast.Attribute) for r in reads):
            return False  # `rows.astype(...)`: an array's method on what becomes a Python number
        self._followed.add(node.id)
        return self.read(value)

    def _rebound_once(self, name: str) -> ast.Assign | None:
        """The one ``name = value`` at the top of the function that rebinds parameter ``name``
        (``k = min(k, x.shape[0])``), where nothing else binds it."""
        stores = self.stores.get(name, [])
        assign = self.src.parents.get(stores[0]) if len(stores) == 1 else None
        if isinstance(assign, ast.Assign) and assign.targets == stores \
                and self.src.parents.get(assign) is self.function:
            return assign
        return None

    def _before_rebinding(self, node: ast.Name) -> bool:
        """A read of parameter ``node.id`` that runs before its one rebinding (:meth:`_rebound_once`):
        inside the rebinding's value, or in a statement before it. It reads the parameter."""
        assign = self._rebound_once(node.id)
        if assign is None:
            return False
        if any(a is assign.value for a in self.src.ancestors(node)) or node is assign.value:
            return True
        return (node.lineno, node.col_offset) < (assign.lineno, assign.col_offset)

    def _unpacked(self, name: str) -> tuple[ast.expr | None, ast.Assign | None]:
        """(the unpacked value, its assignment) where ``name`` is bound once, as one plain element of
        the tuple target of ``a, b = value`` (``b, t = x.shape``, ``h, w = size``): the element is a
        Python value when the whole value is one."""
        stores = self.stores.get(name, [])
        target = self.src.parents.get(stores[0]) if len(stores) == 1 else None
        assign = self.src.parents.get(target) if isinstance(target, (ast.Tuple, ast.List)) else None
        if not (isinstance(assign, ast.Assign) and assign.targets == [target]) or not all(
                isinstance(e, ast.Name) for e in target.elts):  # type: ignore[union-attr]
            return None, None
        return assign.value, assign

    def _field(self, param: str, attr: str) -> bool:
        """``params.window`` where the parameter is annotated with a dataclass of this module that
        ``jax.tree_util.register_dataclass`` registers (bare: the fields say which are static) and
        ``window`` is a field declared without a default: the field becomes static
        (``dataclasses.field(metadata=dict(static=True))``), a Python value while tracing."""
        annotation = next((a.annotation for a in [*self.function.args.posonlyargs, *self.function.args.args,
                                                  *self.function.args.kwonlyargs] if a.arg == param), None)
        dataclasses_alias = module_alias(self.src.tree, "dataclasses")
        if not isinstance(annotation, ast.Name) or dataclasses_alias is None:
            return False
        cls = next((c for c in self.src.tree.body if isinstance(c, ast.ClassDef) and c.name == annotation.id), None)
        if cls is None or not any(canonical(self.src, d) == "jax.tree_util.register_dataclass"
                                  for d in cls.decorator_list):
            return False
        field = next((f for f in cls.body if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name)
                      and f.target.id == attr), None)
        if field is None or field.value is not None or not field.simple or field.end_lineno != field.lineno:
            return False
        name = f"{cls.name}.{attr}"
        if name not in self.fields:
            self.fields.append(name)
            line, col = self.src.lines[field.lineno - 1], self.src.end(field).col
            self.edits.append(replace_lines(field.lineno, field.lineno, f"{line[:col]} = {dataclasses_alias}.field("
                                            f"metadata=dict(static=True)){line[col:]}"))
        return True

    def _call(self, call: ast.Call) -> bool:
        if canonical(self.src, call.func) in _ARRAY_OF:
            return self._array(call)
        if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            return False
        if isinstance(call.func, ast.Name) and call.func.id in _BUILTINS and not self.stores.get(call.func.id):
            if call.func.id == "len" and len(call.args) == 1 and isinstance(call.args[0], ast.Name) \
                    and call.args[0].id in self.params:
                return True  # the length of an array parameter is its static first dimension
            return all(self.read(a) for a in call.args)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "astype" and len(call.args) == 1:
            return self._astype(call, call.func.value, call.args[0])
        name = canonical(self.src, call.func)
        if name not in PYTHON_EQUIVALENTS or not all(self.read(a) for a in call.args):
            return False
        if any(self._sequence(a) for a in call.args):
            return False  # jnp.sqrt(x.shape) maps over the tuple; math.sqrt and max/abs take one number
        builtin = PYTHON_EQUIVALENTS[name]
        parts = [self.text_of(a) for a in call.args]
        if builtin is None:
            if len(parts) != 3:
                return False
            text = f"({parts[1]} if {parts[0]} else {parts[2]})"
        else:
            text = f"{builtin}({', '.join(parts)})"
        # the edits of inner calls are folded into this one's text: edits must not nest
        self.edits = [e for e in self.edits if not self.within(e, call)]
        self.edits.append(replace(self.src, call, text))
        return True

    def _array(self, call: ast.Call) -> bool:
        """``jnp.array([a, b, ...])`` (``jnp.asarray``, a tuple, ``dtype=``) of Python values, or
        ``jnp.array(x.shape)``, read only as shape arguments (:func:`_shape_reads_only`) ->
        ``(a, b, ...)`` / ``tuple(x.shape)``: a shape needs Python ints while tracing, and under
        ``jax.jit`` the array is traced even when every element is static (:data:`ARRAY_AS_TUPLE`)."""
        if len(call.args) != 1 or any(k.arg != "dtype" for k in call.keywords):
            return False
        (value,) = call.args
        one = not isinstance(value, (ast.List, ast.Tuple)) and not self._sequence(value)
        if not _shape_reads_only(self.src, call, item=one):
            return False
        if one:  # `jnp.array(n)` of one Python value read as a size (`jnp.zeros((t,))`): the value itself
            if not self.read(value):
                return False
            text = self.text_of(value)
        elif isinstance(value, (ast.List, ast.Tuple)):
            if not value.elts or not all(self.read(e) for e in value.elts) \
                    or any(self._sequence(e) for e in value.elts if not isinstance(e, ast.Starred)):
                return False  # a nested sequence is a 2-D array, never a shape
            parts = [self.text_of(e) for e in value.elts]
            text = f"({', '.join(parts)}{',' if len(parts) == 1 else ''})"
        elif self.read(value) and self._sequence(value):
            text = f"tuple({self.text_of(value)})"
        else:
            return False
        self.edits = [e for e in self.edits if not self.within(e, call)]  # folded into this one's text
        self.edits.append(replace(self.src, call, text))
        return True

    def _astype(self, call: ast.Call, value: ast.expr, dtype: ast.expr) -> bool:
        """``E.astype(int)`` (or ``float``, ``jnp.int32``...) of a Python value ``E`` (one number, a
        ``jax.numpy`` result on Python numbers) -> ``int(E)`` / ``float(E)``: the same number as a
        Python value (:data:`PYTHON_INT` where a float becomes an int)."""
        kind = _python_kind(self.src, dtype)
        if kind is None or self.stores.get(kind) or not self.read(value) or self._sequence(value):
            return False
        text = f"{kind}({self.text_of(value)})"
        self.edits = [e for e in self.edits if not self.within(e, call)]  # folded into this one's text
        self.edits.append(replace(self.src, call, text))
        return True

    def _sequence(self, expr: ast.expr) -> bool:
        """Whether ``expr`` (a Python value, :meth:`read`) may be a tuple or list rather than one number:
        a literal one, a whole ``.shape`` or a slice of it, an operation on one, or a name bound to one."""
        if isinstance(expr, (ast.Tuple, ast.List, ast.ListComp)):
            return True
        if isinstance(expr, ast.Attribute):
            return expr.attr == "shape"
        if isinstance(expr, ast.Subscript):
            return isinstance(expr.slice, ast.Slice) and self._sequence(expr.value)
        if isinstance(expr, ast.BinOp):
            return self._sequence(expr.left) or self._sequence(expr.right)
        if isinstance(expr, ast.IfExp):
            return self._sequence(expr.body) or self._sequence(expr.orelse)
        if isinstance(expr, ast.Name) and expr.id not in self.params:
            value = self.src.local_binding(expr.id, expr)
            return isinstance(value, ast.expr) and value is not expr and self._sequence(value)
        return False

    def within(self, edit: Edit, node: ast.AST) -> bool:
        return self.src.start(node) <= edit.start and edit.end <= self.src.end(node)

    def text_of(self, node: ast.expr) -> str:
        """``node``'s source with the edits already made inside it applied."""
        inner = [e for e in self.edits if self.within(e, node)]
        base = self.src.offset(self.src.start(node))
        text = self.src.segment(node)
        for edit in sorted(inner, key=lambda e: e.start, reverse=True):
            start, end = self.src.offset(edit.start) - base, self.src.offset(edit.end) - base
            text = text[:start] + edit.content + text[end:]
        return text


def _python_kind(src: Source, dtype: ast.expr) -> str | None:
    """``int`` or ``float`` for an ``astype`` argument that Python's int or float stands for."""
    if isinstance(dtype, ast.Name) and dtype.id in ("int", "float"):
        return dtype.id
    return _PYTHON_KINDS.get(canonical(src, dtype) or "")


_ARRAY_OF = frozenset({"jax.numpy.array", "jax.numpy.asarray"})
ARRAY_AS_TUPLE = ("Python numbers (a tuple of them) are passed where the original passed a jnp.array of them: the "
                  "same shape for integers, but a float, which jnp.array kept as an array, is now a Python float")


def _static_slot(src: Source, node: ast.expr, item: bool = False) -> bool:
    """Whether ``node`` is passed to its enclosing call as an argument the API table says must be
    static (:func:`static_arguments`: a shape, a size, an axis); with ``item``, also as an item of a
    tuple or list literal passed so (``jnp.zeros((n, 3))``)."""
    call = src.parents.get(node)
    while item and isinstance(call, (ast.Tuple, ast.List)) and node in call.elts:
        node, call = call, src.parents.get(call)
    if not isinstance(call, ast.Call) or node is call.func:
        return False
    name, bound = canonical(src, call.func), call
    method = array_method_as_function(call) if name is None else None
    if method is not None:
        name, bound = method
    return name is not None and any(a is node for _, a in static_arguments(name, bound))


def _shape_reads_only(src: Source, call: ast.Call, item: bool = False) -> bool:
    """``call`` is itself a static argument, or the value of ``name = call`` (the only binding of
    ``name`` in its function) whose every read is one: a tuple read anywhere else (``target * 2``,
    ``target[0] + x``) would not act as the array did."""
    if _static_slot(src, call, item):
        return True
    assign = src.parents.get(call)
    if not (isinstance(assign, ast.Assign) and assign.value is call and len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)):
        return False
    name, scope = assign.targets[0].id, src.scope_of(assign)
    reads = src.loads_of(name, scope)
    return len(src.stores_in(scope).get(name, [])) == 1 and bool(reads) and all(
        _static_slot(src, r, item) for r in reads)


def _arrays_as_tuples(src: Source, edits: list[Edit]) -> bool:
    """Whether an edit replaces a ``jnp.array`` of Python values (:meth:`_StaticValue._array`)."""
    return any(isinstance(n, ast.Call) and canonical(src, n.func) in _ARRAY_OF
               and any(e.start == src.start(n) and src.end(n) == e.end for e in edits) for n in src.nodes)


def _truncates(src: Source, edits: list[Edit]) -> bool:
    """Whether an edit replaces an ``E.astype(int)`` (:meth:`_StaticValue._astype`): :data:`PYTHON_INT`."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "astype"
               and len(n.args) == 1 and _python_kind(src, n.args[0]) == "int"
               and any(e.start <= src.start(n) and src.end(n) <= e.end for e in edits) for n in src.nodes)


@rewriter(ast.Call, ast.Subscript, pointed=True)
def rewrite_jax_static_argument(src: Source, node: ast.AST) -> Fix | None:
    jax = jax_alias(src.tree)
    if jax is None or not isinstance(node, (ast.Call, ast.Subscript)):
        return None
    function = src.scope_of(node)
    if not isinstance(function, ast.FunctionDef):
        return None
    if isinstance(node, ast.Subscript):  # `x[:n]`: jax.jit needs every slice entry as a Python int
        if _masked_around(src, node):
            return None
        arguments: list[tuple[str, ast.expr]] = [("", b) for b in _slice_bounds(node)]
    elif _python_range(src, node):  # `range(n)`: Python ints, every argument
        arguments = [("", a) for a in node.args]
    else:
        name, call = canonical(src, node.func), node
        method = array_method_as_function(node) if name is None else None
        if method is not None:  # `x.reshape(-1, width)` on the traced array the finding names: jnp.reshape's
            name, call = method
        if name is None or api_table.fact_for(name) is None:
            return None
        arguments = [(p, a) for p, a in static_arguments(name, call) if method is None or a is not call.args[0]]
    made = _static_edits(src, function, [argument for _, argument in arguments], _HOPS) if arguments else None
    if made is None or not made[1]:
        return None
    static, edits = made
    reasons = [RECOMPILES] if static else []
    if any("." in p for p in static):  # `Params.window`, a field made static (_StaticValue._field)
        reasons.append(STATIC_FIELD)
    if _truncates(src, edits):
        reasons.append(PYTHON_INT)
    if _arrays_as_tuples(src, edits):
        reasons.append(ARRAY_AS_TUPLE)
    if any(_MATH_ROOT.search(e.content) for e in edits):
        reasons.append(PYTHON_MATH)
        if module_alias(src.tree, "math") != "math":
            at = Location(import_line(src.tree), 0)
            edits = [Edit(at, at, "import math\n"), *edits]
    if not static:  # the size read only Python values: its jax.numpy calls were what traced it
        return make_fix("Compute the size with Python on Python values: under jax.jit a jax.numpy call traces its "
                        "result even from Python numbers", edits, reasons)
    return make_fix(f"Mark {', '.join(f'`{p}`' for p in static)} static in jax.jit: a shape argument needs a Python "
                    "value while tracing", edits, reasons)


def _number(node: ast.expr | None) -> bool:
    """A Python int or float literal (a bool is neither: ``True`` as a size is a mistake to leave as it is)."""
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def _masked_around(src: Source, node: ast.Subscript) -> bool:
    """Whether the boolean-mask rewrite reads the slice ``node`` inside an enclosing expression of its
    statement (``jnp.sum(x[:n])`` -> ``jnp.sum(x, where=...)``): one program for every bound, so that
    fix is preferred to a static bound, which compiles once per value."""
    from xlacheck.rewrites.jax_masks import rewrite_jax_boolean_mask  # (it imports this module)

    try:
        for outer in src.ancestors(node):
            if isinstance(outer, ast.stmt):
                return False
            fix = rewrite_jax_boolean_mask(src, outer)
            if fix is not None and fix.edits:
                return True
        return False
    finally:
        src.forget_fresh_names()


def _slice_bounds(node: ast.Subscript) -> list[ast.expr]:
    """The bounds and steps of the slices in ``node``'s index that are not literals (``x[:n, 1:]``:
    ``n``); the other index entries (an int or an array, traced alike) need no static value."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    return [b for p in parts if isinstance(p, ast.Slice) for b in (p.lower, p.upper, p.step)
            if b is not None and not (isinstance(b, ast.Constant) or isinstance(b, ast.UnaryOp)
                                      and isinstance(b.operand, ast.Constant))]


def _python_range(src: Source, node: ast.Call) -> bool:
    """A call of the builtin ``range`` with plain positional arguments: each must be a Python int."""
    return isinstance(node.func, ast.Name) and node.func.id == "range" and bool(node.args) and not node.keywords \
        and not any(isinstance(a, ast.Starred) for a in node.args) and not src.stores_in(src.tree).get("range")


_HOPS = 1  # helpers followed from a shape argument up to the jax.jit function that calls them


def _static_edits(src: Source, function: ast.FunctionDef, exprs: list[ast.expr],
                  hops: int) -> tuple[list[str], list[Edit]] | None:
    """The parameters to make static, and the edits, for ``exprs`` (read in ``function``) to be
    Python values while it is traced: the parameters they read (:class:`_StaticValue`) static at
    ``function``'s jax.jit sites (:func:`jit_sites`); or, for a helper that is not handed to
    jax.jit but only called by name from functions (at most ``hops`` calls up), the arguments its
    callers pass for those parameters made Python values the same way in each caller. With every
    call passing a Python value, the helper's parameter is one in every trace."""
    value = _StaticValue(src, function)
    if not all(value.read(e) for e in exprs):
        return None
    outer: tuple[list[str], list[Edit]] | None = ([], [])
    if value.outer:  # closure variables: the enclosing function's parameters, made static where it is jitted
        enclosing = value.enclosing_parameter(value.outer[0])
        outer = None if enclosing is None else _static_edits(
            src, enclosing, [ast.Name(id=name, ctx=ast.Load()) for name in value.outer], hops)
    if outer is None:
        return None
    fields = [*value.fields, *(p for p in outer[0] if p not in value.fields)]
    value.edits += [e for e in outer[1] if e not in value.edits]
    if not value.names:  # Python values already, once their jax.numpy calls are Python's (if any)
        return fields, list(value.edits)
    sites = jit_sites(src, function)
    if sites:
        made = _static_decorator(src, function, sites, value.names)
        return None if made is None else ([*value.names, *fields], [*made, *value.edits])
    found = callers(src, function, lambda wrapper: _passes_through(src, wrapper)) if hops > 0 else None
    if not found:
        return None
    static: list[str] = list(fields)
    edits = list(value.edits)
    for caller, passed in found:
        if any(isinstance(call.func, ast.Call) and not _handed_on(src, function, call, value.names) for call in passed):
            return None
        args = [passed_for(function, call, p) for call in passed for p in value.names]
        if any(a is None for a in args):
            return None
        made = _static_edits(src, caller, args, hops - 1)  # type: ignore[arg-type]
        if made is None:
            return None
        static += [p for p in made[0] if p not in static]
        edits += [e for e in made[1] if e not in edits]
    return static, edits


# JAX transformations that call the function they wrap with the arguments they are called with, by
# position (``jax.grad(f)(x, m)`` runs ``f(x, m)`` in the caller's trace): from the shared table of
# transforms, less those that trace every argument (vmap, checkpoint) and those called another way
# (``jax.jvp(f, primals, tangents)``). The differentiating ones trace only their ``argnums`` (default 0);
# jax.vmap hands on unchanged the arguments its literal ``in_axes`` maps with None (a Python int stays one).
_PASS_THROUGH = frozenset(name for name, traces in JAX_FUNCTION_TRANSFORMS.items() if not traces) - {
    "jax.jvp", "jax.vjp", "jax.linearize"}
_DIFFERENTIATING = frozenset({"jax.grad", "jax.value_and_grad", "jax.jacrev", "jax.jacfwd", "jax.jacobian",
                              "jax.hessian"})
_OPTIONS = {"jax.vmap": frozenset({"in_axes", "out_axes"}), "jax.named_call": frozenset({"name"})} | dict.fromkeys(
    _DIFFERENTIATING, frozenset({"argnums", "has_aux", "holomorphic", "allow_int"}))


def _passes_through(src: Source, wrapper: ast.Call) -> bool:
    """``wrapper`` is ``T(f, ...)`` with ``T`` a transformation of :data:`_PASS_THROUGH`, or ``jax.vmap``
    with a literal ``in_axes`` (by keyword or second)."""
    name = canonical(src, wrapper.func)
    if any(kw.arg is None for kw in wrapper.keywords) or any(isinstance(a, ast.Starred) for a in wrapper.args):
        return False
    if name == "jax.vmap":
        return _vmap_axes(wrapper) is not None
    return name in _PASS_THROUGH and len(wrapper.args) == 1


def _vmap_axes(wrapper: ast.Call) -> list[ast.expr] | None:
    """The entries of a ``jax.vmap`` call's literal ``in_axes`` tuple (keyword or second argument)."""
    given = wrapper.args[1] if len(wrapper.args) == 2 else next(
        (kw.value for kw in wrapper.keywords if kw.arg == "in_axes"), None) if len(wrapper.args) == 1 else None
    if not isinstance(given, (ast.Tuple, ast.List)) or not all(
            isinstance(e, ast.Constant) and (e.value is None or type(e.value) is int) for e in given.elts):
        return None
    return list(given.elts)


def _handed_on(src: Source, function: ast.FunctionDef, call: ast.Call, names: list[str]) -> bool:
    """``call`` is ``T(function, ...)(args)`` and hands the parameters ``names`` on unchanged
    (:func:`_undifferentiated`); through jax.vmap only by position (it maps every keyword argument)."""
    wrapper = call.func
    assert isinstance(wrapper, ast.Call)
    if canonical(src, wrapper.func) == "jax.vmap" and (call.keywords or any(
            isinstance(a, ast.Starred) for a in call.args)):
        return False
    return _undifferentiated(src, function, wrapper, names)


def _undifferentiated(src: Source, function: ast.FunctionDef, wrapper: ast.Call, names: list[str]) -> bool:
    """Whether the parameters ``names`` of ``function`` are passed through ``wrapper`` unchanged: not
    among the ``argnums`` (a literal int or tuple of ints, default 0) a differentiating transform traces,
    mapped with None by jax.vmap, and ``wrapper`` names no option that changes how it calls ``function``."""
    name = canonical(src, wrapper.func) or ""
    if any(kw.arg not in _OPTIONS.get(name, ()) for kw in wrapper.keywords):
        return False
    positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    if name == "jax.vmap":
        axes = _vmap_axes(wrapper) or []
        return all(n in positional and positional.index(n) < len(axes)
                   and axes[positional.index(n)].value is None for n in names)  # type: ignore[attr-defined]
    argnums = next((kw.value for kw in wrapper.keywords if kw.arg == "argnums"), None)
    elements = [] if name not in _DIFFERENTIATING else [ast.Constant(0)] if argnums is None else (
        argnums.elts if isinstance(argnums, ast.Tuple) else [argnums])
    if not all(isinstance(e, ast.Constant) and type(e.value) is int for e in elements):
        return False
    traced = {e.value for e in elements}  # type: ignore[attr-defined]
    return not any(positional.index(n) in traced for n in names if n in positional)


def _jitted_function(src: Source, node: ast.AST) -> tuple[ast.FunctionDef, list[JitSite]] | None:
    """The function around ``node`` and the places that hand it to ``jax.jit`` (:func:`jit_sites`),
    when every one of them can name static arguments."""
    function = src.scope_of(node)
    if not isinstance(function, ast.FunctionDef):
        return None
    sites = jit_sites(src, function)
    return (function, sites) if sites else None


def _jax_jit_partial(src: Source, node: ast.expr) -> bool:
    """``functools.partial(jax.jit, ...)`` (any spelling of both names), keywords only after ``jax.jit``."""
    return isinstance(node, ast.Call) and canonical(src, node.func) == "functools.partial" \
        and len(node.args) == 1 and canonical(src, node.args[0]) == "jax.jit"


@dataclass(frozen=True)
class JitSite:
    """A place that hands a function to ``jax.jit``: the decorator or the call whose keywords name
    its static arguments; ``bound``: it wraps the method bound to an object (``jax.jit(self.step)``),
    whose signature has no ``self``, so ``static_argnums`` count from the parameter after it;
    ``through``: the transformation between them (``jax.jit(jax.grad(loss))``), which keeps the
    function's signature (``functools.wraps``) and hands on what it does not differentiate."""

    node: ast.expr
    bound: bool = False
    through: ast.Call | None = None


def jit_sites(src: Source, function: ast.FunctionDef) -> list[JitSite]:
    """Where ``function`` is handed to ``jax.jit``, as the contexts model reads it
    (``analysis/contexts.py``: a decorator or a wrapping call, ``bound_method``), each a node whose
    keywords can name static arguments: its one decorator, ``@jax.jit`` or
    ``@functools.partial(jax.jit, ...)``; else every call that wraps its name in the scope that
    defines it (a method: ``self.<name>`` in the methods of its class), ``jax.jit(f, ...)`` or
    ``functools.partial(jax.jit, ...)(f)`` (the partial call returned), also of a transformation of
    it that hands its arguments on (``jax.jit(jax.grad(f))``; ``jax.grad(f)(x)`` is a call). Empty when the function
    has other decorators, its name is read any other way than called or wrapped so, or a site
    passes ``**options`` or names static arguments with anything but literals (its static set is
    not read here)."""
    if function.decorator_list:
        if len(function.decorator_list) != 1:
            return []
        decorator = function.decorator_list[0]
        if canonical(src, decorator) == "jax.jit":
            return [JitSite(decorator)]
        return [JitSite(decorator)] if _jax_jit_partial(src, decorator) and _literal_static(decorator) else []
    owner = src.parents.get(function)
    refs: list[ast.expr] = [*src.loads_of(function.name, src.scope_of(function))] if not isinstance(
        owner, ast.ClassDef) else _bound_reads(src, owner, function.name)
    sites: list[JitSite] = []
    for ref in refs:
        call = src.parents.get(ref)
        bound = isinstance(ref, ast.Attribute)
        through = None
        if isinstance(call, ast.Call) and call.args and call.args[0] is ref and _passes_through(src, call) \
                and isinstance(src.parents.get(call), ast.Call):
            through, ref, call = call, call, src.parents[call]  # type: ignore[assignment]
        if isinstance(call, ast.Call) and call.func is ref:
            continue  # called as it is, not compiled there: static arguments change nothing
        if not (isinstance(call, ast.Call) and call.args and call.args[0] is ref):
            return []  # handed on some other way (a list, an argument of another wrapper)
        if canonical(src, call.func) == "jax.jit":
            site: ast.expr = call
        elif _jax_jit_partial(src, call.func):
            site = call.func
        else:
            return []
        if len(call.args) != 1 or not _literal_static(site):  # type: ignore[arg-type]
            return []
        sites.append(JitSite(site, bound=bound, through=through))
    return sites


def _bound_reads(src: Source, cls: ast.ClassDef, name: str) -> list[ast.expr]:
    """Every read of attribute ``name`` in ``cls``'s body: ``self.<name>`` in its methods (``self``
    their first parameter) are the method bound; any other read (``Model.<name>``, ``other.<name>``)
    comes back as it is, and :func:`jit_sites` refuses it unless it is a plain call."""
    out: list[ast.expr] = []
    for node in ast.walk(cls):
        if not (isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.ctx, ast.Load)):
            continue
        method = src.function_of(node)
        while method is not None and src.parents.get(method) is not cls:
            method = src.function_of(method)
        first = method.args.posonlyargs + method.args.args if isinstance(method, ast.FunctionDef) else []
        if not (first and isinstance(node.value, ast.Name) and node.value.id == first[0].arg):
            out.append(ast.Name(id=name))  # not the bound method: no call site it can be
            continue
        out.append(node)
    return out


def _literal_static(call: ast.Call) -> bool:
    """No ``**options`` and static arguments named by literals only (``static_argnums=(1,)``)."""
    for kw in call.keywords:
        if kw.arg is None:
            return False
        if kw.arg in ("static_argnums", "static_argnames"):
            values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value]
            if not all(isinstance(v, ast.Constant) for v in values):
                return False
    return True


def _static_decorator(src: Source, function: ast.FunctionDef, sites: list[JitSite],
                      static: list[str]) -> list[Edit] | None:
    """Each site with ``static`` among its static arguments: ``@jax.jit`` ->
    ``@functools.partial(jax.jit, static_argnames=(...))`` (with ``import functools`` where the
    module has none); a call that names none gets ``static_argnames`` (jax.jit finds their
    positions in the signature). A call that already names some keeps its way of naming them:
    jax.jit reads the signature only when one of ``static_argnums``/``static_argnames`` is given,
    and with both it treats as static a parameter passed by position only if ``static_argnums``
    names it, and one passed by keyword only if ``static_argnames`` does (measured, jax 0.10.2).
    So a parameter's position joins ``static_argnums`` and its name ``static_argnames``, each where
    given. None for a keyword-only parameter where only ``static_argnums`` is given."""
    if any(site.through is not None and (canonical(src, site.through.func) == "jax.vmap" or not _undifferentiated(
            src, function, site.through, static)) for site in sites):
        return None  # the transformation traces one of them (a differentiated argument, a vmap keyword)
    names = ", ".join(f'"{p}"' for p in static) + ("," if len(static) == 1 else "")
    positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    edits: list[Edit] = []
    for jit_site in sites:
        site = jit_site.node
        if not isinstance(site, ast.Call):
            edits.append(replace(src, site, f"functools.partial({src.segment(site)}, static_argnames=({names}))"))
            if module_alias(src.tree, "functools") != "functools" and not any(
                    e.content == "import functools\n" for e in edits):
                at = Location(import_line(src.tree), 0)
                edits.insert(0, Edit(at, at, "import functools\n"))
            continue
        given = {kw.arg: kw.value for kw in site.keywords if kw.arg in ("static_argnums", "static_argnames")}
        if not given:
            given = {"static_argnames": ast.Tuple(elts=[], ctx=ast.Load())}
        shift = 1 if jit_site.bound else 0
        added = {"static_argnums": [str(positional.index(p) - shift) for p in static if p in positional],
                 "static_argnames": [f'"{p}"' for p in static]}
        if "static_argnames" not in given and len(added["static_argnums"]) < len(static):
            return None
        keywords = [f"{kw.arg}={src.segment(kw.value)}" for kw in site.keywords if kw.arg not in given]
        for kwarg, value in given.items():
            values = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
            kept = [src.segment(v) for v in values]
            kept += [t for t in added[kwarg] if t not in kept]
            keywords.append(f"{kwarg}=({', '.join(kept)}{',' if len(kept) == 1 else ''})")
        # the call written again (an edit is a whole expression)
        parts = [*(src.segment(a) for a in site.args), *keywords]
        edits.append(replace(src, site, f"{src.segment(site.func)}({', '.join(parts)})"))
    return edits


_BRANCHING = frozenset({"jax.lax.switch", "jax.lax.cond"})


@rewriter(ast.Call, pointed=True)
def rewrite_jax_static_branch(src: Source, node: ast.AST) -> Fix | None:
    """``lax.switch(i, [f, g], *operands)`` / ``lax.cond(p, f, g, *operands)`` whose branches return
    different forms (XLA114), in a ``@jax.jit`` function whose index or predicate is made of its
    parameters (as :class:`_StaticValue` reads them): those parameters static and the branch
    picked in Python, ``(f, g)[min(max(int(i), 0), 1)](*operands)`` (``lax.switch`` clamps its
    index into range) or ``((f) if p else (g))(*operands)``. The picked branch computes what
    ``lax.switch``/``lax.cond`` would have computed with that index, without tracing the others:
    the output form may then differ per value, which is what the code asked for. UNSAFE as every
    static-argument fix (:data:`RECOMPILES`)."""
    if not isinstance(node, ast.Call) or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    name = canonical(src, node.func)
    if name not in _BRANCHING:
        return None
    jitted = _jitted_function(src, node)
    if jitted is None:
        return None
    function, sites = jitted
    value = _StaticValue(src, function)
    if not node.args or not value.read(node.args[0]) or not value.names or value.outer:
        return None
    index = value.text_of(node.args[0])
    if name == "jax.lax.switch":
        if len(node.args) < 2 or not isinstance(node.args[1], (ast.List, ast.Tuple)) or not node.args[1].elts:
            return None
        branches = [src.segment(b) for b in node.args[1].elts]
        last = len(branches) - 1
        picked = f"({', '.join(branches)}{',' if len(branches) == 1 else ''})[min(max(int({index}), 0), {last})]"
        operands = node.args[2:]
    else:
        if len(node.args) < 3:
            return None
        picked = f"(({src.segment(node.args[1])}) if {index} else ({src.segment(node.args[2])}))"
        operands = node.args[3:]
    call = f"{picked}({', '.join(src.segment(a) for a in operands)})"
    inner = [e for e in value.edits if value.within(e, node.args[0])]
    static = value.names
    made_static = _static_decorator(src, function, sites, static)
    if made_static is None:
        return None
    edits = [*made_static, *[e for e in value.edits if e not in inner],
             replace(src, node, call)]
    short = name.rsplit(".", 1)[-1]
    return make_fix(f"Mark {', '.join(f'`{p}`' for p in static)} static in jax.jit and pick the {short} branch in "
                    "Python: only the branch taken is traced, so the branches may return different forms",
                    edits, [RECOMPILES])



@rewriter(ast.If, ast.While, ast.IfExp, pointed=True)
def rewrite_jax_static_condition(src: Source, node: ast.AST) -> Fix | None:
    """A Python ``if``/``while``/conditional expression whose test is made only of parameters of a
    ``jax.jit`` function (as :class:`_StaticValue` reads them: ``if training:``, ``if n_steps > 0:``)
    and those parameters read nowhere else but in such tests (flags and options, not data) -> those
    parameters static: the test is then a Python value while tracing, and Python runs the branch it
    picks, as the original asked (no ``lax.cond``: the branches may differ in shape, raise, or touch
    Python state). Tried after the ``lax`` forms (XLA101's declaration), for tests they cannot take:
    a caller that passes an array for the parameter raises with it static, where ``lax.cond`` takes
    one. UNSAFE as every static-argument fix (:data:`RECOMPILES`); a parameter also read as data is
    left alone."""
    if not isinstance(node, (ast.If, ast.While, ast.IfExp)):
        return None
    jitted = _jitted_function(src, node)
    if jitted is None:
        return None
    function, sites = jitted
    value = _StaticValue(src, function)
    if not value.read(node.test) or not value.names or value.fields or value.edits or value.outer:
        return None
    tests = [n.test for n in ast.walk(function) if isinstance(n, (ast.If, ast.While, ast.IfExp))]
    in_tests = {id(sub) for test in tests for sub in ast.walk(test)}
    if any(id(read) not in in_tests for p in value.names for read in src.loads_of(p, function)):
        return None  # also data: lax.cond keeps one compile
    made = _static_decorator(src, function, sites, value.names)
    if made is None:
        return None
    return make_fix(f"Mark {', '.join(f'`{p}`' for p in value.names)} static in jax.jit: the condition reads only "
                    "options, so Python picks the branch while tracing", made, [RECOMPILES])
