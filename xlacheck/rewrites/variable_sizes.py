"""A size read from a ``tf.Variable`` that only holds a configuration number (XLA205) -> the number.

``self.d_model = tf.Variable(d_model, trainable=False)`` in ``__init__``, read as a size
(``tf.reshape(out, (batch, -1, self.d_model))``), gives a shape XLA cannot know at compile time: a
variable's value is read when the program runs, so the dimension is unknown while tracing and the
compiled step fails (tensorflow#108073; its fix, #108495, says such values must be Python numbers).
When the variable is never assigned and never read as a variable, the attribute can hold the number
it was created from: ``self.d_model = d_model``. Every read then sees the same value, now known
while tracing.

Taken when, in the file:

* the attribute is bound once, in the class's ``__init__``, to ``tf.Variable(v)`` with
  ``trainable=False`` (and at most ``dtype=``/``name=``), ``v`` an int literal, a module constant,
  a parameter of ``__init__`` or ``+ - * //`` of those;
* every read of an attribute of that name in the file is a number's read: an operand of arithmetic
  or a comparison, an element of a tuple or list, an argument of a TensorFlow call, a slice bound or
  an index; never ``.assign``, ``.numpy()`` or any other attribute, never another function's argument.

Always UNSAFE: the layer no longer tracks the value as a weight (its ``non_trainable_weights`` and
checkpoints hold one variable fewer), and a caller passing a tensor for ``v`` would make the attribute a
tensor, which is not a static size either.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import call_name, kw, static_int, tf_name
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source

UNTRACKED = ("the layer no longer tracks the value as a weight (non_trainable_weights and checkpoints hold one "
             "variable fewer)")
TENSOR_ARGUMENT = "a caller passing a tensor for the value makes the attribute a tensor, not a static size"
_VARIABLE = frozenset({"tf.Variable", "tf.keras.Variable"})
_SIZE_CALL_PARENTS = (ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Slice)


def _number(src: Source, node: ast.expr, params: set[str]) -> bool:
    """A Python int the constructor is given: a literal, a module constant, a parameter, arithmetic of those."""
    if static_int(src, node) is not None:
        return True
    if isinstance(node, ast.Name):
        return node.id in params
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        return _number(src, node.left, params) and _number(src, node.right, params)
    return False


def _read_as_number(src: Source, read: ast.Attribute) -> bool:
    parent = src.parents.get(read)
    if isinstance(parent, _SIZE_CALL_PARENTS):
        return not (isinstance(parent, (ast.Tuple, ast.List)) and not isinstance(parent.ctx, ast.Load))
    if isinstance(parent, ast.Subscript):
        return parent.slice is read
    if isinstance(parent, ast.keyword):
        parent = src.parents.get(parent)
    return isinstance(parent, ast.Call) and parent.func is not read and (call_name(src, parent) or "").startswith("tf.")


def _self_attribute(node: ast.AST, owner: str) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == owner:
        return node.attr
    return None


@rewriter(ast.Call, pointed=True)
def rewrite_variable_size(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Call):
        return None
    method = src.function_of(node)
    if not isinstance(method, ast.FunctionDef) or not method.args.args:
        return None
    cls = src.parents.get(method)
    if not isinstance(cls, ast.ClassDef):
        return None
    owner = method.args.args[0].arg
    names = {a for sub in ast.walk(node) if (a := _self_attribute(sub, owner)) is not None}
    for name in sorted(names):
        fix = _variable_fix(src, cls, name)
        if fix is not None:
            return fix
    return None


def _variable_fix(src: Source, cls: ast.ClassDef, name: str) -> Fix | None:
    init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None or not init.args.args:
        return None
    owner = init.args.args[0].arg
    stores = [n for n in ast.walk(src.tree) if isinstance(n, ast.Attribute) and n.attr == name
              and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1 or _self_attribute(stores[0], owner) != name or src.function_of(stores[0]) is not init:
        return None
    assign = src.parents.get(stores[0])
    if not (isinstance(assign, ast.Assign) and assign.targets == [stores[0]] and isinstance(assign.value, ast.Call)):
        return None
    variable = assign.value
    if call_name(src, variable) not in _VARIABLE or len(variable.args) != 1 \
            or any(k.arg not in ("trainable", "dtype", "name") for k in variable.keywords):
        return None
    trainable = kw(variable, "trainable")
    if not (isinstance(trainable, ast.Constant) and trainable.value is False):
        return None
    dtype = kw(variable, "dtype")
    if dtype is not None and tf_name(src, dtype) not in ("tf.int32", "tf.int64"):
        return None
    params = {a.arg for a in [*init.args.posonlyargs, *init.args.args[1:], *init.args.kwonlyargs]}
    stored = {n.id for n in ast.walk(init) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    if not _number(src, variable.args[0], params - stored):
        return None
    reads = [n for n in ast.walk(src.tree) if isinstance(n, ast.Attribute) and n.attr == name
             and isinstance(n.ctx, ast.Load)]
    if not reads or not all(_read_as_number(src, r) for r in reads):
        return None
    return make_fix(f"Keep `{name}` a Python number, known while tracing, instead of a variable",
                    [replace(src, variable, src.segment(variable.args[0]))], [UNTRACKED, TENSOR_ARGUMENT])
