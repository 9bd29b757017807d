"""XLA408: a ``jit_compile=True`` function declared to take inputs of varying shape."""

from __future__ import annotations

import ast

from xlacheck import retrace_table
from xlacheck.analysis.module_index import ModuleIndex, TfFunction, is_tokenizer, is_true, keyword
from xlacheck.analysis.per_step import per_batch
from xlacheck.analysis.scopes import target_names
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    dataset_batching,
    in_test,
    loop_grown_arguments,
    loop_varying_names,
    padding_kind,
    pads_to_longest,
    params_varied_by_callers,
)
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_SPECS = frozenset({"tf.TensorSpec", "tf.RaggedTensorSpec", "tf.SparseTensorSpec"})
_SHAPES = frozenset({"tf.TensorShape"})
_RELAX = ("reduce_retracing", "experimental_relax_shapes")
# Calls whose result has the shape the caller chose: a function fed only these compiles once per
# chosen shape, whatever its signature says.
_FIXED_SHAPE_CALLS = frozenset({"tf.pad", "tf.ensure_shape", "tf.keras.preprocessing.sequence.pad_sequences",
                                "tf.keras.utils.pad_sequences", "keras.preprocessing.sequence.pad_sequences",
                                "keras.utils.pad_sequences", "tf.zeros", "tf.ones", "tf.fill"})
# Of those, the fills: their shape is their shape argument, which may itself change per iteration.
_FILLS = frozenset({"tf.zeros", "tf.ones", "tf.fill"})
_DEPTH = 6


class _Resolver:
    """Follows a signature to its ``TensorSpec``s however it is spelled: inline, a name bound in
    the function or at module level, ``self.X``/``Cls.X`` set in the class, or a helper of this
    file that returns the specs; and a spec's shape through names, ``tf.TensorShape``, ``+`` and
    ``[None] * n``."""

    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx
        self.index = ctx.index
        self.resolve = ctx.facts.aliases.resolve
        self._defs = {n.name: n for n in ctx.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def values(self, node: ast.expr, depth: int) -> list[ast.expr]:
        """What ``node`` may hold: itself, or the values bound to the name/attribute it reads."""
        if depth > _DEPTH:
            return []
        if isinstance(node, ast.Name):
            bound = self.index.local_binding(node.id, node) or self.index.module_constant(node)
            return self.values(bound, depth + 1) if bound is not None else []
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return [found for v in self._attribute_values(node) for found in self.values(v, depth + 1)]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self._defs:
            helper = self._defs[node.func.id]
            returns = [r.value for r in self.index.scope_nodes(helper)
                       if isinstance(r, ast.Return) and r.value is not None]
            return [v for r in returns for v in self.values(r, depth + 1)]
        return [node]

    def _attribute_values(self, node: ast.Attribute) -> list[ast.expr]:
        """``self.X`` / ``Cls.X``: the values assigned to ``X`` in a class body or through ``self.X = ...``."""
        out: list[ast.expr] = []
        for cls in (n for n in self.ctx.tree.body if isinstance(n, ast.ClassDef)):
            for stmt in ast.walk(cls):
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                    t = stmt.targets[0]
                    if (isinstance(t, ast.Name) and t.id == node.attr and self.index.parent(stmt) is cls) or (
                            isinstance(t, ast.Attribute) and t.attr == node.attr and isinstance(t.value, ast.Name)
                            and t.value.id == "self"):
                        out.append(stmt.value)
        return out

    def spec_with_unknown_dims(self, node: ast.expr, depth: int = 0, *, length: bool = False) -> ast.Call | None:
        """The first ``tf.TensorSpec`` reachable from ``node`` whose shape has a ``None``
        dimension (or whose rank is unknown); with ``length``, one whose ``None`` dimension is not
        the leading (batch) one: a declared sequence length (``TensorSpec([None, None])``,
        ``[1, None]``), not only a batch size."""
        if depth > _DEPTH:
            return None
        for value in self.values(node, depth):
            for sub in ast.walk(value):
                if isinstance(sub, ast.Call) and self.resolve(sub.func) in _SPECS:
                    kw = keyword(sub, "shape")
                    shape = kw.value if kw is not None else (sub.args[0] if sub.args else None)
                    if shape is None and not length or shape is not None and self.unknown_dims(
                            shape, depth + 1, after_leading=length):
                        return sub
                elif isinstance(sub, (ast.Name, ast.Attribute)) and sub is not value \
                        and isinstance(getattr(sub, "ctx", None), ast.Load) \
                        and not isinstance(self.index.parent(sub), (ast.Call, ast.Attribute)):
                    # [SPEC, ...]: a spec bound elsewhere
                    found = self.spec_with_unknown_dims(sub, depth + 1, length=length)
                    if found is not None:
                        return found
                elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in self._defs \
                        and sub is not value:
                    found = self.spec_with_unknown_dims(sub, depth + 1, length=length)
                    if found is not None:
                        return found
        return None

    def unknown_dims(self, shape: ast.expr, depth: int, *, after_leading: bool = False) -> bool:
        """A shape expression with a ``None`` dimension, or ``None`` itself (unknown rank); with
        ``after_leading``, a ``None`` at a known position past the first (unknown rank and
        ``[None] * rank`` of unknown ``rank`` do not count)."""
        if depth > _DEPTH:
            return False
        if isinstance(shape, ast.Constant):
            return shape.value is None and not after_leading
        if isinstance(shape, (ast.List, ast.Tuple)):
            dims = shape.elts[1:] if after_leading else shape.elts
            return any(isinstance(d, ast.Constant) and d.value is None for d in dims)
        if isinstance(shape, ast.BinOp) and isinstance(shape.op, ast.Add):
            if after_leading:  # [B] + [None]: the right side starts past the first dimension when the left has one
                left_dims = shape.left.elts if isinstance(shape.left, (ast.List, ast.Tuple)) else None
                return self.unknown_dims(shape.left, depth + 1, after_leading=True) or bool(left_dims) and any(
                    self._holds_none(shape.right, depth + 1))
            return self.unknown_dims(shape.left, depth + 1) or self.unknown_dims(shape.right, depth + 1)
        if isinstance(shape, ast.BinOp) and isinstance(shape.op, ast.Mult):  # [None] * rank
            if after_leading:
                return any(isinstance(side, ast.Constant) and isinstance(side.value, int) and side.value >= 2
                           for side in (shape.left, shape.right)) and any(
                    isinstance(side, (ast.List, ast.Tuple)) and self.unknown_dims(side, depth + 1)
                    for side in (shape.left, shape.right))
            return any(isinstance(side, (ast.List, ast.Tuple)) and self.unknown_dims(side, depth + 1)
                       for side in (shape.left, shape.right))
        if isinstance(shape, ast.Call) and self.resolve(shape.func) in _SHAPES:
            return bool(shape.args) and self.unknown_dims(shape.args[0], depth + 1, after_leading=after_leading)
        if isinstance(shape, ast.Name):
            values = self.values(shape, depth + 1)
            return any(self.unknown_dims(v, depth + 1, after_leading=after_leading) for v in values if v is not shape)
        return False

    def _holds_none(self, shape: ast.expr, depth: int) -> list[bool]:
        """Whether a literal list/tuple of dimensions (or a name bound to one) holds a ``None``."""
        return [self.unknown_dims(shape, depth)] if isinstance(shape, (ast.List, ast.Tuple, ast.Name)) else []

    def fixed_shape(self, arg: ast.expr, depth: int = 0) -> bool:
        """The caller padded or pinned the argument's shape (``tf.pad``, ``pad_sequences`` with ``maxlen``,
        ``tf.ensure_shape``, a fill of a given shape, a tokenizer told how to pad: to
        ``max_length``, or to the longest, which XLA401 reports where it runs per batch), directly,
        through an item of the result (``enc["input_ids"]``) or through a local name."""
        if depth > _DEPTH:
            return False
        if isinstance(arg, ast.Constant):
            return True  # `training=False`: not a shaped input
        if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Constant) and isinstance(arg.slice.value, str):
            return self.fixed_shape(arg.value, depth + 1)  # enc["input_ids"]
        if isinstance(arg, ast.Call) and is_tokenizer(arg.func):
            kw = keyword(arg, "padding")
            return padding_kind(kw.value if kw is not None else None) in ("longest", "max_length")
        if isinstance(arg, ast.Call):
            func = self.resolve(arg.func)
            if func in _FILLS:
                return not self._moving_fill(arg)
            return func in _FIXED_SHAPE_CALLS and not pads_to_longest(self.index, arg)
        if isinstance(arg, ast.Name):
            bound = self.index.local_binding(arg.id, arg)
            return bound is not None and self.fixed_shape(bound, depth + 1)
        if isinstance(arg, ast.BinOp):
            # broadcasting a fixed shape with another fixed shape or a Python number keeps it fixed
            # (`tf.ones((4, 3)) * i`: the value changes per step, the shape does not)
            return (self.fixed_shape(arg.left, depth + 1) or self._python_number(arg.left)) \
                and (self.fixed_shape(arg.right, depth + 1) or self._python_number(arg.right)) \
                and not (self._python_number(arg.left) and self._python_number(arg.right))
        if isinstance(arg, ast.UnaryOp):
            return self.fixed_shape(arg.operand, depth + 1)
        return False

    def _python_number(self, node: ast.expr, depth: int = 0) -> bool:
        """A Python int or float: a number, a counter of a ``for ... in range(...)`` loop around it,
        a parameter that every call of its function in this file passes such a number
        (``run_step(i)`` in a ``range`` loop), or arithmetic on those: a 0-d operand, whose
        broadcast keeps the other operand's shape."""
        if depth > _DEPTH:
            return False
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
        if isinstance(node, ast.UnaryOp):
            return self._python_number(node.operand, depth + 1)
        if isinstance(node, ast.BinOp):
            return self._python_number(node.left, depth + 1) and self._python_number(node.right, depth + 1)
        if not isinstance(node, ast.Name):
            return False
        for loop in self.index.loops_around(node):
            if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name) \
                    and loop.target.id == node.id and isinstance(loop.iter, ast.Call) \
                    and isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "range":
                return True
        func = self.index.function_of(node)
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or self.index.local_binding(node.id, node) is not None:
            return False
        params = [a.arg for a in func.args.posonlyargs + func.args.args]
        if node.id not in params:
            return False
        position = params.index(node.id)
        passed = []
        for site, _ in self.index.calls:
            if not isinstance(site.func, ast.Name) or site.func.id != func.name:
                continue
            value = next((k.value for k in site.keywords if k.arg == node.id),
                         site.args[position] if position < len(site.args) else None)
            if value is None or any(isinstance(a, ast.Starred) for a in site.args[:position + 1]):
                return False
            passed.append(value)
        return bool(passed) and all(self._python_number(v, depth + 1) for v in passed)

    def _moving_fill(self, call: ast.Call) -> bool:
        """A fill whose shape argument names a value that changes per iteration: a counter of the
        loops around it, a name they derive from one, or a parameter that a caller in this file passes
        such a value (``tf.ones((i + 2, 3))`` in ``run_step(i)``). Its shape is new on every pass, and
        a ``None`` dimension in the signature does not stop XLA compiling each one (measured:
        ``tensor_shape_changes_input_signature_none`` in ``xlacheck/data/tf_retrace.json``, one trace
        and one XLA compilation per shape)."""
        shape = next((k.value for k in call.keywords if k.arg in ("shape", "dims")),
                     call.args[0] if call.args else None)
        if shape is None:
            return False
        varying = loop_varying_names(self.index, call) | set(
            params_varied_by_callers(self.index, self.ctx.path, call))
        return any(isinstance(n, ast.Name) and n.id in varying for n in ast.walk(shape))


class UnknownDimsInJitSignature(ModuleRule):
    """
    ## What it does
    Flags a `tf.function(jit_compile=True)` of this file that is declared to take varying
    shapes (its `input_signature` holds a `tf.TensorSpec` with a `None` dimension or no shape,
    or it sets `reduce_retracing=True` / `experimental_relax_shapes`) and that this file calls per
    batch: in a loop, or in a collator, generator or function it calls in a loop, with an
    argument it did not pad or pin (`tf.pad`, `pad_sequences` with a `maxlen`, `tf.ensure_shape`, a fill
    of a fixed shape: `tf.ones((i + 2, 3))` sized by the step counter, or by a parameter a caller passes
    it, is a new shape per step, and `pad_sequences` without `maxlen` pads each batch to its own longest
    sequence; a tokenizer told
    how to pad: to the longest, XLA401 reports it) and that may change shape between iterations:
    an argument the loop never rebinds (bound before it), or
    rebinds only from the function's own result (`x = step(x)`) or by arithmetic (`lr = lr * 0.9`),
    has one shape on every pass and compiles once (measured, `tensor_same_shape_input_signature_none`
    in `xlacheck/data/tf_retrace.json`), so such a call does not count. Nor does a call whose shapes
    another rule reports where they change (one fact, one finding): an argument that grows in the
    loop (XLA409), or a batch of a loop over a dataset that this file batches (`ds.batch(n)`: with
    `drop_remainder=True` it has one shape; without it, its last partial batch is XLA402's; padded to
    its longest element, XLA401's). The signature
    is followed however it is spelled: inline, a name bound in the function or at module level,
    `self.X`/`Cls.X`, a helper of this file returning the specs, and shapes built with
    `tf.TensorShape`, `+` or `[None] * n`. A jit function that this file calls, but never per
    batch, is not flagged: a function fed one padded shape compiles once (the compiler-labelled
    corpora have such negatives). With `--preview`, one that nothing in this file calls (a serving
    entry point, an encoder called from elsewhere) is flagged when its signature declares a `None`
    dimension past the leading one: a sequence length its author expects to vary, and XLA compiles
    once per distinct length (measured: `sequence_dim_changes_input_signature_none`,
    `sequence_dim_repeats_input_signature_none` in the table). Without a call site the file cannot
    tell it from a function fed a single length (compiler-labelled negatives of that form exist),
    hence the preview. A `None` batch dimension alone is not flagged there: batches share one size
    but the last, which XLA402 reports where it is made.

    ## Why is this bad?
    `None` dimensions and relaxed shapes stop *tracing* once per shape, but XLA compiles for
    concrete shapes only: the function is still compiled again for every new batch size or
    sequence length that arrives (measured: `input_signature` with `None` dims traces once and
    compiles 3 times for 3 shapes; `reduce_retracing=True` traces twice and compiles 4 times for
    4 shapes). The signature hides the recompiles instead of preventing them.

    ## Example
    ```python
    @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])
    def encode(ids):
        ...
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([32, 128], tf.int32)])
    def encode(ids):  # feed batches padded to a fixed (or bucketed) shape
        ...
    ```

    ## Fix safety
    No automatic fix: the fixed shapes depend on how the data is padded and batched.
    """

    code = "XLA408"
    fix = None
    name = "unknown-dims-in-jit-signature"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([32, 128], tf.int32)])\n"
                "def f(ids):\n    return ids + 1\ndef run(batches):\n    return [f(b) for b in batches]\n"),
        # nothing here calls it, and only the batch dimension is None
        Example("import tensorflow as tf\n"
                "@tf.function(jit_compile=True,\n"
                "             input_signature=[tf.TensorSpec(tf.TensorShape([None, 128]), tf.int32)])\n"
                "def serving(ids):\n    return ids + 1\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.float32)])\n"
                "def encode(x):\n    return tf.reduce_sum(x, axis=1)\n"
                "def encode_padded(x):\n    return encode(tf.pad(x, [[0, 0], [0, 8 - x.shape[1]]]))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 128], tf.int32)])\n"
                "def eval_step(ids):\n    return tf.reduce_sum(ids, axis=1)\n"),
        Example("import tensorflow as tf\n"
                "@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None], tf.float32)])\n"
                "def decay(x):\n    return x * 0.5\ndef run(x, n):\n    for _ in range(n):\n        x = decay(x)\n"
                "    return x\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, reduce_retracing=True)\n"
                "def scale(x, w):\n    return x * w\ndef run(x, w, n):\n    return [scale(x, w) for _ in range(n)]\n"),
        # one shape: every batch of a drop_remainder=True dataset has the same size
        Example("import tensorflow as tf\n"
                "@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 3], tf.float32)])\n"
                "def step(x):\n    return tf.reduce_sum(x)\ndef run(features):\n"
                "    ds = tf.data.Dataset.from_tensor_slices(features).batch(4, drop_remainder=True)\n"
                "    for x in ds:\n        step(x)\n"),
        # a tokenizer told how to pad: to max_length one length; to the longest, XLA401's finding
        Example("import tensorflow as tf\n"
                "@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "def encode(ids):\n    return ids + 1\ndef run(tokenizer, text_batches):\n"
                "    for texts in text_batches:\n"
                "        enc = tokenizer(texts, padding=True, return_tensors='tf')\n"
                "        encode(enc['input_ids'])\n"),
        # the growing argument is XLA409's finding, not a second one here
        Example("import tensorflow as tf\n"
                "@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "def next_logits(ids):\n    return tf.one_hot(ids[:, -1], 10)\ndef generate(ids, n):\n"
                "    for _ in range(n):\n        logits = next_logits(ids)\n"
                "        ids = tf.concat([ids, tf.argmax(logits, -1, output_type=ids.dtype)[:, None]], axis=1)\n"
                "    return ids\n"),
        # an entry point nothing here calls, declared to take any sequence length: --preview only
        Example("import tensorflow as tf\nSPEC = [tf.TensorSpec([8] + [None], tf.int32)]\n"
                "@tf.function(jit_compile=True, input_signature=SPEC)\ndef serving(ids):\n    return ids + 1\n"),
        # a None batch dimension fed only full batches (drop_remainder=True): one shape (tf-retrace13)
        Example("""
            import tensorflow as tf
            DATA = tf.data.Dataset.from_tensor_slices(tf.zeros([10, 3])).batch(4, drop_remainder=True)
            @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)], jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def train():
                for x in DATA:
                    step(x)
        """),
        # an epoch loop around a loop over full batches, and a fill whose value (not shape) changes per step
        Example("""
            import tensorflow as tf
            @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)], jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def train(rows, epochs):
                ds = tf.data.Dataset.from_tensor_slices(rows).batch(4, drop_remainder=True)
                for epoch in range(epochs):
                    for x in ds:
                        step(x)
                    step(tf.fill((4, 3), 0.1 * epoch))
        """),
        # a fixed fill scaled by a Python step number: broadcasting a 0-d operand keeps the shape (4, 3)
        Example("""
            import tensorflow as tf
            @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)], jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def run_step(i):
                return step(tf.ones((4, 3)) * i + 0.5)
            def train(steps):
                for i in range(steps):
                    run_step(i)
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "def f(ids):\n    return ids + 1\ndef run(batches):\n    return [f(b) for b in batches]\n",
                expected=(
                    (2, 49, 'input_signature with None dimensions on jit_compile=True function `f`, called in a '
                            'loop: it traces once, but XLA still compiles once per concrete shape that arrives; feed '
                            'fixed (or bucketed) shapes and declare them'),
                )),
        Example("import tensorflow as tf\nSPEC = tf.TensorSpec(shape=[1, None], dtype=tf.int32)\nSIGNATURE = [SPEC]\n"
                "@tf.function(input_signature=SIGNATURE, jit_compile=True)\ndef tag(ids):\n    return ids * 2\n"
                "def tag_all(sentences):\n    return [tag(s) for s in sentences]\n",
                expected=(
                    (2, 8, 'input_signature with None dimensions on jit_compile=True function `tag`, called in a '
                           'loop: it traces once, but XLA still compiles once per concrete shape that arrives; feed '
                           'fixed (or bucketed) shapes and declare them'),
                )),
        Example("import tensorflow as tf\ndef _f(x):\n    return x * 2.0\n"
                "f = tf.function(_f, jit_compile=True, reduce_retracing=True)\n"
                "def run(batches):\n    for b in batches:\n        f(b)\n",
                expected=(
                    (4, 39, 'reduce_retracing=True on jit_compile=True function `f`, called in a loop: tracing is '
                            'relaxed but XLA still compiles once per concrete shape; feed fixed (or bucketed) shapes'),
                )),
        # a fill sized by the step counter: a new shape per step (retrace26)
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 3], tf.float32)])
            def step(x):
                return tf.reduce_sum(tf.tanh(x))
            def run_step(i):
                return step(tf.ones((i + 2, 3)))
            def train(steps):
                for i in range(steps):
                    run_step(i)
        """, expected=(
            (2, 49, 'input_signature with None dimensions on jit_compile=True function `step`, called per batch: it '
                    'traces once, but XLA still compiles once per concrete shape that arrives; feed fixed (or '
                    'bucketed) shapes and declare them'),
        )),
        # each batch padded to its own longest sequence: pad_sequences without maxlen pins nothing
        Example("""
            import tensorflow as tf
            from tensorflow.keras.preprocessing.sequence import pad_sequences
            @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])
            def encode(ids):
                return tf.reduce_max(ids, axis=1)
            def encode_all(batches):
                return [encode(pad_sequences(seqs, padding="post")) for seqs in batches]
        """, expected=(
            (3, 49, 'input_signature with None dimensions on jit_compile=True function `encode`, called in a loop: '
                    'it traces once, but XLA still compiles once per concrete shape that arrives; feed fixed (or '
                    'bucketed) shapes and declare them'),
        )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not index.tf_functions:
            return
        resolver = _Resolver(ctx)
        sites: dict[int, list[ast.Call]] = {}
        for call, _ in index.calls:
            tfn = index.tf_function_called(call)
            if tfn is not None:
                sites.setdefault(id(tfn.wrapper), []).append(call)
        for tfns in index.tf_functions.values():
            for tfn in tfns:
                if not self._jit(resolver, tfn.keyword("jit_compile")) or in_test(index, ctx.path, tfn.wrapper):
                    continue
                calls = [c for c in sites.get(id(tfn.wrapper), ()) if not in_test(index, ctx.path, c)]
                if not calls:
                    self._declared_length(ctx, resolver, tfn)
                    continue
                varying = [c for c in calls
                           if per_batch(index, c)
                           and not any(loop_grown_arguments(index, c))  # XLA409 reports that call
                           and not all(resolver.fixed_shape(a) or _same_shape_every_iteration(index, tfn, c, a)
                                       for a in [*c.args, *(k.value for k in c.keywords)])]
                if not varying:
                    continue  # an entry point called from elsewhere, or fed padded shapes here: decided by its callers
                where = "called in a loop" if any(index.loops_around(c) for c in varying) else "called per batch"
                signature = tfn.keyword("input_signature")
                spec = resolver.spec_with_unknown_dims(signature) if signature is not None else None
                if spec is not None:
                    ctx.report(self, spec, f"input_signature with None dimensions on jit_compile=True function "
                                           f"`{tfn.name}`, {where}: it traces once, but XLA still compiles "
                                           "once per concrete shape that arrives; feed fixed (or bucketed) shapes and "
                                           "declare them")
                    continue
                relax = next((kw for kw in tfn.wrapper.keywords if kw.arg in _RELAX and is_true(kw.value)), None)  # type: ignore[union-attr]
                if relax is not None:
                    ctx.report(self, relax, f"{relax.arg}=True on jit_compile=True function `{tfn.name}`, {where}: "
                                            "tracing is relaxed but XLA still compiles once per concrete shape; "
                                            "feed fixed (or bucketed) shapes")

    def _declared_length(self, ctx: ModuleContext, resolver: _Resolver, tfn: TfFunction) -> None:
        """A jit function nothing here calls (an entry point: its callers are elsewhere) whose
        signature declares a ``None`` dimension past the batch one: its author expects lengths to
        vary, and XLA compiles once per distinct length while tracing once (measured:
        ``sequence_dim_changes_input_signature_none`` compiles 3 times for 3 lengths,
        ``sequence_dim_repeats_input_signature_none`` once per distinct length). A ``None`` batch
        dimension alone is not flagged: batches have one size but the last. Behind ``--preview``:
        with no call site the file cannot tell a function fed varying lengths from one fed a single
        length (compiler-labelled negatives of exactly this form exist), so it is weak evidence."""
        if not ctx.preview:
            return
        if retrace_table.bounded("sequence_dim_changes_input_signature_none", jit_compile=True):
            return  # a TensorFlow whose measured row compiles once for many lengths: nothing to report
        signature = tfn.keyword("input_signature")
        spec = resolver.spec_with_unknown_dims(signature, length=True) if signature is not None else None
        if spec is not None:
            ctx.report(self, spec, f"input_signature with a None length dimension on jit_compile=True function "
                                   f"`{tfn.name}`, which nothing in this file calls: it traces once, but XLA "
                                   "compiles once per distinct length its callers pass; pad (or bucket) inputs to "
                                   "fixed lengths and declare them")

    @staticmethod
    def _jit(resolver: _Resolver, value: ast.expr | None) -> bool:
        """``jit_compile=True``, or a name whose every binding here is ``True``."""
        if value is None:
            return False
        values = resolver.values(value, 0)
        return bool(values) and all(is_true(v) for v in values)


def _same_shape_every_iteration(index: ModuleIndex, tfn: TfFunction, call: ast.Call, arg: ast.expr) -> bool:
    """``arg`` has one shape on every pass of the loops around ``call``: a name the loops never
    rebind (``step(x, w)`` with ``x`` bound before the loop), or one they rebind only from this
    function's own result (``x = step(x)``: loop-carried state) or by arithmetic on names and
    numbers (``lr = lr * decay``: the operands' shape). Measured (tools/generate_tf_retrace_table.py,
    ``tensor_same_shape_input_signature_none``): one shape compiles once, whatever the signature says."""
    loops = index.loops_around(call)
    if not loops or not isinstance(arg, ast.Name):
        return False
    for loop in loops:
        heads = [loop] if isinstance(loop, (ast.For, ast.AsyncFor)) else list(getattr(loop, "generators", []))
        for head in heads:
            if hasattr(head, "target") and arg.id in target_names(head.target) \
                    and dataset_batching(index, head.iter) is None:
                return False  # `for b in batches`: a new batch each pass
        for node in ast.walk(loop):
            if isinstance(node, ast.Assign) and any(arg.id in target_names(t) for t in node.targets):
                if not (isinstance(node.value, ast.Call) and index.tf_function_called(node.value) is tfn) \
                        and not _elementwise(node.value) and dataset_batching(index, node.value) is None:
                    return False
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)) and isinstance(
                    node.target, ast.Name) and node.target.id == arg.id:
                return False
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)) and node not in loops:
                # (a loop around the call is judged by its head above: a dataset it batches is one shape)
                targets = [node.target] if isinstance(node, (ast.For, ast.AsyncFor)) else [
                    i.optional_vars for i in node.items if i.optional_vars is not None]
                if any(arg.id in target_names(t) for t in targets):
                    return False
    return True


def _elementwise(value: ast.expr) -> bool:
    """Arithmetic on names, attributes and numbers only (``lr * decay``, ``-x``, ``w - 0.1 * g``)."""
    if isinstance(value, ast.BinOp):
        return _elementwise(value.left) and _elementwise(value.right)
    if isinstance(value, ast.UnaryOp):
        return _elementwise(value.operand)
    return isinstance(value, (ast.Name, ast.Attribute, ast.Constant))
