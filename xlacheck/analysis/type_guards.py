"""What an ``isinstance`` test proves about a name: no tensor, tracer or torch tensor is an instance of
a builtin Python type, so where ``isinstance(x, dict)`` or ``isinstance(n, int)`` holds, ``x`` and ``n``
are Python values (in the body of the ``if``, and in the operands of ``and`` after the test; a tracer
fails the test and short-circuits). One home for the TF/JAX value model (:mod:`.values`, :mod:`.flow`)
and the torch model (:mod:`.torch_model`)."""

from __future__ import annotations

import ast

# Builtin types no tensor is an instance of: "sequence" (list/tuple/dict: their items may still be
# tensors) or "number" (a Python scalar or string).
_PYTHON_TYPES = {"list": "sequence", "tuple": "sequence", "dict": "sequence", "int": "number",
                 "float": "number", "bool": "number", "str": "number", "bytes": "number"}


def python_type_guard(test: ast.expr | None) -> list[tuple[str, str]]:
    """``[(name, "sequence" | "number")]`` for ``isinstance(name, T)`` with ``T`` (or every type of a
    tuple of them) one kind of builtin Python type; a tuple mixing the kinds proves neither."""
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and len(test.args) == 2 and isinstance(test.args[0], ast.Name)):
        return []
    kinds = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    found = {_PYTHON_TYPES.get(k.id) if isinstance(k, ast.Name) else None for k in kinds}
    if len(found) != 1 or None in found:
        return []
    return [(test.args[0].id, str(found.pop()))]


def python_number_names(test: ast.expr) -> list[str]:
    """Names that ``test`` proves Python numbers (or strings) where it holds: ``isinstance(name, int)``
    (``float``/``bool``/``str``, or a tuple of them), alone or as a conjunct of ``and`` (keras-cv's
    ``if ... and isinstance(expected_rank, int): assert ...`` next to callers passing ``tf.size``)."""
    conjuncts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    return [name for c in conjuncts for name, kind in python_type_guard(c) if kind == "number"]


# Generic containers whose every item an annotation's arguments type (``List[float]``, ``tuple[int, ...]``,
# ``Optional[int]``); typing's spellings and the builtins'.
_CONTAINERS = frozenset({"List", "list", "Tuple", "tuple", "Sequence", "Iterable", "Optional", "Set", "set",
                         "FrozenSet", "frozenset"})


def python_number_annotation(ann: ast.expr | None) -> bool:
    """``ann`` declares Python numbers (or strings) and containers of them alone: ``int``, ``float``, ``bool``,
    ``str``, ``List[float]``, ``tp.Sequence[int]``, ``tuple[int, ...]``, ``Optional[int]``, ``int | None``. No
    tensor fits it (``torch.Tensor`` is no ``float``), so a parameter so declared holds none: stable-audio-tools'
    ``NumberConditioner.forward(self, floats: tp.List[float], ...)`` casts batch metadata, not tensors. Anything
    else (``Any``, a string annotation, ``Union[int, Tensor]``, a dict) says nothing."""
    if isinstance(ann, ast.Name):
        return _PYTHON_TYPES.get(ann.id) == "number"
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        return all(_none(x) or python_number_annotation(x) for x in (ann.left, ann.right)) and not (
            _none(ann.left) and _none(ann.right))
    if isinstance(ann, ast.Subscript):
        container = ann.value.attr if isinstance(ann.value, ast.Attribute) else (
            ann.value.id if isinstance(ann.value, ast.Name) else "")
        items = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        return container in _CONTAINERS and bool(items) and all(
            python_number_annotation(x) or isinstance(x, ast.Constant) and x.value is Ellipsis for x in items) \
            and not all(isinstance(x, ast.Constant) for x in items)
    return False


def _none(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) and e.value is None
