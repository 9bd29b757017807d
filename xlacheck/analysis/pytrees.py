"""Pytree state classes and their static fields: one fact for the value model and the rules.

A Flax ``struct.dataclass`` (or ``struct.PyTreeNode``), an Equinox module or a ``chex`` dataclass
is a pytree whose fields are leaves, traced under ``jax.jit``, except the fields marked static
(``struct.field(pytree_node=False)``, ``eqx.field(static=True)``, the ``meta_fields`` a
``register_dataclass`` decorator lists): those are part of the tree's
structure, hashed into the compile cache, and reach the jitted function as the Python values they
were built with (a sampling temperature, a mode string, a ``top_k`` int), never as tracers.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

# NamedTuples and dataclasses a jitted step takes in and rebuilds (XLA415, XLA421)
_STATE_BASES = frozenset({"NamedTuple", "typing.NamedTuple"})
_STATE_DECORATORS = ("dataclass", "struct.dataclass", "flax.struct.dataclass", "chex.dataclass",
                     "dataclasses.dataclass")


def _static_marker(key: object, value: ast.expr) -> bool:
    """A ``metadata`` entry that marks a field static: ``"static": True``
    (``jax.tree_util.register_dataclass``) or ``"pytree_node": False`` (what ``flax.struct.field``
    writes, and penzai's ``pz.Struct`` reads)."""
    return isinstance(value, ast.Constant) and ((key == "static" and value.value is True)
                                                 or (key == "pytree_node" and value.value is False))


def is_static_field(default: ast.expr | None) -> bool:
    """A dataclass field declared static, so a pytree keeps it as hashed Python metadata and never
    traces it: ``struct.field(pytree_node=False)`` (Flax), ``field(static=True)`` (Equinox),
    ``field(metadata=dict(static=True))`` / ``{"static": True}`` (``jax.tree_util.register_dataclass``),
    ``dataclasses.field(metadata={"pytree_node": False})`` (Flax's own spelling, penzai),
    ``static_field()`` (jax_md and others)."""
    if not isinstance(default, ast.Call):
        return False
    func = default.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name == "static_field":
        return True
    for k in default.keywords:
        if k.arg in ("pytree_node", "static") and isinstance(k.value, ast.Constant):
            return k.value.value is (k.arg == "static")
        if k.arg == "metadata":
            meta = k.value
            if isinstance(meta, ast.Call) and isinstance(meta.func, ast.Name) and meta.func.id == "dict":
                return any(_static_marker(kw.arg, kw.value) for kw in meta.keywords)
            if isinstance(meta, ast.Dict):
                return any(isinstance(key, ast.Constant) and _static_marker(key.value, v)
                           for key, v in zip(meta.keys, meta.values))
    return False


def meta_fields(node: ast.ClassDef) -> frozenset[str]:
    """Fields a ``register_dataclass`` decorator lists as ``meta_fields``
    (``@partial(jax.tree_util.register_dataclass, data_fields=[...], meta_fields=["window"])`` or
    ``@jax.tree_util.register_dataclass(data_fields=..., meta_fields=...)``): static metadata of
    the tree, hashed, never traced."""
    names: set[str] = set()
    for dec in node.decorator_list:
        if not isinstance(dec, ast.Call):
            continue
        target = dec.args[0] if dec.args and ast.unparse(dec.func).endswith("partial") else dec.func
        if not ast.unparse(target).endswith("register_dataclass"):
            continue
        for kw in dec.keywords:
            if kw.arg == "meta_fields" and isinstance(kw.value, (ast.List, ast.Tuple)):
                names.update(e.value for e in kw.value.elts
                             if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return frozenset(names)


def _static(node: ast.ClassDef, field: ast.AnnAssign) -> bool:
    return is_static_field(field.value) or field.target.id in meta_fields(node)  # type: ignore[union-attr]


def _fields(node: ast.ClassDef) -> list[ast.AnnAssign]:
    return [s for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            and not (isinstance(s.annotation, ast.Subscript) and ast.unparse(s.annotation.value).endswith("ClassVar"))]


def dataclass_fields(node: ast.ClassDef) -> list[tuple[str, bool, ast.AnnAssign]]:
    """The annotated fields of a class in order (the dataclass ``__init__`` order): (name, declared
    static, the field's statement). Static: hashed into the treedef (the aux data), never traced."""
    return [(f.target.id, _static(node, f), f) for f in _fields(node)]  # type: ignore[union-attr]


def state_classes(tree: ast.Module, resolve: Callable[[ast.expr], str | None]) -> dict[str, list[str]]:
    """NamedTuple subclasses and dataclasses of this file: name -> field names in order (static
    fields left out: they are hashed metadata, not traced)."""
    out: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {resolve(b) or (b.id if isinstance(b, ast.Name) else None) for b in node.bases}
        decorators = {resolve(d.func if isinstance(d, ast.Call) else d)
                      or ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list}
        if not (bases & _STATE_BASES or any(d and d.endswith(_STATE_DECORATORS) for d in decorators)):
            continue
        fields = [s.target.id for s in _fields(node) if not _static(node, s)]  # type: ignore[union-attr]
        if fields:
            out[node.name] = fields
    return out


# scalar annotations of a NamedTuple field: under jax.jit such a field is a leaf, a 0-d tracer
_SCALAR_ANNOTATIONS = frozenset({"bool", "int", "float"})


def leaf_field_names(classes: list[ast.ClassDef]) -> frozenset[str]:
    """Names of the scalar-annotated fields (``inference: bool``, ``p: float``) of NamedTuples of
    this file that no other class here declares: a NamedTuple has no static fields, so when one
    reaches a traced function as an argument or a loop carry (``jax.jit``, ``lax.scan``) each field
    is a leaf, an array tracer, whatever Python value it was built with (measured, jax 0.10.2:
    ``if layer.inference:`` raises TracerBoolConversionError). The annotation says the field is
    one scalar leaf, not a structure whose truth Python could take."""
    leaves: set[str] = set()
    other: set[str] = set()
    for node in classes:
        named_tuple = any(ast.unparse(b) in _STATE_BASES for b in node.bases)
        for s in _fields(node):
            name = s.target.id  # type: ignore[union-attr]
            if named_tuple and isinstance(s.annotation, ast.Name) and s.annotation.id in _SCALAR_ANNOTATIONS:
                leaves.add(name)
            else:
                other.add(name)
        if not named_tuple:  # attributes a plain class sets on self share the name space
            for n in ast.walk(node):
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self" \
                        and isinstance(n.ctx, ast.Store):
                    other.add(n.attr)
    return frozenset(leaves - other)


def static_field_names(classes: list[ast.ClassDef]) -> frozenset[str]:
    """Names of the fields that classes of this file declare static (``x: float =
    struct.field(pytree_node=False)``) and that no class here declares as a traced field: reading
    one off any object (``state.temperature``) gives the Python value the tree was built with. The
    marker itself says the class is a pytree, whatever its decorator or base."""
    static: set[str] = set()
    traced: set[str] = set()
    for node in classes:
        for s in _fields(node):
            (static if _static(node, s) else traced).add(s.target.id)  # type: ignore[union-attr]
    return frozenset(static - traced)
