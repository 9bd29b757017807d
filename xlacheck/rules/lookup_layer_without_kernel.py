"""XLA311: string/hash lookup layers and tables called in compiled code."""

from __future__ import annotations

import ast

from xlacheck.rules.base import Example, Rule, RuleContext

_LAYERS = {
    "Hashing": "its hash ops have no XLA kernel, so compilation fails",
    "StringLookup": "its lookup-table ops have no XLA kernel, so compilation fails",
    "IntegerLookup": "its lookup-table ops have no XLA kernel, so compilation fails",
    "TextVectorization": "its string and lookup-table ops have no XLA kernel, so compilation fails",
    "CategoryEncoding": "it counts with tf.math.bincount, which compiles only with the input values baked in "
                        "(recompiles per value, fails with TensorSpecs)",
}
_TABLE_REASON = "its lookup-table ops (LookupTableFindV2) have no XLA kernel, so compilation fails"
_TABLES = ("tf.lookup.",)


def _constructor(value: ast.expr | None, ctx: RuleContext) -> tuple[str, str] | None:
    """(class name, why it does not compile) for a layer/table built from an XLA-less class."""
    if not isinstance(value, ast.Call):
        return None
    name = ctx.resolve(value.func)
    if name is None:
        return None
    last = name.rsplit(".", 1)[-1]
    if name.startswith("tf.keras") and last in _LAYERS:
        return last, _LAYERS[last]
    if name.startswith(_TABLES) and ("Table" in last or "Vocabulary" in last):
        return last, _TABLE_REASON
    return None


class LookupLayerWithoutKernel(Rule):
    """
    ## What it does
    Flags calls, in compiled code, to `self.<attr>` objects built in `__init__`/`build` as Keras
    `Hashing`, `StringLookup`, `IntegerLookup`, `TextVectorization`, `CategoryEncoding` layers
    or `tf.lookup` tables (`StaticHashTable`, `StaticVocabularyTable`, ...), including
    `table.lookup(...)`.

    ## Why is this bad?
    Their ops (`LookupTableFindV2`, string hashing, `AsString`) have no XLA kernel: the model does
    not compile under `jit_compile=True` or on a TPU. `CategoryEncoding` counts with
    `tf.math.bincount`, which XLA compiles only by baking in the input values.

    ## Example
    ```python
    def call(self, user_ids):
        return self.embed(self.hash(user_ids))
    ```

    ## Use instead
    ```python
    # apply Hashing/StringLookup in the tf.data pipeline; the model receives integer ids
    ```

    ## Fix safety
    No automatic fix.
    """

    code = "XLA311"
    name = "lookup-layer-without-kernel"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
                "        self.embed = tf.keras.layers.Embedding(16, 4)\n    def call(self, ids):\n        return self.embed(ids)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
                "        self.hash = tf.keras.layers.Hashing(num_bins=16)\n        self.embed = tf.keras.layers.Embedding(16, 4)\n"
                "    def call(self, ids):\n        return self.embed(self.hash(ids))\n"),
        Example("import tensorflow as tf\nclass E(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n"
                "        init = tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2]), tf.constant([0, 1]))\n"
                "        self.table = tf.lookup.StaticHashTable(init, default_value=2)\n"
                "    def call(self, ids):\n        return self.table.lookup(ids)\n"),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        f = node.func
        attr = None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
            attr = f.attr
        elif (isinstance(f, ast.Attribute) and f.attr == "lookup" and isinstance(f.value, ast.Attribute)
              and isinstance(f.value.value, ast.Name) and f.value.value.id == "self"):
            attr = f.value.attr
        if attr is None or ctx.values.cls is None:
            return
        found = _constructor(ctx.values.cls.attrs.get(attr), ctx)
        if found is not None:
            kind, why = found
            ctx.report(self, node, f"self.{attr} is a {kind}: {why}; apply it in the input pipeline instead")
