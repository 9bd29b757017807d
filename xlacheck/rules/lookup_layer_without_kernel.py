"""XLA311: Keras layers, lookup tables and random generators, built once, whose call has no XLA kernel."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.imports import same_object
from xlacheck.analysis.objects import (
    DATASET,
    ITERATOR,
    KERAS,
    BuiltObject,
    built_object,
    constructor,
    model_layers,
    object_class,
)
from xlacheck.analysis.scopes import BuiltValues, bound_names, built_values, iterated_elements
from xlacheck.analysis.tables import CALL_METHODS
from xlacheck.rules.base import Example, Rule, RuleContext
from xlacheck.rules.op_without_xla_kernel import unsupported_ops

# Not a kernel question, so not in the op table: the layer compiles only by value specialization.
_VALUE_SPECIALIZED = {
    "CategoryEncoding": "it counts with tf.math.bincount, which compiles only with the input values baked in "
                        "(recompiles per value, fails with TensorSpecs)",
}


def _named_receiver(f: ast.expr, ctx: RuleContext) -> tuple[str, str] | None:
    """(name, method) for ``name(x)`` (method "") or ``name.method(x)`` in code that XLA compiles for
    sure or a Keras method (a plain ``tf.function`` calling a module-level vocabulary is usually
    input-pipeline code); None otherwise."""
    if ctx.function.level not in (Level.CERTAIN, Level.LIKELY):
        return None
    if isinstance(f, ast.Name):
        return f.id, ""
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f.value.id, f.attr
    return None


def _iterator_argument(arg: ast.expr, ctx: RuleContext) -> bool:
    """``arg`` is a parameter of a function decorated or wrapped with ``jit_compile=True`` (not only
    declared jit-compiled) that the function never rebinds: ``next(arg)`` there reads whatever the
    caller passed, a ``tf.data`` iterator (``IteratorGetNext``, no XLA kernel: compilation fails) or
    a Python iterator (read once at trace time), never a batch of the step."""
    fn = ctx.function
    if not isinstance(arg, ast.Name) or fn.level is not Level.CERTAIN or not (fn.tf_function_entry and fn.jit_entry) \
            or not isinstance(fn.node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    a = fn.node.args
    if arg.id not in {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}:
        return False
    return not any(isinstance(n, ast.Name) and n.id == arg.id and isinstance(n.ctx, ast.Store)
                   for n in ast.walk(fn.node))


def _module_instance(f: ast.expr, ctx: RuleContext) -> tuple[str, str, ast.expr] | None:
    """(label, method, value) for ``name(x)`` or ``name.method(x)`` where ``name`` is bound at
    module level (and not in this function: a parameter or a local assignment shadows it)
    (:func:`_named_receiver`)."""
    receiver = _named_receiver(f, ctx)
    if receiver is None:
        return None
    name, method = receiver
    if name not in ctx.module_values or name in bound_names(ctx.function.node):
        return None
    return (f"{name}.{method}" if method else name), method, ast.Name(id=name, ctx=ast.Load())


def _local_instance(f: ast.expr, ctx: RuleContext) -> tuple[str, str, ast.expr, BuiltValues] | None:
    """(label, method, value, scope) for ``name.method(x)`` (or ``name(x)``) where this compiled
    function binds ``name`` once to an object it builds there that is not a Keras object (a layer
    built inside the step is XLA405's finding) nor a dataset, and whose construction creates no op
    without a kernel (XLA309 reports those constructors): ``op = tf.linalg.LinearOperatorFullMatrix(m)``."""
    receiver = _named_receiver(f, ctx)
    if receiver is None:
        return None
    name, method = receiver
    scope = built_values(ctx.function.node)
    value = scope.values.get(name)
    found = constructor(value, ctx.objects, scope)
    if value is None or found is None or found[0].startswith(KERAS) or found[0] == DATASET or \
            unsupported_ops(found[0], found[1]):
        return None
    return (f"{name}.{method}" if method else name), method, value, scope


class LookupLayerWithoutKernel(Rule):
    """
    ## What it does
    Flags calls, in compiled code, to `self.<attr>` objects built in `__init__`/`build` (or
    built once at module level and stored there: `self.vectorize = vectorize`), and to objects
    built at module level and called by name (`hash_ids(x)`, `table.lookup(x)`) in a
    jit-compiled function or a Keras method, from a
    Keras layer or `tf.lookup` table whose call creates ops without an XLA kernel, according to
    the op table (`Hashing`, `StringLookup`, `IntegerLookup`, `TextVectorization`,
    `RandomRotation`, `Resizing(interpolation="bicubic")`, `StaticHashTable.lookup`,
    `tf.random.Generator.binomial`, ...), and to `CategoryEncoding` layers. Also such a layer
    inside a model called there (an element of a `Sequential` list, a layer a functional `Model`
    applies on the way to its outputs), each layer of a literal list a method loops over
    (`for aug in self.augs: x = aug(x)`), the base layer's call that a subclass reaches with
    `super().call(...)`, and objects built by a `from_*` classmethod (`Generator.from_seed`).

    What an object is comes from `xlacheck/analysis/objects.py`: a model returned by a builder
    function of the file (`model = build_model()`), layers added with `model.add(layer)` or
    appended to a list, `x = layer(x)` chains of a functional model, a model held by a model. Beyond
    Keras, any class whose methods the op table probes (generated from the framework: every
    `tf.linalg.LinearOperator*` class, `tf.queue` queues, a `tf.data` iterator): an object built
    once or in the compiled function itself (`op = tf.linalg.LinearOperatorFullMatrix(m)`,
    `op.determinant()`: `MatrixDeterminant`), `next(it)` of `it = iter(dataset)`
    (`IteratorGetNext`) or of an iterator that a `jit_compile=True` function receives as an argument
    (a tf.data iterator fails to compile, a Python one is read once at trace time), and a `for` loop
    over a `tf.data` dataset built once (`ReduceDataset`). A
    class of the file that derives from a layer and keeps its call (`class Augment(RandomZoom)`
    with only an `__init__`) is that layer.

    ## Why is this bad?
    Lookup tables (`LookupTableFindV2`), string hashing and some image ops have no XLA kernel:
    the model does not compile under `jit_compile=True` or on a TPU. `CategoryEncoding` counts
    with `tf.math.bincount`, which XLA compiles only by baking in the input values.

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
    fix = None
    name = "lookup-layer-without-kernel"
    node_types = (ast.Call, ast.For)

    VALID = (
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.embed = tf.keras.layers.Embedding(16, 4)\n    def call(self, ids):\n"
                "        return self.embed(ids)\n"),
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.resize = tf.keras.layers.Resizing(8, 8, interpolation='bilinear')\n"
                "    def call(self, x):\n        return self.resize(x)\n"),
        # the op table's sweep: an LSTM's graph holds CudnnRNNV3 only in a library function that
        # XLA:CPU never calls (the compiler compiles it), so its entry lists no op without a kernel
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.rnn = tf.keras.layers.LSTM(8)\n    def call(self, x):\n        return self.rnn(x)\n"),
        Example("import tensorflow as tf\nembed = tf.keras.layers.Embedding(16, 4)\nclass M(tf.keras.Model):\n"
                "    def __init__(self):\n        super().__init__()\n        self.embed = embed\n"
                "    def call(self, ids):\n        return self.embed(ids)\n"),
        # a parameter of the same name is not the module-level layer
        Example("import tensorflow as tf\nhash_ids = tf.keras.layers.Hashing(num_bins=16)\n"
                "@tf.function(jit_compile=True)\ndef f(ids, hash_ids):\n    return hash_ids(ids)\n"),
        # a plain tf.function calling a module-level layer: input-pipeline code (dataset.map)
        Example("import tensorflow as tf\nhash_ids = tf.keras.layers.Hashing(num_bins=16)\n"
                "@tf.function\ndef preprocess(ids):\n    return hash_ids(ids)\n"),
        # layers whose call compiles, in a Sequential list; a generator method that compiles
        Example("import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Rescaling(0.5)])\n"
                "gen = tf.random.Generator.from_seed(1)\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return model(x) + gen.uniform([2])\n"),
        # linear-operator methods that compile (a triangular operator's determinant is its diagonal's product)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(m, v):\n"
                "    op = tf.linalg.LinearOperatorFullMatrix(m)\n"
                "    return op.matvec(v) + tf.linalg.LinearOperatorLowerTriangular(m).log_abs_determinant()\n"),
        # next() of a Python iterator runs at trace time
        Example("import tensorflow as tf\nbatches = iter([tf.ones([2])] * 4)\n"
                "@tf.function(jit_compile=True)\ndef f(w):\n    return tf.reduce_sum(next(batches) * w)\n"),
        # the host loop of a plain tf.function reads the iterator; only the step it calls is compiled
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, w):\n"
                "    return tf.reduce_sum(x * w)\n@tf.function\ndef train_loop(iterator, w):\n"
                "    return step(next(iterator), w)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.hash = tf.keras.layers.Hashing(num_bins=16)\n"
                "        self.embed = tf.keras.layers.Embedding(16, 4)\n"
                "    def call(self, ids):\n        return self.embed(self.hash(ids))\n",
                expected=(
                    (8, 27, 'self.hash is a Hashing: calling it creates ops with no XLA kernel '
                            '(StringToHashBucketFast), so compilation fails; apply it in the input pipeline and feed '
                            'the model its outputs'),
                )),
        Example("import tensorflow as tf\nclass E(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        init = tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2]), tf.constant([0, 1]))\n"
                "        self.table = tf.lookup.StaticHashTable(init, default_value=2)\n"
                "    def call(self, ids):\n        return self.table.lookup(ids)\n",
                expected=(
                    (8, 16, 'self.table is a StaticHashTable: calling it creates ops with no XLA kernel '
                            '(LookupTableFindV2), so compilation fails; apply it in the input pipeline and feed the '
                            'model its outputs'),
                )),
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.counts = tf.keras.layers.CategoryEncoding(num_tokens=4, output_mode='count')\n"
                "    def call(self, ids):\n        return self.counts(ids)\n",
                expected=(
                    (7, 16, 'self.counts is a CategoryEncoding: it counts with tf.math.bincount, which compiles only '
                            'with the input values baked in (recompiles per value, fails with TensorSpecs); apply it '
                            'in the input pipeline instead'),
                )),
        Example("import tensorflow as tf\nvectorize = tf.keras.layers.TextVectorization(max_tokens=20)\n"
                "class M(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
                "        self.vectorize = vectorize\n    def call(self, text):\n        return self.vectorize(text)\n",
                expected=(
                    (8, 16, 'self.vectorize is a TextVectorization: calling it creates ops with no XLA kernel '
                            '(LookupTableFindV2, RaggedTensorToTensor, StaticRegexReplace, StringLower, '
                            'StringSplitV2), so compilation fails; apply it in the input pipeline and feed the model '
                            'its outputs'),
                )),
        # built once at module level and called by name in a jit-compiled function
        Example("import tensorflow as tf\nhash_ids = tf.keras.layers.Hashing(num_bins=16)\n"
                "@tf.function(jit_compile=True)\ndef f(ids):\n    return hash_ids(ids)\n",
                expected=(
                    (5, 12, 'hash_ids is a Hashing: calling it creates ops with no XLA kernel '
                            '(StringToHashBucketFast), so compilation fails; apply it in the input pipeline and feed '
                            'the model its outputs'),
                )),
        # a layer inside a Sequential model called in a jit-compiled function
        Example("import tensorflow as tf\n"
                "model = tf.keras.Sequential([tf.keras.layers.RandomRotation(0.2), tf.keras.layers.Dense(4)])\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return model(x, training=True)\n",
                expected=(
                    (5, 12, 'model (a Sequential) holds a layer that is a RandomRotation: calling it creates ops '
                            'with no XLA '
                            'kernel (ImageProjectiveTransformV3), so compilation fails; apply it in the input '
                            'pipeline and '
                            'feed the model its outputs'),
                )),
        # layers of a list the model loops over
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.augs = [tf.keras.layers.RandomZoom(0.1), tf.keras.layers.Rescaling(2.0)]\n"
                "    def call(self, x):\n        for aug in self.augs:\n            x = aug(x, training=True)\n"
                "        return x\n",
                expected=(
                    (8, 17, 'aug is a RandomZoom: calling it creates ops with no XLA kernel '
                            '(ImageProjectiveTransformV3), so '
                            'compilation fails; apply it in the input pipeline and feed the model its outputs'),
                )),
        # a subclass of the layer calling super().call
        Example("import tensorflow as tf\nclass Augment(tf.keras.layers.RandomRotation):\n"
                "    def call(self, x, training=True):\n        return super().call(x, training=True)\n",
                expected=(
                    (4, 16, 'the base class is a RandomRotation: calling it creates ops with no XLA kernel '
                            '(ImageProjectiveTransformV3), so compilation fails; apply it in the input pipeline and '
                            'feed the '
                            'model its outputs'),
                )),
        # a tf.random.Generator built by its from_seed classmethod
        Example("import tensorflow as tf\ngen = tf.random.Generator.from_seed(1)\n@tf.function(jit_compile=True)\n"
                "def f(x):\n    return x + gen.binomial([2], counts=[4.0, 4.0], probs=[0.5, 0.5])\n",
                expected=(
                    (5, 16, 'gen.binomial is a Generator: calling it creates ops with no XLA kernel '
                            '(StatefulRandomBinomial),'
                            ' so compilation fails; apply it in the input pipeline and feed the model its outputs'),
                )),
        # a Sequential a builder function fills with model.add
        Example("import tensorflow as tf\ndef build():\n    model = tf.keras.Sequential()\n"
                "    model.add(tf.keras.layers.RandomRotation(0.2))\n    return model\nmodel = build()\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return model(x, training=True)\n",
                expected=(
                    (9, 12, 'model (a Sequential) holds a layer that is a RandomRotation: calling it creates ops with '
                            'no XLA kernel (ImageProjectiveTransformV3), so compilation fails; apply it in the input '
                            'pipeline and feed the model its outputs'),
                )),
        # a linear operator the compiled function builds (the op table's generated method probes)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(m):\n"
                "    op = tf.linalg.LinearOperatorFullMatrix(m)\n    return op.determinant()\n",
                expected=(
                    (5, 12, 'op.determinant is a LinearOperatorFullMatrix: calling it creates ops with no XLA kernel '
                            '(MatrixDeterminant), so compilation fails; compute it outside the compiled function'),
                )),
        # next() of a tf.data iterator made once
        Example("import tensorflow as tf\n"
                "batches = iter(tf.data.Dataset.from_tensor_slices(tf.ones([8, 2])).batch(2))\n"
                "@tf.function(jit_compile=True)\ndef f(w):\n    return tf.reduce_sum(next(batches) * w)\n",
                expected=(
                    (5, 26, 'next(batches) reads a tf.data iterator inside compiled code: its ops have no XLA kernel '
                            '(IteratorGetNext), so compilation fails; call next() outside the compiled function and '
                            'pass it the batch'),
                )),
        Example("import tensorflow as tf\nqueue = tf.queue.FIFOQueue(4, tf.float32, shapes=[[2]])\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    queue.enqueue(x)\n    return x\n",
                expected=(
                    (5, 5, 'queue.enqueue is a FIFOQueue: calling it creates ops with no XLA kernel (QueueEnqueueV2), '
                           'so compilation fails; compute it outside the compiled function'),
                )),
        # a for loop over a dataset built once: AutoGraph runs it with dataset ops
        Example("import tensorflow as tf\nval_ds = tf.data.Dataset.from_tensor_slices(tf.ones([8, 2])).batch(2)\n"
                "@tf.function(jit_compile=True)\ndef evaluate(w):\n    total = tf.constant(0.0)\n"
                "    for x in val_ds:\n        total += tf.reduce_sum(x * w)\n    return total\n",
                expected=(
                    (6, 14, 'looping over val_ds runs a tf.data pipeline inside compiled code: its ops have no XLA '
                            'kernel (ReduceDataset, ScanDataset), so compilation fails; iterate the dataset outside '
                            'the compiled function and pass it each batch'),
                )),
        # a subclass that keeps the layer's call
        Example("import tensorflow as tf\nclass Augment(tf.keras.layers.RandomZoom):\n    def __init__(self):\n"
                "        super().__init__(0.1)\nclass Net(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n        self.aug = Augment()\n    def call(self, x):\n"
                "        return self.aug(x, training=True)\n",
                expected=(
                    (10, 16, 'self.aug is a RandomZoom: calling it creates ops with no XLA kernel '
                             '(ImageProjectiveTransformV3), so compilation fails; apply it in the input pipeline and '
                             'feed the model its outputs'),
                )),
        # next() of an iterator the jit-compiled step receives as an argument
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef train_step(iterator, w):\n"
                "    x = next(iterator)\n    return tf.reduce_sum(x * w)\n",
                expected=(
                    (4, 9, 'next(iterator) reads an iterator passed to compiled code: a tf.data iterator\'s ops have '
                           'no XLA kernel (IteratorGetNext), so compilation fails, and a Python iterator is read once, '
                           'when the function is traced; call next() outside the compiled function and pass it the '
                           'batch'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if isinstance(node, ast.For):  # for batch in ds: AutoGraph loops over the dataset with its own ops
            if isinstance(node.iter, ast.Name | ast.Attribute):
                loop = ast.copy_location(ast.Call(func=ast.Attribute(value=node.iter, attr="__iter__", ctx=ast.Load()),
                                                  args=[], keywords=[]), node.iter)
                ast.copy_location(loop.func, node.iter)
                loop.end_lineno, loop.end_col_offset = node.iter.end_lineno, node.iter.end_col_offset
                self.check(loop, ctx)
            return
        assert isinstance(node, ast.Call)
        f = node.func
        if isinstance(f, ast.Name) and f.id == "next" and len(node.args) == 1 and ctx.resolve(f) is None:
            if _iterator_argument(node.args[0], ctx):
                ops = unsupported_ops(f"{ITERATOR}.__next__", node)
                if ops:
                    name = ast.unparse(node.args[0])
                    ctx.report(self, node,
                               f"next({name}) reads an iterator passed to compiled code: a tf.data iterator's ops "
                               f"have no XLA kernel ({', '.join(ops)}), so compilation fails, and a Python iterator "
                               "is read once, when the function is traced; call next() outside the compiled "
                               "function and pass it the batch")
                return
            f = ast.Attribute(value=node.args[0], attr="__next__", ctx=ast.Load())  # next(it): it.__next__()
        built: ast.expr | None
        scope: BuiltValues | None = None
        module_level = _module_instance(f, ctx)
        local = _local_instance(f, ctx)
        if module_level is not None:  # hash_ids(x), table.lookup(x): built once at module level
            label, method, built = module_level
        elif local is not None:  # op = tf.linalg.LinearOperatorFullMatrix(m); op.determinant()
            label, method, built, scope = local
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call) and \
                ctx.function.level in (Level.CERTAIN, Level.LIKELY) and \
                not (isinstance(f.value.func, ast.Name) and f.value.func.id == "super"):
            # tf.linalg.LinearOperatorFullMatrix(m).determinant(): an object's method on the spot
            found = constructor(f.value, ctx.objects)
            if found is not None and not found[0].startswith(KERAS) and found[0] != DATASET and \
                    not unsupported_ops(*found):
                self._report_found(node, f"{found[0].rsplit('.', 1)[-1]}(...).{f.attr}", f.attr,
                                   BuiltObject(*found, None, None), ctx)
            return
        else:
            cls = ctx.values.cls
            if isinstance(f, ast.Name) and ctx.function.level in (Level.CERTAIN, Level.LIKELY):
                # for layer in self.blocks: x = layer(x), each built in __init__ (or a literal list)
                for element in iterated_elements(f.id, ctx.function.node, ctx.module_values,
                                                 cls.attrs if cls is not None else None):
                    self._report_built(node, f.id, "", element, ctx)
                return
            if cls is None or not isinstance(f, ast.Attribute):
                return
            if f.attr in CALL_METHODS and isinstance(f.value, ast.Call) and \
                    isinstance(f.value.func, ast.Name) and f.value.func.id == "super":
                # class Augment(tf.keras.layers.RandomRotation): ... super().call(x): the base layer's call
                for base in cls.bases:
                    if object_class(same_object(base)):
                        self._report_found(node, "the base class", "", BuiltObject(same_object(base), node, None, None),
                                           ctx)
                return
            if isinstance(f.value, ast.Name) and f.value.id == "self":
                attr, method = f.attr, ""  # self.layer(x)
            elif isinstance(f.value, ast.Attribute) and isinstance(f.value.value, ast.Name) \
                    and f.value.value.id == "self":
                attr, method = f.value.attr, f.attr  # self.table.lookup(x)
            else:
                return
            label = f"self.{attr}"
            built = cls.attrs.get(attr)
        self._report_built(node, label, method, built, ctx, scope)

    def _report_built(self, node: ast.Call, label: str, method: str, built: ast.expr | None, ctx: RuleContext,
                      scope: BuiltValues | None = None, holder: str = "", seen: set[int] | None = None) -> None:
        """Report ``node``, a call of ``label`` (or of its ``method``), when ``built`` (the value the object
        was built from, read in ``scope``) makes an object whose call creates ops without a kernel; a
        model's own layers (a Sequential list, a functional model's layers, and theirs when a layer is
        a model) are looked into, each once (``holder``: the outermost model's class)."""
        found = built_object(built, ctx.objects, scope)
        if found is not None:
            self._report_found(node, label, method, found, ctx, holder, seen)

    def _report_found(self, node: ast.Call, label: str, method: str, found: BuiltObject, ctx: RuleContext,
                      holder: str = "", seen: set[int] | None = None) -> None:
        if not method:
            seen = seen if seen is not None else {id(found.call)}
            for layer, where in model_layers(found, ctx.objects):
                if id(layer) not in seen:
                    seen.add(id(layer))
                    self._report_built(node, label, method, layer, ctx, where,
                                       holder=holder or found.cls.rsplit(".", 1)[-1], seen=seen)
        name, ctor = found.cls, found.call
        if holder:
            label = f"{label} (a {holder}) holds a layer that"
        kind = name.rsplit(".", 1)[-1]
        if not method and kind in _VALUE_SPECIALIZED:
            ctx.report(self, node, f"{label} is a {kind}: {_VALUE_SPECIALIZED[kind]}; apply it in the input "
                                   "pipeline instead")
            return
        ops = unsupported_ops(f"{name}.{method}" if method else name, ctor)
        if not ops:
            return
        if name == DATASET:
            owner = label.rsplit(".", 1)[0]
            what = f"looping over {owner}" if method == "__iter__" else f"{label}()"
            ctx.report(self, node,
                       f"{what} runs a tf.data pipeline inside compiled code: its ops have no XLA kernel "
                       f"({', '.join(ops)}), so compilation fails; iterate the dataset outside the compiled "
                       "function and pass it each batch")
            return
        if name == ITERATOR:
            owner = label.rsplit(".", 1)[0]
            ctx.report(self, node,
                       f"{'next(' + owner + ')' if method == '__next__' else label} reads a tf.data iterator inside "
                       f"compiled code: its ops have no XLA kernel ({', '.join(ops)}), so compilation fails; call "
                       "next() outside the compiled function and pass it the batch")
            return
        advice = ("apply it in the input pipeline and feed the model its outputs"
                  if name.startswith((KERAS, "tf.lookup.", "tf.random."))
                  else "compute it outside the compiled function")
        article = "an" if kind[:1] in "AEIOU" else "a"
        ctx.report(self, node,
                   f"{label} is {article} {kind}: calling it creates ops with no XLA kernel ({', '.join(ops)}), so "
                   f"compilation fails; {advice}")
