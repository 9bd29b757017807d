"""An ``if`` on a tensor made only of Python values: compute it with Python (XLA115).

``min_res = tf.reduce_min(input_dimensions)`` of a tuple of ints is an int32 tensor, so every
condition computed from it is one: AutoGraph stages ``if shift_size > 0:`` as a ``tf.cond``, and
XLA compiles both branches with the constant folded in, the one the condition excludes included
(``tf.range(4, 1)``: compilation fails). The finding (XLA115) has proven that the condition is
computed from Python values only; this rewrite follows the condition's names back to the
TensorFlow reductions that made it a tensor and computes them with Python's ``min``/``max``/
``sum`` instead (``tf.minimum(a, b)`` -> ``min(a, b)``), so the condition is a Python bool and
AutoGraph keeps a Python ``if``: only the branch that runs is traced. Each reduced operand must
show that it is Python (a tuple or list display, ``x.shape``, a parameter annotated as a
tuple/list/Sequence or defaulting to a display, a name bound once to one; for ``tf.minimum``,
number literals or items of such sequences).

The names are followed through their assignments in the function, ``self.attr`` through its
assignments in the class's methods (``__init__``), and a parameter through the arguments the
class's own calls (``self.get_attn_mask(..., shift_size)``) pass, as far as each goes (the shape
of transformers' Swin layer: a reduction in ``__init__`` and one in ``call`` feed the guard in
``get_attn_mask``). Any other TensorFlow op on the way gets no fix: no Python computation is
known to give its value.

Always UNSAFE, for what the reader cannot see: the value becomes a Python int (or float), so code
that used it as a tensor (``.numpy()``, ``.dtype``) must change; ``min``/``max`` raise on an empty
sequence and on a single number, where the reductions return the dtype's extreme value or the
number; a reduction of Python floats rounds to float32, where Python keeps float64. On the common
path (a non-empty tuple of ints, used as a number) every value is the original's.
"""

from __future__ import annotations

import ast

from xlacheck.analysis.scopes import parameter_defaults
from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import call_name
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source

_REDUCTIONS = {f"tf.{p}reduce_{op}": op for p in ("", "math.") for op in ("min", "max", "sum")}
_PAIRWISE = {"tf.minimum": "min", "tf.math.minimum": "min", "tf.maximum": "max", "tf.math.maximum": "max"}
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _reads(node: ast.AST) -> set[str]:
    """Names read (``self.attr`` as one name; ``self`` alone is not one)."""
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id != "self":
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self" \
                and isinstance(n.ctx, ast.Load):
            out.add("self." + n.attr)
    return out


def _class_of(src: Source, fn: ast.AST) -> ast.ClassDef | None:
    parent = src.parents.get(fn)
    return parent if isinstance(parent, ast.ClassDef) else None


def _methods(cls: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [s for s in cls.body if isinstance(s, _FUNCTIONS)]


def _origins(src: Source, name: str, fn: ast.FunctionDef | ast.AsyncFunctionDef
             ) -> list[tuple[ast.expr, ast.FunctionDef | ast.AsyncFunctionDef]] | None:
    """The expressions ``name`` takes its value from (each with the function it is evaluated in);
    None where a binding is not a plain assignment (the value cannot be followed)."""
    cls = _class_of(src, fn)
    if name.startswith("self."):
        if cls is None:
            return []
        attr = name[5:]
        found: list[tuple[ast.expr, ast.FunctionDef | ast.AsyncFunctionDef]] = []
        for method in _methods(cls):
            for node in ast.walk(method):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                    node, (ast.AugAssign, ast.AnnAssign)) else []
                for t in targets:
                    if isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name) \
                            and t.value.id == "self":
                        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                            return None
                        found.append((node.value, method))
        return found
    bindings = src.own_bindings(fn).get(name, [])
    found = []
    for stmt in bindings:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            return None
        found.append((stmt.value, fn))
    params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    if name in params and cls is not None and not bindings:
        position = params.index(name) - 1  # after self
        for method in _methods(cls):
            for call in ast.walk(method):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == fn.name \
                        and isinstance(call.func.value, ast.Name) and call.func.value.id == "self":
                    passed = [k.value for k in call.keywords if k.arg == name]
                    if not passed and 0 <= position < len(call.args) and not any(
                            isinstance(a, ast.Starred) for a in call.args[:position + 1]):
                        passed = [call.args[position]]
                    found.extend((p, method) for p in passed)
    return found


_SEQUENCE_WORDS = ("tuple", "Tuple", "list", "List", "Sequence")


def _python_sequence(src: Source, node: ast.expr, fn: ast.AST, depth: int = 0) -> bool:
    """Evidence that ``node`` is a Python sequence, not a tensor: a tuple or list display, ``x.shape``
    (a TensorShape), a parameter annotated as a tuple/list/Sequence or defaulting to a display, or
    a name bound once to one of these."""
    if depth > 4:
        return False
    if isinstance(node, (ast.Tuple, ast.List)):
        return True
    if isinstance(node, ast.Attribute):
        return node.attr == "shape"
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        return _python_sequence(src, node.value, fn, depth + 1)
    if not isinstance(node, ast.Name) or not isinstance(fn, _FUNCTIONS):
        return False
    bound = src.own_bindings(fn).get(node.id, [])
    if bound:
        stmt = bound[0]
        return len(bound) == 1 and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
            and _python_sequence(src, stmt.value, fn, depth + 1)
    args = fn.args
    defaults = parameter_defaults(fn)
    for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        if a.arg == node.id:
            annotation = ast.unparse(a.annotation) if a.annotation is not None else ""
            return annotation.startswith(_SEQUENCE_WORDS) or isinstance(defaults.get(a.arg), (ast.Tuple, ast.List))
    return False


def _python_number(node: ast.expr) -> bool:
    """An element of a sequence or a number literal: ``dims[0]``, ``x.shape[1]``, ``3``."""
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
        and type(node.slice.value) is int


@rewriter(ast.If, pointed=True)
def rewrite_constant_guard(src: Source, node: ast.AST) -> Fix | None:
    """Python ``min``/``max``/``sum`` for the TensorFlow reductions behind a constant tensor
    condition (see the module docstring)."""
    if src.tf is None or not isinstance(node, ast.If):
        return None
    fn = src.function_of(node)
    if not isinstance(fn, _FUNCTIONS):
        return None
    edits: dict[int, tuple[ast.Call, str]] = {}
    todo: list[tuple[ast.AST, ast.FunctionDef | ast.AsyncFunctionDef]] = [(node.test, fn)]
    seen: set[tuple[str, int]] = set()
    while todo:
        expr, where = todo.pop()
        for sub in ast.walk(expr):
            if not isinstance(sub, ast.Call):
                continue
            name = call_name(src, sub)
            if name is None:
                continue
            if id(sub) in edits:
                continue
            python = _REDUCTIONS.get(name)
            if python is not None and len(sub.args) == 1 and not sub.keywords \
                    and _python_sequence(src, sub.args[0], where):
                edits[id(sub)] = (sub, f"{python}({src.segment(sub.args[0])})")
                continue
            python = _PAIRWISE.get(name)
            if python is not None and len(sub.args) == 2 and not sub.keywords and all(
                    _python_number(a) and (not isinstance(a, ast.Subscript) or _python_sequence(src, a.value, where))
                    for a in sub.args):
                edits[id(sub)] = (sub, f"{python}({src.segment(sub.args[0])}, {src.segment(sub.args[1])})")
                continue
            return None  # another TensorFlow op: no Python computation is known for it
        for name in _reads(expr):
            key = (name, id(where))
            if key in seen:
                continue
            seen.add(key)
            origins = _origins(src, name, where)
            if origins is None:
                return None
            todo.extend(origins)
    if not edits:
        return None
    reasons = ["the value becomes a Python number: code that used it as a tensor (.numpy(), .dtype) must change; "
               "min()/max() raise on an empty sequence or a single number, where the reduction returns its dtype's "
               "extreme value or the number; float values are no longer rounded to float32"]
    ops = sorted({text.split("(")[0] for _, text in edits.values()})
    return make_fix(f"Compute the condition with Python ({', '.join(o + '()' for o in ops)} instead of the "
                    "TensorFlow reductions), so AutoGraph keeps a Python `if` and traces only the branch that runs",
                    [replace(src, call, text) for call, text in edits.values()], reasons)
