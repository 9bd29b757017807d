"""XLA405: ``tf.Variable`` or a Keras metric created inside a compiled step."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import TRANSFORMERS_OPTIMIZERS, Certainty
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.objects import called_only_under_creation_guard, under_creation_guard, variable_constructor
from xlacheck.analysis.tables import TF_VARIABLES, VARIABLE_OWNERS
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_METRIC_PREFIX = "tf.keras.metrics."
_OPTIMIZER_PREFIX = "tf.keras.optimizers."
_LAYER_PREFIX = "tf.keras.layers."


def _stateful(name: str, prefix: str) -> bool:
    """A class (capitalised) under ``prefix``, not a function and not a learning-rate schedule."""
    rest = name[len(prefix):] if name.startswith(prefix) else ""
    return bool(rest) and rest.rsplit(".", 1)[-1][:1].isupper() and "schedules" not in rest


# Methods where creating state is the documented pattern (run once, outside the step).
_STATE_METHODS = frozenset({"__init__", "build"})


def _guarded(index: ModuleIndex, node: ast.AST, func: ast.AST, method: bool) -> bool:
    """Built once (a singleton guard, in ``func`` or around every ``self.func(...)`` call of a method),
    or outside the trace (``tf.init_scope()``, ``executing_eagerly()``)."""
    if under_creation_guard(node, func) or index.eager_only(node):
        return True
    name = getattr(func, "name", None)
    if not method or name is None:
        return False
    return called_only_under_creation_guard(index.self_method_calls.get(name, []))


class VariableCreatedInCompiledStep(ModuleRule):
    """
    ## What it does
    Flags `tf.Variable(...)` (and what the API table says builds a variable:
    `tf.keras.backend.variable`, `keras.Variable`), random generators
    (`tf.random.Generator.from_seed`, which hold a variable: `VARIABLE_OWNERS` in
    `xlacheck/analysis/tables.py`), Keras metric objects (`tf.keras.metrics.Mean()`, ...) and
    optimizers created inside a compiled function (a `tf.function`, a Keras `train_step`/`call`,
    a function handed to `strategy.run`), and Keras layers created inside a `tf.function`; also an
    object of a class of this file whose `__init__` creates one of these (not a layer) unguarded,
    constructed there; unless the creation is guarded as a singleton (`if self.v is None:`,
    `if not hasattr(self, "v"):`, or a method every `self.method()` call of which sits under such a
    guard), sits in the branch that fills an argument the caller left out (`if w is None:`, or the
    `else` of `if w:`, with `w=None` the default), or is wrapped in `tf.init_scope()`.

    ## Why is this bad?
    `tf.function` allows variables to be created only on the first trace, and it traces twice
    on that first call to check that no new ones appear. A step that creates a variable on
    every call fails at once: `ValueError: tf.function only supports singleton tf.Variables
    created on the first call. Make sure the tf.Variable is only created once or created outside
    tf.function.` Metrics, optimizers (slots, `iterations`) and layers hold variables, so
    creating one per step fails the same way (and would reset every step if it did not).

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def train_step(w, x, y):
        running = tf.Variable(0.0, trainable=False)
        ...
    ```

    ## Use instead
    ```python
    running = tf.Variable(0.0, trainable=False)  # created once, outside the step

    @tf.function(jit_compile=True)
    def train_step(w, x, y):
        ...
        running.assign(0.9 * running + 0.1 * loss)
    ```

    ## Fix safety
    No automatic fix: the variable has to move to where the step's owner is created.
    """

    code = "XLA405"
    fix = ("rewrite_shape_argument",)
    name = "variable-created-in-compiled-step"

    VALID = (
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.acc = tf.Variable(0.0)\n"
                "        self.mean = tf.keras.metrics.Mean()\n    @tf.function\n    def step(self, x):\n"
                "        self.acc.assign_add(tf.reduce_sum(x))\n        self.mean.update_state(x)\n"),
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.v = None\n    @tf.function\n"
                "    def step(self, x):\n        if self.v is None:\n            self.v = tf.Variable(tf.zeros_like(x))\n"
                "        return self.v.assign_add(x)\n"),
        # a class whose __init__ creates a variable, built once outside the step (tf-retrace14)
        Example("""
            import tensorflow as tf
            class Running:
                def __init__(self):
                    self.total = tf.Variable(0.0, trainable=False)
            class Trainer:
                def __init__(self):
                    self.running = Running()
                @tf.function(jit_compile=True)
                def step(self, x):
                    return self.running.total.assign_add(tf.reduce_sum(x))
        """),
        # a module-level cell the function reads and never binds holds the variable after the first trace
        Example("""
            import tensorflow as tf
            _state = [None]
            @tf.function(jit_compile=True)
            def counter(x):
                if _state[0] is None:
                    _state[0] = tf.Variable(tf.zeros_like(x))
                return _state[0].assign_add(x)
        """),
        # tensorflow/privacy dp_keras_model.py (judged false, batch 11): the method that creates the metric
        # runs only under `if self._clipping_loss is None:`, on the first trace
        Example("""
            import tensorflow as tf


            class DPModel(tf.keras.Model):
                def __init__(self):
                    super().__init__()
                    self._clipping_loss = None

                def _make_clipping_loss(self):
                    self._clipping_loss = tf.keras.metrics.Mean(name="privatized_loss")

                def train_step(self, data):
                    if self._clipping_loss is None:
                        self._make_clipping_loss()
                    self._clipping_loss.update_state(data)
                    return {}
        """),
        # neural-structured-learning carls sparse_features.py (judged false, batch 17): the variables are
        # created only when the caller leaves `variables` out; the compiled caller passes them
        Example("""
            import tensorflow as tf


            def embed(keys, dim, variables=None):
                if variables:
                    kernel = variables.kernel
                else:
                    kernel = tf.Variable(tf.random.normal([dim]))
                return keys * kernel


            @tf.function(jit_compile=True)
            def step(keys, bag):
                return embed(keys, 4, variables=bag)
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x):\n"
                "    running = tf.Variable(0.0, trainable=False)\n    running.assign_add(tf.reduce_sum(x))\n"
                "    return running.read_value()\n",
                expected=(
                    (4, 15, 'tf.Variable created inside compiled code (decorated with '
                            'tf.function(jit_compile=True)): tf.function only supports singleton tf.Variables '
                            'created on the first call, so this fails (ValueError) or resets every step; create it '
                            'once outside the step (in __init__/build) and update it with assign()'),
                )),
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def train_step(self, data):\n"
                "        acc = tf.keras.metrics.SparseCategoricalAccuracy()\n        acc.update_state(data[1], self(data[0]))\n"
                "        return {'acc': acc.result()}\n",
                expected=(
                    (4, 15, 'metric SparseCategoricalAccuracy created inside compiled code (Keras train_step()): '
                            'tf.function only supports singleton tf.Variables created on the first call, so this '
                            'fails (ValueError) or resets every step; create it once outside the step (in '
                            '__init__/build) and update it with assign()'),
                )),
        Example("import tensorflow as tf\n@tf.function\ndef step(w, x):\n    opt = tf.keras.optimizers.SGD(0.1)\n"
                "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(w * x)\n"
                "    opt.apply_gradients([(tape.gradient(loss, w), w)])\n    return loss\n",
                expected=(
                    (4, 11, 'optimizer SGD created inside compiled code (decorated with tf.function): tf.function '
                            'only supports singleton tf.Variables created on the first call, so this fails '
                            '(ValueError) or resets every step; create it once outside the step (in __init__/build) '
                            'and update it with assign()'),
                )),
        Example("import tensorflow as tf\nK = tf.keras.backend\n@tf.function(jit_compile=True)\ndef loss(y, p):\n"
                "    w = K.variable([0.2, 0.8])\n    return tf.reduce_sum(y * p * w)\n",
                expected=(
                    (5, 9, 'variable (tf.keras.backend.variable) created inside compiled code (decorated with '
                           'tf.function(jit_compile=True)): tf.function only supports singleton tf.Variables created '
                           'on the first call, so this fails (ValueError) or resets every step; create it once '
                           'outside the step (in __init__/build) and update it with assign()'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef noisy(x):\n"
                "    gen = tf.random.Generator.from_seed(3)\n    return x + gen.normal(tf.shape(x))\n",
                expected=(
                    (4, 11, 'random generator (tf.random.Generator.from_seed, which holds a tf.Variable) created '
                            'inside compiled code (decorated with tf.function(jit_compile=True)): tf.function only '
                            'supports singleton tf.Variables created on the first call, so this fails (ValueError) or '
                            'resets every step; create it once outside the step (in __init__/build) and update it '
                            'with assign()'),
                )),
        # a class of this file whose __init__ creates a variable, constructed in the step (tf-retrace14)
        Example("""
            import tensorflow as tf
            class Running:
                def __init__(self):
                    self.total = tf.Variable(0.0, trainable=False)
                def update(self, x):
                    return self.total.assign_add(tf.reduce_sum(x))
            @tf.function(jit_compile=True)
            def step(x):
                return Running().update(x)
        """,
                expected=(
                    (9, 12, 'Running() (its __init__ creates a tf.Variable at line 4) created inside compiled code '
                            '(decorated with tf.function(jit_compile=True)): tf.function only supports singleton '
                            'tf.Variables created on the first call, so this fails (ValueError) or resets every '
                            'step; create it once outside the step (in __init__/build) and update it with assign()'),
                )),
        # a test on an argument is no singleton guard: every call with weights creates (review18)
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def weighted_sum(x, weights=None):
                if weights is not None:
                    total = tf.Variable(0.0, trainable=False)
                    total.assign_add(tf.reduce_sum(x * weights))
                    return total.read_value()
                return tf.reduce_sum(x)
        """,
                expected=(
                    (5, 17, 'tf.Variable created inside compiled code (decorated with tf.function(jit_compile=True)): '
                            'tf.function only supports singleton tf.Variables created on the first call, so this '
                            'fails (ValueError) or resets every step; create it once outside the step (in '
                            '__init__/build) and update it with assign()'),
                )),
        # the same method called without the guard: a new metric on every trace
        Example("""
            import tensorflow as tf


            class Model(tf.keras.Model):
                def __init__(self):
                    super().__init__()
                    self._tracker = None

                def _make_tracker(self):
                    self._tracker = tf.keras.metrics.Mean(name="loss")

                def train_step(self, data):
                    self._make_tracker()
                    self._tracker.update_state(data)
                    return {}
        """,
                expected=(
                    (10, 25, 'metric Mean created inside compiled code (called from train_step()): tf.function only '
                             'supports singleton tf.Variables created on the first call, so this fails (ValueError) '
                             'or resets every step; create it once outside the step (in __init__/build) and update '
                             'it with assign()'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not any(f.certainty is Certainty.COMPILED for f in ctx.facts.functions):
            return
        index = ctx.index
        owners = _state_owning_classes(ctx)
        for node, name in index.calls:
            what = _creates(name) if name is not None else None
            if what is None and isinstance(node.func, ast.Name) and node.func.id in owners \
                    and index.module_binding(node.func.id) is None:
                inner, line = owners[node.func.id]
                what = f"{node.func.id}() (its __init__ creates a {inner} at line {line})"
            if what is None:
                continue
            func = index.function_of(node)
            info = ctx.facts.by_node.get(id(func)) if func is not None else None
            if info is None or info.certainty is not Certainty.COMPILED or info.host or info.name in _STATE_METHODS:
                continue
            if what.startswith("layer") and not info.tf_function_entry:
                continue  # layers built inside a Keras call()/helpers are tracked by Keras itself
            if _guarded(index, node, info.node, info.cls is not None):
                continue
            ctx.report(self, node,
                       f"{what} created inside compiled code ({info.why}): tf.function only supports singleton "
                       "tf.Variables created on the first call, so this fails (ValueError) or resets every step; "
                       "create it once outside the step (in __init__/build) and update it with assign()")


def _creates(name: str) -> str | None:
    """What a call of ``name`` creates that holds a tf.Variable, in words; None for anything else."""
    if variable_constructor(name):
        return "tf.Variable" if name in TF_VARIABLES else f"variable ({name})"
    if name in VARIABLE_OWNERS:
        return f"random generator ({name}, which holds a tf.Variable)"
    if _stateful(name, _METRIC_PREFIX):
        return f"metric {name.rsplit('.', 1)[-1]}"
    if _stateful(name, _OPTIMIZER_PREFIX) or name in TRANSFORMERS_OPTIMIZERS:
        return f"optimizer {name.rsplit('.', 1)[-1]}"
    if _stateful(name, _LAYER_PREFIX):
        return f"layer {name.rsplit('.', 1)[-1]}"
    return None


def _state_owning_classes(ctx: ModuleContext) -> dict[str, tuple[str, int]]:
    """Module-level classes of this file whose ``__init__`` creates a variable, a metric, an optimizer
    or a random generator unguarded (not a layer: Keras builds those lazily), directly or through a
    base class of this file that does: class name -> (what, line). Constructing one in a compiled
    step creates that state at every trace, which ``tf.function`` refuses after the first
    (measured: ``ValueError: tf.function only supports singleton tf.Variables``)."""
    index = ctx.index
    classes = {n.name: n for n in ctx.tree.body if isinstance(n, ast.ClassDef)}
    found: dict[str, tuple[str, int]] = {}
    for cls in classes.values():
        init = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
        if init is None:
            continue
        for sub in ast.walk(init):
            if isinstance(sub, ast.Call):
                name = index.aliases.resolve(sub.func)
                what = _creates(name) if name is not None else None
                if what is not None and not what.startswith("layer") and not _guarded(index, sub, init, False):
                    found[cls.name] = (what, sub.lineno)
                    break
    for cls in classes.values():  # a subclass without its own __init__ runs its base's
        if cls.name not in found and not any(isinstance(m, ast.FunctionDef) and m.name == "__init__"
                                             for m in cls.body):
            base = next((b.id for b in cls.bases if isinstance(b, ast.Name) and b.id in found), None)
            if base is not None:
                found[cls.name] = found[base]
    return found
