"""Facts about expressions that decide which rewrite is exact, and how to print the new code.

Everything here is syntactic and conservative: "provably scalar", "provably the same shape and
dtype as x", "cheap and with finite derivatives". A rewrite that cannot establish the fact it
needs for equivalence is offered as UNSAFE with the reason, never silently as SAFE.
"""

from __future__ import annotations

import ast

from xlacheck.analysis.calls import number_literal as number_value  # noqa: F401 - the rewrites' name for it
from xlacheck.rewrites._source import Source, dotted

# Reductions that give a scalar when called without an axis.
FULL_REDUCTIONS = frozenset(
    f"{prefix}reduce_{op}"
    for prefix in ("tf.", "tf.math.")
    for op in ("sum", "mean", "max", "min", "prod", "any", "all", "std", "variance", "logsumexp", "euclidean_norm")
) | {"tf.norm", "tf.linalg.norm", "tf.size", "tf.rank", "tf.math.count_nonzero", "tf.math.reduce_euclidean_norm"}

# Elementwise unary tf functions: the result has the argument's shape and dtype.
ELEMENTWISE_UNARY = frozenset(
    f"{prefix}{op}"
    for prefix in ("tf.", "tf.math.")
    for op in ("abs", "negative", "square", "sqrt", "exp", "log", "log1p", "tanh", "sigmoid", "sign", "floor",
               "ceil", "round", "rsqrt", "sin", "cos", "reciprocal", "softplus", "stop_gradient")
) | {"tf.nn.relu", "tf.nn.sigmoid", "tf.nn.softplus", "tf.nn.tanh", "tf.identity", "tf.stop_gradient"}
# ... of which these have a finite derivative wherever they are finite (safe under tf.where).
SMOOTH_UNARY = frozenset(
    f"{prefix}{op}" for prefix in ("tf.", "tf.math.") for op in ("abs", "negative", "square", "tanh", "sigmoid",
                                                                  "sign", "floor", "ceil", "round", "sin", "cos",
                                                                  "stop_gradient", "identity")
) | {"tf.nn.relu", "tf.nn.sigmoid", "tf.nn.tanh"}


def tf_name(src: Source, node: ast.AST) -> str | None:
    """``tf.math.reduce_sum`` for a call target spelled with this file's TensorFlow alias."""
    name = dotted(node)
    if name is None or src.tf is None:
        return None
    head, _, rest = name.partition(".")
    if head != src.tf or not rest:
        return None
    return "tf." + rest


def call_name(src: Source, node: ast.AST) -> str | None:
    return tf_name(src, node.func) if isinstance(node, ast.Call) else None


def is_number(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def int_literal(node: ast.AST) -> int | None:
    """The value of an int literal written in place (``3``; not ``-3``, ``True`` or a name)."""
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def static_int(src: Source, node: ast.AST) -> int | None:
    """The value of a Python int the reader can see: a literal, or a module constant
    (:meth:`Source.module_constant`) bound to one."""
    if isinstance(node, ast.Name):
        node = src.module_constant(node)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def full_slice(part: ast.expr) -> bool:
    """``part`` is a bare ``:`` (no bound, no step)."""
    return isinstance(part, ast.Slice) and part.lower is None and part.upper is None and part.step is None


def prefix_limit(src: Source, base: str, axis: int, bound: ast.expr) -> tuple[str, str]:
    """(length of ``base`` along ``axis``, the bound ``n`` of ``base[..., :n]``) as TF texts to compare
    position by position (``tf.range(length) < limit``). Both are int64: a bound such as
    ``tf.math.count_nonzero(m)`` is int64, ``tf.shape`` int32, and TF does not promote (an int32
    comparison raised TypeError); int64 neither rejects nor truncates either."""
    tf = src.tf
    return f"{tf}.shape({base}, out_type={tf}.int64)[{axis}]", f"{tf}.cast({src.segment(bound)}, {tf}.int64)"


def has_kw(call: ast.Call, *names: str) -> bool:
    return any(k.arg in names for k in call.keywords)


def kw(call: ast.Call, name: str) -> ast.expr | None:
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


# -- scalars, shapes, dtypes -------------------------------------------------------------------
def is_scalar(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Provably a rank-0 value (tensor or Python number)."""
    if depth > 8:
        return False
    if is_number(node) or (isinstance(node, ast.Constant) and isinstance(node.value, bool)):
        return True
    if isinstance(node, ast.Call):
        name = call_name(src, node)
        if name in FULL_REDUCTIONS and len(node.args) == 1 and not has_kw(node, "axis", "keepdims", "ord"):
            return True
        if name in ELEMENTWISE_UNARY and len(node.args) == 1:
            return is_scalar(src, node.args[0], depth + 1)
        if name == "tf.cast" and node.args:
            return is_scalar(src, node.args[0], depth + 1)
        if name in ("tf.logical_and", "tf.logical_or", "tf.math.logical_and", "tf.math.logical_or"):
            return all(is_scalar(src, a, depth + 1) for a in node.args)
        if name in ("tf.logical_not", "tf.math.logical_not") and node.args:
            return is_scalar(src, node.args[0], depth + 1)
        return False
    if isinstance(node, ast.Compare):
        return all(is_scalar(src, o, depth + 1) for o in [node.left, *node.comparators])
    if isinstance(node, ast.BoolOp):
        return all(is_scalar(src, v, depth + 1) for v in node.values)
    if isinstance(node, ast.UnaryOp):
        return is_scalar(src, node.operand, depth + 1)
    if isinstance(node, ast.BinOp):
        return is_scalar(src, node.left, depth + 1) and is_scalar(src, node.right, depth + 1)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return True  # x.shape[i]: a static Python int (or None)
    if isinstance(node, ast.Name):
        value = src.local_binding(node.id, node)
        if value is None:
            value = src.module_constant(node) if src.scope_of(node) is not src.tree else None
            return value is not None and is_number(value)
        return is_scalar(src, value, depth + 1)
    return False


def like(src: Source, node: ast.AST) -> str | None:
    """The name ``n`` when ``node`` provably has the shape and dtype of the tensor ``n``:
    ``n`` itself, or an elementwise expression of ``n`` with Python numbers and scalars."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return like(src, node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
        left, right = like(src, node.left), like(src, node.right)
        if left is not None and (right == left or is_scalar(src, node.right)):
            return left
        if right is not None and is_scalar(src, node.left):
            return right
        return None
    if isinstance(node, ast.Call) and call_name(src, node) in ELEMENTWISE_UNARY and len(node.args) == 1:
        return like(src, node.args[0])
    if isinstance(node, ast.IfExp):  # a selection made by an inner arm of an if/elif chain
        inner = like(src, node.body)
        return inner if inner is not None and inner == like(src, node.orelse) else None
    return None


def smooth(src: Source, node: ast.AST) -> bool:
    """Cheap to evaluate and, wherever its value is finite, with a finite derivative: then
    computing it in the branch ``tf.where`` does not take leaves values and gradients exact."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.Attribute):
        return smooth(src, node.value)
    if isinstance(node, ast.UnaryOp):
        return smooth(src, node.operand)
    if isinstance(node, ast.IfExp):  # an inner arm's selection: smooth when both values are
        return smooth(src, node.body) and smooth(src, node.orelse)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            return smooth(src, node.left) and smooth(src, node.right)
        if isinstance(node.op, ast.Div):
            value = number_value(node.right)
            return value is not None and value != 0 and smooth(src, node.left)
        return False
    if isinstance(node, ast.Call):
        name = call_name(src, node)
        if name in SMOOTH_UNARY or name in ("tf.minimum", "tf.maximum", "tf.math.minimum", "tf.math.maximum",
                                            "tf.cast", "tf.zeros_like", "tf.ones_like"):
            return all(smooth(src, a) for a in node.args) and (not node.keywords or name == "tf.cast")
        return False
    return False


# Ops whose derivative is a constant, finite for every input (NaN and inf included).
LINEAR_CALLS = frozenset(
    f"{prefix}{op}" for prefix in ("tf.", "tf.math.") for op in ("reduce_sum", "reduce_mean", "negative", "identity",
                                                                  "stop_gradient")
) | {"tf.cast"}


def linear(src: Source, node: ast.AST, depth: int = 0, leaves: frozenset[str] = frozenset()) -> bool:
    """A linear function of the enclosing function's inputs: sums, means, negation, scaling by a
    literal, names assigned from such expressions (arguments are leaves). Its derivative is a
    constant, so an exact zero gradient (what ``tf.where`` sends to the value it does not
    select) stays exactly zero for every input, NaN and inf included; through ``log`` at 0,
    ``square`` at inf or ``reduce_max`` of a NaN it would become NaN (0 * inf). ``leaves``: names
    taken as inputs whatever computed them (a name both branches of a selection read gets its
    real gradient from the taken one, plus an exact zero)."""
    if depth > 8:
        return False
    if isinstance(node, ast.Name) and node.id in leaves:
        return True
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        if bound is not None:
            return linear(src, bound, depth + 1)
        return _argument_value(src, node)
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return linear(src, node.operand, depth + 1, leaves)
    if isinstance(node, ast.IfExp):  # an inner arm's selection: its gradient routes the upstream one
        return linear(src, node.body, depth + 1, leaves) and linear(src, node.orelse, depth + 1, leaves)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.Add, ast.Sub)):
            return linear(src, node.left, depth + 1, leaves) and linear(src, node.right, depth + 1, leaves)
        if isinstance(node.op, ast.Mult):
            return (is_number(node.left) and linear(src, node.right, depth + 1, leaves)) or (
                is_number(node.right) and linear(src, node.left, depth + 1, leaves))
        if isinstance(node.op, ast.Div):
            value = number_value(node.right)
            return value is not None and value != 0 and linear(src, node.left, depth + 1, leaves)
        return False
    if isinstance(node, ast.Call):
        return call_name(src, node) in LINEAR_CALLS and len(node.args) == 1 and all(
            k.arg in ("dtype", "name") for k in node.keywords) and linear(src, node.args[0], depth + 1, leaves)
    return False


def _argument_value(src: Source, node: ast.Name) -> bool:
    """``node`` reads the value its function was called with: a parameter that no statement
    before the read reassigns, and no loop around the read could reassign later."""
    scope = src.scope_of(node)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return False
    if node.id not in {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)}:
        return False
    stores = src.stores_in(scope).get(node.id, [])
    if not stores:
        return True
    read = src.statement_of(node)
    if read is None or any(isinstance(a, (ast.For, ast.AsyncFor, ast.While, ast.comprehension))
                           for a in src.ancestors(node)):
        return False
    here = (read.lineno, read.col_offset)
    for store in stores:
        stmt = src.statement_of(store)
        if stmt is None or ((stmt.lineno, stmt.col_offset) < here and not _other_branch(src, stmt, read)):
            return False
    return True


def _other_branch(src: Source, first: ast.stmt, second: ast.stmt) -> bool:
    """``first`` and ``second`` sit in different branches of one ``if``: neither runs before the other."""
    path_first = [first, *src.ancestors(first)]
    path_second = [second, *src.ancestors(second)]
    on_second = {id(n): i for i, n in enumerate(path_second)}
    for i, node in enumerate(path_first):
        if id(node) in on_second:
            j = on_second[id(node)]
            if not isinstance(node, ast.If) or i == 0 or j == 0:
                return False
            a, b = path_first[i - 1], path_second[j - 1]
            return (any(x is a for x in node.body) and any(x is b for x in node.orelse)) or (
                any(x is a for x in node.orelse) and any(x is b for x in node.body))
    return False


def scalar_tensor(src: Source, node: ast.AST, depth: int = 0) -> bool:
    """Provably a rank-0 *tensor* (not a Python number): a scalar with a TensorFlow op in it."""
    if depth > 8 or not is_scalar(src, node):
        return False
    if isinstance(node, ast.Call):
        return call_name(src, node) is not None
    if isinstance(node, ast.BinOp):
        return scalar_tensor(src, node.left, depth + 1) or scalar_tensor(src, node.right, depth + 1)
    if isinstance(node, ast.UnaryOp):
        return scalar_tensor(src, node.operand, depth + 1)
    if isinstance(node, ast.Compare):
        return any(scalar_tensor(src, o, depth + 1) for o in [node.left, *node.comparators])
    if isinstance(node, ast.Name):
        bound = src.local_binding(node.id, node)
        return bound is not None and scalar_tensor(src, bound, depth + 1)
    return False


def calls_only_tensorflow(src: Source, node: ast.AST) -> str | None:
    """None when every call in ``node`` is a ``tf.*`` function; else the first other callee,
    whose Python side effects would run once per branch when ``tf.cond`` traces both."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and call_name(src, sub) is None:
            return ast.unparse(sub.func)
    return None


# -- printing ----------------------------------------------------------------------------------
_ATOMS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Tuple, ast.Dict,
          ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def atom(src: Source, node: ast.AST, text: str | None = None) -> str:
    """The node's text, parenthesized unless it is an atom (safe as an operand anywhere)."""
    text = src.segment(node) if text is None else text
    if isinstance(node, _ATOMS) and not (isinstance(node, ast.Constant) and isinstance(node.value, (int, float))
                                         and str(node.value).startswith("-")):
        return text
    return f"({text})"


def arg(src: Source, node: ast.AST, text: str | None = None) -> str:
    """The node's text as a call argument (parenthesized only where a bare form would not parse)."""
    text = src.segment(node) if text is None else text
    if isinstance(node, (ast.NamedExpr, ast.Starred)) or (isinstance(node, ast.Tuple) and not text.startswith("(")):
        return f"({text})"
    if "\n" in text and not text.startswith(("(", "[", "{")) and not isinstance(node, ast.Call):
        return f"({text})"
    return text
