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

    __slots__ = ("names", "frameworks")

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.frameworks: set[str] = set()  # "tf", "jax", "torch" seen in imports

    def add(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                canon = canonical_module(alias.name)
                self._note_framework(canon)
                if alias.asname:
                    self.names[alias.asname] = canon
                else:
                    head = alias.name.split(".", 1)[0]
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
            if base == "transformers" and alias.name in ("keras", "tf"):
                # transformers re-exports tf_keras/keras as `keras` from modeling_tf_utils
                self.names[local] = "tf.keras" if alias.name == "keras" else "tf"
                continue
            full = f"{base}.{alias.name}"
            self.names[local] = canonical_module(full) if base != "transformers" else full

    def _note_framework(self, canon: str) -> None:
        head = canon.split(".", 1)[0]
        if head in ("tf", "tnp"):
            self.frameworks.add("tf")
        elif head in ("jax", "jnp"):
            self.frameworks.add("jax")
        elif head in ("torch", "torch_xla"):
            self.frameworks.add("torch")

    def resolve(self, node: ast.expr) -> str | None:
        """Canonical dotted name of a Name/Attribute chain rooted at an imported name, else None."""
        attrs: list[str] = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        base = self.names.get(node.id)
        if base is None:
            return None
        if not attrs:
            return base
        attrs.reverse()
        return base + "." + ".".join(attrs)


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
