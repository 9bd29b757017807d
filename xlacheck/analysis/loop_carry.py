"""What a ``lax.fori_loop`` / ``lax.while_loop`` / ``lax.scan`` body provably does to its carry.

JAX traces a loop body once and requires the carry it returns to have the type of the carry it
received: the same pytree structure and, per leaf, the same shape and dtype (measured on JAX:
``xlacheck/data/jax_loop_carry.json``, read through :mod:`xlacheck.jax_loop_carry`). This module
finds, for one loop call of a module, the places where the initial carry and the body's returned
carry provably differ. It only reports what it can prove from the source:

* a tuple carry returned with another number of elements;
* an element that starts as ``None`` and comes back as an array (a ``jax.numpy``/``jax.lax``/
  ``jax.nn``/``jax.random`` result, arithmetic, an element of a tuple a helper of this file returns
  from such calls);
* an element that starts as a Python number and comes back with rank >= 1 (a lower bound on the
  rank: a slice kept by a multi-axis index ``v[:, i]``, a ``None`` axis, ``jnp.zeros((a, b))``,
  followed through element-wise functions and arithmetic);
* an element the body concatenates onto (``jnp.concatenate([c, y])``, ``jnp.append(c, y)``, ...),
  so its shape grows each iteration.

Anything else (names from outside the body, calls of other functions, control flow around the
bindings) is unknown, and unknown is not a mismatch. The body's own straight-line statements are
followed in order (``h, c = carry``, ``h = jnp.tanh(h)``); a name bound inside an ``if``/``for``/
``while``/``with``/``try`` of the body is not followed.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from xlacheck.analysis import argument
from xlacheck.analysis.calls import number_literal
from xlacheck.analysis.scopes import own_nodes
from xlacheck.analysis.tables import JAX_REDUCTIONS, JAX_SHAPE_PRESERVING

FORI_LOOP = frozenset({"jax.lax.fori_loop", "lax.fori_loop"})
WHILE_LOOP = frozenset({"jax.lax.while_loop", "lax.while_loop"})
SCAN = frozenset({"jax.lax.scan", "lax.scan"})

_ARRAY_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.random.", "jnp.", "lax.")
_GROW_LIST = frozenset({"jax.numpy.concatenate", "jax.numpy.vstack", "jax.numpy.hstack", "jax.numpy.stack",
                        "jax.numpy.row_stack", "jax.numpy.column_stack", "jax.lax.concatenate"})
_GROW_APPEND = frozenset({"jax.numpy.append"})
_FILLED = frozenset({"jax.numpy.zeros", "jax.numpy.ones", "jax.numpy.empty", "jax.numpy.full"})
_NESTING = (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.Match, ast.AsyncFor, ast.AsyncWith)
_MAX_DEPTH = 12

Resolve = Callable[[ast.expr], "str | None"]
FunctionDefs = Callable[[str], "ast.FunctionDef | None"]


def canonical(name: str) -> str:
    """``jnp.exp`` / ``lax.scan`` as the tables spell them (``jax.numpy.exp``, ``jax.lax.scan``)."""
    for short, full in (("jnp.", "jax.numpy."), ("lax.", "jax.lax.")):
        if name.startswith(short):
            return full + name[len(short):]
    return name


@dataclass(frozen=True)
class CarryMismatch:
    """One provable difference: ``key`` names the measured probe of ``jax_loop_carry.json`` that
    shows the loop raising for it; ``path`` the element (``()`` for the whole carry); ``detail``
    the words of the message."""

    key: str
    path: tuple[int, ...]
    detail: str


@dataclass(frozen=True)
class _Carry:
    """The body's view of element ``path`` of the carry it received."""

    path: tuple[int, ...]


@dataclass(frozen=True)
class _Value:
    """An expression of the body, with the bindings in force where it was evaluated."""

    expr: ast.expr
    env: dict[str, object]


@dataclass(frozen=True)
class _Unpacked:
    """Element ``index`` of the tuple ``call`` returns (``a, b = helper(x)``)."""

    call: ast.Call
    index: int


@dataclass(frozen=True)
class LoopParts:
    """A loop call's body function, the position of the carry among its parameters, and the
    initial carry; ``returns_pair``: the body returns ``(carry, y)`` (``lax.scan``)."""

    loop: str
    body: ast.FunctionDef | ast.Lambda
    carry_param: str
    init: ast.expr
    returns_pair: bool


def loop_parts(call: ast.Call, name: str, function_def: FunctionDefs) -> LoopParts | None:
    """The parts of a ``lax.fori_loop``/``while_loop``/``scan`` call, or None when a part is not
    a lambda or a function of this file defined once, or is passed in a form not followed."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    if name in FORI_LOOP:
        loop, slots, position, arity, pair = "fori_loop", (("body_fun", 2), ("init_val", 3)), 1, 2, False
    elif name in WHILE_LOOP:
        loop, slots, position, arity, pair = "while_loop", (("body_fun", 1), ("init_val", 2)), 0, 1, False
    elif name in SCAN:
        loop, slots, position, arity, pair = "scan", (("f", 0), ("init", 1)), 0, 2, True
    else:
        return None
    found: list[ast.expr] = []
    for keyword, index in slots:
        value = argument(call, index, keyword)
        if value is None:
            return None
        found.append(value)
    body_expr, init = found
    body: ast.FunctionDef | ast.Lambda | None = None
    if isinstance(body_expr, ast.Lambda):
        body = body_expr
    elif isinstance(body_expr, ast.Name):
        body = function_def(body_expr.id)
    if body is None or body.args.vararg or body.args.kwonlyargs or body.args.posonlyargs \
            or body.args.defaults or len(body.args.args) != arity:
        return None
    return LoopParts(loop, body, body.args.args[position].arg, init, pair)


class CarryModel:
    """Proven facts about one loop body's returned carry against its initial carry."""

    def __init__(self, parts: LoopParts, resolve: Resolve, function_def: FunctionDefs) -> None:
        self.parts = parts
        self.resolve = resolve
        self.function_def = function_def

    # -- the body's returned carries -------------------------------------------------------------
    def returned(self) -> list[tuple[ast.expr, dict[str, object]]] | None:
        """Each carry the body returns, with the bindings in force there; None when not followed
        (a return inside control flow, a bare ``return``, a scan body not returning a pair)."""
        body = self.parts.body
        env: dict[str, object] = {self.parts.carry_param: _Carry(())}
        if isinstance(body, ast.Lambda):
            outs = [(body.body, env)]
        else:
            outs = []
            for stmt in body.body:
                if isinstance(stmt, ast.Return):
                    if stmt.value is None:
                        return None
                    outs.append((stmt.value, env))
                    break
                if any(isinstance(n, ast.Return) for n in own_nodes([stmt])):
                    return None  # a return inside control flow
                env = self._bind(stmt, env)
            if not outs:
                return None
        if self.parts.returns_pair:
            pairs = []
            for out, at in outs:
                if not isinstance(out, ast.Tuple) or len(out.elts) != 2:
                    return None
                pairs.append((out.elts[0], at))
            return pairs
        return outs

    def _bind(self, stmt: ast.stmt, env: dict[str, object]) -> dict[str, object]:
        if isinstance(stmt, _NESTING) or not isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            stored = {n.id for n in own_nodes([stmt]) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            return {k: v for k, v in env.items() if k not in stored} if stored else env
        new = dict(env)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            for node in own_nodes([stmt]):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    new.pop(node.id, None)
            return new
        if isinstance(target, ast.Name):
            new[target.id] = _Value(value, env)
        elif isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(t, ast.Name) for t in target.elts):
            names = [t.id for t in target.elts if isinstance(t, ast.Name)]
            source = env.get(value.id) if isinstance(value, ast.Name) else None
            for i, bound in enumerate(names):
                if isinstance(source, _Carry):
                    new[bound] = _Carry((*source.path, i))
                elif isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(names):
                    new[bound] = _Value(value.elts[i], env)
                elif isinstance(value, ast.Call):
                    new[bound] = _Unpacked(value, i)
                else:
                    new.pop(bound, None)
        else:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    new.pop(node.id, None)
        return new

    # -- comparison ------------------------------------------------------------------------------
    def mismatch(self, out: ast.expr, env: dict[str, object]) -> CarryMismatch | None:
        return self._compare(self.parts.init, out, env, ())

    def _compare(self, init: ast.expr, out: ast.expr, env: dict[str, object],
                 path: tuple[int, ...]) -> CarryMismatch | None:
        out_value = self._follow(out, env)
        if isinstance(out_value, _Carry):
            return None  # handed back as it came in
        if isinstance(init, (ast.Tuple, ast.List)):
            if isinstance(out_value, _Value) and isinstance(out_value.expr, (ast.Tuple, ast.List)) \
                    and type(out_value.expr) is type(init):
                outs = out_value.expr.elts
                if any(isinstance(x, ast.Starred) for x in (*outs, *init.elts)):
                    return None  # `(*state, key)`: the length is not known here
                if len(outs) != len(init.elts):
                    return CarryMismatch("structure.tuple_length", path,
                                         f"a {_kind(init)} of {len(init.elts)} goes in, one of {len(outs)} comes out")
                for i, (a, b) in enumerate(zip(init.elts, outs)):
                    found = self._compare(a, b, out_value.env, (*path, i))
                    if found is not None:
                        return found
            return None
        grown = self._grown(out_value, path)
        if grown is not None:
            return CarryMismatch(grown, path, "the body concatenates onto it, so its shape grows every iteration")
        if isinstance(init, ast.Constant) and init.value is None:
            if self._is_array(out_value, 0):
                return CarryMismatch("none.then_array", path, "it starts as `None` and the body returns an array")
            if isinstance(out_value, _Value) and self._number_or_array(out_value.expr):
                return CarryMismatch("none.then_python_number", path,
                                     "it starts as `None` and the body returns a number or an array")
            return None
        number = number_literal(init)
        out_rank = self._min_rank(out_value, 0)
        if number is not None and out_rank >= 1:
            key = "scalar.python_int_then_vector" if isinstance(number, int) else "scalar.python_float_then_vector"
            return CarryMismatch(key, path, f"it starts as the Python scalar `{ast.unparse(init)}` and the body "
                                            "returns an array of rank >= 1")
        rank = _filled_rank(init, self.resolve)
        if rank is not None and out_rank > rank:
            return CarryMismatch("shape.vector_then_column", path, f"it starts as `{ast.unparse(init)}`, rank "
                                                                    f"{rank}, and the body returns rank >= {out_rank}")
        if rank is not None and rank >= 1 and isinstance(out_value, _Value) and self._full_reduction(out_value.expr):
            return CarryMismatch("shape.vector_then_scalar", path, f"it starts as `{ast.unparse(init)}`, rank "
                                                                    f"{rank}, and the body returns a full reduction")
        return None

    @staticmethod
    def _number_or_array(e: ast.expr) -> bool:
        """Arithmetic (``v * 2.0``, ``-v``) or a number literal: a value, never ``None``."""
        return isinstance(e, (ast.BinOp, ast.UnaryOp)) or number_literal(e) is not None

    def _full_reduction(self, e: ast.expr) -> bool:
        """A reduction over every axis without ``keepdims`` (``jnp.sum(c + v)``, ``c.mean()``): a scalar."""
        if not isinstance(e, ast.Call) or e.keywords or len(e.args) > (0 if _is_method(e, self.resolve) else 1):
            return False
        if _is_method(e, self.resolve):
            assert isinstance(e.func, ast.Attribute)
            return e.func.attr in JAX_REDUCTIONS
        name = self.resolve(e.func)
        full = canonical(name) if name is not None else ""
        return bool(e.args) and full.startswith("jax.numpy.") and full[len("jax.numpy."):] in JAX_REDUCTIONS

    def _follow(self, e: ast.expr, env: dict[str, object], depth: int = 0) -> object:
        """What ``e`` stands for: a carry element, a bound value, or ``e`` itself."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(e, ast.Name):
            if e.id not in env:
                return None
            bound = env[e.id]
            if isinstance(bound, _Value):
                return self._follow(bound.expr, bound.env, depth + 1)
            return bound
        if isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Constant) and isinstance(e.slice.value, int) \
                and not isinstance(e.slice.value, bool):
            base = self._follow(e.value, env, depth + 1)
            if isinstance(base, _Carry) and isinstance(self._init_at(base.path), (ast.Tuple, ast.List)):
                return _Carry((*base.path, e.slice.value))
        return _Value(e, env)

    def _init_at(self, path: tuple[int, ...]) -> ast.expr | None:
        node: ast.expr | None = self.parts.init
        for i in path:
            if not isinstance(node, (ast.Tuple, ast.List)) or i >= len(node.elts):
                return None
            node = node.elts[i]
        return node

    def _grown(self, value: object, path: tuple[int, ...]) -> str | None:
        if not isinstance(value, _Value) or not isinstance(value.expr, ast.Call):
            return None
        call = value.expr
        name = self.resolve(call.func)
        full = canonical(name) if name is not None else None
        if full in _GROW_LIST and call.args and isinstance(call.args[0], (ast.List, ast.Tuple)):
            parts = call.args[0].elts
            key = "shape.grown_by_concatenate"
        elif full in _GROW_APPEND and len(call.args) >= 2:
            parts = [call.args[0]]
            key = "shape.grown_by_append"
        else:
            return None
        if len(call.args[0].elts if isinstance(call.args[0], (ast.List, ast.Tuple)) else parts) < (
                1 if key == "shape.grown_by_append" else 2):
            return None
        for p in parts:
            if isinstance(self._follow(p, value.env), _Carry) and self._follow(p, value.env) == _Carry(path):
                return key
        return None

    def _is_array(self, value: object, depth: int) -> bool:
        if depth > _MAX_DEPTH or value is None or isinstance(value, _Carry):
            return False
        if isinstance(value, _Unpacked):
            return self._unpacked_is_array(value, depth)
        if not isinstance(value, _Value):
            return False
        e = value.expr
        if isinstance(e, ast.Call):
            name = self.resolve(e.func)
            return name is not None and name.startswith(_ARRAY_MODULES)
        if isinstance(e, ast.BinOp):
            return any(self._is_array(self._follow(side, value.env, depth + 1), depth + 1)
                       for side in (e.left, e.right))
        if isinstance(e, ast.UnaryOp):
            return self._is_array(self._follow(e.operand, value.env, depth + 1), depth + 1)
        return self._min_rank(value, depth + 1) >= 1

    def _unpacked_is_array(self, value: _Unpacked, depth: int) -> bool:
        func = value.call.func
        helper = self.function_def(func.id) if isinstance(func, ast.Name) else None
        if helper is None:
            return False
        returns = [n for n in own_nodes(helper) if isinstance(n, ast.Return)]
        if not returns:
            return False
        for r in returns:
            if not isinstance(r.value, ast.Tuple) or value.index >= len(r.value.elts):
                return False
            elt = r.value.elts[value.index]
            if not (isinstance(elt, ast.Call) and (name := self.resolve(elt.func)) is not None
                    and name.startswith(_ARRAY_MODULES)):
                return False
        return True

    def _min_rank(self, value: object, depth: int) -> int:
        """A lower bound on the rank of ``value`` (0 when nothing is proven)."""
        if depth > _MAX_DEPTH or not isinstance(value, (_Value, _Carry)):
            return 0
        if isinstance(value, _Carry):
            init = self._init_at(value.path)
            return self._min_rank(_Value(init, {}), depth + 1) if init is not None else 0
        e, env = value.expr, value.env
        if isinstance(e, ast.Name):
            return self._min_rank(self._follow(e, env, depth + 1), depth + 1)
        if isinstance(e, ast.UnaryOp):
            return self._min_rank(self._follow(e.operand, env, depth + 1), depth + 1)
        if isinstance(e, ast.BinOp) and not isinstance(e.op, ast.MatMult):
            return max(self._min_rank(self._follow(s, env, depth + 1), depth + 1) for s in (e.left, e.right))
        if isinstance(e, ast.IfExp):
            return min(self._min_rank(self._follow(s, env, depth + 1), depth + 1) for s in (e.body, e.orelse))
        if isinstance(e, ast.Subscript):
            return self._indexed_rank(e, env, depth)
        if isinstance(e, ast.Call) and not any(isinstance(a, ast.Starred) for a in e.args):
            name = self.resolve(e.func)
            full = canonical(name) if name is not None else None
            if full in _FILLED and e.args:
                # (a starred part, `(*batch, 4)`, may be empty: the parts around it are the least rank)
                rank = _shape_rank(e.args[0], exact=False)
                return 0 if rank is None else rank
            if full is not None and full in JAX_SHAPE_PRESERVING and e.args:
                return self._min_rank(self._follow(e.args[0], env, depth + 1), depth + 1)
            if name is None and isinstance(e.func, ast.Attribute) and e.func.attr in ("astype", "clip", "round"):
                return self._min_rank(self._follow(e.func.value, env, depth + 1), depth + 1)
        return 0

    def _indexed_rank(self, e: ast.Subscript, env: dict[str, object], depth: int) -> int:
        parts = list(e.slice.elts) if isinstance(e.slice, ast.Tuple) else [e.slice]
        if any(isinstance(p, ast.Constant) and p.value is Ellipsis for p in parts) \
                or any(isinstance(p, ast.Starred) for p in parts):
            return 0
        kept = sum(isinstance(p, ast.Slice) for p in parts)
        added = sum(isinstance(p, ast.Constant) and p.value is None for p in parts)
        dropped = len(parts) - kept - added
        base = self._min_rank(self._follow(e.value, env, depth + 1), depth + 1)
        # a tuple index with a slice or a new axis (`v[:, i]`, `x[None, :]`) only applies to an
        # array; a single index may apply to a list or a dict
        if not (isinstance(e.slice, ast.Tuple) and kept + added > 0) and base < 1:
            return 0
        return max(kept + added, base - dropped + added)


def _is_method(e: ast.Call, resolve: Resolve) -> bool:
    """``x.sum()``: a method of a value, not a module's function."""
    return isinstance(e.func, ast.Attribute) and resolve(e.func) is None and resolve(e.func.value) is None


def _filled_rank(init: ast.expr, resolve: Resolve) -> int | None:
    """The rank of an initial carry ``jnp.zeros((a, b))`` / ``jnp.full(n, x)`` (a literal shape), else None."""
    if not isinstance(init, ast.Call) or not init.args or isinstance(init.args[0], ast.Starred):
        return None
    name = resolve(init.func)
    if name is None or canonical(name) not in _FILLED:
        return None
    return _shape_rank(init.args[0], exact=True)


def _shape_rank(shape: ast.expr, *, exact: bool) -> int | None:
    """The rank a literal ``shape`` argument gives a filled array: a tuple or list's length (its parts but the
    starred ones, which may be empty, unless ``exact``: then a starred part makes it unknown), 1 for an int;
    None when it is no literal shape."""
    if isinstance(shape, (ast.Tuple, ast.List)):
        starred = sum(isinstance(x, ast.Starred) for x in shape.elts)
        return None if starred and exact else len(shape.elts) - starred
    if isinstance(shape, ast.Constant) and isinstance(shape.value, int) and not isinstance(shape.value, bool):
        return 1
    return None


def _kind(e: ast.expr) -> str:
    return "list" if isinstance(e, ast.List) else "tuple"
