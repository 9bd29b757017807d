"""XLA412: a ``tf.function`` argument sliced by a Python int that changes every iteration: a new shape per call."""

from __future__ import annotations

import ast

from xlacheck import retrace_table
from xlacheck.analysis.module_index import ModuleIndex, is_true
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    TF_SHAPE_KEEPING,
    bound_arguments,
    in_test,
    loop_varying_names,
    padding_to_longest,
    params_varied_by_callers,
    positional_params,
    runs_traced,
    varying_slice,
)
from xlacheck.rules._remainder_windows import FROM_ROWS, padded_rows, remainder_window
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Calls that keep the shape of their first argument (a slice wrapped before the compiled call).
_SHAPE_KEEPING = TF_SHAPE_KEEPING
# Constructors whose result's shape is their shape argument (position 0 or ``shape=``): ``tf.zeros([t, 4])``
# has a new shape whenever ``t`` changes (measured: ``numpy_array_shape_changes`` in
# xlacheck/data/tf_retrace.json, one trace per length). ``np.array([t, t + 1])`` is not one: a new
# value of one shape does not retrace (``numpy_array_value_changes``).
_SHAPED_BY_ARGUMENT = frozenset({"tf.zeros", "tf.ones", "tf.fill", "tf.random.uniform", "tf.random.normal",
                                 "np.zeros", "np.ones", "np.empty", "np.full", "np.random.rand"})
# Constructors whose length is ``stop - start``: one moving bound changes the length (a window does not).
_RANGES = frozenset({"tf.range", "np.arange"})
# Options that make tf.function generalize shapes after a retrace: with them the cost is bounded
# (two traces) without jit_compile, and XLA408 covers them under jit_compile.
_RELAX = ("reduce_retracing", "experimental_relax_shapes")


class TfFunctionArgumentShapePerIteration(ModuleRule):
    """
    ## What it does
    Flags a call, inside a loop, of a `tf.function` of this file (decorated, or
    `name = tf.function(f, ...)`) without an `input_signature` or `reduce_retracing`, whose argument
    is a slice with exactly one bound that changes every iteration (`tokens[:, :t]` in a decoding
    loop, `x[start:]` with `start += n`): passed directly, as an item of a dict, list or tuple
    display (`{"input_ids": ids[:, :t]}`), through a name the loop assigns, or through
    `tf.convert_to_tensor`/`tf.constant`/`tf.cast`; or a tensor or array built with a shape that
    follows the loop (`tf.zeros([t, d])`, `np.ones((n,))`, `tf.range(t)`: measured, one trace per
    length; an array of new values and one shape, `np.array([t, t + 1])`, traces once); also such
    an argument handed by the loop to a helper of this file that passes it on to the `tf.function`
    (one level of helpers), or built by such a helper with a shape from its own parameter, which a
    call in a loop of this file passes a value that changes every iteration (`run_step(i)` in the
    loop, `step(tf.ones((i + 2, 3)))` in `run_step`); or what a builder of this file returns when the loop binds the
    parameter that sizes it to a loop-varying name (`x, y = make_batch(seq_len)` or
    `step(*make_batch(seq_len))` where `make_batch` returns `tf.constant(rng.normal(size=(b,
    seq_len, 2)))`: `tf.zeros`/`np.zeros`-style shapes and NumPy random draws' `size=`, through
    names it assigns once, `tf.constant` and `.astype`); or the batch Keras `pad_sequences` pads, without
    `maxlen`, to the longest of the loop's own sequences (`ids = pad_sequences(seqs)` for `seqs` in the
    loop, then `step(tf.constant(ids))`: documented to pad to the longest sequence it is given, so each
    batch has its own length; a `maxlen`, or one padding of the whole corpus before the loop, gives one
    shape). Under the jit-compiled declaration a
    function that calls one of this file's `tf.function`s in such a loop is driver code, not a
    compiled root.
    Under `jit_compile=True`, also a fixed-width window of a loop that steps by its width, whose
    last window is shorter unless the length is a multiple of the step: `x[i:i + bs]` for `i` in
    `range(0, len(x), bs)` (or up to a count or parameter `n`; `x[i * bs:(i + 1) * bs]` for `i` in
    `range(ceil(len(x) / bs))`), passed directly, through `tf.constant`, or as the item of a loop over
    a list of such windows (a comprehension, a name bound to one, a function of this file that
    returns one or yields the windows); not when the stop or the sliced array is computed with the
    step (`len(x) - bs + 1`, `n // bs * bs`, `tf.pad(x, [[0, (-n) % bs], ...])`) or the constants
    divide (measured: `stepped_windows_last_shorter` in `xlacheck/data/tf_retrace.json` traces and
    compiles again for the last window, `stepped_windows_exact_multiple` once; without
    `jit_compile` the one extra trace per process is bounded and not flagged).
    Any other slice whose two bounds both move
    (`x[i * bs:(i + 1) * bs]`, `tokens[:, t - w:t]`: a window of fixed size) is not flagged, nor is
    a slice by the target of a loop over a display of constants (`for n in (8, 16, 32)`: each
    length traces once, then hits the cache). Calls inside traced code and in tests are left out.

    ## Why is this bad?
    A `tf.function` keys its traces on the shapes of its tensor arguments. A slice whose length
    follows the loop counter has a new shape on every iteration, so every iteration traces the
    function again and, with `jit_compile=True`, compiles it again with XLA (measured on TF 2.21:
    a prefix sliced by the step traces and compiles once per step; a fixed-width window once).
    TensorFlow warns about excessive retracing only after several.

    ## Example
    ```python
    for t in range(prompt_len, max_len):
        logits = next_token_logits(tokens[:, :t])
        tokens = tf.tensor_scatter_nd_update(tokens, ..., tf.argmax(logits, -1, output_type=tokens.dtype))
    ```

    ## Use instead
    ```python
    for t in range(prompt_len, max_len):
        logits = next_token_logits(tokens, tf.constant(t))  # the whole buffer; mask or gather at t inside
        tokens = tf.tensor_scatter_nd_update(tokens, ..., tf.argmax(logits, -1, output_type=tokens.dtype))
    ```

    ## Fix safety
    No automatic fix: the function must take the fixed-size buffer with the position or a mask.
    """

    code = "XLA412"
    fix = None
    name = "tf-function-argument-shape-per-iteration"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(w, x):\n"
                "    return w * tf.reduce_sum(x)\n"
                "def run(w, data, bs):\n    for i in range(len(data) // bs):\n"
                "        w = step(w, data[i * bs:(i + 1) * bs])\n    return w\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef logits(context):\n"
                "    return tf.reduce_sum(context, axis=1)\n"
                "def decode(tokens, start, end, window):\n    for t in range(start, end):\n"
                "        logits(tokens[:, t - window:t])\n"),
        Example("import tensorflow as tf\n@tf.function(reduce_retracing=True)\ndef score(x):\n"
                "    return tf.reduce_mean(x)\n"
                "def run(x):\n    return [score(x[:n]) for n in range(1, 8)]\n"),
        Example("import tensorflow as tf\n@tf.function\ndef step(x):\n    return tf.reduce_sum(x)\n"
                "def test_prefixes(x):\n    for t in range(1, 4):\n        step(x[:t])\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef score(x):\n    return tf.reduce_mean(x)\n"
                "def probe(x):\n    return [score(x[:n]) for n in (8, 16, 32)]\n"),
        # shaped by the batch it goes with (len(x), x.shape[0]): one shape per batch size, one trace
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function\ndef step(x, w):\n"
                "    return tf.reduce_sum(x * w)\ndef run(batches):\n    for x in batches:\n"
                "        step(x, tf.ones([len(x), 4]))\n        step(x, np.zeros((x.shape[0], 4), np.float32))\n"),
        # a name bound once to a display of constants (keras-cv's benchmarks): one trace per size
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef score(x):\n    return tf.reduce_mean(x)\n"
                "def sweep(x):\n    sizes = [1000, 2000, 3000]\n    for n in sizes:\n        score(x[:n])\n"
                "        score(x[:n])\n"),
        # a tensor of one shape with new values, through a helper (tf-retrace13)
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def step(x, buf):
                return tf.reduce_sum(x) + tf.reduce_sum(buf)
            def run_step(x, buf):
                return step(x, buf)
            def train(x, steps):
                for t in range(steps):
                    run_step(x, tf.zeros([4, 3]) + float(t))
        """),
        # a builder of this file whose parameter is only a seed: one shape every iteration (reports19-tf)
        Example("""
            import numpy as np
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def noisy_batch(seed):
                rng = np.random.default_rng(seed)
                return tf.constant(rng.normal(size=(8, 3)))
            def train(steps):
                for s in range(steps):
                    step(noisy_batch(s))
        """),
        # a builder sized by the target of a loop over a display of constants: each size traces once
        Example("""
            import tensorflow as tf
            @tf.function
            def score(a, b):
                return tf.reduce_sum(a) * tf.reduce_sum(b)
            def pair(n):
                return tf.ones([n, 2]), tf.ones([3])
            def probe():
                return [score(*pair(n)) for n in (16, 32, 64)]
        """),
        # fixed-width windows of an array padded to a whole number of them, or only full windows
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def predict(x):
                return tf.reduce_sum(x, axis=-1)
            def apply(windows, chunk):
                n = windows.shape[0]
                padded = tf.pad(windows, [[0, (-n) % chunk], [0, 0]])
                for start in range(0, padded.shape[0], chunk):
                    predict(padded[start:start + chunk])
                for start in range(0, len(windows) - chunk + 1, chunk):
                    predict(windows[start:start + chunk])
        """),
        # without jit_compile the last, shorter window traces once more per process: bounded
        Example("""
            import tensorflow as tf
            @tf.function
            def predict(x):
                return tf.reduce_sum(x, axis=-1)
            def apply(windows, chunk):
                return [predict(windows[i:i + chunk]) for i in range(0, len(windows), chunk)]
        """),
        # rows padded by hand to a fixed length: one shape
        Example("""
            import tensorflow as tf
            PAD_TO = 8
            @tf.function(jit_compile=True)
            def generate(ids):
                return tf.reduce_sum(ids, axis=1)
            def evaluate(prompt_batches):
                for prompts in prompt_batches:
                    generate(tf.constant([[0] * (PAD_TO - len(p)) + p for p in prompts], tf.int32))
        """),
        # the helper's parameter is the same at every call: one shape
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def step(x):
                return tf.reduce_sum(tf.tanh(x))
            def run_step(n):
                return step(tf.ones((n + 2, 3)))
            def train(steps):
                for i in range(steps):
                    run_step(4)
        """),
        # pad_sequences told its length (maxlen): every batch has one shape
        Example("""
            import tensorflow as tf
            from tensorflow.keras.preprocessing.sequence import pad_sequences
            encode = tf.function(lambda ids: tf.reduce_sum(ids, axis=1), jit_compile=True)
            def run(batches):
                return [encode(pad_sequences(seqs, maxlen=64)) for seqs in batches]
        """),
        # the whole corpus padded once, before the loop: one length for every epoch
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def encode(ids):
                return tf.reduce_sum(ids, axis=1)
            def run(corpus, epochs):
                ids = tf.constant(tf.keras.utils.pad_sequences(corpus))
                return [encode(ids) for _ in range(epochs)]
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef next_logits(prefix):\n"
                "    return tf.reduce_sum(prefix, axis=1)\n"
                "def decode(tokens, start, end):\n    for t in range(start, end):\n"
                "        logits = next_logits(tokens[:, :t])\n"
                "        tokens = tf.tensor_scatter_nd_update(tokens, [[0, t]], tf.cast(logits[:1], tokens.dtype))\n"
                "    return tokens\n",
                expected=(
                    (7, 30, 'argument `prefix` of tf.function `next_logits` is sliced by `t`, which changes on '
                            'every iteration: each call passes a new shape, so it traces and XLA compiles again every '
                            'iteration; pass the fixed-size buffer with the position (or a mask), or bucket the '
                            'lengths'),
                )),
        Example("import tensorflow as tf\n@tf.function\ndef score(x):\n    return tf.reduce_mean(x ** 2)\n"
                "def stream(x, chunk):\n    start, out = 0, []\n    while start < x.shape[0]:\n"
                "        rest = x[start:]\n        out.append(score(rest))\n        start += chunk\n    return out\n",
                expected=(
                    (9, 26, 'argument `x` of tf.function `score` is sliced by `start`, which changes on every '
                            'iteration: each call passes a new shape, so it traces again every iteration; pass the '
                            'fixed-size buffer with the position (or a mask), or bucket the lengths'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef forward(inputs):\n"
                "    return tf.reduce_sum(inputs['input_ids'] * inputs['attention_mask'], axis=1)\n"
                "def generate(ids, mask, max_len):\n    for t in range(1, max_len):\n"
                "        forward({'input_ids': ids[:, :t], 'attention_mask': mask[:, :t]})\n",
                expected=(
                    (7, 17, 'an item of argument `inputs` of tf.function `forward` is sliced by `t`, which changes on '
                            'every iteration: each call passes a new shape, so it traces and XLA compiles again every '
                            'iteration; pass the fixed-size buffer with the position (or a mask), or bucket the '
                            'lengths'),
                )),
        Example("import tensorflow as tf\n@tf.function\ndef energy(x):\n    return tf.reduce_sum(x * x)\n"
                "def sweep(n, d):\n    return [energy(tf.random.normal([t, d])) for t in range(1, n)]\n",
                expected=(
                    (6, 20, 'argument `x` of tf.function `energy` is sized by `t`, which changes on every iteration: '
                            'each call passes a new shape, so it traces again every iteration; pass the fixed-size '
                            'buffer with the position (or a mask), or bucket the lengths'),
                )),
        # a tensor sized by the loop counter, handed to a helper that passes it on (tf-retrace13)
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def step(x, buf):
                return tf.reduce_sum(x) + tf.reduce_sum(buf)
            def run_step(x, buf):
                return step(x, buf)
            def train(x, steps):
                for t in range(steps):
                    run_step(x, tf.zeros([t + 1, 3]))
        """,
                expected=(
                    (6, 20, 'argument `buf` of tf.function `step` is sized by `t` (`run_step()` receives it '
                            'from line 9), which changes on every iteration: each call passes a new shape, so '
                            'it traces and XLA compiles again every iteration; pass the fixed-size buffer '
                            'with the position (or a mask), or bucket the lengths'),
                )),
        # a builder of this file sizes what it returns by its parameter; the loop unpacks it (reports19-tf)
        Example("""
            import numpy as np
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def fit_step(frames, labels):
                return tf.reduce_mean(frames) + tf.reduce_mean(labels)
            def clip(num_frames, seed):
                rng = np.random.default_rng(seed)
                frames = rng.uniform(size=(2, num_frames, 5)).astype("float32")
                return tf.constant(frames), tf.zeros([2])
            def train(durations):
                for d in durations:
                    frames, labels = clip(d, 0)
                    fit_step(frames, labels)
        """,
                expected=(
                    (13, 18, 'argument `frames` of tf.function `fit_step` is sized by `d`, which changes on every '
                             'iteration: each call passes a new shape, so it traces and XLA compiles again every '
                             'iteration; pass the fixed-size buffer with the position (or a mask), or bucket the '
                             'lengths'),
                )),
        # the builder's tuple starred into the call
        Example("""
            import tensorflow as tf
            @tf.function
            def score(a, b):
                return tf.reduce_sum(a) * tf.reduce_sum(b)
            def pair(n):
                return tf.ones([n, 2]), tf.ones([3])
            def sweep(limit):
                return [score(*pair(n)) for n in range(1, limit)]
        """,
                expected=(
                    (8, 19, 'argument `a` of tf.function `score` is sized by `n` (item 0 of what `pair()` returns), '
                            'which changes on every iteration: each call passes a new shape, so it traces again every '
                            'iteration; pass the fixed-size buffer with the position (or a mask), or bucket the '
                            'lengths'),
                )),
        # the last of fixed-width windows is shorter (stepped_windows_last_shorter), under jit_compile
        Example("""
            import tensorflow as tf
            class Classifier:
                def __init__(self, model):
                    self.predict_fn = tf.function(model, jit_compile=True)
                def apply(self, windows, chunk=3):
                    return [self.predict_fn(windows[s:s + chunk]) for s in range(0, windows.shape[0], chunk)]
        """,
                expected=(
                    (6, 33, 'argument 1 of tf.function `predict_fn` is the slice `windows[s:s + chunk]` of a loop '
                            'over `range(0, windows.shape[0], chunk)`: the last batch is shorter whenever '
                            'len(windows) is not a multiple of chunk, a new shape, so it traces and XLA compiles '
                            'again for it (once per distinct remainder); drop the remainder '
                            '(`range(0, len(x) - bs + 1, bs)`) or pad the last batch to the full size with a mask'),
                )),
        # the windows listed by a helper of this file, iterated by the evaluation loop
        Example("""
            import numpy as np
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def predict(images):
                return tf.reduce_mean(images, axis=[1, 2])
            def epoch_batches(images, batch_size=8):
                return [images[i:i + batch_size] for i in range(0, len(images), batch_size)]
            def evaluate(images):
                return np.concatenate([predict(tf.constant(b)).numpy() for b in epoch_batches(images)])
        """,
                expected=(
                    (9, 36, 'argument `images` of tf.function `predict` comes from `epoch_batches()`, which returns '
                            'a list of the slice `images[i:i + batch_size]` of a loop over `range(0, len(images), '
                            'batch_size)`: the last batch is shorter whenever len(images) is not a multiple of '
                            'batch_size, a new shape, so it traces and XLA compiles again for it (once per distinct '
                            'remainder); drop the remainder (`range(0, len(x) - bs + 1, bs)`) or pad the last batch '
                            'to the full size with a mask'),
                )),
        # rows padded by hand to each batch's own longest
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def generate(ids):
                return tf.reduce_sum(ids, axis=1)
            def evaluate(prompt_batches):
                for prompts in prompt_batches:
                    longest = max(len(p) for p in prompts)
                    generate(tf.constant([[0] * (longest - len(p)) + p for p in prompts], tf.int32))
        """,
                expected=(
                    (8, 18, 'argument `ids` of tf.function `generate` is sized by `longest`, which changes on every '
                            'iteration: each call passes a new shape, so it traces and XLA compiles again every '
                            'iteration; pass the fixed-size buffer with the position (or a mask), or bucket the '
                            'lengths'),
                )),
        # sized in a helper by its parameter, which the training loop passes its counter
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def step(x):
                return tf.reduce_sum(tf.tanh(x))
            def run_step(i):
                return step(tf.ones((i + 2, 3)))
            def train(steps):
                for i in range(steps):
                    run_step(i)
        """,
                expected=(
                    (6, 17, 'argument `x` of tf.function `step` is sized by `i`, which `run_step()` receives with '
                            'a new value on every iteration of the loop at line 9: each call passes a new shape, so '
                            'it traces and XLA compiles again every iteration; pass the fixed-size buffer with the '
                            'position (or a mask), or bucket the lengths'),
                )),
        # each batch padded to its own longest sequence (pad_sequences without maxlen), then compiled
        Example("""
            import tensorflow as tf
            from tensorflow.keras.preprocessing.sequence import pad_sequences
            class Trainer:
                @tf.function(jit_compile=True)
                def step(self, ids):
                    return tf.reduce_sum(ids, axis=1)
                def fit(self, batches):
                    for seqs in batches:
                        padded = pad_sequences(seqs, padding="post")
                        self.step(tf.constant(padded))
        """,
                expected=(
                    (10, 23, 'argument `ids` of tf.function `step` is padded by pad_sequences (no maxlen) to the '
                             'longest sequence of `seqs`, which changes on every iteration: each call passes a new '
                             'shape, so it traces and XLA compiles again every iteration; pass the fixed-size buffer '
                             'with the position (or a mask), or bucket the lengths'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not index.tf_functions and not index.imports_tf_functions:
            return
        for call, _ in index.calls:
            tfn = index.tf_function_called(call)
            if tfn is None or tfn.has_input_signature:
                continue
            if any(is_true(tfn.keyword(k)) for k in _RELAX) and retrace_table.bounded(
                    "tensor_shape_changes_reduce_retracing"):
                continue  # one retrace, then the relaxed trace (measured); XLA408 covers jit_compile
            loops = index.loops_around(call)
            if in_test(index, ctx.path, call) or (runs_traced(ctx.facts, index, call)
                                                  and not _declared_driver(ctx, call)):
                continue
            params: list[str] = []
            if tfn.definition is not None:
                params = positional_params(tfn.definition)
                if tfn.is_method and params[:1] == ["self"]:
                    params = params[1:]
            bound = bound_arguments(params, call)
            compiles = " and XLA compiles" if is_true(tfn.keyword("jit_compile")) else ""
            if not loops:
                if not self._through_helper(ctx, call, tfn.name, bound, compiles):
                    self._built_from_caller_value(ctx, call, tfn.name, bound, compiles)
                continue
            if self._remainder(ctx, call, tfn.name, bound, loops, compiles):
                continue
            varying = loop_varying_names(index, call)
            if not varying:
                continue
            for param, arg in bound:
                hit = _hit(index, arg, varying, loops)
                if hit is not None:
                    item, name, how = hit
                    what = _argument(param) if item is arg else f"an item of {_argument(param)}"
                    ctx.report(self, arg, f"{what} of tf.function `{tfn.name}` is {how} `{name}`, "
                                          "which changes on every iteration: each call passes a new shape, so it "
                                          f"traces{compiles} again every iteration; pass the fixed-size buffer with "
                                          "the position (or a mask), or bucket the lengths")
                    break
            else:
                self._starred_builder(ctx, call, tfn.name, params, varying, loops, compiles)

    def _remainder(self, ctx: ModuleContext, call: ast.Call, callee: str, bound: list[tuple[str, ast.expr]],
                   loops: list[ast.AST], compiles: str) -> bool:
        """Under ``jit_compile``, an argument that is a fixed-width window of a loop stepping by its
        width, the last one shorter (:func:`remainder_window`; measured: ``stepped_windows_last_shorter``
        traces and compiles again for the last window, ``stepped_windows_exact_multiple`` does not)."""
        if not compiles or retrace_table.hazard("stepped_windows_last_shorter") != "retrace":
            return False  # without jit_compile one more trace per process: bounded, as a last partial batch
        for param, arg in bound:
            window = remainder_window(ctx.index, arg, loops, _SHAPE_KEEPING)
            if window is not None:
                ctx.report(self, arg, f"{_argument(param)} of tf.function `{callee}` {window.origin()} "
                                      f"{window.slice_text()}: {window.last_shorter()}, a new shape, so it "
                                      f"traces{compiles} again for it (once per distinct remainder); drop the "
                                      "remainder (`range(0, len(x) - bs + 1, bs)`) or pad the last batch to the "
                                      "full size with a mask")
                return True
        return False

    def _starred_builder(self, ctx: ModuleContext, call: ast.Call, callee: str, params: list[str],
                         varying: set[str], loops: list[ast.AST], compiles: str) -> None:
        """``step(*make_batch(n))`` in a loop: the items of the tuple a builder of this file returns
        become the positional arguments from the star on; one sized by a parameter that the loop
        binds to a loop-varying name is a new shape per iteration."""
        index = ctx.index
        for pos, arg in enumerate(call.args):
            if not (isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Call)):
                continue
            for j, name in _builder_items_shaped(index, arg.value, varying):
                if j is None or _fixed_display_target(index, loops, name):
                    continue
                param = params[pos + j] if pos + j < len(params) else f"#{pos + j}"
                ctx.report(self, arg, f"argument `{param}` of tf.function `{callee}` is sized by `{name}` "
                                      f"(item {j} of what `{ast.unparse(arg.value.func)}()` returns), which changes "
                                      "on every iteration: each call passes a new shape, so it "
                                      f"traces{compiles} again every iteration; pass the fixed-size buffer with "
                                      "the position (or a mask), or bucket the lengths")
                return

    def _built_from_caller_value(self, ctx: ModuleContext, call: ast.Call, callee: str,
                                 bound: list[tuple[str, ast.expr]], compiles: str) -> None:
        """``call`` (outside loops) passes a tensor sized or sliced by a parameter of the function
        around it, and a call of that function inside a loop of this file passes the parameter a
        value that changes every iteration (``run_step(i)`` in ``for i in range(steps)``, then
        ``step(tf.ones((i + 2, 3)))`` in ``run_step``): the loop-variable fact one level of callers
        further, as XLA416 follows it (measured: ``tensor_shape_changes``, one trace per shape)."""
        index = ctx.index
        from_callers = params_varied_by_callers(index, ctx.path, call)
        if not from_callers:
            return
        for param, arg in bound:
            hit = _hit(index, arg, set(from_callers), [])
            if hit is not None:
                item, name, how = hit
                what = _argument(param) if item is arg else f"an item of {_argument(param)}"
                ctx.report(self, arg, f"{what} of tf.function `{callee}` is {how} `{name}`, which "
                                      f"{from_callers[name].words()}: "
                                      f"each call passes a new shape, so it traces{compiles} again every "
                                      "iteration; pass the fixed-size buffer with the position (or a mask), or "
                                      "bucket the lengths")
                return

    def _through_helper(self, ctx: ModuleContext, call: ast.Call, callee: str, bound: list[tuple[str, ast.expr]],
                        compiles: str) -> bool:
        """``call`` (outside loops) is in a module-level function that passes one of its own
        parameters on to the tf.function, and a call of that helper inside a loop of this file
        binds the parameter to a slice or a tensor whose shape follows that loop: one level of
        helpers (``run_step(x, tf.zeros([t, 3]))`` in the loop, ``train_step(x, buf)`` in ``run_step``)."""
        index = ctx.index
        helper = index.function_of(call)
        if not isinstance(helper, (ast.FunctionDef, ast.AsyncFunctionDef)) or helper not in index.tree.body:
            return False
        rebound = {n.id for n in index.scope_nodes(helper) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        passed = {arg.id: (param, arg) for param, arg in bound if isinstance(arg, ast.Name) and arg.id not in rebound}
        if not passed:
            return False
        for site, _ in index.calls:
            if not (isinstance(site.func, ast.Name) and site.func.id == helper.name) \
                    or index.function_of(site) is helper or in_test(index, ctx.path, site):
                continue
            loops = index.loops_around(site)
            varying = loop_varying_names(index, site) if loops else set()
            if not varying:
                continue
            for own, value in bound_arguments(positional_params(helper), site):
                if own not in passed:
                    continue
                hit = _hit(index, value, varying, loops)
                if hit is not None:
                    param, arg = passed[own]
                    ctx.report(self, arg, f"argument `{param}` of tf.function `{callee}` is {hit[2]} `{hit[1]}` "
                                          f"(`{helper.name}()` receives it from line {site.lineno}), which changes on "
                                          "every iteration: each call passes a new shape, so it "
                                          f"traces{compiles} again every iteration; pass the fixed-size buffer with "
                                          "the position (or a mask), or bucket the lengths")
                    return True
        return False


def _argument(param: str) -> str:
    """``argument `x` ``, or ``argument 2`` for a parameter known only by its position (``#1``)."""
    return f"argument {int(param[1:]) + 1}" if param.startswith("#") else f"argument `{param}`"


def _hit(index: ModuleIndex, arg: ast.expr, varying: set[str], loops: list[ast.AST]
         ) -> tuple[ast.expr, str, str] | None:
    """(the argument or the item of its dict/list/tuple display that changes shape, the loop-varying
    name that sets it, "sliced by"/"sized by"), or None: ``x[:, :t]``, ``{"input_ids": ids[:, :t]}``,
    ``tf.zeros([t, d])``; not by the target of a loop over a display of constants."""
    items = arg.values if isinstance(arg, ast.Dict) else arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else []
    hits = [(item, found) for item in [arg, *items] if item is not None
            and (found := varying_slice(index, item, varying, loops, _SHAPE_KEEPING)
                 or _varying_shape_argument(index, item, varying, loops)
                 or _padded_to_longest(index, item, varying, loops)) is not None]
    hits = [(item, name) for item, name in hits if not _fixed_display_target(index, loops, name)]
    if not hits:
        return None
    item, name = hits[0]
    if _varying_shape_argument(index, item, varying, loops) == name:
        return item, name, "sized by"
    if varying_slice(index, item, varying, loops, _SHAPE_KEEPING) == name:
        return item, name, "sliced by"
    return item, name, "padded by pad_sequences (no maxlen) to the longest sequence of"


def _padded_to_longest(index: ModuleIndex, arg: ast.expr, varying: set[str], loops: list[ast.AST]) -> str | None:
    """The loop-varying name whose sequences Keras ``pad_sequences`` without ``maxlen`` pads to their
    longest (:func:`padding_to_longest`): each iteration's batch gets its own length, a new shape
    (``numpy_array_shape_changes``, ``tensor_shape_changes`` in xlacheck/data/tf_retrace.json: one
    trace per length)."""
    call = padding_to_longest(index, arg, loops, _SHAPE_KEEPING)
    if call is None or retrace_table.hazard("numpy_array_shape_changes") != "retrace":
        return None
    return _moving_name(call.args[0], varying, index)


def _fixed_display_target(index: ModuleIndex, loops: list[ast.AST], name: str) -> bool:
    """``name`` is the target of a loop over a display of constants (``for n in (8, 16, 32)``, or
    over a name bound once to one and never mutated: ``sizes = [1000, 2000]`` ... ``for n in
    sizes``): each item traces once and later passes hit the cache, a bounded cost (as XLA403
    counts it)."""
    for loop in loops:
        heads = [loop] if isinstance(loop, (ast.For, ast.AsyncFor)) else list(getattr(loop, "generators", []))
        for head in heads:
            if isinstance(head.target, ast.Name) and head.target.id == name:
                it = _constant_display(index, head.iter, loop)
                return it is not None
    return False


def _constant_display(index: ModuleIndex, it: ast.expr, loop: ast.AST) -> ast.expr | None:
    """``it`` when it is a list/tuple/set display of constants, or a name whose one binding
    (in its function, or as a module constant) is such a display and which nothing mutates
    (no ``sizes.append(...)``, no ``sizes[i] = ...``); None otherwise."""
    if isinstance(it, ast.Name):
        name = it.id
        bound = index.local_binding(name, loop) or index.module_constant(it)
        if bound is None:
            return None
        scope = index.scope_of(loop)
        for load in [*index.loads_of(name, scope), *index.loads_of(name, index.tree)]:
            parent = index.parent(load)
            if (isinstance(parent, ast.Attribute) or isinstance(parent, ast.Subscript)
                    and isinstance(parent.ctx, (ast.Store, ast.Del))) and parent.value is load:
                return None  # sizes.append(...), sizes[0] = ...: the list may change
        it = bound
    if isinstance(it, (ast.List, ast.Tuple, ast.Set)) and all(isinstance(e, ast.Constant) for e in it.elts):
        return it
    return None


def _varying_shape_argument(index: ModuleIndex, arg: ast.expr, varying: set[str], loops: list[ast.AST],
                            depth: int = 0) -> str | None:
    """The loop-varying name that sets the shape of the tensor or array ``arg`` builds
    (``tf.zeros([t, 4])``, ``np.ones((n,))``, ``tf.range(t)``), directly or through a name the
    innermost loop assigns it to; None for a range whose two bounds move (a window)."""
    if isinstance(arg, ast.Name) and depth == 0:
        values = [n.value for loop in loops[:1] for n in ast.walk(loop) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == arg.id for t in n.targets)]
        if len(values) == 1:
            return _varying_shape_argument(index, values[0], varying, loops, depth + 1)
        unpacked = [(n.value, t.elts.index(e)) for loop in loops[:1] for n in ast.walk(loop)
                    if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                    for t in n.targets if isinstance(t, ast.Tuple)
                    for e in t.elts if isinstance(e, ast.Name) and e.id == arg.id]
        if len(values) == 0 and len(unpacked) == 1:
            call, j = unpacked[0]
            return next((name for i, name in _builder_items_shaped(index, call, varying) if i == j), None)
        return None
    if not isinstance(arg, ast.Call):
        return None
    if _builder(index, arg) is not None:
        return next((name for i, name in _builder_items_shaped(index, arg, varying) if i is None), None)
    func = index.aliases.resolve(arg.func)
    if func in _SHAPED_BY_ARGUMENT:
        shape = next((k.value for k in arg.keywords if k.arg in ("shape", "dims")), arg.args[0] if arg.args else None)
        return _moving_name(shape, varying, index)
    if func in FROM_ROWS and arg.args:
        return padded_rows(arg.args[0], lambda count: _moving_name(count, varying, index))
    if func in _RANGES:
        bounds = [*arg.args[:2], *(k.value for k in arg.keywords if k.arg in ("start", "limit", "stop"))]
        moving = [m for b in bounds if (m := _moving_name(b, varying, index)) is not None]
        return moving[0] if len(moving) == 1 else None
    return None


# What reads another value's size: ``tf.ones([len(x), 4])`` or ``np.zeros((b.shape[0], 3))`` has the
# shape of the batch ``x``, which changes only when the batch's own shape does (every batch of a
# fixed batch size: one trace), so the name under them is not a moving length.
_SIZE_OF_CALLS = frozenset({"len", "tf.shape", "np.shape", "tf.size", "np.size"})
_SIZE_ATTRS = frozenset({"shape", "size", "ndim"})


def _moving_name(node: ast.expr | None, varying: set[str], index: ModuleIndex | None = None) -> str | None:
    """A loop-varying name that ``node`` computes a length from, apart from names read only for
    their own size (``len(x)``, ``x.shape[0]``, ``tf.shape(x)[0]``)."""
    if node is None:
        return None
    if isinstance(node, ast.Attribute) and node.attr in _SIZE_ATTRS:
        return None
    if isinstance(node, ast.Call) and ((index.aliases.resolve(node.func) if index is not None else None)
                                       or ast.unparse(node.func)) in _SIZE_OF_CALLS:
        return None
    if isinstance(node, ast.Name):
        return node.id if node.id in varying else None
    return next((m for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
                 and (m := _moving_name(child, varying, index)) is not None), None)


# Array methods that keep the shape of the array they are called on (``rng.normal(size=...).astype("f4")``).
_SHAPE_KEEPING_METHODS = frozenset({"astype", "copy"})
# NumPy random draws whose ``size=`` is the shape of the result: ``np.random.normal(size=(b, n))`` and the
# methods of a generator bound to ``np.random.default_rng(...)`` / ``np.random.RandomState(...)``.
_NUMPY_GENERATORS = frozenset({"np.random.default_rng", "np.random.RandomState", "np.random.Generator"})


def _builder(index: ModuleIndex, call: ast.Call) -> ast.FunctionDef | None:
    """The module-level function of this file that ``call`` calls by name, or None."""
    if not isinstance(call.func, ast.Name):
        return None
    return next((f for f in index.tree.body if isinstance(f, ast.FunctionDef) and f.name == call.func.id), None)


def _builder_items_shaped(index: ModuleIndex, call: ast.Call, varying: set[str]) -> list[tuple[int | None, str]]:
    """What a builder of this file (``make_batch(seq_len)``) returns whose shape follows a loop-varying
    name: (item index of a returned tuple display, or None for the whole value; the loop-varying name
    bound to the parameter that sets it). A returned array or tensor is shaped by a parameter when it is
    built with that parameter in its shape (``np.zeros((batch, seq_len, 2))``, ``tf.ones([n, 4])``,
    ``rng.normal(size=(b, n))``), directly or through a name the builder assigns once and shape-keeping
    wrappers (``tf.constant(x)``, ``x.astype("float32")``). One level: the builder's own calls are not
    followed."""
    helper = _builder(index, call)
    if helper is None:
        return []
    moving = {p: m for p, e in bound_arguments(positional_params(helper), call)
              if (m := _moving_name(e, varying, index)) is not None}
    if not moving:
        return []
    out: list[tuple[int | None, str]] = []
    for ret in index.scope_nodes(helper):
        if not isinstance(ret, ast.Return) or ret.value is None:
            continue
        items = list(enumerate(ret.value.elts)) if isinstance(ret.value, ast.Tuple) else [(None, ret.value)]
        for i, item in items:
            param = _shaped_by_param(index, item, set(moving), helper)
            if param is not None:
                out.append((i, moving[param]))
        if isinstance(ret.value, ast.Tuple) and out:
            out.append((None, out[0][1]))  # the tuple handed on whole: one of its items changes shape
    return out


def _shaped_by_param(index: ModuleIndex, expr: ast.expr, params: set[str], scope: ast.FunctionDef,
                     depth: int = 0) -> str | None:
    """The parameter of ``scope`` in ``params`` that sets the shape of the array or tensor ``expr``
    builds, or None."""
    if depth > 4:
        return None
    if isinstance(expr, ast.Name):
        values = [n.value for n in index.scope_nodes(scope) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        return _shaped_by_param(index, values[0], params, scope, depth + 1) if len(values) == 1 else None
    if not isinstance(expr, ast.Call):
        return None
    if isinstance(expr.func, ast.Attribute) and expr.func.attr in _SHAPE_KEEPING_METHODS:
        return _shaped_by_param(index, expr.func.value, params, scope, depth + 1)
    func = index.aliases.resolve(expr.func)
    if func in _SHAPE_KEEPING and expr.args:
        return _shaped_by_param(index, expr.args[0], params, scope, depth + 1)
    if func in _SHAPED_BY_ARGUMENT:
        shape = next((k.value for k in expr.keywords if k.arg in ("shape", "dims")),
                     expr.args[0] if expr.args else None)
        return _moving_name(shape, params, index)
    size = next((k.value for k in expr.keywords if k.arg == "size"), None)
    if size is not None and _numpy_random_draw(index, expr, func, scope):
        return _moving_name(size, params, index)
    return None


def _numpy_random_draw(index: ModuleIndex, call: ast.Call, func: str | None, scope: ast.FunctionDef) -> bool:
    """``np.random.<draw>(..., size=...)``, or a method of a name ``scope`` binds once to a NumPy
    generator (``rng = np.random.default_rng(seed)``, then ``rng.normal(size=...)``)."""
    if func is not None and func.startswith("np.random."):
        return True
    if not (isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)):
        return False
    name = call.func.value.id
    values = [n.value for n in index.scope_nodes(scope) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    return (len(values) == 1 and isinstance(values[0], ast.Call)
            and index.aliases.resolve(values[0].func) in _NUMPY_GENERATORS)


def _declared_driver(ctx: ModuleContext, call: ast.Call) -> bool:
    """``call`` of a tf.function of this file is in a function that is compiled only by the
    jit-compiled declaration (a declared root, or what only declared roots call): calling one of
    this file's compiled entry points from it shows that it runs as Python on the host, as the
    declaration's own reading of driver code says (``trainer.train_step(...)`` in a ``fit``
    loop); the context model records bare-name calls of entry points, not method calls."""
    func = ctx.index.function_of(call)
    while func is not None:
        info = ctx.facts.by_node.get(id(func))
        if info is not None and info.compiled:
            if not (info.declared or "(declared jit-compiled)" in info.why):
                return False
        func = ctx.index.function_of(func)
    return True
