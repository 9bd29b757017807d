"""The ranks of TensorFlow values that the source proves, absolute or relative to another value.

A rank is a :class:`Rank`: ``Rank(None, 2)`` is rank 2; ``Rank("x", -1)`` is one less than the rank of
the value ``x`` holds (a parameter, or a name bound once to a value whose rank is not known). Two ranks
are provably different only when both are absolute, or both count from the same value: the rank of a
parameter is not known, so ``x`` against ``tf.constant(0.0)`` proves nothing, while ``x`` against
``tf.reduce_sum(x, axis=1)`` does. Unknown is not a mismatch: anything not listed below has no rank.

What keeps or changes a rank, and where that comes from:
- literals and factories with a literal shape (``tf.zeros([4, 3])``, ``tf.fill``, ``tf.random.*``,
  ``tf.constant`` of a nested literal list, Python numbers: rank 0);
- TensorFlow's elementwise dispatch list, as the generated API table records it
  (``xlacheck/data/tf_api.json`` ``elementwise``: "unary" ops keep their operand's shape, "binary"
  ones broadcast: the larger rank, proven when one side is a scalar or both count from one value);
  Python arithmetic on tensors is the binary case;
- ``reduce_*``/``argmax``/``argmin`` with a literal ``axis`` (one less per axis; no axis: rank 0;
  ``keepdims=True``: unchanged), ``tf.reshape`` to a literal shape list (its length),
  ``tf.expand_dims``/``tf.squeeze`` with a literal axis, ``tf.stack`` (one more), ``tf.concat`` of
  values of one rank, ``tf.boolean_mask`` with a mask of its operand's rank (rank 1), indexing with
  literal integers (one less each), slices, ``None``/``tf.newaxis`` (one more each).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xlacheck import api_table
from xlacheck.analysis import argument
from xlacheck.analysis.calls import int_literal, number_literal
from xlacheck.analysis.contexts import FunctionInfo
from xlacheck.analysis.scopes import built_values

Resolve = Callable[[ast.expr], "str | None"]

_FACTORIES = frozenset({"tf.zeros", "tf.ones", "tf.fill", "tf.random.normal", "tf.random.uniform",
                        "tf.random.truncated_normal", "tf.random.stateless_normal", "tf.random.stateless_uniform"})
_REDUCTIONS = frozenset({f"tf.{p}reduce_{op}" for p in ("", "math.") for op in (
    "sum", "mean", "max", "min", "prod", "any", "all", "logsumexp", "std", "variance", "euclidean_norm")})
_ARG_REDUCTIONS = frozenset({"tf.argmax", "tf.argmin", "tf.math.argmax", "tf.math.argmin"})
_KEEP_SHAPE = frozenset({"tf.identity", "tf.stop_gradient", "tf.zeros_like", "tf.ones_like", "tf.nn.softmax",
                         "tf.nn.log_softmax", "tf.math.softmax"})


@dataclass(frozen=True)
class Rank:
    base: str | None  # the name whose (unknown) rank this counts from; None: absolute
    offset: int

    def differs(self, other: Rank) -> bool:
        """Provably a different rank than ``other``."""
        return self.base == other.base and self.offset != other.offset

    def describe(self) -> str:
        if self.base is None:
            return f"rank {self.offset}"
        if self.offset == 0:
            return f"the rank of `{self.base}`"
        return f"the rank of `{self.base}` {'plus' if self.offset > 0 else 'minus'} {abs(self.offset)}"

    def plus(self, n: int) -> Rank:
        return Rank(self.base, self.offset + n)


def _literal_length(e: ast.expr | None) -> int | None:
    """The length of a literal shape: ``[4, 3]`` / ``(n, 3)`` (elements need not be literals), ``[]``."""
    if isinstance(e, (ast.List, ast.Tuple)) and not any(isinstance(x, ast.Starred) for x in e.elts):
        return len(e.elts)
    return None


def _nested_depth(e: ast.expr) -> int | None:
    """The rank of a nested literal list of numbers: ``[[1.0, 2.0]]`` -> 2, ``3.0`` -> 0."""
    if number_literal(e) is not None:
        return 0
    if isinstance(e, (ast.List, ast.Tuple)) and e.elts:
        depths = {_nested_depth(x) for x in e.elts}
        if len(depths) == 1 and None not in depths:
            return 1 + depths.pop()  # type: ignore[operator]
    return None


class RankModel:
    """Ranks of expressions in one function (and the lambdas and nested functions in it): a name
    holds the rank of its one binding in the innermost scope that binds it once; a parameter, or a
    name bound once to a value of unknown rank, is a base other ranks count from."""

    def __init__(self, resolve: Resolve, scopes: list[ast.AST]) -> None:
        self.resolve = resolve
        self.scopes = scopes  # innermost first: a lambda / nested def, then the functions around it

    def rank(self, e: ast.expr | None, env: Mapping[str, Rank | None] | None = None, depth: int = 0) -> Rank | None:
        if e is None or depth > 12:
            return None
        env = env or {}
        if isinstance(e, ast.Name):
            if e.id in env:
                return env[e.id]
            return self._name(e.id, depth)
        if isinstance(e, ast.Constant):
            return Rank(None, 0) if isinstance(e.value, (int, float)) and not isinstance(e.value, bool) else None
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
            return self.rank(e.operand, env, depth + 1)
        if isinstance(e, ast.BinOp) and not isinstance(e.op, ast.MatMult):
            return _broadcast(self.rank(e.left, env, depth + 1), self.rank(e.right, env, depth + 1))
        if isinstance(e, ast.Subscript):
            return self._subscript(e, env, depth)
        if isinstance(e, ast.Call):
            return self._call(e, env, depth)
        return None

    def _name(self, name: str, depth: int) -> Rank | None:
        for scope in self.scopes:
            built = built_values(scope)
            if name in built.values:
                found = self.rank(built.values[name], None, depth + 1)
                return found if found is not None else Rank(name, 0)
            args = getattr(scope, "args", None)
            if args is not None and name in {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}:
                return Rank(name, 0)
            if name in built.bound:
                return None  # bound several times here: no one rank
        return None

    def _subscript(self, e: ast.Subscript, env: Mapping[str, Rank | None], depth: int) -> Rank | None:
        base = self.rank(e.value, env, depth + 1)
        if base is None:
            return None
        parts = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
        change = 0
        for p in parts:
            if isinstance(p, ast.Slice) or isinstance(p, ast.Constant) and p.value is Ellipsis:
                continue
            if isinstance(p, ast.Constant) and p.value is None or self.resolve(p) == "tf.newaxis":
                change += 1
            elif int_literal(p) is not None:
                change -= 1
            else:
                return None
        return base.plus(change)

    def _call(self, call: ast.Call, env: Mapping[str, Rank | None], depth: int) -> Rank | None:
        name = self.resolve(call.func) or ""
        if not name.startswith("tf."):
            return None
        first = argument(call, 0, "x" if name not in _FACTORIES else "shape")
        if name in _FACTORIES:
            if name == "tf.fill":
                first = argument(call, 0, "dims")
            n = _literal_length(first)
            return Rank(None, n) if n is not None else Rank(None, 1) if int_literal(first) is not None else None
        if name == "tf.constant":
            value = argument(call, 0, "value")
            if argument(call, 2, "shape") is not None or value is None:
                return None
            d = _nested_depth(value)
            return Rank(None, d) if d is not None else None
        if name in _REDUCTIONS or name in _ARG_REDUCTIONS:
            operand = argument(call, 0, "input_tensor" if name in _REDUCTIONS else "input")
            axis = argument(call, 1, "axis")
            keep = argument(call, 2, "keepdims") if name in _REDUCTIONS else None
            if name in _ARG_REDUCTIONS and axis is None:
                axis = ast.Constant(0)  # tf.argmax's axis defaults to 0
            if isinstance(keep, ast.Constant) and keep.value is True:
                return self.rank(operand, env, depth + 1)
            if keep is not None and not isinstance(keep, ast.Constant):
                return None
            if axis is None or isinstance(axis, ast.Constant) and axis.value is None:
                return Rank(None, 0)
            inner = self.rank(operand, env, depth + 1)
            if inner is None:
                return None
            if int_literal(axis) is not None:
                return inner.plus(-1)
            n = _literal_length(axis)
            if n is not None and all(int_literal(a) is not None for a in axis.elts):  # type: ignore[attr-defined]
                return inner.plus(-len({int_literal(a) for a in axis.elts}))  # type: ignore[attr-defined]
            return None
        if name == "tf.reshape":
            n = _literal_length(argument(call, 1, "shape"))
            return Rank(None, n) if n is not None else None
        if name in ("tf.expand_dims", "tf.squeeze"):
            axis = argument(call, 1, "axis")
            if int_literal(axis) is None:
                return None
            inner = self.rank(first if name == "tf.expand_dims" else argument(call, 0, "input"), env, depth + 1)
            return inner.plus(1 if name == "tf.expand_dims" else -1) if inner is not None else None
        if name in ("tf.stack", "tf.concat"):
            items = argument(call, 0, "values")
            if not isinstance(items, (ast.List, ast.Tuple)) or not items.elts:
                return None
            ranks = [self.rank(x, env, depth + 1) for x in items.elts]
            if None in ranks or any(r != ranks[0] for r in ranks):
                return None
            return ranks[0].plus(1 if name == "tf.stack" else 0)  # type: ignore[union-attr]
        if name == "tf.boolean_mask":
            tensor, mask = self.rank(argument(call, 0, "tensor"), env, depth + 1), \
                self.rank(argument(call, 1, "mask"), env, depth + 1)
            if tensor is not None and tensor == mask:
                return Rank(None, 1)
            return None
        if name in _KEEP_SHAPE:
            return self.rank(first if name not in ("tf.zeros_like", "tf.ones_like") else argument(
                call, 0, "input"), env, depth + 1)
        fact = api_table.lookup(name)
        if fact is None or fact.elementwise is None:
            return None
        if fact.elementwise == "unary":
            return self.rank(call.args[0] if call.args else None, env, depth + 1)
        if fact.elementwise == "binary" and len(call.args) >= 2:
            return _broadcast(self.rank(call.args[0], env, depth + 1), self.rank(call.args[1], env, depth + 1))
        return None


def _broadcast(a: Rank | None, b: Rank | None) -> Rank | None:
    """The rank of a broadcast of ``a`` with ``b``: the larger, proven when one is a scalar or both count
    from one value."""
    if a is None or b is None:
        return None
    if a.base is None and a.offset == 0:
        return b
    if b.base is None and b.offset == 0:
        return a
    if a.base == b.base:
        return a if a.offset >= b.offset else b
    return None


def function_scopes(info: FunctionInfo | None) -> list[ast.AST]:
    """A function's node and those of the functions around it, innermost first: the scopes a
    :class:`RankModel` reads names from."""
    out: list[ast.AST] = []
    while info is not None:
        out.append(info.node)
        info = info.parent
    return out
