"""XLA313: a Keras layer call decorated with tf.function runs mask-reading sublayers without the implicit mask."""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck import keras_masking
from xlacheck.analysis.tables import TF_FUNCTION_NAMES
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule


def _constructed(value: ast.AST | None, resolve: Callable[[ast.expr], str | None]) -> str | None:
    if isinstance(value, ast.Call):
        return resolve(value.func)
    return None


def _literal(node: ast.Call, keyword: str) -> object:
    for kw in node.keywords:
        if kw.arg == keyword and isinstance(kw.value, ast.Constant):
            return kw.value.value
    return None


class ImplicitMaskLostAtTfFunction(ModuleRule):
    """
    ## What it does
    In a file that builds a Keras layer that attaches a padding mask to its output
    (`Embedding(mask_zero=True)`, `Masking`), flags, inside the `call` of a Keras layer or model
    that is decorated with `tf.function` (with or without `jit_compile`) and takes no `mask`
    argument, each call of a sublayer that reads the implicit mask (`MultiHeadAttention`, `LSTM`,
    `GRU`, `Attention`, `GlobalAveragePooling1D`, `Bidirectional`, ...) without an explicit mask
    argument. The layers come from a table generated from Keras itself
    (`xlacheck/data/keras_masking.json`, `python tools/generate_keras_mask_table.py`: every
    layer class whose `call` takes `mask` or whose source reads `_keras_mask`).

    ## Why is this bad?
    Keras carries the mask on the tensor (`_keras_mask`). A `tf.function` traces its arguments as
    new symbolic tensors without that attribute, so inside the decorated `call` the sublayer sees
    no mask: attention attends to padding, recurrent layers run over it, pooling averages it in.
    No error is raised; the compiled model returns other values than the eager one (measured for
    a sample of layers in the table's `lost_at_tf_function`).

    ## Example
    ```python
    class Encoder(tf.keras.layers.Layer):
        @tf.function(jit_compile=True)
        def call(self, x):
            return self.mha(query=x, value=x, key=x)
    ```

    ## Use instead
    ```python
    class Encoder(tf.keras.layers.Layer):
        @tf.function(jit_compile=True)
        def call(self, x, mask=None):  # Keras passes the input's mask in
            keep = None if mask is None else mask[:, None, :]
            return self.mha(query=x, value=x, key=x, attention_mask=keep)
    ```
    or leave `call` undecorated and compile the model (`model.compile(jit_compile=True)`).

    ## Fix safety
    No automatic fix: where the mask must go depends on the layer.
    """

    code = "XLA313"
    fix = None
    name = "implicit-mask-lost-at-tf-function"

    VALID = (
        # no layer in the file makes a mask
        Example("import tensorflow as tf\nclass A(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.mha = tf.keras.layers.MultiHeadAttention(2, 2)\n"
                "    @tf.function\n    def call(self, x):\n        return self.mha(x, x)\n"
                "embed = tf.keras.layers.Embedding(10, 4)\n"),
        # call takes the mask Keras passes and forwards it
        Example("import tensorflow as tf\nclass A(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.rnn = tf.keras.layers.LSTM(4)\n"
                "    @tf.function\n    def call(self, x, mask=None):\n        return self.rnn(x, mask=mask)\n"
                "embed = tf.keras.layers.Embedding(10, 4, mask_zero=True)\n"),
        # an undecorated call keeps the implicit mask
        Example("import tensorflow as tf\nclass A(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.rnn = tf.keras.layers.LSTM(4)\n"
                "    def call(self, x):\n        return self.rnn(x)\n"
                "embed = tf.keras.layers.Embedding(10, 4, mask_zero=True)\n"),
        # a sublayer that does not read masks
        Example("import tensorflow as tf\nclass A(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.dense = tf.keras.layers.Dense(4)\n"
                "    @tf.function\n    def call(self, x):\n        return self.dense(x)\n"
                "embed = tf.keras.layers.Embedding(10, 4, mask_zero=True)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass ApplyMHA(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=2)\n"
                "    @tf.function\n    def call(self, x):\n        return self.mha(query=x, key=x, value=x)\n"
                "embedding = tf.keras.layers.Embedding(20, 4, mask_zero=True)\n",
                expected=(
                    (8, 16, "self.mha (tf.keras.layers.MultiHeadAttention) reads the implicit Keras mask, but this "
                            "call() is decorated with tf.function (line 6) and takes no mask: the traced input has "
                            "no _keras_mask, so the mask that tf.keras.layers.Embedding(mask_zero=True) (line 9) "
                            "attaches is dropped and padding is attended to/averaged in, with no error (measured: "
                            "xlacheck/data/keras_masking.json); take `mask=None` in call() and pass it on, or do "
                            "not decorate call()"),
                )),
        Example("import tensorflow as tf\nmasking = tf.keras.layers.Masking(0.0)\n"
                "class Encoder(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
                "        self.pool = tf.keras.layers.GlobalAveragePooling1D()\n"
                "    @tf.function(jit_compile=True)\n    def call(self, x):\n        return self.pool(x)\n",
                expected=(
                    (9, 16, "self.pool (tf.keras.layers.GlobalAveragePooling1D) reads the implicit Keras mask, but "
                            "this call() is decorated with tf.function (line 7) and takes no mask: the traced input "
                            "has no _keras_mask, so the mask that tf.keras.layers.Masking (line 2) attaches is "
                            "dropped and padding is attended to/averaged in, with no error (measured: "
                            "xlacheck/data/keras_masking.json); take `mask=None` in call() and pass it on, or do "
                            "not decorate call()"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        resolve = ctx.facts.aliases.resolve
        producer = self._producer(ctx, resolve)
        if producer is None:
            return
        for cls in ctx.facts.classes:
            call = cls.methods.get("call")
            if not cls.keras or call is None or not isinstance(call.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            decorator = next((d for d in call.node.decorator_list
                              if resolve(d.func if isinstance(d, ast.Call) else d) in TF_FUNCTION_NAMES), None)
            args = call.node.args
            if decorator is None or any(a.arg == "mask" for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)):
                continue
            for node in ast.walk(call.node):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"):
                    continue
                layer = _constructed(cls.attrs.get(node.func.attr), resolve)
                if layer is None or keras_masking.consumer(layer) is None:
                    continue
                if any(kw.arg is None or "mask" in kw.arg for kw in node.keywords):
                    continue  # a mask (or **kwargs that may hold one) is passed explicitly
                what, line = producer
                ctx.report(self, node,
                           f"self.{node.func.attr} ({layer}) reads the implicit Keras mask, but this call() is "
                           f"decorated with tf.function (line {decorator.lineno}) and takes no mask: the traced "
                           f"input has no _keras_mask, so the mask that {what} (line {line}) attaches is dropped "
                           "and padding is attended to/averaged in, with no error (measured: "
                           "xlacheck/data/keras_masking.json); take `mask=None` in call() and pass it on, or do "
                           "not decorate call()")

    @staticmethod
    def _producer(ctx: ModuleContext, resolve: Callable[[ast.expr], str | None]) -> tuple[str, int] | None:
        """(what, line) of the first construction here of a layer that attaches a mask."""
        for node in ast.walk(ctx.tree):
            name = _constructed(node, resolve)
            when = keras_masking.producer(name) if name else None
            if when is None:
                continue
            assert isinstance(node, ast.Call) and name is not None
            needed = {k: v for k, v in when.items() if k != "mask_value"}
            if all(_literal(node, k) == v for k, v in needed.items()):
                args = ", ".join(f"{k}={v!r}" for k, v in needed.items())
                return (f"{name}({args})" if args else name), node.lineno
        return None
