"""XLA316: a layer or op whose gradient has no XLA kernel, in model code of a file that trains with XLA."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache

from xlacheck import api_table, op_table
from xlacheck.analysis.contexts import Level
from xlacheck.analysis.imports import same_object
from xlacheck.analysis.tables import CALL_METHODS
from xlacheck.api_table import ApiFact
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule
from xlacheck.rules.op_without_xla_kernel import call_literals, trainable_upstream, variant_gradient


@cache
def _short_names() -> frozenset[str]:
    """Last components of the names whose gradient lacks a kernel somewhere (``resize``, ``UpSampling2D``)."""
    names = api_table.gradient_sensitive_names() | op_table.gradient_sensitive_names()
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


def _xla_training(ctx: ModuleContext) -> tuple[str, int] | None:
    """(what, line) of the first place this file trains with XLA: a jit-compiled function (not
    JAX) that takes a gradient with ``tf.GradientTape``, or ``compile(..., jit_compile=True)``."""
    resolve = ctx.facts.aliases.resolve
    found: list[tuple[int, str]] = []
    for info in ctx.facts.functions:
        if info.level is not Level.CERTAIN or not info.jit_entry or info.jax or info.host:
            continue
        for node in ast.walk(info.node):
            if isinstance(node, (ast.With, ast.AsyncWith)) and any(
                    isinstance(item.context_expr, ast.Call) and resolve(item.context_expr.func) == "tf.GradientTape"
                    for item in node.items) or _minimize_call(node):
                found.append((info.node.lineno, f"the jit-compiled {info.name}()"))
                break
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "compile" \
                and any(kw.arg == "jit_compile" and isinstance(kw.value, ast.Constant) and kw.value.value is True
                        for kw in node.keywords):
            found.append((node.lineno, "compile(jit_compile=True)"))
    if not found:
        return None
    line, what = min(found)
    return what, line


def _minimize_call(node: ast.AST) -> bool:
    """``optimizer.minimize(loss, var_list)``: a Keras optimizer differentiates the loss (a tape inside)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "minimize"
            and (len(node.args) >= 2 or any(kw.arg == "var_list" for kw in node.keywords)))


def _loss_predictions(tree: ast.Module) -> dict[int, frozenset[str]]:
    """id(function) -> its prediction parameter, for the losses this file gives ``Model.compile``
    (``loss=fn``, ``loss=LossClass(...)``, in a list or dict too): Keras calls a loss as
    ``fn(y_true, y_pred)`` with the model's output, and the training step differentiates it."""
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "compile":
            for kw in node.keywords:
                if kw.arg != "loss":
                    continue
                values = kw.value.values if isinstance(kw.value, ast.Dict) else \
                    kw.value.elts if isinstance(kw.value, (ast.List, ast.Tuple)) else [kw.value]
                for value in values:
                    target = value.func if isinstance(value, ast.Call) else value
                    if isinstance(target, ast.Name):
                        named.add(target.id)
    out: dict[int, frozenset[str]] = {}
    for node in tree.body:
        functions: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, int]] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in named:
            functions.append((node, 1))
        elif isinstance(node, ast.ClassDef) and node.name in named:
            functions += [(f, 2) for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                          and f.name in CALL_METHODS]
        for function, position in functions:
            params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
            if len(params) > position:
                out[id(function)] = frozenset({params[position]})
    return out


class TrainedGradientWithoutXlaKernel(ModuleRule):
    """
    ## What it does
    In a file that trains with XLA (a jit-compiled function that takes a gradient with
    `tf.GradientTape` or `optimizer.minimize(loss, var_list)`, or
    `model.compile(..., jit_compile=True)`), flags what the training step
    differentiates without an XLA kernel for the gradient, according to the generated API table
    (`xlacheck/data/tf_api.json`: `grad_xla`, `grad_unsupported` and the measured argument values
    of `grad_conditions`; each API and probed Keras layer compiled with its gradient):
    - the construction of such a Keras layer: `UpSampling2D` with the default
      `interpolation="nearest"`, `Resizing(..., interpolation="nearest")`
      (`ResizeNearestNeighborGrad`);
    - a call of such an API in a Keras method or compiled function outside a `GradientTape`
      block (XLA309 reports the ones inside it): `tf.image.resize(..., method="nearest")` in a
      layer's `call`, `keras.ops.nanmedian`, whose gradient the table measured to need a
      compile-time constant (`grad_const`), and `tf.linalg.expm`, whose gradient loops over a
      TensorList XLA cannot size (`grad_list_size`: "XLA compilation requires a fixed tensor list
      size").

    Only where a gradient reaches it: an API call whose input comes from a layer or model call,
    a `self.<attr>` weight, a watched tensor in its function, a module-level trainable
    `tf.Variable`, or the prediction (`y_pred`) of a loss given to `compile(loss=...)` (a metric's
    is not differentiated), never through `tf.stop_gradient`; and a layer that is not the
    first of a `Sequential` (on a raw input the backward pass never reaches the op, and XLA
    compiles the step). It is syntactic about which model is trained: the layer and the
    training step only need to be in the same file.

    ## Why is this bad?
    The forward pass compiles, so inference works; the training step's backward pass does not:
    `Detected unsupported operations when trying to compile graph ... ResizeNearestNeighborGrad
    (No registered 'ResizeNearestNeighborGrad' OpKernel for XLA_CPU_JIT devices ...)`.

    ## Example
    ```python
    generator = tf.keras.Sequential([layers.Dense(128), layers.Reshape((4, 4, 8)),
                                     layers.UpSampling2D(2), layers.Conv2D(1, 3, padding="same")])
    ```

    ## Use instead
    ```python
    layers.UpSampling2D(2, interpolation="bilinear")  # its gradient compiles (other numbers)
    # or, the same numbers as nearest for an integer factor:
    layers.Lambda(lambda x: tf.repeat(tf.repeat(x, 2, axis=1), 2, axis=2))
    ```

    ## Fix safety
    `UpSampling2D` by integer factors written as literals (nearest, the default) becomes
    `Lambda(lambda t: tf.repeat(tf.repeat(t, a, axis=1), b, axis=2))`: the same values and
    gradients. Unsafe: the model's layers change (a saved model stores the Lambda's Python code,
    and the layer's class and generated name differ), and without `data_format` it assumes
    `channels_last`. Other findings get no fix: bilinear interpolation gives other numbers.
    """

    code = "XLA316"
    fix = ("rewrite_nearest_upsampling",)
    name = "trained-gradient-without-xla-kernel"

    VALID = (
        Example("import tensorflow as tf\nlayers = tf.keras.layers\n"
                "up = layers.UpSampling2D(2, interpolation='bilinear')\n"
                "@tf.function(jit_compile=True)\ndef step(x, model):\n"
                "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(model(x))\n"
                "    return tape.gradient(loss, model.trainable_variables)\n"),
        Example("import tensorflow as tf\nlayers = tf.keras.layers\n"
                "model = tf.keras.Sequential([layers.UpSampling2D(2), layers.Conv2D(1, 3)])\n"
                "model.compile(optimizer='adam', loss='mse')\n"),
        Example("import tensorflow as tf\nlayers = tf.keras.layers\n"
                "model = tf.keras.Sequential([layers.UpSampling2D(2),\n"
                "                             layers.Conv2D(1, 3, kernel_initializer='ones')])\n"
                "@tf.function(jit_compile=True)\ndef step(x, y):\n"
                "    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(tf.square(model(x) - y))\n"
                "    return tape.gradient(loss, model.trainable_variables)\n"),
        # the bilinear variant's gradient compiles (the op table's measured variant)
        Example("import tensorflow as tf\nfrom tensorflow.keras import backend as K\nclass Up(tf.keras.layers.Layer):\n"
                "    def __init__(self):\n        super().__init__()\n"
                "        self.proj = tf.keras.layers.Conv2D(1, 1, kernel_initializer='ones')\n"
                "    def call(self, x):\n"
                "        return K.resize_images(self.proj(x), 2, 2, 'channels_last', interpolation='bilinear')\n"
                "up = Up()\n@tf.function(jit_compile=True)\ndef step(x, y):\n"
                "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(tf.square(up(x) - y))\n"
                "    return tape.gradient(loss, up.trainable_variables)\n"),
        # a metric is not differentiated
        Example('import tensorflow as tf\ndef upsampled_error(y_true, y_pred):\n'
                '    up = tf.image.resize(y_pred, [8, 8], method="nearest")\n'
                '    return tf.reduce_mean(tf.abs(up - y_true))\n'
                'model = tf.keras.Sequential([tf.keras.layers.Conv2D(1, 3, padding="same")])\n'
                'model.compile(optimizer="adam", loss="mse", metrics=[upsampled_error], jit_compile=True)\n'),
        # expm's forward compiles: a file that only runs the layer compiled, without training it
        Example('import tensorflow as tf\nclass Rotate(tf.keras.layers.Layer):\n'
                '    def build(self, input_shape):\n'
                '        self.gen = self.add_weight(name="gen", shape=(3, 3), initializer="zeros")\n'
                '    def call(self, x):\n'
                '        return tf.matmul(x, tf.linalg.expm(self.gen - tf.transpose(self.gen)))\n'
                'rotate = Rotate()\n@tf.function(jit_compile=True)\ndef infer(x):\n    return rotate(x)\n'),
    )
    INVALID = (
        Example("import tensorflow as tf\nlayers = tf.keras.layers\n"
                "model = tf.keras.Sequential([layers.Conv2D(2, 1), layers.UpSampling2D(2), layers.Conv2D(1, 3)])\n"
                "@tf.function(jit_compile=True)\ndef step(x, y):\n"
                "    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(tf.square(model(x) - y))\n"
                "    return tape.gradient(loss, model.trainable_variables)\n",
                expected=(
                    (3, 51, "the gradient of tf.keras.layers.UpSampling2D uses ops with no XLA kernel "
                            "(ResizeNearestNeighborGrad): training it in the jit-compiled step() (line 5) fails with "
                            "'Detected unsupported operations'; use interpolation='bilinear' or, for the same "
                            "numbers, tf.repeat along the spatial axes"),
                )),
        Example("import tensorflow as tf\nclass TopDown(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.reduce = tf.keras.layers.Conv2D(1, 1)\n"
                "    def call(self, coarse, fine):\n"
                "        up = tf.image.resize(self.reduce(coarse), tf.shape(fine)[1:3], method='nearest')\n"
                "        return up + fine\nfpn = TopDown()\n@tf.function(jit_compile=True)\ndef step(c, f):\n"
                "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(tf.square(fpn(c, f)))\n"
                "    return tape.gradient(loss, fpn.trainable_variables)\n",
                expected=(
                    (7, 14, "the gradient of tf.image.resize uses ops with no XLA kernel (ResizeNearestNeighborGrad): "
                            "training it in the jit-compiled step() (line 11) fails with 'Detected unsupported "
                            "operations'; use the default method"),
                )),
        # a gradient only the op table measured (K.resize_images: the API table has no gradient fact)
        Example("import tensorflow as tf\nfrom tensorflow.keras import backend as K\nclass Up(tf.keras.layers.Layer):\n"
                "    def __init__(self):\n        super().__init__()\n        self.proj = tf.keras.layers.Conv2D(1, 1)\n"
                "    def call(self, x):\n        return K.resize_images(self.proj(x), 2, 2, 'channels_last')\n"
                "up = Up()\n@tf.function(jit_compile=True)\ndef step(x, y):\n"
                "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(tf.square(up(x) - y))\n"
                "    return tape.gradient(loss, up.trainable_variables)\n",
                expected=(
                    (8, 16, "the gradient of tf.keras.backend.resize_images uses ops with no XLA kernel "
                            "(ResizeNearestNeighborGrad): training it in the jit-compiled step() (line 11) fails "
                            "with 'Detected unsupported operations'; use interpolation='bilinear'"),
                )),
        # a loss given to compile: Keras passes the model's output as y_pred
        Example('import tensorflow as tf\ndef upsampled_loss(y_true, y_pred):\n'
                '    up = tf.image.resize(y_pred, [8, 8], method="nearest")\n'
                '    return tf.reduce_mean(tf.square(up - y_true))\n'
                'model = tf.keras.Sequential([tf.keras.layers.Conv2D(1, 3, padding="same")])\n'
                'model.compile(optimizer="adam", loss=upsampled_loss, jit_compile=True)\n',
                expected=(
                    (3, 10, 'the gradient of tf.image.resize uses ops with no XLA kernel (ResizeNearestNeighborGrad): '
                        "training it in compile(jit_compile=True) (line 6) fails with 'Detected unsupported "
                        "operations';"
                        ' use the default method'),
                )),
        # optimizer.minimize differentiates the loss in the compiled step (Keras 2 / tf_keras optimizers)
        Example('import tensorflow as tf\nw = tf.Variable(tf.ones([4, 4, 1]))\n'
                'opt = tf.keras.optimizers.SGD(0.1)\ndef objective(x):\n'
                '    return tf.reduce_sum(tf.square(tf.image.resize(x * w, [8, 8], method="nearest")))\n'
                '@tf.function(jit_compile=True)\ndef step(x):\n'
                '    opt.minimize(lambda: objective(x), [w])\n    return w + 0.0\n',
                expected=(
                    (5, 36, 'the gradient of tf.image.resize uses ops with no XLA kernel (ResizeNearestNeighborGrad): '
                        "training it in the jit-compiled step() (line 7) fails with 'Detected unsupported operations'; "
                        'use the default method'),
                )),
        # a Keras op whose gradient needs a compile-time constant (grad_const), trained by compile(jit_compile=True)
        Example('import keras\nclass RobustPool(keras.layers.Layer):\n    def __init__(self):\n'
                '        super().__init__()\n        self.proj = keras.layers.Dense(4)\n'
                '    def call(self, x):\n        return keras.ops.nanmedian(self.proj(x))\n'
                'inputs = keras.Input(shape=(4,))\nmodel = keras.Model(inputs, RobustPool()(inputs))\n'
                'model.compile(optimizer="adam", loss="mse", jit_compile=True)\n',
                expected=(
                    (7, 16, 'the gradient of tf.keras.ops.nanmedian needs a value XLA must know at compile time: '
                        "training it in compile(jit_compile=True) (line 10) fails with 'must be a compile-time "
                        "constant' (measured); keep it out of the trained model"),
                )),
        # a gradient that loops over a TensorList XLA cannot size (the API table's grad_list_size: tf.linalg.expm)
        Example('import tensorflow as tf\nclass Rotate(tf.keras.layers.Layer):\n'
                '    def build(self, input_shape):\n'
                '        self.gen = self.add_weight(name="gen", shape=(3, 3), initializer="zeros")\n'
                '    def call(self, x):\n'
                '        return tf.matmul(x, tf.linalg.expm(self.gen - tf.transpose(self.gen)))\n'
                'model = tf.keras.Sequential([tf.keras.layers.Dense(3), Rotate()])\n'
                'model.compile(optimizer="sgd", loss="mse", jit_compile=True)\n',
                expected=(
                    (6, 29, "the gradient of tf.linalg.expm runs a loop whose accumulated TensorList XLA cannot size: "
                        "training it in compile(jit_compile=True) (line 8) fails with 'XLA compilation requires a "
                        "fixed tensor list size' (measured); keep it out of the trained model"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        training: tuple[str, int] | None = None
        for node, name, ops, fact in self._candidates(ctx):
            if training is None:
                training = _xla_training(ctx) or ("", 0)
            if not training[1]:
                return
            argument = "interpolation" if name.startswith("tf.keras.layers.") else "method"
            if fact is not None:
                compiling = [f"{a}='{v}'" for a, v, grad_xla, _ in fact.grad_conditions if grad_xla]
                default_compiles = bool(fact.grad_xla)
            else:  # the op table's variants whose forward and gradient compile (K.resize_images bilinear)
                verdict = op_table.lookup(name)
                compiling = [f"{c.argument}='{c.value}'" for c in (verdict.conditions if verdict else ())
                             if c.grad_unsupported == () and not c.unsupported]
                default_compiles = False
            advice = f"use {compiling[0]}" if compiling else (
                f"use the default {argument}" if default_compiles else "keep it out of the trained model")
            if name.endswith("UpSampling2D"):  # nearest upsampling by an integer factor is a repeat
                advice += " or, for the same numbers, tf.repeat along the spatial axes"
            if not ops and fact is not None and fact.grad_list_size:  # a loop's TensorList XLA cannot size
                ctx.report(self, node,
                           f"the gradient of {name} runs a loop whose accumulated TensorList XLA cannot size: "
                           f"training it in {training[0]} (line {training[1]}) fails with 'XLA compilation "
                           f"requires a fixed tensor list size' (measured); {advice}")
                continue
            if not ops:  # the table measured a gradient that needs a compile-time constant
                ctx.report(self, node,
                           f"the gradient of {name} needs a value XLA must know at compile time: training it in "
                           f"{training[0]} (line {training[1]}) fails with 'must be a compile-time constant' "
                           f"(measured); {advice}")
                continue
            ctx.report(self, node,
                       f"the gradient of {name} uses ops with no XLA kernel ({', '.join(ops)}): training it in "
                       f"{training[0]} (line {training[1]}) fails with 'Detected unsupported operations'; {advice}")

    def _candidates(self, ctx: ModuleContext) -> Iterator[tuple[ast.Call, str, tuple[str, ...], ApiFact | None]]:
        """(call, API name, gradient ops without a kernel, fact): Keras layer constructions
        anywhere, API calls in Keras methods and compiled functions outside a GradientTape block.
        One walk of the tree; functions and tape blocks are matched by line range, and only for
        the few calls whose last name component the table flags."""
        resolve = ctx.facts.aliases.resolve
        short = _short_names()
        calls: list[ast.Call] = []
        tapes: list[tuple[int, int]] = []
        first_layers: set[int] = set()  # the first layer of a Sequential list: nothing trainable before it
        for node in ast.walk(ctx.tree):
            if isinstance(node, ast.Call):
                last = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if last in short:
                    calls.append(node)
                elif last == "Sequential" and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)) \
                        and node.args[0].elts:
                    first_layers.add(id(node.args[0].elts[0]))
            elif isinstance(node, (ast.With, ast.AsyncWith)) and any(
                    isinstance(i.context_expr, ast.Call) and resolve(i.context_expr.func) == "tf.GradientTape"
                    for i in node.items):
                tapes.append((node.lineno, node.end_lineno or node.lineno))
        if not calls:
            return  # no call of an API whose gradient the table flags: the common case
        functions = [(f.node.lineno, f.node.end_lineno or f.node.lineno, f.node) for f in ctx.facts.functions
                     if f.level in (Level.LIKELY, Level.CERTAIN) and not f.jax and not f.host]
        predictions: dict[int, frozenset[str]] | None = None
        for node in calls:
            name = resolve(node.func)
            name = same_object(name) if name is not None else None  # tf.compat.v1.keras.backend.X is K.X
            if name is None or not name.startswith(("tf.", "keras.ops.")):
                continue
            layer = name.startswith("tf.keras.layers.")
            if layer and id(node) in first_layers:
                continue
            line = node.lineno
            enclosing = [f for f in functions if f[0] <= line <= f[1]]
            function = max(enclosing, key=lambda f: f[0])[2] if enclosing else None
            if not layer and (function is None or not node.args or any(a <= line <= b for a, b in tapes)):
                continue
            fact = api_table.fact_for(name)
            verdict = op_table.lookup(name)
            if fact is None or (fact.grad_xla is None and not fact.grad_conditions):
                # the API table did not measure its gradient (K.resize_images): the op table's, measured
                # by the generator's sweep and confirmed by compiling
                if verdict is None or not verdict.grad_unsupported:
                    continue
                fact = None
            elif not (fact.grad_xla is False or fact.grad_conditions):
                continue
            literals = call_literals(node, () if layer or fact is None else fact.params, resolve)
            forward = set(verdict.unsupported_for(literals)) if verdict is not None else set()
            variant = None if layer else variant_gradient(name, node, resolve)  # measured for this variant
            if variant is not None:
                measured: tuple[str, ...] = variant
            elif fact is not None:
                measured = fact.grad_unsupported_for(literals)
            else:
                measured = verdict.grad_unsupported if verdict is not None else ()
            ops = [op for op in measured if op not in forward]
            const = not ops and variant is None and fact is not None and fact.grad_xla is False \
                and (fact.grad_const or fact.grad_list_size)
            if (not ops and not const) or forward:
                continue  # a forward without a kernel is XLA309's/XLA310's finding
            if predictions is None:
                predictions = _loss_predictions(ctx.tree)
            trained = predictions.get(id(function), frozenset())
            if not layer and not trainable_upstream(node.args[0], function, resolve,  # type: ignore[arg-type]
                                                    ctx.facts.module_values, trained):
                continue  # nothing trainable upstream: the backward pass never reaches it
            yield node, name, tuple(ops), fact
