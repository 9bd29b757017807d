"""Dataset facts: how many elements a ``tf.data`` pipeline has where the code writes it out.

``cardinality`` computes, from the code alone, what ``dataset.cardinality()`` would say: a count,
:data:`INFINITE` (``repeat()``) or None (unknown: ``filter``, ``from_generator``, files, a dataset
passed in). It follows a pipeline through names bound in straight-line code or at module level, from
its source (``Dataset.range``, ``from_tensor_slices`` of a literal or of a NumPy/TensorFlow array whose
leading length the code shows, ``from_tensors``, ``Dataset.zip``) through the methods that keep, cut or
multiply the count. Which methods keep the count, and every formula, are checked against TensorFlow's
own ``cardinality()`` on the pipelines of ``xlacheck/data/tf_dataset_cardinality.json``
(``tools/generate_tf_dataset_table.py``; ``tests/xlacheck/test_dataset_cardinality.py``).

``static_elements`` says whether the elements visibly have one shape (a source of rectangular data and
methods that keep element shapes): ``padded_batch`` without ``padded_shapes`` pads nothing then.
Dataset methods are recognised by name once the source is a ``tf.data`` source (syntactic).
"""

from __future__ import annotations

import ast
import math

from xlacheck.analysis.scopes import ScopeTree

INFINITE = -1  # tf.data.INFINITE_CARDINALITY
_DEPTH = 12

# Methods that keep the number of elements (measured: tf_dataset_cardinality.json).
_KEEP_COUNT = frozenset({"map", "shuffle", "prefetch", "cache", "with_options", "enumerate"})
# Methods that keep every element's shape (so elements of one shape stay of one shape).
_KEEP_SHAPE = frozenset({"shuffle", "prefetch", "cache", "with_options", "filter", "take", "skip", "repeat", "shard",
                         "ignore_errors"})
_RANGES = frozenset({"np.arange", "tf.range"})
_FILLS = frozenset({"np.zeros", "np.ones", "np.empty", "np.full", "tf.zeros", "tf.ones", "tf.fill",
                    "tf.random.normal", "tf.random.uniform", "tf.random.truncated_normal"})
_DIMS_ARGS = frozenset({"np.random.rand", "np.random.randn"})
_WRAPS = frozenset({"np.array", "np.asarray", "np.asanyarray", "tf.constant", "tf.convert_to_tensor", "tf.cast",
                    "tf.identity", "np.float32", "np.int32", "np.int64"})
_RESHAPES = frozenset({"tf.reshape", "np.reshape"})


class DatasetFacts:
    """Cardinality and element-shape facts of the pipelines a file writes out (one per ModuleIndex)."""

    def __init__(self, index: ScopeTree, resolve: object) -> None:
        self.index = index
        self.resolve = resolve  # ast.expr -> canonical dotted name or None

    # -- the count -----------------------------------------------------------------------------
    def cardinality(self, expr: ast.expr, depth: int = 0) -> int | None:
        """The number of elements of the dataset ``expr`` evaluates to, :data:`INFINITE`, or None."""
        if depth > _DEPTH:
            return None
        if isinstance(expr, ast.Name):
            bound = self._binding(expr)
            return self.cardinality(bound, depth + 1) if bound is not None else None
        if not isinstance(expr, ast.Call) or any(isinstance(a, ast.Starred) for a in expr.args) \
                or any(k.arg is None for k in expr.keywords):
            return None
        name = self.resolve(expr.func)  # type: ignore[operator]
        if name == "tf.data.Dataset.range":
            ints = [self.integer(a) for a in expr.args]
            if not 1 <= len(ints) <= 3 or None in ints or expr.keywords and any(k.arg != "output_type"
                                                                                  for k in expr.keywords):
                return None
            return len(range(*ints))  # type: ignore[arg-type]
        if name == "tf.data.Dataset.from_tensor_slices":
            return self._components_length(expr.args[0], depth + 1) if len(expr.args) == 1 else None
        if name == "tf.data.Dataset.from_tensors":
            return 1
        if name == "tf.data.Dataset.zip":
            parts = expr.args[0] if len(expr.args) == 1 else None
            if isinstance(parts, (ast.Tuple, ast.List)) and parts.elts:
                counts = [self.cardinality(p, depth + 1) for p in parts.elts]
                if None in counts:
                    return None
                finite = [c for c in counts if c != INFINITE]
                return min(finite) if finite else INFINITE  # type: ignore[type-var]
            return None
        if name is not None or not isinstance(expr.func, ast.Attribute):
            return None
        return self._method(expr, expr.func.attr, depth)

    def _method(self, call: ast.Call, method: str, depth: int) -> int | None:
        receiver = call.func.value  # type: ignore[attr-defined]
        n = self.cardinality(receiver, depth + 1)
        arg = self._argument(call, 0, {"repeat": "count", "take": "count", "skip": "count", "batch": "batch_size",
                                       "padded_batch": "batch_size", "shard": "num_shards"}.get(method, ""))
        if method in _KEEP_COUNT:
            return n
        if method == "repeat":
            if arg is None or isinstance(arg, ast.Constant) and arg.value is None:
                return 0 if n == 0 else INFINITE
            count = self.integer(arg)
            if count is not None and count < 0:
                return 0 if n == 0 else INFINITE
            if count is None or n is None:
                return None
            return INFINITE if n == INFINITE and count > 0 else n * count if n != INFINITE else 0
        if n is None:
            return None
        if method == "take":
            count = self.integer(arg) if arg is not None else None
            if count is None:
                return None
            return n if count < 0 else count if n == INFINITE else min(n, count)
        if method == "skip":
            count = self.integer(arg) if arg is not None else None
            if count is None:
                return None
            return INFINITE if n == INFINITE else 0 if count < 0 else max(n - count, 0)
        if method in ("batch", "padded_batch"):
            size = self.integer(arg) if arg is not None else None
            drop = self._argument(call, 1 if method == "batch" else 3, "drop_remainder")
            if size is None or size <= 0 or drop is not None and not isinstance(drop, ast.Constant):
                return None
            if n == INFINITE:
                return INFINITE
            return n // size if drop is not None and drop.value else math.ceil(n / size)
        if method == "shard":
            shards, index = self.integer(arg) if arg is not None else None, self._argument(call, 1, "index")
            at = self.integer(index) if index is not None else None
            if shards is None or at is None or shards <= 0 or n == INFINITE:
                return None if n != INFINITE else INFINITE
            return n // shards + (1 if at < n % shards else 0)
        if method == "concatenate" and len(call.args) == 1:
            other = self.cardinality(call.args[0], depth + 1)
            if other is None:
                return None
            return INFINITE if INFINITE in (n, other) else n + other
        return None  # filter, flat_map, interleave, unbatch, apply, ...: the code does not show the count

    # -- element shapes -----------------------------------------------------------------------
    def static_elements(self, expr: ast.expr, depth: int = 0) -> bool:
        """The elements of ``expr`` visibly share one shape: ``Dataset.range``, ``from_tensor_slices``
        of data whose leading length the code shows, ``from_tensors``, then only methods that keep
        element shapes (no ``map``: its function may give each element its own length)."""
        if depth > _DEPTH:
            return False
        if isinstance(expr, ast.Name):
            bound = self._binding(expr)
            return bound is not None and self.static_elements(bound, depth + 1)
        if not isinstance(expr, ast.Call):
            return False
        name = self.resolve(expr.func)  # type: ignore[operator]
        if name in ("tf.data.Dataset.range", "tf.data.Dataset.from_tensors"):
            return True
        if name == "tf.data.Dataset.from_tensor_slices":
            return self.cardinality(expr, depth + 1) is not None
        if name is None and isinstance(expr.func, ast.Attribute) and expr.func.attr in _KEEP_SHAPE:
            return self.static_elements(expr.func.value, depth + 1)
        return False

    # -- helpers ------------------------------------------------------------------------------
    def _binding(self, use: ast.Name) -> ast.expr | None:
        index = self.index
        return index.straight_line_binding(use) or index.local_binding(use.id, use) or index.module_constant(use)

    @staticmethod
    def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
        for kw in call.keywords:
            if kw.arg == keyword:
                return kw.value
        return call.args[position] if len(call.args) > position else None

    def integer(self, node: ast.expr | None, depth: int = 0) -> int | None:
        """An int the code spells out: a literal, ``-literal``, a module constant, ``+ - * //`` of those."""
        if node is None or depth > _DEPTH:
            return None
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, int) and not isinstance(node.value, bool) else None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            value = self.integer(node.operand, depth + 1)
            return -value if value is not None else None
        if isinstance(node, ast.Name):
            bound = self.index.module_constant(node) or self.index.local_binding(node.id, node)
            return self.integer(bound, depth + 1) if bound is not None else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            left, right = self.integer(node.left, depth + 1), self.integer(node.right, depth + 1)
            if left is None or right is None or isinstance(node.op, ast.FloorDiv) and right == 0:
                return None
            return {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}.get(
                type(node.op), left // right if right else 0)
        return None

    def _components_length(self, node: ast.expr, depth: int) -> int | None:
        """``from_tensor_slices``' argument: a tuple or dict is a structure of components that must
        share their leading length; anything else is one array."""
        if isinstance(node, (ast.Tuple, ast.Dict)):
            parts = node.elts if isinstance(node, ast.Tuple) else node.values
            lengths = {self.length(p, depth + 1) for p in parts}
            return lengths.pop() if len(lengths) == 1 and parts else None
        return self.length(node, depth)

    def length(self, node: ast.expr, depth: int = 0) -> int | None:
        """The leading length of an array the code writes out (a literal list, a NumPy/TensorFlow
        fill, range or reshape of a given shape, arithmetic with a scalar), or None."""
        if depth > _DEPTH:
            return None
        if isinstance(node, ast.List):
            return None if any(isinstance(e, ast.Starred) for e in node.elts) else len(node.elts)
        if isinstance(node, ast.Name):
            bound = self._binding(node)
            return self.length(bound, depth + 1) if bound is not None else None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self._sliced_length(node, depth)
        if isinstance(node, ast.BinOp):
            if isinstance(node.right, ast.Constant) and isinstance(node.right.value, (int, float)):
                return self.length(node.left, depth + 1)
            if isinstance(node.left, ast.Constant) and isinstance(node.left.value, (int, float)):
                return self.length(node.right, depth + 1)
            left, right = self.length(node.left, depth + 1), self.length(node.right, depth + 1)
            return left if left is not None and left == right else None
        if not isinstance(node, ast.Call):
            return None
        name = self.resolve(node.func)  # type: ignore[operator]
        if isinstance(node.func, ast.Attribute) and name is None:
            if node.func.attr == "reshape" and node.args:  # x.reshape(n, ...) / x.reshape((n, ...))
                return self._first_dim(node.args[0] if len(node.args) == 1 else node.args[0])
            if node.func.attr == "astype":
                return self.length(node.func.value, depth + 1)
            return None
        if name in _RANGES:
            ints = [self.integer(a) for a in node.args]
            return len(range(*ints)) if 1 <= len(ints) <= 3 and None not in ints else None  # type: ignore[arg-type]
        shape = self._argument(node, 0, "shape" if name != "tf.fill" else "dims")
        if name in _FILLS and shape is not None:
            return self._first_dim(shape)
        if name in _DIMS_ARGS and node.args:
            return self.integer(node.args[0])
        if name in _RESHAPES and len(node.args) >= 2:
            return self._first_dim(node.args[1])
        if name in _WRAPS and node.args:
            given = self._argument(node, 2, "shape") if name == "tf.constant" else None
            return self._first_dim(given) if given is not None else self.length(node.args[0], depth + 1)
        return None

    def _sliced_length(self, node: ast.Subscript, depth: int) -> int | None:
        """``x[a:b:c]`` of an array whose length ``n`` the code writes out: Python's
        ``len(range(n)[a:b:c])``; None when a given bound or step is not an integer the code spells out."""
        sl = node.slice
        assert isinstance(sl, ast.Slice)
        n = self.length(node.value, depth + 1)
        bounds = [self.integer(b) if b is not None else None for b in (sl.lower, sl.upper, sl.step)]
        if n is None or any(v is None and b is not None for v, b in zip(bounds, (sl.lower, sl.upper, sl.step))) \
                or bounds[2] == 0:
            return None
        return len(range(n)[bounds[0]:bounds[1]:bounds[2]])

    def _first_dim(self, shape: ast.expr) -> int | None:
        if isinstance(shape, (ast.List, ast.Tuple)):
            first = self.integer(shape.elts[0]) if shape.elts else None
        else:
            first = self.integer(shape)
        return first if first is not None and first >= 0 else None


def dataset_facts(index: ScopeTree) -> DatasetFacts:
    """The file's dataset facts, built once per index (``index.aliases`` resolves API names)."""
    return index.memo("dataset facts", lambda: DatasetFacts(index, index.aliases.resolve))  # type: ignore[attr-defined]
