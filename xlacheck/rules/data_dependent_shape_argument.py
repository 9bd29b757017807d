"""XLA205: a shape argument (size, depth, length, slice bound) computed from tensor values."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.tables import python_arguments, static_arguments
from xlacheck.analysis.values import CONST, DATA, LOOP, OP, PARAM, PYLIST, RANDOM, SHAPE, TENSOR, VARIABLE
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext, call_name


def _bad_flags(k: int, jit_entry: bool, helper: bool = False) -> bool:
    """Data-derived (or, in a jit entry point, a raw argument value) and not only a shape. In a
    module-level helper nothing here compiles or a plain tf.function (neither a model method nor
    jit-compiled), sizes drawn at random are input-pipeline augmentation (crops, cutout, grid
    masks, jitter: every such finding on real code, docs/known-results.md section 6), so only
    sizes computed from the data count there."""
    if not k & TENSOR or (k & SHAPE and not k & (DATA | RANDOM) and not (jit_entry and k & PARAM)):
        return False  # a shape (a shape scaled by an argument of a jit entry still bakes the argument in)
    if helper and k & RANDOM:
        return False
    if k & (DATA | RANDOM | LOOP | VARIABLE):
        return True
    return jit_entry and bool(k & PARAM)


def _bad_argument(arg: ast.expr, ctx: RuleContext, jit_entry: bool, helper: bool) -> bool:
    """`_bad_flags` of a size argument; a literal list or tuple (a packed shape) is judged element by
    element too, since its flags are the union of its elements': a `tf.shape(x)[0]` element marks it a
    shape, which must not excuse another element read from a variable or a loop counter (packed
    into the same shape tensor, that element keeps it from being a compile-time constant)."""
    if isinstance(arg, (ast.Tuple, ast.List)) and any(
            not isinstance(e, ast.Starred) and _bad_flags(ctx.flags(e), jit_entry, helper) for e in arg.elts):
        return True
    return _bad_flags(ctx.flags(arg), jit_entry, helper)


Poly = dict[tuple[str, ...], int]  # monomial (sorted atom texts) -> integer coefficient


def _poly(e: ast.expr, atoms: dict[str, ast.expr]) -> Poly:
    """``e`` as a polynomial with integer coefficients over its non-arithmetic subexpressions
    (names, attributes, calls: the atoms, recorded in ``atoms``)."""
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return {(): e.value} if e.value else {}
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        p = _poly(e.operand, atoms)
        return {m: -c for m, c in p.items()} if isinstance(e.op, ast.USub) else p
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub, ast.Mult)):
        a, b = _poly(e.left, atoms), _poly(e.right, atoms)
        out: Poly = {}
        if isinstance(e.op, ast.Mult):
            for ma, ca in a.items():
                for mb, cb in b.items():
                    m = tuple(sorted(ma + mb))
                    out[m] = out.get(m, 0) + ca * cb
        else:
            sign = -1 if isinstance(e.op, ast.Sub) else 1
            out = dict(a)
            for m, c in b.items():
                out[m] = out.get(m, 0) + sign * c
        return {m: c for m, c in out.items() if c}
    key = ast.dump(e)
    atoms[key] = e
    return {(key,): 1}


def _static_width(lower: ast.expr | None, upper: ast.expr | None, ctx: RuleContext) -> bool:
    """``x[a:b]`` where ``b - a`` does not depend on tensor values (``x[i:i + 4]``,
    ``x[i * n:(i + 1) * n]`` with ``n`` a Python size): TensorFlow's XLA StridedSlice kernel
    lowers a slice whose begin is a tensor and whose size is a compile-time constant to a
    dynamic-slice, so it compiles to one static shape (measured on TF 2.21 XLA:CPU with begin
    from an argument, a loop counter and a reduction)."""
    if lower is None or upper is None:
        return False
    atoms: dict[str, ast.expr] = {}
    width = _poly(ast.BinOp(left=upper, op=ast.Sub(), right=lower), atoms)
    return all(not ctx.flags(atoms[a]) & TENSOR for m in width for a in m)


class DataDependentShapeArgument(Rule):
    """
    ## What it does
    Flags arguments that XLA needs as compile-time constants when they are computed from tensor
    **values**: every such argument of a TensorFlow/Keras callable that the generated API table
    (`xlacheck/data/tf_api.json`, measured by compiling each callable with that argument fed as a
    value-less tensor) records, such as `tf.zeros/ones/fill/reshape/tile/broadcast_to/range`
    sizes, `tf.one_hot` depth, `tf.pad` paddings, `tf.repeat` repeats, `tf.image.resize` size,
    `tf.sequence_mask`'s `maxlen` (and its `lengths` when `maxlen` is omitted), plus slice bounds
    `x[:, :n]`, when they come from a reduction, a random draw, a staged loop variable (a
    `for i in tf.range(...)` counter, a `tf.while_loop` body's or condition's loop variables, the
    element a `tf.map_fn`/`tf.vectorized_map`/`tf.scan` function gets, what such a loop returns)
    or (in a jit entry point; a Keras `call()` argument may be a Python number, which Keras passes
    unchanged: unknown, not a tensor)
    an argument value (also a shape scaled by one: `tf.shape(x)[1:3] * zoom`).
    Sizes from `tf.shape`/`shape_list`/`x.shape` are fine and not flagged. Arguments the table
    records as Python-only (`py_args`: tracing raises once they are tensors) are flagged when a
    tensor is passed, whatever it is computed from: a `tf.experimental.numpy` size, and the op-level
    `seed` of a stateful random op (`tf.nn.dropout`, `tf.random.uniform`, `tf.image.random_flip_left_right`:
    "Expected int for argument 'seed2'").
    It fires in compiled code (jit entry points, Keras methods, tf.functions and what they call);
    in a module-level helper that nothing in the file compiles only with `--preview` (on real
    code every such finding was tf.data preprocessing, docs/known-results.md).

    ## Why is this bad?
    XLA needs shapes at compile time. From data, a random op or a loop variable the compile
    fails ("Input 1 to node `range` with op Range must be a compile-time constant"). From an
    argument, `jit_compile=True` bakes the value in and recompiles for every new value
    (`value_specialized`), and it fails outright when traced with `TensorSpec`s.

    ## Example
    ```python
    num_classes = tf.reduce_max(labels) + 1
    targets = tf.one_hot(labels, num_classes)
    ```

    ## Use instead
    ```python
    targets = tf.one_hot(labels, NUM_CLASSES)  # a Python constant from the config
    ```

    ## Fix safety
    `idx = tf.range(n)` that only feeds `tf.reduce_sum/mean/max/min(f(tf.gather(x, idx)))` (`f`
    elementwise) is fixed as a reduction over all of `x` with the rows from `n` on masked out
    (`tf.sequence_mask(n, len(x))`, given `x`'s rank). `x` is zeroed there before `f` and the
    result after it, so values and gradients equal the original's for every rank of `x`, inf and
    NaN in the masked-out rows included: this is safe for sums. A mean is unsafe (integer `x`
    gives a float64 mean), and so are max/min (a selected -inf ties with the fill and shares its
    gradient; XLA's max skips a NaN that eager returns).

    `r = tf.repeat(x, c, axis=k)` read once, as `tf.reduce_sum/mean(r, axis=k)`, becomes a
    reduction of `x` weighted by the counts (`w = tf.reshape(tf.cast(c, x.dtype), ...)`,
    `tf.reduce_sum(tf.where(w > 0, x * w, 0), axis=k)`, divided by the number of repeated rows
    for a mean): rows repeated zero times stay out, inf and NaN included, and the gradient is
    the count per row. Safe for a sum of integers; unsafe for floats (`x * c` is rounded once
    where the original adds c copies) and for a mean of values that may be integers (the
    original truncates).

    `y = tf.one_hot(ids, depth)` or `y = tf.math.unsorted_segment_sum(x, ids, n)` read once, as
    `tf.reduce_sum(y, axis=A)` with `A` covering the data-sized axis (the one-hot axis: `-1`, or
    a non-negative entry that the fixed code checks is the rank of `ids` while tracing, keeping
    the original call otherwise; the segment axis: `0`; or no `axis`), is summed over that axis
    first, which leaves a size-1 axis: the indicator of `0 <= ids < depth`, or the sum of `x`
    where `0 <= ids < n` (the ids the original keeps; it raises eagerly on ids `>= n`). Safe for
    sums of int32/int64; unsafe for floats (the sum runs in another order: the last bits may
    differ).

    `tnp.arange(n)` (no `dtype=`, an integer-literal step) on a tensor becomes `tf.range(n)`, the op
    tnp calls after testing its arguments in Python; unsafe because tnp promotes the result dtype
    the NumPy way (the same for integer tensors and Python ints, not always with Python floats).
    `layer(x[:, :n])` (directly or through a name only that call reads), with `layer` a Keras
    `LSTM`/`GRU`/`SimpleRNN`/`RNN` built once without `return_sequences`, `return_state`,
    `go_backwards`, `stateful` or `time_major`, becomes `layer(x, mask=...)` with the steps from
    `n` on masked: a masked step keeps the layer's output and state, so it returns the prefix's
    last output over a static time axis. Unsafe: a negative `n` counts from the end in the slice
    and masks every step here, inf/NaN past `n` reach the weight gradients as NaN, and `n == 0`
    returns the initial state's output where the original raises.
    `tf.reduce_sum/max/min(E, axis=k)` (or of every entry) and `tf.reduce_mean(E, axis=k)`, `E`
    elementwise in one prefix `x[:, :n]`, suffix `x[:, k0:]` or window `x[:, a:b]` cut on axis `k`
    (and numbers), reduce the whole tensors with the positions outside the cut masked by `tf.where`
    (0, -inf, inf; a mean divides by the number of kept positions),
    also through a name bound once to the prefix and read only by such reductions (`h = x[:, :n]`).
    Unsafe: a negative `n` counts from the end in the slice only, a non-finite derivative at a
    masked position gives a NaN gradient, the sum runs in another order, max/min need a float
    tensor, and an integer mean is truncated in the original.
    `tf.concat([a, b], axis=0)` of two pieces whose sizes split a static length `L` by a count `n`
    (two fills, `tf.ones([n])` and `tf.zeros([L - n])` in either order, or a prefix `x[:n]` of an `x`
    of length `L` then a fill of `L - n`) becomes `tf.where(tf.sequence_mask(n, L), A, B)` over
    whole pieces of length `L`. Unsafe: a size outside `[0, L]` raises in the original and is clamped
    here, and a negative prefix bound counts from the end in the slice only.
    A size read from `self.v`, bound once in `__init__` to `tf.Variable(value, trainable=False)`
    (`value` an int the constructor is given) and read everywhere in the file as a number only,
    keeps `value` itself: `self.v = value`. Unsafe: the layer tracks one variable fewer (weights,
    checkpoints), and a caller passing a tensor for `value` still gives no static size.
    Other shape arguments get no automatic fix: the static bound must come from the model's
    configuration.
    """

    code = "XLA205"
    fix = ("rewrite_masked", "rewrite_repeat_reduction", "rewrite_summed_size", "rewrite_numpy_arange",
           "rewrite_rnn_prefix_mask", "rewrite_prefix_reduction", "rewrite_concat_fills",
           "rewrite_variable_size", "rewrite_shape_argument")
    name = "data-dependent-shape-argument"
    severity = Severity.RECOMPILE
    node_types = (ast.Call, ast.Subscript)
    preview_levels = frozenset({Level.HELPER})  # real code: helpers nothing here compiles were tf.data code

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    b, n = tf.shape(x)[0], tf.shape(x)[1]\n    return tf.reshape(x, [b * n, -1])\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels):\n"
                "    return tf.one_hot(labels, 10)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(iou):\n"
                "    pos = tf.where(iou > 0.5)[:, 0]\n    return tf.range(tf.size(pos))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    total = tf.constant(0.0)\n"
                "    for i in tf.range(4):\n        total += tf.reduce_sum(x[i * 2:(i + 1) * 2])\n"
                "    start = tf.argmax(tf.reduce_sum(x, axis=1))\n    return total + x[start:start + 3]\n"),
        Example("import tensorflow as tf\ndef paint(idx, v, height=3, width=4):\n"
                "    return tf.scatter_nd(idx, v, shape=[height, width])\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(ids, seq):\n"
                "    return tf.map_fn(lambda i: tf.reduce_sum(seq[i:i + 2]) + tf.one_hot(i, 5)[0], ids,\n"
                "                     fn_output_signature=tf.float32)\n"),
        # the call site passes Python ints: tf.function bakes them into the trace (compiles under XLA)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, k, n):\n"
                "    return tf.math.cumsum(x, axis=k) + tf.eye(n)\n"
                "def main():\n    return f(tf.ones([3, 3]), 1, 3)\n"),
        # a range() counter at the call site is a Python int too (XLA403 reports the retrace per value)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, n):\n"
                "    return tf.reduce_sum(x[:n])\n"
                "def main(x):\n    out = []\n    for n in range(1, 4):\n        out.append(f(x, n))\n"
                "    for i, row in enumerate(out):\n        out[i] = row + f(x, i)\n    return out\n"),
        # a helper of another module returns a tensor or a structure (here a shape list), not the
        # random values of its argument (google-research/pix2seq's utils.shape_as_list)
        Example("import tensorflow as tf\nimport utils\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    x = x + tf.random.normal(tf.shape(x))\n    sh = utils.shape_as_list(x)\n"
                "    return tf.reshape(x, sh[:-1] + [3, sh[-1] // 3])\n"),
        # an op-level seed given as a Python int (a config constant) is baked into the trace
        Example("import tensorflow as tf\nSEED = 7\n@tf.function(jit_compile=True)\ndef jitter(x, scale):\n"
                "    return x + scale * tf.random.uniform(tf.shape(x), seed=SEED)\n"),
        # a packed shape of `tf.shape` elements and a Python int attribute (tensorflow#108073's fix, #108495)
        Example("import tensorflow as tf\nclass Heads(tf.keras.layers.Layer):\n    def __init__(self, d_model):\n"
                "        super().__init__()\n        self.d_model = d_model\n    def call(self, x):\n"
                "        batch, length = tf.shape(x)[0], tf.shape(x)[1]\n"
                "        return tf.reshape(x, (batch, -1, self.d_model))\n"),
        # a layer's call argument that its caller in the file sets from a static shape
        Example("import tensorflow as tf\nclass Crop(tf.keras.layers.Layer):\n    def call(self, x, n):\n"
                "        return x[:, :n]\nclass M(tf.keras.Model):\n"
                "    def __init__(self):\n        super().__init__()\n"
                "        self.crop = Crop()\n    def call(self, x):\n        return self.crop(x, x.shape[1] // 2)\n"),
    )

    INVALID = (
        Example("import tensorflow as tf\ndef ce(labels, probs):\n    n = tf.reduce_max(labels) + 1\n"
                "    return tf.one_hot(labels, n) * probs\n"
                "@tf.function(jit_compile=True)\ndef step(labels, probs):\n    return ce(labels, probs)\n",
                expected=(
                    (4, 12, '`depth` of tf.one_hot is computed from tensor values: XLA needs it at compile time, so '
                            'this fails to compile or recompiles for every value; use a static size (config '
                            'constant, x.shape) or pad to a fixed bound (compiled: called from step() at line 6)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, lengths):\n"
                "    max_len = tf.reduce_max(lengths)\n    return x[:, :max_len]\n",
                expected=(
                    (5, 12, "slice bound computed from tensor values: the result's shape depends on data, so XLA "
                            'recompiles for every value (or fails when the bound is not an argument); slice to a '
                            'static bound and mask instead (compiled: decorated with tf.function(jit_compile=True) '
                            'at line 2)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    total = tf.constant(0.0)\n"
                "    for i in tf.range(1, tf.shape(x)[0] + 1):\n"
                "        total += tf.reduce_sum(tf.gather(x, tf.range(i)))\n"
                "    return total\n",
                expected=(
                    (6, 45, '`limit` of tf.range is computed from tensor values: XLA needs it at compile time, so '
                            'this fails to compile or recompiles for every value; use a static size (config '
                            'constant, x.shape) or pad to a fixed bound (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(features, target_hw):\n"
                "    return tf.image.resize(features, target_hw)\n",
                expected=(
                    (4, 12, '`size` of tf.image.resize is computed from tensor values: XLA needs it at compile time, '
                            'so this fails to compile or recompiles for every value; use a static size (config '
                            'constant, x.shape) or pad to a fixed bound (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(lengths):\n"
                "    return tf.map_fn(lambda n: tf.reduce_sum(tf.ones([n])), lengths, "
                "fn_output_signature=tf.float32)\n",
                expected=(
                    (4, 46, '`shape` of tf.ones is computed from tensor values: XLA needs it at compile time, so '
                            'this fails to compile or recompiles for every value; use a static size (config '
                            'constant, x.shape) or pad to a fixed bound (compiled: nested in f() at line 3)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    def body(i, acc):\n"
                "        return i + 1, acc + tf.reduce_sum(tf.range(i))\n"
                "    return tf.while_loop(lambda i, acc: i < 4, body, (0, 0))[1]\n",
                expected=(
                    (5, 43, '`limit` of tf.range is computed from tensor values: XLA needs it at compile time, so '
                            'this fails to compile or recompiles for every value; use a static size (config '
                            'constant, x.shape) or pad to a fixed bound (compiled: called from f() at line 3)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(counts):\n"
                "    total = tf.scan(lambda acc, c: acc + c, counts)[-1]\n    return tf.zeros([total])\n",
                expected=(
                    (5, 12, '`shape` of tf.zeros is computed from tensor values: XLA needs it at compile time, so '
                            'this fails to compile or recompiles for every value; use a static size (config '
                            'constant, x.shape) or pad to a fixed bound (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(images, zoom):\n"
                "    size = tf.cast(tf.cast(tf.shape(images)[1:3], tf.float32) * zoom, tf.int32)\n"
                "    return tf.image.resize(images, size)\n",
                expected=(
                    (5, 12, '`size` of tf.image.resize is computed from tensor values: XLA needs it at compile time, '
                            'so this fails to compile or recompiles for every value; use a static size (config '
                            'constant, x.shape) or pad to a fixed bound (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
        # tf.experimental.numpy compares its sizes in Python (tables.PYTHON_ARGS_SUPPLEMENT): a shape fails too
        Example("import tensorflow as tf\nimport tensorflow.experimental.numpy as tnp\n"
                "@tf.function(jit_compile=True)\ndef positions(tokens):\n"
                "    return tnp.arange(tf.shape(tokens)[1])\n",
                expected=(
                    (5, 12, '`start` of tnp.arange is a tensor, but tnp.arange needs a Python value there: it '
                            'compares or converts it in Python while tracing, so tracing fails ("Using a symbolic '
                            'tf.Tensor as a Python bool") even for a shape; use a static size (x.shape[i], a config '
                            'constant) or the tf.* op (compiled: decorated with tf.function(jit_compile=True) at '
                            'line 3)'),
                )),
        # the op-level seed of a stateful random op must be a Python int (generated table: py_args)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef augment(images, step):\n"
                "    seed = tf.cast(step, tf.int32) % 1000\n"
                "    return tf.image.random_flip_left_right(images, seed=seed)\n",
                expected=(
                    (5, 12, '`seed` of tf.image.random_flip_left_right is a tensor, but '
                            'tf.image.random_flip_left_right needs a Python int there: tracing turns the op-level '
                            'seed into an op attribute, so it fails ("Expected int for argument \'seed2\'"); pass '
                            'a Python integer seed (compiled: decorated with tf.function(jit_compile=True) at line 2)'),
                )),
        # a seed handed in as an argument: a tensor fails, a Python int recompiles per value (the message says both)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef jitter(boxes, seed):\n"
                "    return boxes + tf.random.normal(tf.shape(boxes), stddev=0.01, seed=seed)\n",
                expected=(
                    (4, 20, '`seed` of tf.random.normal comes from an argument of the compiled function: a tensor '
                            'there fails ("Expected int for argument \'seed2\'"), and a Python int retraces and '
                            'recompiles for every new value; pass one fixed Python integer seed (a config constant) '
                            'or use tf.random.stateless_* with a seed tensor (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
        # one element of a packed shape read from a variable: the `tf.shape` elements do not make the
        # shape a compile-time constant (tensorflow#108073: d_model kept in a tf.Variable)
        Example("import tensorflow as tf\nclass Heads(tf.keras.layers.Layer):\n    def __init__(self, d_model):\n"
                "        super().__init__()\n        self.d_model = tf.Variable(d_model, trainable=False)\n"
                "    def call(self, x):\n        batch, length = tf.shape(x)[0], tf.shape(x)[1]\n"
                "        return tf.reshape(x, (batch, -1, self.d_model))\n",
                expected=(
                    (8, 16, '`shape` of tf.reshape is computed from tensor values: XLA needs it at compile time, so '
                            'this fails to compile or recompiles for every value; use a static size (config '
                            'constant, x.shape) or pad to a fixed bound (compiled: Keras call() at line 6)'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        entry = ctx.function.jit_entry
        if isinstance(node, ast.Subscript):
            if not ctx.function.jax:  # JAX: XLA207's slice check (jax.jit neither bounds nor specializes)
                self._slice(node, ctx, entry)
            return
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None:
            return
        if name.startswith(("jnp.", "jax.", "lax.")):
            return  # JAX: XLA207 (jax.jit has no bounded dynamic shapes and no value specialization)
        for keyword, arg in python_arguments(name, node):
            k = ctx.flags(arg)
            if k & TENSOR and not k & PYLIST and k & (OP | DATA | SHAPE | RANDOM | LOOP | VARIABLE | CONST):
                # a computed tensor (a bare parameter may hold a Python number)
                if keyword == "seed":  # the op-level seed of a stateful random op (random_seed.get_seed)
                    ctx.report(self, node,
                               f"`seed` of {name} is a tensor, but {name} needs a Python int there: tracing turns "
                               "the op-level seed into an op attribute, so it fails (\"Expected int for argument "
                               "'seed2'\"); pass a Python integer seed (compiled: "
                               f"{ctx.function.evidence})")
                    return
                ctx.report(self, node,
                           f"`{keyword}` of {name} is a tensor, but {name} needs a Python value there: it compares or "
                           "converts it in Python while tracing, so tracing fails (\"Using a symbolic tf.Tensor as a "
                           "Python bool\") even for a shape; use a static size (x.shape[i], a config constant) or the "
                           f"tf.* op (compiled: {ctx.function.evidence})")
                return
        helper = ctx.function.level in (Level.HELPER, Level.GRAPH)
        for keyword, arg in static_arguments(name, node):
            if name == "tf.range" and keyword == "start" and len(node.args) == 1 and not node.keywords:
                keyword = "limit"  # tf.range(n): the one positional argument is the limit
            if _bad_argument(arg, ctx, entry, helper):
                if keyword == "seed":  # an op-level seed: an int attribute, never a size to pad
                    ctx.report(self, node,
                               f"`seed` of {name} comes from an argument of the compiled function: a tensor there "
                               "fails (\"Expected int for argument 'seed2'\"), and a Python int retraces and "
                               "recompiles for every new value; pass one fixed Python integer seed (a config "
                               f"constant) or use tf.random.stateless_* with a seed tensor (compiled: "
                               f"{ctx.function.evidence})")
                    return
                ctx.report(self, node,
                           f"`{keyword}` of {name} is computed from tensor values: XLA needs it at compile time, "
                           "so this fails to compile or recompiles for every value; use a static size "
                           f"(config constant, x.shape) or pad to a fixed bound (compiled: {ctx.function.evidence})")
                return

    def _slice(self, node: ast.Subscript, ctx: RuleContext, entry: bool) -> None:
        if not isinstance(node.ctx, ast.Load) or not ctx.flags(node.value) & TENSOR:
            return
        sl = node.slice
        parts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        for part in parts:
            if isinstance(part, ast.Slice):
                if _static_width(part.lower, part.upper, ctx):
                    continue  # a dynamic-slice of a static size
                for bound in (part.lower, part.upper):
                    if bound is not None and _bad_flags(ctx.flags(bound), entry, ctx.function.level in (Level.HELPER, Level.GRAPH)):
                        ctx.report(self, node,
                                   "slice bound computed from tensor values: the result's shape depends on data, "
                                   "so XLA recompiles for every value (or fails when the bound is not an argument);"
                                   f" slice to a static bound and mask instead (compiled: {ctx.function.evidence})")
                        return
