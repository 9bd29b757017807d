"""XLA502: model or optimizer created outside ``strategy.scope()`` where a strategy is in use."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import TRANSFORMERS_OPTIMIZERS
from xlacheck.analysis.module_index import ModuleIndex, method_name
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_MODEL_CONSTRUCTORS = frozenset({
    "tf.keras.Sequential", "tf.keras.Model", "tf.keras.models.Sequential", "tf.keras.models.Model",
    "tf.keras.models.load_model", "tf.keras.models.clone_model", "tf.keras.saving.load_model",
}) | TRANSFORMERS_OPTIMIZERS
_CONSTRUCTOR_PREFIXES = ("tf.keras.optimizers.", "tf.keras.applications.")
_TRANSFORMERS_FACTORIES = ("from_pretrained", "from_config")


def _is_scope_with(node: ast.AST) -> bool:
    return isinstance(node, (ast.With, ast.AsyncWith)) and any(
        isinstance(item.context_expr, ast.Call) and method_name(item.context_expr) == "scope" for item in node.items)


class ModelCreatedOutsideStrategyScope(ModuleRule):
    """
    ## What it does
    In a file that creates a distribution strategy (`TPUStrategy`, `MirroredStrategy`, ...),
    flags Keras models, Hugging Face `TF*` models (`from_pretrained`/`from_config`/a model
    class of this file) and optimizers created outside `with strategy.scope():`, in a function
    (or the module) that itself creates the strategy or enters its scope. A call of a function
    of this file that creates a model counts as a creation, unless that function is only
    called inside a scope. Not flagged: a creation in one branch of an `if` whose other branch
    holds every strategy the function creates and every scope it enters (`if multi_gpu:
    strategy = MirroredStrategy() ... else: optimizer = Adam()`): that path has no strategy.

    ## Why is this bad?
    Variables belong to the strategy that was active when they were created. A model built
    outside the scope keeps ordinary single-device variables: on a TPU they live on the host
    CPU, `strategy.run` fails ("Trying to create optimizer slot variable under the scope for
    tf.distribute.TPUStrategy, which is different from the scope used for the original
    variable") or silently trains one unmirrored copy. The guide's checklist: create the model
    (and its optimizer) inside `strategy.scope()`.

    ## Example
    ```python
    strategy = tf.distribute.TPUStrategy(resolver)
    model = TFAutoModelForMaskedLM.from_config(config)
    with strategy.scope():
        model.compile(optimizer="adam")
    ```

    ## Use instead
    ```python
    strategy = tf.distribute.TPUStrategy(resolver)
    with strategy.scope():
        model = TFAutoModelForMaskedLM.from_config(config)
        model.compile(optimizer="adam")
    ```

    ## Fix safety
    No automatic fix: moving code into a `with` block changes indentation and may move other
    statements.
    """

    code = "XLA502"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = None
    name = "model-created-outside-strategy-scope"

    VALID = (
        Example("import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\nwith strategy.scope():\n"
                "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                "    optimizer = tf.keras.optimizers.Adam(1e-3)\n"),
        Example("import tensorflow as tf\ndef build():\n    return tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                "def main():\n    strategy = tf.distribute.MirroredStrategy()\n    with strategy.scope():\n"
                "        model = build()\n"),
        Example("import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"),
        # a preprocessing model that only the input pipeline runs (tf.data, on the host)
        Example("import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"
                "augmenter = tf.keras.Sequential([tf.keras.layers.RandomFlip('horizontal')])\n"
                "train_ds = train_ds.map(lambda x, y: (augmenter(x), y))\n"
                "with strategy.scope():\n    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"),
        # NVIDIA DeepLearningExamples UNet3P train.py (judged false, batch 10): the optimizer of the branch
        # without a strategy belongs to the default strategy, the one that path trains with
        Example("""
            import tensorflow as tf


            def main(multi_gpu, build):
                strategy = None
                if multi_gpu:
                    strategy = tf.distribute.MirroredStrategy()
                    with strategy.scope():
                        optimizer = tf.keras.optimizers.Adam(1e-3)
                        model = build()
                else:
                    optimizer = tf.keras.optimizers.Adam(1e-3)
                    model = build()
                model.compile(optimizer=optimizer, loss="mse")
                return model
        """),
        # only compiled and predicted with (fixed caption embeddings before the scope): never trained there
        Example("import tensorflow as tf\ndef main(texts):\n    strategy = tf.distribute.MirroredStrategy()\n"
                "    encoder = tf.keras.Sequential([tf.keras.layers.Dense(4)])\n"
                "    encoder.compile(optimizer='adam', loss='mse')\n    embeds = encoder.predict(texts)\n"
                "    with strategy.scope():\n        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                "    return model, embeds\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nfrom transformers import TFAutoModelForMaskedLM\n"
                "strategy = tf.distribute.TPUStrategy()\nmodel = TFAutoModelForMaskedLM.from_config(config)\n"
                "with strategy.scope():\n    model.compile(optimizer='adam')\n",
                expected=(
                    (4, 9, '`TFAutoModelForMaskedLM.from_config` created outside strategy.scope() in code that sets '
                           "up a distribution strategy: its variables are not created on the strategy's devices, so "
                           'training under the strategy fails or is not replicated; create it inside `with '
                           'strategy.scope():`'),
                )),
        Example("import tensorflow as tf\ndef build():\n    return tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                "def main():\n    strategy = tf.distribute.MirroredStrategy()\n    with strategy.scope():\n"
                "        model = build()\n    optimizer = tf.keras.optimizers.Adam(1e-3)\n",
                expected=(
                    (8, 17, '`tf.keras.optimizers.Adam` created outside strategy.scope() in code that sets up a '
                            "distribution strategy: its variables are not created on the strategy's devices, so "
                            'training under the strategy fails or is not replicated; create it inside `with '
                            'strategy.scope():`'),
                )),
        Example("import tensorflow as tf\ndef build():\n    return tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                "def main():\n    strategy = tf.distribute.MirroredStrategy()\n    model = build()\n",
                expected=(
                    (6, 13, '`build()` (it creates a model) created outside strategy.scope() in code that sets up a '
                            "distribution strategy: its variables are not created on the strategy's devices, so "
                            'training under the strategy fails or is not replicated; create it inside `with '
                            'strategy.scope():`'),
                )),
        # the strategy exists on both paths: the branch without a scope still creates its variables outside it
        Example("""
            import tensorflow as tf


            def main(multi_gpu):
                strategy = tf.distribute.MirroredStrategy()
                if multi_gpu:
                    with strategy.scope():
                        optimizer = tf.keras.optimizers.Adam(1e-3)
                else:
                    optimizer = tf.keras.optimizers.Adam(1e-3)
                return optimizer
        """, expected=(
            (10, 21, '`tf.keras.optimizers.Adam` created outside strategy.scope() in code that sets up a '
                     "distribution strategy: its variables are not created on the strategy's devices, so "
                     'training under the strategy fails or is not replicated; create it inside `with '
                     'strategy.scope():`'),
        )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not index.strategy_calls:
            return
        # scopes (function or module) where the author works with a strategy
        strategy_scopes = {id(index.function_of(c) or index.tree) for c in index.strategy_calls}
        for node in ast.walk(index.tree):
            if _is_scope_with(node):
                strategy_scopes.add(id(index.function_of(node) or index.tree))
        model_classes = {c.node.name for c in ctx.facts.classes if c.keras and any(
            "Model" in b or b.rsplit(".", 1)[-1].startswith("TF") for b in c.bases)}
        creations = [(call, what) for call, name in index.calls
                     if (what := self._creation(call, name, model_classes)) is not None]
        factories = self._factories(index, creations)
        for call, what in creations + [(c, f"`{n}()` (it creates a model)") for c, n in self._factory_calls(index, factories)]:
            if id(index.function_of(call) or index.tree) not in strategy_scopes:
                continue
            if any(_is_scope_with(a) for a in index.ancestors(call)):
                continue
            if _only_mapped_over_data(index, call):
                continue  # a preprocessing model of the input pipeline: it runs on the host, not under the strategy
            if _only_run_for_inference(index, call):
                continue  # never trained: nothing needs its variables on the strategy's devices
            if _strategy_only_in_other_branch(index, call):
                continue
            ctx.report(self, call, f"{what} created outside strategy.scope() in code that sets up a distribution "
                                   "strategy: its variables are not created on the strategy's devices, so training "
                                   "under the strategy fails or is not replicated; create it inside "
                                   "`with strategy.scope():`")

    @staticmethod
    def _creation(call: ast.Call, name: str | None, model_classes: set[str]) -> str | None:
        if name is not None:
            last = name.rsplit(".", 1)[-1]
            if name in _MODEL_CONSTRUCTORS or (name.startswith(_CONSTRUCTOR_PREFIXES) and last[:1].isupper()
                                               and ".schedules." not in name):  # schedules hold no variables
                return f"`{name}`"
            if name.startswith("transformers.") and last in _TRANSFORMERS_FACTORIES:
                owner = name.split(".")[-2]
                if owner.startswith("TF"):
                    return f"`{owner}.{last}`"
        if isinstance(call.func, ast.Name) and call.func.id in model_classes:
            return f"model `{call.func.id}`"
        return None

    @staticmethod
    def _factories(index: ModuleIndex, creations: list[tuple[ast.Call, str]]) -> set[str]:
        """Functions of this file that create a model and are not only called inside a scope."""
        names: set[str] = set()
        for call, _ in creations:
            func = index.function_of(call)
            if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and not any(
                    _is_scope_with(a) for a in index.ancestors(call)):
                names.add(func.name)
        return names

    @staticmethod
    def _factory_calls(index: ModuleIndex, factories: set[str]) -> list[tuple[ast.Call, str]]:
        return [(call, call.func.id) for call, _ in index.calls
                if isinstance(call.func, ast.Name) and call.func.id in factories]


def _branch_of(index: ModuleIndex, node: ast.AST, if_node: ast.If) -> str | None:
    """Which part of ``if_node`` holds ``node``: ``"body"``, ``"orelse"``, or None (its test, or
    outside it)."""
    child: ast.AST = node
    for anc in index.ancestors(node):
        if anc is if_node:
            if any(child is stmt for stmt in if_node.body):
                return "body"
            if any(child is stmt for stmt in if_node.orelse):
                return "orelse"
            return None
        child = anc
    return None


def _strategy_only_in_other_branch(index: ModuleIndex, call: ast.Call) -> bool:
    """Every strategy its function (or the module) creates, and every ``with ....scope():`` it enters,
    is in the other branch of an ``if`` that holds ``call``: the branches of an ``if`` are exclusive,
    so on the path that creates this model no strategy of this code exists (NVIDIA's UNet3P
    ``train.py``: ``strategy = None; if cfg.USE_MULTI_GPUS.VALUE: strategy = MirroredStrategy() ...
    with strategy.scope(): optimizer = Adam() ... else: optimizer = Adam()``), and variables created
    there belong to the default strategy, which is the one this path trains with."""
    scope = index.function_of(call) or index.tree
    uses: list[ast.AST] = [c for c in index.strategy_calls if (index.function_of(c) or index.tree) is scope]
    uses += [n for n in ast.walk(scope) if _is_scope_with(n) and (index.function_of(n) or index.tree) is scope]
    ifs = [a for a in index.ancestors(call) if isinstance(a, ast.If)]
    if not uses or not ifs:
        return False
    for use in uses:
        if not any((here := _branch_of(index, call, i)) is not None
                   and _branch_of(index, use, i) not in (None, here) for i in ifs):
            return False
    return True


def _reads_of_created(index: ModuleIndex, call: ast.Call) -> list[ast.Name]:
    """The reads of ``name`` in the file where the creation is ``name = <call>`` (else none)."""
    parent = index.parent(call)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return []
    return index.loads_of(parent.targets[0].id, index.tree)


def _only_mapped_over_data(index: ModuleIndex, call: ast.Call) -> bool:
    """``name = <creation>`` where every read of ``name`` is in the arguments of a ``.map(...)``
    call (``train_ds.map(augmenter)``, ``ds.map(lambda x: augmenter(x))``): a model that tf.data
    runs in the input pipeline on the host, whose (random-state) variables the strategy never
    trains; creating it outside the scope is right (keras-cv's RetinaNet training example)."""
    loads = _reads_of_created(index, call)
    if not loads:
        return False
    for load in loads:
        mapped = False
        node: ast.AST = load
        for anc in index.ancestors(load):
            if isinstance(anc, ast.Call) and method_name(anc) == "map" and node is not anc.func:
                mapped = True
                break
            if isinstance(anc, ast.stmt):
                break
            node = anc
        if not mapped:
            return False
    return True


# Model methods that set a model up or run it for inference, never train it
_INFERENCE_METHODS = frozenset({"compile", "predict", "predict_on_batch", "summary", "load_weights"})


def _only_run_for_inference(index: ModuleIndex, call: ast.Call) -> bool:
    """``name = <creation>`` where every read of ``name`` (one at least) calls a set-up or inference method
    on it (``text_model.compile(...)`` outside the scope, ``text_model.predict(captions)``): a model that is
    never fit and never handed on, so the strategy never trains it (neural-structured-learning's meo
    multiple_decoders.py embeds fixed captions with a TF-Hub text encoder once, before the scope)."""
    loads = _reads_of_created(index, call)
    return bool(loads) and all(
        isinstance(attr := index.parent(load), ast.Attribute) and attr.attr in _INFERENCE_METHODS
        and isinstance(used := index.parent(attr), ast.Call) and used.func is attr
        # compiled inside the scope: set up to train under the strategy (the optimizer is the strategy's)
        and not (attr.attr == "compile" and any(_is_scope_with(a) for a in index.ancestors(load)))
        for load in loads)
