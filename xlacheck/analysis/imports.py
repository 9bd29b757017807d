"""One alias table per file: local names -> canonical dotted names.

Canonical names are short and framework-agnostic where frameworks alias each other:
``tensorflow`` -> ``tf``; ``keras``, ``tf_keras``, ``tensorflow.keras`` -> ``tf.keras``;
``tensorflow.experimental.numpy`` -> ``tnp`` (TensorFlow ops, NOT NumPy); ``numpy`` -> ``np``;
``jax.numpy`` -> ``jnp``. Transformers' TF helpers (``shape_list``, ``stable_softmax``) keep a
``transformers.`` prefix whether imported absolutely or relatively, because the transformers
source itself imports them as ``from ...tf_utils import shape_list``.

A called name that the API table (``xlacheck/data/tf_api.json``, ``alias_of``) records as the same
Python object as a public name is named as that one for the rules (:func:`same_object`, applied by
:func:`xlacheck.rules.base.call_name`): ``tf.compat.v1.print`` is ``tf.print``,
``tf.compat.v1.strings.lower`` is ``tf.strings.lower``, ``keras.ops.linalg.det`` is
``keras.ops.det``; so every rule keyed on the public spelling covers its aliases. Context inference
keeps the spelled names (:meth:`AliasTable.resolve`): a ``tensorflow.compat.v1`` file's decorators
and wrappers are judged as before.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping
from functools import cache

from xlacheck import api_table

# Longest prefix first: module paths that denote the same API under another name.
_MODULE_CANONICAL: tuple[tuple[str, str], ...] = (
    ("tensorflow.experimental.numpy", "tnp"),
    ("tensorflow.python.keras", "tf.keras"),
    ("tensorflow.keras", "tf.keras"),
    ("tensorflow.compat.v2", "tf"),
    ("tensorflow", "tf"),
    ("tf_keras", "tf.keras"),
    ("keras", "tf.keras"),
    ("jax.numpy", "jnp"),
    ("numpy", "np"),
)

# Modules (matched on their last component) whose names transformers re-exports for TF code.
_TRANSFORMERS_TF_MODULES = frozenset({"modeling_tf_utils", "tf_utils"})


def canonical_module(module: str) -> str:
    """Map an imported module path to its canonical prefix (unknown modules stay as they are)."""
    for prefix, canon in _MODULE_CANONICAL:
        if module == prefix or module.startswith(prefix + "."):
            return canon + module[len(prefix):]
    return module


class AliasTable:
    """Local name -> canonical dotted name, built from every import statement of a file.

    Function-local imports are folded into the same table: names imported inside a function are
    almost always the same modules (``import tensorflow as tf`` inside a helper), and one table
    keeps resolution a dict lookup.
    """

    __slots__ = ("names", "frameworks", "rebound")

    def __init__(self, rebound: frozenset[str] = frozenset()) -> None:
        self.names: dict[str, str] = {}
        self.frameworks: set[str] = set()  # "tf", "jax", "torch" seen in imports
        # names the module binds again after importing them (:func:`rebound_imports`): not the import's
        self.rebound = rebound

    def add(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                canon = canonical_module(alias.name)
                self._note_framework(canon)
                if alias.asname:
                    if alias.asname not in self.rebound:
                        self.names[alias.asname] = canon
                else:
                    head = alias.name.split(".", 1)[0]
                    if head not in self.rebound:
                        self.names[head] = canonical_module(head)
            return
        module = node.module or ""
        last = module.rsplit(".", 1)[-1]
        if last in _TRANSFORMERS_TF_MODULES or module.startswith("transformers"):
            base = "transformers"
        elif node.level:
            return  # relative imports of the project itself: not framework names
        else:
            base = canonical_module(module)
        self._note_framework(base)
        for alias in node.names:
            if alias.name == "*":
                continue
            local = alias.asname or alias.name
            if local in self.rebound:
                continue
            if base == "transformers" and alias.name in ("keras", "tf"):
                # transformers re-exports tf_keras/keras as `keras` from modeling_tf_utils
                self.names[local] = "tf.keras" if alias.name == "keras" else "tf"
                continue
            full = f"{base}.{alias.name}"
            self.names[local] = canonical_module(full) if base != "transformers" else full

    def bind_callables(self, tree: ast.Module, candidates: Mapping[str, ast.expr]) -> None:
        """``NAME = tf.linalg.det`` (at module level or in a function), ``NAME =
        functools.partial(tf.linalg.det, name="d")`` (keywords only) or ``NAME = getattr(tf.linalg,
        "det")``: ``NAME`` names that API wherever the file uses it, when this assignment is the only
        binding of ``NAME`` in the whole file (no parameter, other assignment, loop or ``with``
        target, ``def``, ``class``, import or ``global`` of it). Python resolves every use of such a
        name to this one object, as it would after ``from tensorflow.linalg import det as NAME``."""
        wanted = {name: api for name, value in candidates.items()
                  if name not in self.names and (api := self.callable_value(value)) is not None}
        if not wanted:
            return
        counts = dict.fromkeys(wanted, 0)
        for node in ast.walk(tree):
            for name in _bound_names(node):
                if name in counts:
                    counts[name] += 1
        self.names.update((name, api) for name, api in wanted.items() if counts[name] == 1)

    def callable_value(self, value: ast.expr) -> str | None:
        """The framework API a value names: an import-rooted chain (``tf.linalg.det``),
        ``getattr(chain, "literal")``, or ``functools.partial(chain, ...)`` that binds keywords
        only (positional ones would shift the arguments rules read); None otherwise."""
        if isinstance(value, ast.Call) and value.args and len(value.args) == 1 and \
                self.resolve(value.func) == "functools.partial":
            value = value.args[0]
        if not isinstance(value, (ast.Attribute, ast.Call)):
            return None
        api = self.resolve(value)
        return api if api is not None and api.startswith(_CALLABLE_PREFIXES) else None

    def _note_framework(self, canon: str) -> None:
        head = canon.split(".", 1)[0]
        if head in ("tf", "tnp"):
            self.frameworks.add("tf")
        elif head in ("jax", "jnp"):
            self.frameworks.add("jax")
        elif head in ("torch", "torch_xla"):
            self.frameworks.add("torch")

    def resolve(self, node: ast.expr) -> str | None:
        """Canonical dotted name of a Name/Attribute chain rooted at an imported name, else None.
        ``getattr(chain, "name")`` with a literal name is ``chain.name`` (the same object)."""
        attrs: list[str] = []
        while True:
            if isinstance(node, ast.Attribute):
                attrs.append(node.attr)
                node = node.value
            elif isinstance(node, ast.Call) and _literal_getattr(node):
                attrs.append(node.args[1].value)  # type: ignore[attr-defined]
                node = node.args[0]
            else:
                break
        if not isinstance(node, ast.Name):
            return None
        base = self.names.get(node.id)
        if base is None:
            return None
        if not attrs:
            return base
        attrs.reverse()
        return base + "." + ".".join(attrs)


# Namespaces whose functions a name bound to them is taken for (NAME = tf.linalg.det).
_CALLABLE_PREFIXES = ("tf.", "tnp.", "jax.", "jnp.")


def _literal_getattr(node: ast.Call) -> bool:
    """``getattr(obj, "name")``: two arguments, the second a literal string (no default)."""
    return isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) == 2 \
        and not node.keywords and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) \
        and node.args[1].value.isidentifier()


def _bound_names(node: ast.AST) -> list[str]:
    """The names ``node`` binds in its scope (a store, a parameter, a def/class, an import, an
    ``except ... as``, a ``global``/``nonlocal`` declaration)."""
    if isinstance(node, ast.Name):
        return [node.id] if not isinstance(node.ctx, ast.Load) else []
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".", 1)[0] for a in node.names]
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names)
    return []


def rebound_imports(tree: ast.Module) -> frozenset[str]:
    """Names a module-level import binds that a later module-level ``def``, ``class`` or assignment
    binds again: ``from math import log`` then ``def log(t, eps=1e-20): return t.clamp(min=eps).log()``.
    Python looks a function's global names up when the function runs, i.e. after the module has run
    (the last binding executed wins), so inside every function such a name is the module's own object,
    not the import's. Only unconditional rebindings count (a statement of the module's body, not one
    under ``if``/``try``: ``try: from apex import FusedLayerNorm as LayerNorm`` with a ``class
    LayerNorm`` fallback keeps the import); an import after the rebinding makes the name the import's
    again. Module-level code between the import and the rebinding still sees the import: such a name
    is left unresolved there (unknown), never resolved to the wrong object."""
    imported: dict[str, int] = {}  # name -> index of the last module-level statement importing it
    rebound: dict[str, int] = {}  # name -> index of the last unconditional non-import binding
    for i, stmt in enumerate(tree.body):
        todo: list[ast.AST] = [stmt]
        while todo:  # imports anywhere in this statement's module-level blocks (if/try/with)
            node = todo.pop()
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for name in _bound_names(node):
                    imported[name] = i
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)) or (
                    sys.version_info >= (3, 11) and isinstance(node, ast.TryStar)):
                todo.extend(s for s in ast.iter_child_nodes(node) if isinstance(s, ast.stmt))
                todo.extend(h for h in getattr(node, "handlers", ()))
            elif isinstance(node, ast.ExceptHandler):
                todo.extend(node.body)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            rebound[stmt.name] = i
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and (not isinstance(stmt, ast.AnnAssign) or stmt.value):
            for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
                for node in ast.walk(target):
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                        rebound[node.id] = i
    return frozenset(name for name, i in rebound.items() if name in imported and imported[name] < i)


def resolve_callee(func: ast.expr, aliases: AliasTable, module_values: Mapping[str, ast.expr],
                   attrs: Mapping[str, ast.expr] | None = None, defaults: Mapping[str, str] | None = None,
                   function: ast.AST | None = None) -> str | None:
    """The API a called expression names when it is not itself an import-rooted chain: an element
    of a module-level dict, list or tuple of functions read with a literal key or index
    (``FNS["det"](x)``), a ``self.<attr>`` the class set to an API (``self.fn = tf.linalg.det``;
    ``attrs``), or a parameter whose default names an API that no call in the file passes
    (``def f(t, fn=tf.linalg.det)``; ``defaults``). ``function``: the calling function (a name it
    binds itself shadows the module's)."""
    if isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and isinstance(func.slice, ast.Constant) \
            and func.value.id in module_values and not _binds(function, func.value.id):
        table = module_values.get(func.value.id)
        key = func.slice.value
        element: ast.expr | None = None
        if isinstance(table, ast.Dict):
            element = next((v for k, v in zip(table.keys, table.values)
                            if isinstance(k, ast.Constant) and k.value == key), None)
        elif isinstance(table, (ast.List, ast.Tuple)) and isinstance(key, int) and not isinstance(key, bool) \
                and -len(table.elts) <= key < len(table.elts):
            element = table.elts[key]
        return aliases.callable_value(element) if element is not None else None
    if attrs is not None and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and func.value.id == "self" and func.attr in attrs:
        return aliases.callable_value(attrs[func.attr])
    if defaults and isinstance(func, ast.Name):
        return defaults.get(func.id)
    return None


def _binds(function: ast.AST | None, name: str) -> bool:
    """``function`` (with what it nests) binds ``name``: a parameter, a store, a def, an import."""
    return function is not None and not isinstance(function, ast.Module) and \
        any(name in _bound_names(node) for node in ast.walk(function))


# Spellings whose aliases are resolved: the TF1 compatibility module, Keras' deprecated
# ``layers.experimental`` module and Keras 3's ops submodules (``keras`` is canonicalised to
# ``tf.keras``; the table spells Keras 3 ``keras.ops``).
_ALIAS_PREFIXES = (("tf.compat.v1.", ""), ("tf.keras.layers.experimental.", ""), ("tf.keras.ops.", "keras.ops."))


@cache
def same_object(name: str) -> str:
    """``name``, or the public name of the same object when the API table records ``name`` as an
    alias of it (``alias_of``): ``tf.compat.v1.strings.lower`` -> ``tf.strings.lower``,
    ``tf.keras.ops.numpy.where`` -> ``tf.keras.ops.where``. Only aliases into the public ``tf.*``
    API (not another ``tf.compat`` name, not a private module path) and, for Keras 3, from an
    ``ops`` submodule to ``keras.ops.X``."""
    for prefix, table_prefix in _ALIAS_PREFIXES:
        if not name.startswith(prefix):
            continue
        table_name = table_prefix + name[len(prefix):] if table_prefix else name
        target = api_table.alias_target(table_name)
        if target is None or ".python." in target or "._" in target:
            return name
        if table_prefix:  # keras.ops.numpy.where -> keras.ops.where, spelled tf.keras.ops.where
            return prefix + target[len(table_prefix):] if target.startswith(table_prefix) else name
        return target if target.startswith("tf.") and not target.startswith("tf.compat.") else name
    return name
