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


def _from_params(function: ast.FunctionDef | ast.AsyncFunctionDef, params: set[str],
                 makes_mask: Callable[[ast.expr], bool]) -> set[str]:
    """The parameters and the local names assigned from them (closed over plain assignments),
    leaving out values that a layer which may attach a mask made inside the function
    (``makes_mask``): the table measured that a mask attached inside the trace is kept."""
    carried = set(params)
    changed = True
    while changed:
        changed = False
        for node in ast.walk(function):
            if not isinstance(node, ast.Assign) or not _mentions(node.value, carried) or makes_mask(node.value):
                continue
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and name.id not in carried:
                        carried.add(name.id)
                        changed = True
    return carried


def _mentions(e: ast.expr, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(e))


class ImplicitMaskLostAtTfFunction(ModuleRule):
    """
    ## What it does
    In a file that builds a Keras layer that attaches a padding mask to its output
    (`Embedding(mask_zero=True)`, `Masking`), flags, inside the `call` of a Keras layer or model,
    or a module-level function, that is decorated with `tf.function` (with or without
    `jit_compile`) and takes no `mask` argument, each call of a layer that reads the implicit mask
    (`MultiHeadAttention`, `LSTM`, `GRU`, `Attention`, `GlobalAveragePooling1D`, `Bidirectional`,
    ...; built in `__init__`/`build` or once at module level) on a value that comes from the
    function's arguments, without an explicit mask argument. A mask attached inside the same
    function (`self.rnn(self.embed(ids))`) is kept (measured) and not flagged. The layers come
    from a table generated from Keras itself
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
        # the mask is made inside the traced function: Keras attaches it there and it is kept
        Example("import tensorflow as tf\nclass A(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.embed = tf.keras.layers.Embedding(10, 4, mask_zero=True)\n"
                "        self.rnn = tf.keras.layers.LSTM(4)\n"
                "    @tf.function\n    def call(self, ids):\n        x = self.embed(ids)\n"
                "        return self.rnn(x)\n"),
        Example("import tensorflow as tf\nembed = tf.keras.layers.Embedding(10, 4, mask_zero=True)\n"
                "rnn = tf.keras.layers.GRU(4)\n"
                "@tf.function(jit_compile=True)\ndef encode(ids):\n    return rnn(embed(ids))\n"),
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
                            "not decorate it"),
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
                            "not decorate it"),
                )),
        Example("import tensorflow as tf\nembed = tf.keras.layers.Embedding(10, 4, mask_zero=True)\n"
                "rnn = tf.keras.layers.GRU(4)\n"
                "@tf.function(jit_compile=True)\ndef encode(x):\n    return rnn(x)\n"
                "def run(ids):\n    return encode(embed(ids))\n",
                expected=(
                    (6, 12, "rnn (tf.keras.layers.GRU) reads the implicit Keras mask, but this encode() is decorated "
                            "with tf.function (line 4) and takes no mask: the traced input has no _keras_mask, so the "
                            "mask that tf.keras.layers.Embedding(mask_zero=True) (line 2) attaches is dropped and "
                            "padding is attended to/averaged in, with no error (measured: "
                            "xlacheck/data/keras_masking.json); take `mask=None` in encode() and pass it on, or do not "
                            "decorate it"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        resolve = ctx.facts.aliases.resolve
        producer = self._producer(ctx, resolve)
        if producer is None:
            return
        for info in ctx.facts.functions:
            node = info.node
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            cls = info.cls
            if cls is not None and not (cls.keras and info.name == "call") or cls is None and info.parent is not None:
                continue  # a Keras call(), or a module-level function
            method = cls is not None
            decorator = next((d for d in node.decorator_list
                              if resolve(d.func if isinstance(d, ast.Call) else d) in TF_FUNCTION_NAMES), None)
            args = node.args
            params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self"}
            if decorator is None or "mask" in params:
                continue
            def makes_mask(e: ast.expr, _info: object = info) -> bool:
                return keras_masking.kept_when_made_inside() and self._makes_mask(e, _info, ctx, resolve)

            carried = _from_params(node, params, makes_mask)
            for call in ast.walk(node):
                if not isinstance(call, ast.Call):
                    continue
                layer, shown = self._consumer_of(call, info, ctx, resolve)
                if layer is None or any(kw.arg is None or "mask" in kw.arg for kw in call.keywords):
                    continue  # a mask (or **kwargs that may hold one) is passed explicitly
                first = call.args[0] if call.args else next(
                    (kw.value for kw in call.keywords if kw.arg in ("inputs", "query", "x")), None)
                if first is None or not _mentions(first, carried) or makes_mask(first):
                    continue  # made inside this function: the mask is attached in the trace and kept
                what, line = producer
                where = "call()" if method else f"{info.name}()"
                ctx.report(self, call,
                           f"{shown} ({layer}) reads the implicit Keras mask, but this {where} is decorated with "
                           f"tf.function (line {decorator.lineno}) and takes no mask: the traced input has no "
                           f"_keras_mask, so the mask that {what} (line {line}) attaches is dropped and padding is "
                           "attended to/averaged in, with no error (measured: xlacheck/data/keras_masking.json); "
                           f"take `mask=None` in {where} and pass it on, or do not decorate it")

    @staticmethod
    def _makes_mask(e: ast.expr, info: object, ctx: ModuleContext, resolve: Callable[[ast.expr], str | None]) -> bool:
        """Does ``e`` call a layer that may attach a mask: a producer from the table, or a layer
        class defined in this file (it may hold one)?"""
        cls = getattr(info, "cls", None)
        for n in ast.walk(e):
            if not isinstance(n, ast.Call):
                continue
            f = n.func
            built: ast.expr | None = None
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self" and cls:
                built = cls.attrs.get(f.attr)
            elif isinstance(f, ast.Name):
                built = ctx.facts.module_values.get(f.id)
            if not isinstance(built, ast.Call):
                continue
            name = resolve(built.func)
            if name and keras_masking.producer(name) is not None:
                return True
            if isinstance(built.func, ast.Name) and built.func.id in ctx.facts.classes_by_name:
                return True
        return False

    @staticmethod
    def _consumer_of(call: ast.Call, info: object, ctx: ModuleContext,
                     resolve: Callable[[ast.expr], str | None]) -> tuple[str | None, str]:
        """(layer class, how the code names it) when ``call`` calls a mask-reading layer built in
        ``__init__``/``build`` (``self.rnn``) or once at module level (``rnn``)."""
        f = call.func
        cls = getattr(info, "cls", None)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self" and cls is not None:
            layer = _constructed(cls.attrs.get(f.attr), resolve)
            shown = f"self.{f.attr}"
        elif isinstance(f, ast.Name):
            layer = _constructed(ctx.facts.module_values.get(f.id), resolve)
            shown = f.id
        else:
            return None, ""
        if layer is None or keras_masking.consumer(layer) is None:
            return None, ""
        return layer, shown

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
