"""XLA321: a Keras model compiled with ``jit_compile=True`` that holds a built-in layer without an XLA kernel."""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.analysis.module_index import is_true
from xlacheck.analysis.objects import BuiltObject, ObjectScope, built_object, inherited_calls, model_layers
from xlacheck.analysis.scopes import BuiltValues, built_values, own_nodes
from xlacheck.analysis.tables import TF_FUNCTION_NAMES
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule
from xlacheck.rules.op_without_xla_kernel import unsupported_ops

_JIT_KEYWORDS = ("jit_compile", "experimental_compile")


def _jit_compiled_objects(call: ast.Call, resolve: Callable[[ast.expr], str | None]
                          ) -> tuple[ast.expr, str] | None:
    """(the object compiled, how) for ``model.compile(..., jit_compile=True)`` (not
    ``run_eagerly=True``), ``tf.function(model, jit_compile=True)`` and
    ``tf.function(jit_compile=True)(model)``."""
    f = call.func
    jit = any(kw.arg in _JIT_KEYWORDS and is_true(kw.value) for kw in call.keywords)
    if isinstance(f, ast.Attribute) and f.attr == "compile" and jit and \
            not any(kw.arg == "run_eagerly" and is_true(kw.value) for kw in call.keywords):
        return f.value, "compiled with jit_compile=True"
    name = resolve(f)
    if name in TF_FUNCTION_NAMES and jit and call.args:
        return call.args[0], "wrapped in tf.function(jit_compile=True)"
    if isinstance(f, ast.Call) and resolve(f.func) in TF_FUNCTION_NAMES and call.args and \
            any(kw.arg in _JIT_KEYWORDS and is_true(kw.value) for kw in f.keywords):
        return call.args[0], "wrapped in tf.function(jit_compile=True)"
    return None


class CompiledModelLayerWithoutKernel(ModuleRule):
    """
    ## What it does
    Flags a Keras model compiled with `jit_compile=True` (`model.compile(..., jit_compile=True)`,
    `tf.function(model, jit_compile=True)`) that holds a built-in layer whose call creates ops
    without an XLA kernel, according to the op table (`xlacheck/data/tf_xla_ops.json`, which
    calls every Keras layer class inside a traced function): `RandomRotation`, `RandomZoom`,
    `RandomTranslation` (`ImageProjectiveTransformV3`), `StringLookup`, `IntegerLookup`,
    `TextVectorization` (`LookupTableFindV2`), `Hashing`, `Resizing(interpolation="area")`, ...
    The model may be a `Sequential([...])` (its list, or layers added with `model.add(layer)`),
    a functional `Model(inputs, outputs)` (the layers applied on the way to its outputs), built
    where it is compiled or returned by a builder function of this file (`model = build_model()`).

    ## Why is this bad?
    No user code calls the layer, so nothing in the file looks compiled; but Keras runs the
    model's `call` inside its train/test/predict function, which `jit_compile=True` compiles
    with XLA: `fit` fails with `Detected unsupported operations ... ImageProjectiveTransformV3`.

    ## Example
    ```python
    model = tf.keras.Sequential([tf.keras.layers.RandomRotation(0.1), tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse", jit_compile=True)
    ```

    ## Use instead
    ```python
    # augment in the tf.data pipeline: ds.map(lambda x, y: (augment(x, training=True), y))
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse", jit_compile=True)
    ```

    Behind `--preview`: measured with tf_keras (`TF_USE_LEGACY_KERAS=1`). Keras 3's `compile()`
    checks each layer's `supports_jit` and runs the model without XLA (with a warning) where one
    says False, so there the `compile()` form does not fail; `tf.function(model, jit_compile=True)`
    does.

    ## Fix safety
    No automatic fix: moving a layer into the input pipeline changes where it runs.
    """

    code = "XLA321"
    fix = None
    name = "compiled-model-layer-without-kernel"
    # behind --preview: the table was measured with tf_keras (TF_USE_LEGACY_KERAS=1); Keras 3's compile()
    # checks each layer's supports_jit and runs without XLA where one says False (the lookup, hashing and
    # random-affine layers), so the compile() form holds only under tf_keras; not yet judged on real code
    preview = True

    VALID = (
        Example("import tensorflow as tf\n"
                "model = tf.keras.Sequential([tf.keras.layers.RandomFlip(), tf.keras.layers.Dense(2)])\n"
                "model.compile(optimizer='adam', loss='mse', jit_compile=True)\n"),
        # not compiled with XLA: the same layers run in a plain graph
        Example("import tensorflow as tf\n"
                "model = tf.keras.Sequential([tf.keras.layers.RandomRotation(0.1), tf.keras.layers.Dense(2)])\n"
                "model.compile(optimizer='adam', loss='mse')\n"),
        Example("import tensorflow as tf\n"
                "model = tf.keras.Sequential([tf.keras.layers.RandomRotation(0.1), tf.keras.layers.Dense(2)])\n"
                "model.compile(optimizer='adam', loss='mse', jit_compile=True, run_eagerly=True)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n"
                "model = tf.keras.Sequential([tf.keras.layers.RandomRotation(0.1), tf.keras.layers.Dense(2)])\n"
                "model.compile(optimizer='adam', loss='mse', jit_compile=True)\n",
                expected=(
                    (3, 1, "model (a Sequential compiled with jit_compile=True) holds a RandomRotation (line 2): "
                           "its call creates ops with no XLA kernel (ImageProjectiveTransformV3), so Keras's "
                           "compiled train/predict function fails; apply it in the input pipeline and feed the "
                           "model its outputs"),
                )),
        # a functional model returned by a builder function, compiled elsewhere
        Example("import tensorflow as tf\ndef build():\n    inputs = tf.keras.Input((None,), dtype=tf.string)\n"
                "    ids = tf.keras.layers.StringLookup(vocabulary=['a', 'b'])(inputs)\n"
                "    return tf.keras.Model(inputs, tf.keras.layers.Embedding(4, 2)(ids))\n"
                "def main():\n    model = build()\n    model.compile(loss='mse', jit_compile=True)\n",
                expected=(
                    (8, 5, "model (a Model compiled with jit_compile=True) holds a StringLookup (line 4): its call "
                           "creates ops with no XLA kernel (LookupTableFindV2), so Keras's compiled train/predict "
                           "function fails; apply it in the input pipeline and feed the model its outputs"),
                )),
        # layers added one by one; the model wrapped in tf.function(jit_compile=True)
        Example("import tensorflow as tf\nmodel = tf.keras.Sequential()\n"
                "model.add(tf.keras.layers.RandomZoom(0.1))\nforward = tf.function(model, jit_compile=True)\n",
                expected=(
                    (4, 11, "model (a Sequential wrapped in tf.function(jit_compile=True)) holds a RandomZoom "
                            "(line 3): its call creates ops with no XLA kernel (ImageProjectiveTransformV3), so "
                            "Keras's compiled train/predict function fails; apply it in the input pipeline and "
                            "feed the model its outputs"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        facts = ctx.facts
        objects = ObjectScope(facts.aliases.resolve, facts.module_values, facts.module_built,
                              {name: f.node for name, f in facts.module_funcs.items()},
                              inherited_calls({name: (c.bases, frozenset(c.methods))
                                               for name, c in facts.classes_by_name.items()}))
        scopes: list[ast.AST] = [ctx.tree, *(f.node for f in facts.functions
                                             if isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef)))]
        for scope_node in scopes:
            scope = None if scope_node is ctx.tree else built_values(scope_node)
            for call in own_nodes(scope_node):
                if isinstance(call, ast.Call):
                    compiled = _jit_compiled_objects(call, objects.resolve)
                    if compiled is not None:
                        self._check_model(ctx, objects, call, compiled, scope)

    def _check_model(self, ctx: ModuleContext, objects: ObjectScope, call: ast.Call, compiled: tuple[ast.expr, str],
                     scope: BuiltValues | None) -> None:
        target, how = compiled
        model = built_object(target, objects, scope)
        if model is None:
            return
        holder = f"{ast.unparse(target)} (a {model.cls.rsplit('.', 1)[-1]} {how})"
        models, seen = [model], {id(model.call)}
        while models:  # a model held by the model (an augmentation Sequential as its first layer) runs too
            for layer, where in model_layers(models.pop(), objects):
                found = built_object(layer, objects, where)
                if found is None or id(found.call) in seen:
                    continue
                seen.add(id(found.call))
                models.append(found)
                self._report_layer(ctx, call, holder, found)

    def _report_layer(self, ctx: ModuleContext, call: ast.Call, holder: str, layer: BuiltObject) -> None:
        ops = unsupported_ops(layer.cls, layer.call)
        if ops:
            ctx.report(self, call,
                       f"{holder} holds a {layer.cls.rsplit('.', 1)[-1]} (line {layer.call.lineno}): its call "
                       f"creates ops with no XLA kernel ({', '.join(ops)}), so Keras's compiled train/predict "
                       "function fails; apply it in the input pipeline and feed the model its outputs")
