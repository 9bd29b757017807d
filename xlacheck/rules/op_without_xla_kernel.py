"""XLA309: a TensorFlow API whose raw ops have no XLA kernel (from the generated op table)."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping
from typing import Any

from xlacheck import api_table, op_table, sparse_table
from xlacheck.analysis.contexts import Level
from xlacheck.analysis.sparse import is_sparse
from xlacheck.analysis.tables import TENSOR_ARRAYS
from xlacheck.analysis.values import is_constant_tensor, is_python
from xlacheck.rules.base import Example, Rule, RuleContext, call_name, loop_call_names
from xlacheck.rules.data_dependent_shape_op import dynamic_shape_reason

_V1_PREFIX = "tf.compat.v1."

# Reported by more specific rules, with better messages.
_OWNED_ELSEWHERE = frozenset({
    "tf.print", "tf.py_function", "tf.numpy_function", "tf.compat.v1.py_func", "tf.as_string",
    "tf.image.resize", "tf.random.shuffle",
})


def variant_literals(verdict: op_table.OpVerdict, call: ast.Call, resolve: Any = None) -> dict[str, Any]:
    """The literal arguments of ``call`` by parameter name: keywords, and positional arguments at
    the positions the op table's conditions recorded (up to the first ``*args``); constants, and
    ``tf.image.ResizeMethod.*`` members as the value the table records (``"nearest"``)."""
    positions = verdict.positions()
    pairs: list[tuple[str, ast.expr]] = []
    for index, value in enumerate(call.args):
        if isinstance(value, ast.Starred):
            break
        if index in positions:
            pairs.append((positions[index], value))
    pairs += [(kw.arg, kw.value) for kw in call.keywords if kw.arg is not None]
    out: dict[str, Any] = {}
    for name, value in pairs:
        if isinstance(value, ast.Constant):
            out[name] = value.value
        elif resolve is not None and (member := _resize_method(value, resolve)) is not None:
            out[name] = member
    return out


def _resize_method(value: ast.expr, resolve: Any) -> str | None:
    """``tf.image.ResizeMethod.NEAREST_NEIGHBOR`` as the value the tables record (``"nearest"``)."""
    if isinstance(value, ast.Attribute) and (resolve(value.value) or "").endswith("ResizeMethod"):
        return "nearest" if value.attr == "NEAREST_NEIGHBOR" else value.attr.lower()
    return None


def unsupported_ops(api_name: str, call: ast.Call, extra: dict[str, Any] | None = None) -> tuple[str, ...]:
    """Raw ops without an XLA kernel that this call creates, per the op table (literal arguments,
    by keyword or at a position the table recorded, plus ``extra`` literals a rule decoded itself,
    select argument-dependent verdicts, e.g. method="bicubic"), or, for a name the op table did not
    trace, the API table's (``unsupported`` of a call that failed to compile); () if none or unknown."""
    verdict = op_table.lookup(api_name)
    if verdict is None:  # not traced by the op table (Keras 3's keras.random.*): the API table's compile
        fact = api_table.fact_for(api_name)
        return fact.unsupported if fact is not None and fact.xla is False else ()
    literals = variant_literals(verdict, call)
    literals.update(extra or {})
    return tuple(verdict.unsupported_for(literals))


def _folded(node: ast.Call, name: str, ctx: RuleContext) -> bool:
    """An elementwise function (the API table's ``elementwise``, from TensorFlow's dispatch registry: a pure
    function of its inputs) called on constants only: TensorFlow folds it before XLA compiles the graph."""
    fact = api_table.fact_for(name)
    args = [*node.args, *(kw.value for kw in node.keywords)]
    if fact is None or fact.elementwise is None or not args or any(isinstance(a, ast.Starred) for a in args):
        return False
    return all(is_python(k) or is_constant_tensor(k) for k in map(ctx.flags, args))


def variant_gradient(api_name: str, call: ast.Call, resolve: Any) -> tuple[str, ...] | None:
    """The ops without a kernel that the gradient of ``call`` needs when its literal arguments
    select variants whose gradient the op table measured apart (``K.resize_images(...,
    interpolation="bilinear")``: none, where the default nearest's needs ResizeNearestNeighborGrad);
    None when no such variant is selected."""
    verdict = op_table.lookup(api_name)
    if verdict is None or not verdict.conditions:
        return None
    return verdict.grad_unsupported_for(variant_literals(verdict, call, resolve))


def call_literals(call: ast.Call, params: tuple[str, ...], resolve: Any) -> dict[str, Any]:
    """The literal arguments of a call by parameter name (positional ones mapped by ``params``):
    constants, and enum members such as ``tf.image.ResizeMethod.NEAREST_NEIGHBOR`` as the value
    the tables record (``"nearest"``)."""
    pairs = [*zip(params, call.args), *((kw.arg, kw.value) for kw in call.keywords if kw.arg is not None)]
    out: dict[str, Any] = {}
    for name, value in pairs:
        if isinstance(value, ast.Constant):
            out[name] = value.value.lower() if isinstance(value.value, str) else value.value
        elif (member := _resize_method(value, resolve)) is not None:
            out[name] = member
    return out


_BUILTINS = frozenset(dir(builtins))


_STOPS = frozenset({"tf.stop_gradient"})  # a gradient never flows back through these


def _walk_to_gradient(tree: ast.AST, resolve: Any) -> list[ast.AST]:
    """The nodes of ``tree`` a gradient can reach back to: ``ast.walk`` without the arguments of
    ``tf.stop_gradient``."""
    out: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, ast.Call) and resolve(node.func) in _STOPS:
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def _trainable_variable(value: ast.expr | None, resolve: Any) -> bool:
    """``tf.Variable(...)`` not created with ``trainable=False``."""
    return (isinstance(value, ast.Call) and resolve(value.func) == "tf.Variable"
            and not any(kw.arg == "trainable" and isinstance(kw.value, ast.Constant) and kw.value.value is False
                        for kw in value.keywords))


def trainable_upstream(expr: ast.AST, function: ast.AST, resolve: Any,
                       module_values: Mapping[str, ast.expr] | None = None,
                       trained: frozenset[str] = frozenset()) -> bool:
    """Evidence that a gradient reaches ``expr``: it (or what its names are bound to in
    ``function``, a few steps back) uses a layer or model call (a call that is not a
    TensorFlow API: ``self.conv(x)``, ``model(x)``), a ``self.<attr>`` weight, a name
    ``tape.watch`` watches, a module-level trainable ``tf.Variable`` (``module_values``) that
    ``function`` does not rebind, or a name in ``trained`` (a loss's prediction parameter).
    Nothing inside ``tf.stop_gradient(...)`` counts. A raw input with nothing trainable upstream
    has no gradient op. One walk of ``function`` per call (callers ask only about the few calls a
    table flags)."""
    watched: set[str] = set(trained)
    bindings: dict[str, list[ast.expr]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "watch":
            watched.update(n.id for a in node.args for n in ast.walk(a) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bindings.setdefault(target.id, []).append(node.value)
    signature = getattr(function, "args", None)
    params = {a.arg for a in ast.walk(signature) if isinstance(a, ast.arg)} if isinstance(signature, ast.arguments) \
        else set()
    seen: set[str] = set()
    frontier: list[ast.AST] = [expr]
    for _ in range(4):  # names followed a few assignments back
        following: list[ast.AST] = []
        for tree in frontier:
            for node in _walk_to_gradient(tree, resolve):
                if isinstance(node, ast.Call):
                    name = resolve(node.func)
                    if isinstance(node.func, ast.Name) and node.func.id not in _BUILTINS and \
                            (name is None or not name.startswith(("tf.", "tnp."))):
                        return True  # a layer/model call or a user function (self.conv(x): the attribute below)
                elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                    return True
                elif isinstance(node, ast.Name) and node.id not in seen:
                    if node.id in watched:
                        return True
                    if module_values and node.id not in bindings and node.id not in params and \
                            _trainable_variable(module_values.get(node.id), resolve):
                        return True
                    seen.add(node.id)
                    following.extend(bindings.get(node.id, ()))
        frontier = following
    return False


def under_tape(ctx: RuleContext) -> bool:
    """The current statement is inside a ``with tf.GradientTape(...)`` block of this function."""
    for body, index in ctx.blocks[:-1]:
        statement = body[index]
        if isinstance(statement, (ast.With, ast.AsyncWith)):
            for item in statement.items:
                expr = item.context_expr
                if isinstance(expr, ast.Call) and ctx.resolve(expr.func) == "tf.GradientTape":
                    return True
    return False


def _mapped_function(call: ast.Call, ctx: RuleContext) -> ast.AST | None:
    """The function ``tf.vectorized_map(fn, ...)`` maps, when this file defines it: a lambda, a
    function nested in the caller, or a module-level function."""
    fn = call.args[0] if call.args else next((kw.value for kw in call.keywords if kw.arg == "fn"), None)
    if isinstance(fn, ast.Lambda):
        return fn
    if not isinstance(fn, ast.Name):
        return None
    for node in ast.walk(ctx.function.node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.id:
            return node
    found = ctx.module_funcs.get(fn.id)
    return found.node if found is not None else None


def _loop_under_vectorized_map(call: ast.Call, ctx: RuleContext) -> tuple[str, tuple[str, ...]] | None:
    """A loop API (``tf.scan``, ``tf.map_fn`` ...) run by the mapped function (directly, or by
    a function it defines) that the op table's ``under_vectorized_map`` says fails to compile."""
    mapped = _mapped_function(call, ctx)
    if mapped is None:
        return None
    for node in ast.walk(mapped):
        if isinstance(node, ast.Call):
            name = ctx.resolve(node.func)
            ops = op_table.vectorized_map_unsupported(name) if name else ()
            if ops:
                return name, ops  # type: ignore[return-value]
    return None


# TensorArray methods that return the (new) array: ta = ta.write(i, x).
_TENSOR_ARRAY_UPDATES = frozenset({"write", "unstack", "scatter", "split", "mark_used"})


def is_tensor_array(expr: ast.expr, function: ast.AST, resolve: Any, depth: int = 0) -> bool:
    """``expr`` is proven a ``tf.TensorArray``: a constructor call, an update method of one
    (``ta.write(i, x)``), or a name every assignment of which in ``function`` is one of those (or
    the name's own update, ``ta = ta.write(i, x)``, once some other assignment builds it). A
    parameter, a loop variable or any other binding is not proven."""
    if depth > 4:
        return False
    if isinstance(expr, ast.Call):
        if resolve(expr.func) in TENSOR_ARRAYS:
            return True
        return isinstance(expr.func, ast.Attribute) and expr.func.attr in _TENSOR_ARRAY_UPDATES and \
            is_tensor_array(expr.func.value, function, resolve, depth + 1)
    if not isinstance(expr, ast.Name):
        return False
    values: list[ast.expr] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
            if len(node.targets) != 1:
                return False
            values.append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension, ast.withitem,
                               ast.NamedExpr)):
            target = node.optional_vars if isinstance(node, ast.withitem) else node.target
            if target is not None and any(isinstance(n, ast.Name) and n.id == expr.id for n in ast.walk(target)):
                return False
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and \
                any(a.arg == expr.id for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)):
            return False
    own = [v for v in values if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
           and isinstance(v.func.value, ast.Name) and v.func.value.id == expr.id
           and v.func.attr in _TENSOR_ARRAY_UPDATES]
    others = [v for v in values if v not in own]
    return bool(others) and all(is_tensor_array(v, function, resolve, depth + 1) for v in others)


class OpWithoutXlaKernel(Rule):
    """
    ## What it does
    Flags calls to TensorFlow APIs whose underlying raw ops have no XLA kernel, according to the
    op table generated from TensorFlow (`xlacheck/data/tf_xla_ops.json`): for example
    `tf.linalg.det` (`MatrixDeterminant`), `tf.random.poisson`, `tf.timestamp`,
    `tf.nn.sampled_softmax_loss` (`LogUniformCandidateSampler`), `tf.histogram_fixed_width`.
    The table also holds the TF1 names (`tf.compat.v1.image.resize_bicubic`,
    `tf.compat.v1.nn.nce_loss`; a `tf.compat.v1.X` that is the `tf.X` object answers as it),
    Keras 3's `keras.ops` (`keras.ops.det`, `slogdet`, `eig`), the Keras backend
    (`K.print_tensor`, `K.ctc_batch_cost`) and the `tf.data` constructors (a dataset built inside
    compiled code: `TensorSliceDataset`), all traced by the generator. The API may be named
    through any binding Python resolves to it: an import alias, a name bound once in the file
    (`det = tf.linalg.det`, `functools.partial(tf.linalg.det, ...)`, `getattr(tf.linalg, "det")`),
    an element of a module-level dict, list or tuple of functions read with a literal key or run
    by a loop over it, a `self.<attr>` set to it, or a parameter default that no call in the file
    overrides.

    Also flags an API whose dense form compiles but whose `tf.SparseTensor` form has no XLA kernel,
    when its first argument is a sparse tensor built in the function (`tf.sparse.from_dense`,
    `tf.SparseTensor(...)`, Keras's `K.ctc_label_dense_to_sparse`, a sparse `tf.sparse.*` result,
    `tf.cast` of one): `tf.nn.ctc_loss` with sparse labels runs `CTCLoss` (measured by
    `tools/generate_sparse_table.py`, `xlacheck/data/tf_sparse.json`: a 3 x 4 sparse matrix built
    three ways or passed in x 27 consumers on TF 2.21 XLA:CPU; the `tf.sparse.*` consumers it found
    without a kernel are XLA204's). A sparse *argument* of the compiled function is not provably
    sparse and is not flagged.

    Also flags an API whose forward compiles but whose gradient has no XLA kernel (the generated
    API table's `grad_xla: false`, `xlacheck/data/tf_api.json`), when it is called inside a
    `tf.GradientTape` block of compiled code: `tf.quantization.quantize_and_dequantize_v2`
    (`QuantizeAndDequantizeV4Grad`), and argument values the table measured apart
    (`grad_conditions`): `tf.image.resize(..., method="nearest")` (`ResizeNearestNeighborGrad`);
    for names whose gradient the API table did not measure, the op table's `grad_unsupported`
    (differentiated by the generator's sweep and confirmed by compiling): `K.resize_images`; and
    a gradient the table measured to need a compile-time constant (`grad_const`:
    `keras.ops.nanmedian`, whose backward pass ranges over a traced size) or to loop over a
    TensorList XLA cannot size (`grad_list_size`: `tf.linalg.expm`). And a gradient measured
    with complex64 inputs apart from the float one (`grad_dtypes`: `tf.linalg.eigh` and
    `tf.linalg.eigvalsh` of a complex Hermitian matrix fail with "Binary op add with different
    element types: f32 and c64"), only when the value model proves the input complex
    (`tf.complex(...)`, `tf.cast(x, tf.complex64)`); an input of unknown dtype is not flagged.
    Only where a gradient reaches the call: its input comes from a layer or model call, a
    `self.<attr>` weight, a watched tensor or a module-level trainable `tf.Variable`, not through
    `tf.stop_gradient`.

    `tf.summary.scalar/histogram/image/text/audio/write` create their ops (`WriteSummary`, ...)
    only while a default summary writer is set (the table's `when: default_writer`): they are
    flagged only in `jit_compile=True` steps and what those call, not in plain `tf.function`s
    (TPUStrategy moves summaries to the host) nor in Keras methods.

    And `tf.vectorized_map(fn, ...)` in jit-compiled code when `fn` (defined in this file) runs a
    loop API that the op table's `under_vectorized_map` says fails there (`tf.scan`, `tf.map_fn`,
    `tf.foldl`, `tf.foldr`: pfor's vectorized loop reserves TensorLists of variants, which have no
    XLA kernel; `tf.while_loop` compiles).

    Ops that run only on a TPU are not flagged: `CollectivePermute`, `AllToAll`, `CrossReplicaSum`
    and infeed/outfeed have no kernel of any kind in the CPU/GPU build, and TensorFlow's TPU build
    registers their XLA kernels (the op table's `xla_tpu_jit`, `kernel_devices`). Nor is an
    elementwise function (the API table's `elementwise`) called on constants only
    (`tf.io.encode_base64(tf.constant(["ab"]))`): TensorFlow folds it before XLA compiles.

    ## Why is this bad?
    XLA refuses the whole function: `Detected unsupported operations when trying to compile
    graph ... on XLA_CPU_JIT: MatrixDeterminant (No registered 'MatrixDeterminant' OpKernel for
    XLA_CPU_JIT devices ...)`. For a gradient op the forward pass compiles and the training step
    fails the same way.

    ## Example
    ```python
    start = tf.timestamp()
    ```

    ## Use instead
    ```python
    # measure time outside the compiled step; for det use tf.linalg.slogdet-free forms such as
    # 2 * sum(log(diag(cholesky(k)))) = tf.linalg.logdet(k)
    ```

    ## Fix safety
    No automatic fix in general. `tf.unravel_index(i, dims)` gets an unsafe fix: integer division
    by the strides `tf.math.cumprod(dims, exclusive=True, reverse=True)`, equal for indices in
    `[0, prod(dims))` (outside it the original raises eagerly and the fix wraps around). A few ops
    have a composition of ops with kernels (one table, `SUBSTITUTES` in `xlacheck/rewrites/kernels.py`):
    `tf.math.reduce_euclidean_norm(x, ...)` -> `tf.sqrt(tf.reduce_sum(tf.square(tf.abs(x)), ...))`
    (unsafe: summation order, and complex or integer tensors); `tf.math.bessel_i0/i1(x)` ->
    `tf.math.bessel_i0e/i1e(x) * tf.exp(tf.abs(x))` (unsafe: last bits); and
    `tf.histogram_fixed_width` -> the kernel's own index arithmetic in float64 and a one-hot count
    (unsafe for NaN values).

    ## References
    The table records the TensorFlow version and command it was generated with
    (`xlacheck.op_table.table_info()`).
    """

    code = "XLA309"
    fix = ("rewrite_unravel_index", "rewrite_kernel_substitute")
    name = "op-without-xla-kernel"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(k):\n"
                "    return tf.linalg.logdet(k)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.quantization.quantize_and_dequantize_v2(x, -1.0, 1.0)\n"),
        Example("import tensorflow as tf\nimport keras\n@tf.function(jit_compile=True)\ndef f(k, x):\n"
                "    return keras.ops.logdet(k) + tf.compat.v1.image.resize_bilinear(x, [8, 8])\n"),
        Example("import tensorflow as tf\n@tf.function\ndef step(x, y):\n"
                "    loss = tf.reduce_mean(tf.square(x - y))\n    tf.summary.scalar(\"loss\", loss)\n"
                "    return loss\n"),
        Example("import tensorflow as tf\ndef running_sum(row):\n"
                "    return tf.scan(lambda c, v: c + v, row, initializer=0.0)\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return tf.map_fn(running_sum, x)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, w):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(w)\n"
                "        up = tf.image.resize(x * w, [8, 8], method='bilinear')\n"
                "        loss = tf.reduce_sum(up * up)\n    return tape.gradient(loss, w)\n"),
        # the op table measured this variant's gradient apart: bilinear compiles (nearest does not)
        Example("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n"
                "@tf.function(jit_compile=True)\ndef step(x, w):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(w)\n"
                "        up = K.resize_images(x * w, 2, 2, 'channels_last', 'bilinear')\n"
                "        loss = tf.reduce_sum(up * up)\n    return tape.gradient(loss, w)\n"),
        # a TensorArray filled by unstack (TensorListFromTensor has a kernel)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(rows):\n"
                "    ta = tf.TensorArray(tf.float32, size=3, element_shape=[2])\n"
                "    ta = ta.unstack(rows)\n    return ta.stack()\n"),
        # the gradient stops before the op (tf.stop_gradient): no ResizeNearestNeighborGrad
        Example('import tensorflow as tf\nw = tf.Variable(tf.ones([4, 4, 1]))\n'
                '@tf.function(jit_compile=True)\ndef step(x):\n    with tf.GradientTape() as tape:\n'
                '        up = tf.image.resize(tf.stop_gradient(x * w), [8, 8], method="nearest")\n'
                '        loss = tf.reduce_sum(up * up) + tf.reduce_sum(x * w)\n'
                '    return tape.gradient(loss, w)\n'),
        # a name bound twice is no alias; a default every call overrides is not what runs
        Example("import tensorflow as tf\nop = tf.linalg.det\nop = tf.linalg.trace\n"
                "def reduce_matrix(k, fn=tf.linalg.det):\n    return fn(k)\n"
                "@tf.function(jit_compile=True)\ndef f(k):\n    return op(k) + reduce_matrix(k, fn=tf.linalg.trace)\n"),
        # a TPU-only collective: no kernel of any kind off TPU, an XLA kernel in TensorFlow's TPU build
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef halo(x, pairs):\n"
                "    return tf.raw_ops.CollectivePermute(input=x, source_target_pairs=pairs)\n"),
        # grad_dtypes: the gradient of eigh of a float32 matrix compiles (only complex64's was measured to fail)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(re, im):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch([re, im])\n"
                "        h = tf.cast(re, tf.float32)\n"
                "        energies, _ = tf.linalg.eigh(0.5 * (h + tf.linalg.adjoint(h)))\n"
                "        loss = energies[0]\n"
                "    return tape.gradient(loss, re)\n"),
        # tf.nn.ctc_loss with dense labels compiles (the sparse table's fact is for SparseTensor labels)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels, logits):\n"
                "    return tf.nn.ctc_loss(labels, logits, tf.fill([3], 2), tf.fill([3], 6), blank_index=0)\n"),
        # tfrecall32: an elementwise function of constants only is folded before XLA compiles (measured on TF 2.21
        # XLA:CPU: BesselJ0 and EncodeBase64 of constants compile; of the argument they fail)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x + tf.reduce_sum(tf.math.special.bessel_j0(tf.constant([1.0, 2.0])))\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(k):\n"
                "    return tf.linalg.det(k)\n",
                expected=(
                    (4, 12, 'tf.linalg.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with '
                            "'Detected unsupported operations'; move it out of the compiled function or use an "
                            'XLA-supported equivalent (compiled: decorated with tf.function(jit_compile=True) at '
                            'line 2)'),
                )),
        Example("import tensorflow as tf\nimport keras\n@tf.function(jit_compile=True)\ndef f(k, x):\n"
                "    return keras.ops.det(k), tf.compat.v1.image.resize_bicubic(x, [8, 8])\n",
                expected=(
                    (5, 12, 'tf.keras.ops.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with '
                            "'Detected unsupported operations'; move it out of the compiled function or use an "
                            'XLA-supported equivalent (compiled: decorated with tf.function(jit_compile=True) at '
                            'line 3)'),
                    (5, 30, 'tf.compat.v1.image.resize_bicubic uses ops with no XLA kernel (ResizeBicubic): '
                            "compilation fails with 'Detected unsupported operations'; move it out of the compiled "
                            'function or use an XLA-supported equivalent (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 3)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    start = tf.timestamp()\n    return x, tf.timestamp() - start\n",
                expected=(
                    (4, 13, "tf.timestamp uses ops with no XLA kernel (Timestamp): compilation fails with 'Detected "
                            "unsupported operations'; move it out of the compiled function or use an XLA-supported "
                            'equivalent (compiled: decorated with tf.function(jit_compile=True) at line 2)'),
                    (5, 15, "tf.timestamp uses ops with no XLA kernel (Timestamp): compilation fails with 'Detected "
                            "unsupported operations'; move it out of the compiled function or use an XLA-supported "
                            'equivalent (compiled: decorated with tf.function(jit_compile=True) at line 2)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, w):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(w)\n"
                "        y = tf.quantization.quantize_and_dequantize_v2(tf.matmul(x, w), -1.0, 1.0)\n"
                "        loss = tf.reduce_sum(y)\n    return tape.gradient(loss, w)\n",
                expected=(
                    (6, 13, 'the gradient of tf.quantization.quantize_and_dequantize_v2 uses ops with no XLA kernel '
                            "(QuantizeAndDequantizeV4Grad): the forward pass compiles, but this GradientTape's "
                            "backward pass fails with 'Detected unsupported operations'; keep it out of the taped "
                            'computation or use an op whose gradient compiles (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
        Example("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n"
                "@tf.function(jit_compile=True)\ndef step(x, w):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(w)\n"
                "        up = K.resize_images(x * w, 2, 2, 'channels_last')\n"
                "        loss = tf.reduce_sum(up * up)\n    return tape.gradient(loss, w)\n",
                expected=(
                    (7, 14, 'the gradient of tf.keras.backend.resize_images uses ops with no XLA kernel '
                            "(ResizeNearestNeighborGrad): the forward pass compiles, but this GradientTape's "
                            "backward pass fails with 'Detected unsupported operations'; keep it out of the taped "
                            'computation or use an op whose gradient compiles (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 3)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, y):\n"
                "    loss = tf.reduce_mean(tf.square(x - y))\n    tf.summary.scalar(\"loss\", loss)\n"
                "    return loss\n",
                expected=(
                    (5, 5, "tf.summary.scalar writes through ops with no XLA kernel (WriteSummary) while a default "
                           "summary writer is set: compilation fails with 'Detected unsupported operations'; return "
                           "the value from the compiled step and write the summary outside it (compiled: decorated "
                           "with tf.function(jit_compile=True) at line 2)"),
                )),
        Example("import tensorflow as tf\ndef running_sum(row):\n"
                "    return tf.scan(lambda c, v: c + v, row, initializer=0.0)\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return tf.vectorized_map(running_sum, x)\n",
                expected=(
                    (6, 12, "tf.vectorized_map over a function that runs tf.scan: the vectorized loop uses ops with no "
                            "XLA kernel (TensorListReserve), so compilation fails with 'Detected unsupported "
                            "operations'; use tf.map_fn for the outer map, or vectorize the loop body by hand "
                            "(compiled: decorated with tf.function(jit_compile=True) at line 4)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, w):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch(w)\n"
                "        up = tf.image.resize(x * w, [8, 8], method='nearest')\n"
                "        loss = tf.reduce_sum(up * up)\n    return tape.gradient(loss, w)\n",
                expected=(
                    (6, 14, 'the gradient of tf.image.resize uses ops with no XLA kernel (ResizeNearestNeighborGrad): '
                            "the forward pass compiles, but this GradientTape's backward pass fails with 'Detected "
                            "unsupported operations'; keep it out of the taped computation or use an op whose "
                            'gradient compiles (compiled: decorated with tf.function(jit_compile=True) at line 2)'),
                )),
        # Keras 3's keras.ops.linalg.det is keras.ops.det (the API table's alias_of)
        Example("import tensorflow as tf\nimport keras\n@tf.function(jit_compile=True)\ndef f(m):\n"
                "    return keras.ops.linalg.det(m)\n",
                expected=(
                    (5, 12, "tf.keras.ops.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with "
                            "'Detected unsupported operations'; move it out of the compiled function or use an "
                            "XLA-supported equivalent (compiled: decorated with tf.function(jit_compile=True) at "
                            "line 3)"),
                )),
        # a name the op table did not trace (Keras 3's keras.random): the API table's failed compile
        Example("import tensorflow as tf\nimport keras\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    noise = keras.random.gamma((4,), alpha=2.0, seed=1)\n    return x * noise\n",
                expected=(
                    (5, 13, "tf.keras.random.gamma uses ops with no XLA kernel (StatelessRandomGammaV3): compilation "
                            "fails with 'Detected unsupported operations'; move it out of the compiled function or "
                            "use an XLA-supported equivalent (compiled: decorated with tf.function(jit_compile=True) "
                            "at line 3)"),
                )),
        # a TensorArray method: the op table's class probe (TensorListScatterIntoExistingList)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(rows):\n"
                "    ta = tf.TensorArray(tf.float32, size=3, element_shape=[2])\n"
                "    ta = ta.scatter([0, 1, 2], rows)\n    return ta.stack()\n",
                expected=(
                    (5, 10, "tf.TensorArray.scatter uses ops with no XLA kernel (TensorListScatterIntoExistingList): "
                            "compilation fails with 'Detected unsupported operations'; write the rows one by one "
                            "(ta.write) or build the tensor with tf.tensor_scatter_nd_update (compiled: decorated "
                            "with tf.function(jit_compile=True) at line 2)"),
                )),
        # a module-level trainable tf.Variable upstream
        Example('import tensorflow as tf\nw = tf.Variable(tf.ones([4, 4, 1]))\n'
                '@tf.function(jit_compile=True)\ndef step(x):\n    with tf.GradientTape() as tape:\n'
                '        up = tf.image.resize(x * w, [8, 8], method="nearest")\n'
                '        loss = tf.reduce_sum(up * up)\n    return tape.gradient(loss, w)\n',
                expected=(
                    (6, 14, 'the gradient of tf.image.resize uses ops with no XLA kernel '
                            '(ResizeNearestNeighborGrad): the '
                        "forward pass compiles, but this GradientTape's backward pass fails with 'Detected unsupported "
                        "operations'; keep it out of the taped computation or use an op whose gradient compiles "
                        '(compiled: decorated with tf.function(jit_compile=True) at line 3)'),
                )),
        # a gradient that needs a compile-time constant (the API table's grad_const)
        Example('import tensorflow as tf\nimport keras\n@tf.function(jit_compile=True)\ndef step(x, w):\n'
                '    with tf.GradientTape() as tape:\n        tape.watch(w)\n'
                '        m = keras.ops.nanmedian(x * w)\n        loss = tf.reduce_sum(m * m)\n'
                '    return tape.gradient(loss, w)\n',
                expected=(
                    (7, 13, 'the gradient of tf.keras.ops.nanmedian needs a value XLA must know at compile time '
                        "(measured: the forward pass compiles, this GradientTape's backward pass fails with 'must "
                        "be a compile-time constant'); keep it out of the taped computation or use an op whose "
                        'gradient compiles (compiled: decorated with tf.function(jit_compile=True) at line 3)'),
                )),
        # names bound to the API: a partial, a dict of functions read with a literal key, getattr
        Example('import functools\nimport tensorflow as tf\ndet = functools.partial(tf.linalg.det, name="det")\n'
                'REDUCERS = {"det": tf.linalg.det, "trace": tf.linalg.trace}\n@tf.function(jit_compile=True)\n'
                'def f(k):\n    return det(k) + REDUCERS["det"](k) + getattr(tf.linalg, "det")(k)\n',
                expected=(
                    (7, 12, "tf.linalg.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with "
                            "'Detected "
                            "unsupported operations'; move it out of the compiled function or use an XLA-supported "
                            "equivalent"
                            ' (compiled: decorated with tf.function(jit_compile=True) at line 5)'),
                    (7, 21, "tf.linalg.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with "
                            "'Detected "
                            "unsupported operations'; move it out of the compiled function or use an XLA-supported "
                            "equivalent"
                            ' (compiled: decorated with tf.function(jit_compile=True) at line 5)'),
                    (7, 42, "tf.linalg.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with "
                            "'Detected "
                            "unsupported operations'; move it out of the compiled function or use an XLA-supported "
                            "equivalent"
                            ' (compiled: decorated with tf.function(jit_compile=True) at line 5)'),
                )),
        # a loop over a tuple of functions; a parameter default no call passes
        Example("import tensorflow as tf\ndef reduce_matrix(k, fn=tf.linalg.det):\n    return fn(k)\n"
                "@tf.function(jit_compile=True)\ndef f(k):\n"
                "    parts = [op(k) for op in (tf.linalg.det, tf.linalg.trace)]\n    return "
                "reduce_matrix(k) + parts[0]\n",
                expected=(
                    (3, 12, "tf.linalg.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with "
                            "'Detected "
                            "unsupported operations'; move it out of the compiled function or use an XLA-supported "
                            "equivalent"
                            ' (compiled: called from f() at line 5)'),
                    (6, 14, "tf.linalg.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with "
                            "'Detected "
                            "unsupported operations'; move it out of the compiled function or use an XLA-supported "
                            "equivalent"
                            ' (compiled: decorated with tf.function(jit_compile=True) at line 4)'),
                )),
        # the deprecated experimental_compile=True, and a decorator made once (jit = tf.function(jit_compile=True))
        Example("import tensorflow as tf\njit = tf.function(jit_compile=True)\n"
                "@tf.function(experimental_compile=True)\ndef f(k):\n    return tf.linalg.det(k) + g(k)\n"
                "@jit\ndef g(k):\n    return tf.linalg.det(k)\n",
                expected=(
                    (5, 12, 'tf.linalg.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with '
                            "'Detected unsupported operations'; move it out of the compiled function or use an "
                            'XLA-supported equivalent (compiled: decorated with tf.function(jit_compile=True) at '
                            'line 3)'),
                    (8, 12, 'tf.linalg.det uses ops with no XLA kernel (MatrixDeterminant): compilation fails with '
                            "'Detected unsupported operations'; move it out of the compiled function or use an "
                            'XLA-supported equivalent (compiled: called from f() at line 4)'),
                )),
        # a gradient that loops over a TensorList XLA cannot size (the API table's grad_list_size)
        Example('import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(gen, points):\n'
                '    with tf.GradientTape() as tape:\n        tape.watch(gen)\n'
                '        rotated = tf.matmul(points, tf.linalg.expm(gen - tf.transpose(gen)))\n'
                '        loss = tf.reduce_sum(rotated * rotated)\n    return tape.gradient(loss, gen)\n',
                expected=(
                    (6, 37, 'the gradient of tf.linalg.expm runs a loop whose accumulated TensorList XLA cannot '
                            "size (measured: the forward pass compiles, this GradientTape's backward pass fails with "
                            "'XLA compilation requires a fixed tensor list size'); keep it out of the taped "
                            'computation or use an op whose gradient compiles (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
        # the gradient measured with complex64 inputs (grad_dtypes): the value model proves h complex64
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(re, im):\n"
                "    with tf.GradientTape() as tape:\n        tape.watch([re, im])\n"
                "        h = tf.complex(tf.cast(re, tf.float32), tf.cast(im, tf.float32))\n"
                "        energies, _ = tf.linalg.eigh(0.5 * (h + tf.linalg.adjoint(h)))\n"
                "        loss = tf.math.real(energies[0])\n"
                "    return tape.gradient(loss, [re, im])\n",
                expected=(
                    (7, 23, "the gradient of tf.linalg.eigh with a complex64 input fails with 'Binary op add with "
                            "different element types: f32 and c64' (measured: the complex64 forward pass compiles, "
                            "and so does the float32 gradient); keep the complex64 op out of the taped computation "
                            "or differentiate a real-valued formulation (compiled: decorated with "
                            "tf.function(jit_compile=True) at line 2)"),
                )),
        # tf.nn.ctc_loss with SparseTensor labels: the sparse table measured CTCLoss without a kernel
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(padded, logits):\n"
                "    sparse = tf.cast(tf.sparse.from_dense(padded), tf.int32)\n"
                "    return tf.nn.ctc_loss(labels=sparse, logits=logits, label_length=None,\n"
                "                          logit_length=tf.fill([3], 6), blank_index=0)\n",
                expected=(
                    (5, 12, "tf.nn.ctc_loss with a tf.SparseTensor first argument uses ops with no XLA kernel "
                            "(CTCLoss; measured by tools/generate_sparse_table.py, while its dense form compiles): "
                            "compilation fails with 'Detected unsupported operations'; pass the dense form or move "
                            "the call out of the compiled function (compiled: decorated with "
                            "tf.function(jit_compile=True) at line 2)"),
                )),
        # labels made sparse by Keras's CTC helper (a constructor the sparse table measured)
        Example("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n"
                "@tf.function(jit_compile=True)\ndef f(padded, lengths, logits):\n"
                "    labels = K.ctc_label_dense_to_sparse(padded, lengths)\n"
                "    return tf.nn.ctc_loss(labels, logits, None, tf.fill([3], 6), blank_index=0)\n",
                expected=(
                    (6, 12, "tf.nn.ctc_loss with a tf.SparseTensor first argument uses ops with no XLA kernel "
                            "(CTCLoss; measured by tools/generate_sparse_table.py, while its dense form compiles): "
                            "compilation fails with 'Detected unsupported operations'; pass the dense form or move "
                            "the call out of the compiled function (compiled: decorated with "
                            "tf.function(jit_compile=True) at line 3)"),
                )),
        # the complex input proven through a class's float32 variable and a name rebound in the tape's
        # body (tensorflow#56619, reports21-tf)
        Example("import tensorflow as tf\nclass Hamiltonian(tf.Module):\n    def __init__(self):\n"
                "        super().__init__()\n        self.hop = tf.Variable([[0.0, 1.0], [1.0, 0.0]])\n"
                "    def energy(self, onsite):\n        with tf.GradientTape() as tape:\n"
                "            h = tf.complex(self.hop + tf.linalg.diag(onsite), tf.zeros_like(self.hop))\n"
                "            h = 0.5 * (h + tf.linalg.adjoint(h))\n            energies, _ = tf.linalg.eigh(h)\n"
                "            loss = tf.math.real(energies[0])\n        return tape.gradient(loss, self.hop)\n"
                "ham = Hamiltonian()\n@tf.function(jit_compile=True)\ndef f(onsite):\n    return ham.energy(onsite)\n",
                expected=(
                    (10, 27, "the gradient of tf.linalg.eigh with a complex64 input fails with 'Binary op add with "
                             "different element types: f32 and c64' (measured: the complex64 forward pass compiles, "
                             "and so does the float32 gradient); keep the complex64 op out of the taped computation "
                             "or differentiate a real-valued formulation (compiled: called from f() at line 15)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None and isinstance(node.func, ast.Attribute) and not ctx.function.jax and \
                is_tensor_array(node.func.value, ctx.function.node, ctx.resolve):
            name = f"tf.TensorArray.{node.func.attr}"  # ta.scatter(...): the op table's class probe
            verdict = op_table.lookup(name)
            if verdict is not None and verdict.unsupported:
                ctx.report(self, node,
                           f"{name} uses ops with no XLA kernel ({', '.join(verdict.unsupported)}): compilation fails "
                           "with 'Detected unsupported operations'; write the rows one by one (ta.write) or build "
                           f"the tensor with tf.tensor_scatter_nd_update (compiled: {ctx.function.evidence})")
            return
        if name is None:  # fn(x) for fn in (tf.linalg.det, tf.math.abs): each element is called
            for each in loop_call_names(node, ctx):
                self._check_api(node, each, ctx)
            return
        self._check_api(node, name, ctx)

    def _check_api(self, node: ast.Call, name: str, ctx: RuleContext) -> None:
        """Report ``node``, a call of the API ``name``, when its ops or its gradient have no kernel."""
        if not name.startswith("tf."):
            return
        # tf.compat.v1.X is judged like tf.X for what other rules own (its entry may differ)
        plain = "tf." + name[len(_V1_PREFIX):] if name.startswith(_V1_PREFIX) else name
        if plain.startswith("tf.strings.") or (plain != name and plain in _OWNED_ELSEWHERE):
            return
        if name in _OWNED_ELSEWHERE:
            if name == "tf.image.resize":  # its forward variants are XLA310's; the gradient is checked here
                self._gradient(node, name, ctx, forward_ok=not unsupported_ops(name, node, call_literals(
                    node, ("images", "size", "method"), ctx.resolve)))
            return
        if dynamic_shape_reason(name) is not None:
            return  # XLA204 reports data-dependent-shape ops (segment_*, sparse, ragged) with the reason
        if name == "tf.vectorized_map" and ctx.function.level is Level.CERTAIN:
            loop = _loop_under_vectorized_map(node, ctx)
            if loop is not None:
                ctx.report(self, node,
                           f"tf.vectorized_map over a function that runs {loop[0]}: the vectorized loop uses ops "
                           f"with no XLA kernel ({', '.join(loop[1])}), so compilation fails with 'Detected "
                           f"unsupported operations'; use tf.map_fn for the outer map, or vectorize the loop "
                           f"body by hand (compiled: {ctx.function.evidence})")
                return
        unsupported = unsupported_ops(name, node)
        sparse_ops = sparse_table.missing_kernels(name)
        if sparse_ops and not unsupported and self._sparse_first_argument(node, name, ctx):
            ctx.report(self, node,
                       f"{name} with a tf.SparseTensor first argument uses ops with no XLA kernel "
                       f"({', '.join(sparse_ops)}; measured by tools/generate_sparse_table.py, while its dense form "
                       "compiles): compilation fails with 'Detected unsupported operations'; pass the dense form "
                       f"or move the call out of the compiled function (compiled: {ctx.function.evidence})")
            return
        verdict = op_table.lookup(name)
        if unsupported and verdict is not None and not verdict.unsupported:
            return  # the default call compiles: a literal argument selects the variant, XLA310's finding
        if unsupported and verdict is not None and verdict.when == "default_writer":
            # tf.summary.*: a no-op without a default writer; under TPUStrategy TensorFlow moves
            # summaries to the host. Only an explicit jit_compile=True step fails for sure.
            if ctx.function.level is Level.CERTAIN and not ctx.function.jax:
                ctx.report(self, node,
                           f"{name} writes through ops with no XLA kernel ({', '.join(unsupported)}) while a default "
                           "summary writer is set: compilation fails with 'Detected unsupported operations'; "
                           "return the value from the compiled step and write the summary outside it "
                           f"(compiled: {ctx.function.evidence})")
            return
        if not unsupported:
            self._gradient(node, name, ctx, forward_ok=True)
            return
        if unsupported and _folded(node, name, ctx):
            return
        if unsupported:
            ops = ", ".join(unsupported)
            ctx.report(self, node,
                       f"{name} uses ops with no XLA kernel ({ops}): compilation fails with 'Detected unsupported "
                       f"operations'; move it out of the compiled function or use an XLA-supported equivalent "
                       f"(compiled: {ctx.function.evidence})")

    @staticmethod
    def _sparse_first_argument(node: ast.Call, name: str, ctx: RuleContext) -> bool:
        """The call's first parameter (``labels`` of ``tf.nn.ctc_loss``) is a tf.SparseTensor built in
        this function (``tf.sparse.from_dense``, ``tf.SparseTensor``, a sparse ``tf.sparse.*`` result)."""
        fact = api_table.lookup(name)
        first = node.args[0] if node.args else None
        if first is None and fact is not None and fact.params:
            first = next((k.value for k in node.keywords if k.arg == fact.params[0]), None)
        return first is not None and is_sparse(first, ctx.function.node, ctx.aliases.resolve)

    def _gradient(self, node: ast.Call, name: str, ctx: RuleContext, forward_ok: bool) -> None:
        """The gradient of this call (under a GradientTape of this function) has no XLA kernel."""
        if not forward_ok or not under_tape(ctx):
            return
        fact = api_table.fact_for(name)
        # Names whose gradient the API table did not measure (K.resize_images, Keras 3 ops): the
        # op table's gradient, measured by the generator's sweep and confirmed by compiling; a
        # variant the literal arguments select whose gradient the op table measured apart decides.
        measured = fact is not None and (fact.grad_xla is not None or bool(fact.grad_conditions))
        verdict = None if measured else op_table.lookup(name)
        variant = variant_gradient(name, node, ctx.resolve)
        if variant is None and not measured and (verdict is None or not verdict.grad_unsupported):
            return
        first = node.args[0] if node.args else (node.keywords[0].value if node.keywords else None)
        if first is None or not trainable_upstream(first, ctx.function.node, ctx.resolve, ctx.module_values):
            return  # nothing trainable upstream: the backward pass never reaches this op
        if variant is not None:
            ops = variant
        elif fact is not None and measured:
            ops = fact.grad_unsupported_for(call_literals(node, fact.params, ctx.resolve))
        else:
            ops = verdict.grad_unsupported if verdict is not None else ()
        if ops:
            ctx.report(self, node,
                       f"the gradient of {name} uses ops with no XLA kernel ({', '.join(ops)}): the forward pass "
                       "compiles, but this GradientTape's backward pass fails with 'Detected unsupported "
                       "operations'; keep it out of the taped computation or use an op whose gradient compiles "
                       f"(compiled: {ctx.function.evidence})")
        elif fact is not None and measured and fact.grad_xla is False and fact.grad_const and variant is None:
            ctx.report(self, node,
                       f"the gradient of {name} needs a value XLA must know at compile time (measured: the forward "
                       "pass compiles, this GradientTape's backward pass fails with 'must be a compile-time "
                       "constant'); keep it out of the taped computation or use an op whose gradient compiles "
                       f"(compiled: {ctx.function.evidence})")
        elif fact is not None and measured and fact.grad_xla is False and fact.grad_list_size and variant is None:
            ctx.report(self, node,
                       f"the gradient of {name} runs a loop whose accumulated TensorList XLA cannot size (measured: "
                       "the forward pass compiles, this GradientTape's backward pass fails with 'XLA compilation "
                       "requires a fixed tensor list size'); keep it out of the taped computation or use an op "
                       f"whose gradient compiles (compiled: {ctx.function.evidence})")
        elif fact is not None and fact.grad_dtypes and variant is None:
            self._complex_gradient(node, name, fact, first, ctx)

    def _complex_gradient(self, node: ast.Call, name: str, fact: api_table.ApiFact, first: ast.expr,
                          ctx: RuleContext) -> None:
        """The gradient measured with complex inputs (``grad_dtypes``), when the input is proven complex."""
        dtype = ctx.values.dtype(first)
        failure = fact.grad_failure_for_dtype(dtype) if dtype is not None and dtype.startswith("complex") else None
        if failure is None:
            return
        unsupported, error = failure
        why = f"uses ops with no XLA kernel ({', '.join(unsupported)})" if unsupported else f"fails with '{error}'"
        ctx.report(self, node,
                   f"the gradient of {name} with a {dtype} input {why} (measured: the {dtype} forward pass "
                   f"compiles, and so does the float32 gradient); keep the {dtype} op out of the taped computation "
                   f"or differentiate a real-valued formulation (compiled: {ctx.function.evidence})")
