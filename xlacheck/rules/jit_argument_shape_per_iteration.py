"""XLA416: a ``jax.jit`` argument sliced by a Python int that changes every iteration: a new shape per call."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.tables import static_arguments
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    JAX_GROWERS,
    JAX_SHAPE_KEEPING,
    CallerLoop,
    bound_arguments,
    call_params,
    in_test,
    jax_jitted_calls_in_host_code,
    jax_loop_grown_argument,
    jax_loop_varying_names,
    jitted_call_resolver,
    module_list_grown_per_call,
    padding_to_longest,
    params_varied_by_callers,
    runs_traced,
    varying_slice,
)
from xlacheck.rules._remainder_windows import FROM_ROWS, padded_rows, remainder_window
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Calls that keep the shape of their first argument (a slice wrapped before the jitted call).
_SHAPE_KEEPING = JAX_SHAPE_KEEPING
# Parameters, among the static arguments the JAX API table lists for a jax.numpy/jax.random call, that
# set the size of its result (`jnp.zeros(shape)`, `jnp.arange(stop)`, `jax.random.normal(key, shape)`),
# as opposed to an axis or an option.
_SIZE_PARAMS = frozenset({"shape", "newshape", "new_shape", "sizes", "out_shape", "N", "M", "num", "start", "stop",
                          "length", "size", "total_repeat_length", "k", "n", "repeats", "reps"})


_GROWERS = JAX_GROWERS


class JitArgumentShapePerIteration(ModuleRule):
    """
    ## What it does
    Flags a call, inside a loop, of a function this file jits (`@jax.jit`, `jax.jit(f)`) whose
    non-static argument is a slice with exactly one bound that changes every iteration
    (`tokens[:, :t]` in a decoding loop, `x[start:]` with `start += n`), passed directly, through a
    name the loop assigns, or through `jnp.asarray`. A slice whose two bounds both move
    (`x[i * bs:(i + 1) * bs]`, a fixed-size window) is not flagged, except where the loop runs
    over a last, partial batch: `x[i:i + bs]` in `for i in range(0, len(x), bs)`, or
    `x[i * bs:(i + 1) * bs]` in `for i in range(math.ceil(len(x) / bs))` (one more compile per
    distinct remainder), also up to a count or parameter (`range(0, n, bs)`), through a name the
    loop assigns or `jnp.asarray`, and when a generator function of this file yields that slice
    and the loop runs over its batches (`for xb in chunks(x, bs)`), or the loop runs over a list of
    such windows (a comprehension, a name bound to one, a function of this file returning one); not
    when the stop or the sliced array is computed with the step (`len(x) - bs + 1`,
    `n // bs * bs`, an array padded by `(-n) % bs`) or the constants divide (measured:
    `seq.last_partial_batch` in `xlacheck/data/jax_cache_key.json`). Also an array fed back from the
    function's own result when the function
    returns it grown (`h = step(h)` with `return jnp.concatenate([h, new])`, `jnp.append`,
    `jnp.vstack`, `jnp.pad`; measured, `seq.growing_carry`: 3 calls, 3 compiles), not a rolling
    window that drops as much as it adds (`concatenate([h[1:], new])`). Also an argument built
    by a jax.numpy/jax.random function whose size argument (a static argument of the JAX API
    table that sets the result's size: `jnp.zeros((n, d))`, `jax.random.uniform(key, (n, m))`)
    changes every iteration, and a list or dict comprehension over a range that does
    (`[x[j] for j in range(i)]`: a new pytree structure). Callers are followed: a
    slice or size from a parameter of the enclosing function that a call of it in this file
    passes a loop-varying value, also through up to two functions that pass it on. Names the loop rebinds from themselves or draws at random count
    as changing. Also an array the loop itself makes longer and never starts afresh
    (`hist = jnp.concatenate([hist, out])`, `jnp.append`/`pad`/`vstack` of itself; measured,
    `shape.new_length`), and `jnp.array(tokens)`/`jnp.stack`/`np.asarray` of a Python list the
    loop appends to (`shape.jnp_array_of_list_new_length`), passed directly, through a forwarder
    of this file or a `**dict`, or to a method jitted while bound. Also a batch that Keras
    `pad_sequences` without `maxlen` pads to the longest sequence of a loop-varying input
    (`pad_sequences(seqs)` in `for seqs in batches`; measured, `seq.batch_length_per_batch`), passed
    directly, through `jnp.asarray` or a name the loop assigns. Outside loops, `jnp.array(history)`
    of a module-level list that the calling function appends to before the call and nothing starts
    afresh, in a function that runs per step (called in a loop): the list is longer on every call.
    Calls inside traced code and in tests are left out.

    ## Why is this bad?
    `jax.jit` compiles once per distinct input shape. A slice whose length follows the loop
    counter has a new shape every iteration, so every iteration traces and compiles the function
    again (seconds each) and the compilation cache grows without bound; the run is dominated by
    compilation.

    ## Example
    ```python
    for t in range(1, max_len):
        logits = decode_step(params, tokens[:, :t])
        tokens = tokens.at[:, t].set(jnp.argmax(logits[:, -1], -1))
    ```

    ## Use instead
    ```python
    for t in range(1, max_len):
        logits = decode_step(params, tokens, t)  # fixed shape; t traced, used with a mask or dynamic_slice
        tokens = tokens.at[:, t].set(jnp.argmax(logits, -1))
    ```

    ## Fix safety
    No automatic fix: the function must take a fixed-size buffer and a position or mask.
    """

    code = "XLA416"
    fix = None
    name = "jit-argument-shape-per-iteration"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import jax\n@jax.jit\ndef step(params, x):\n    return params * x.sum()\n"
                "def run(params, data, bs):\n    for i in range(len(data) // bs):\n"
                "        params = step(params, data[i * bs:(i + 1) * bs])\n    return params\n"),
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
                "def head(x, n):\n    return x[:n].sum()\ndef run(x, tokens):\n    for t in range(4):\n"
                "        head(tokens[:, t], 2)\n"),
        Example("import jax\n@jax.jit\ndef step(x):\n    return x.sum()\n"
                "def test_prefixes(x):\n    for t in range(1, 4):\n        step(x[:t])\n"),
        # a rolling window: the oldest row is dropped as a new one is appended, the length stays
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef push(window, row):\n"
                "    return jnp.concatenate([window[1:], row[None]])\n"
                "def run(window, rows):\n    for r in rows:\n        window = push(window, r)\n    return window\n"),
        # a batch generator that yields only full batches: one shape
        Example("import jax\nimport jax.numpy as jnp\ndef full_batches(data, size):\n"
                "    for i in range(0, len(data) - size + 1, size):\n        yield data[i:i + size]\n"
                "@jax.jit\ndef step(p, xb):\n    return p - 0.1 * jnp.mean(xb, axis=0)\n"
                "def train(p, data):\n    for xb in full_batches(data, 32):\n        p = step(p, xb)\n    return p\n"),
        # a window that drops as much as the loop appends keeps its length
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(x, hist):\n"
                "    return x + jnp.mean(hist)\ndef train(x, steps):\n    hist = x\n"
                "    for _ in range(steps):\n        out = step(x, hist)\n        hist = "
                "jnp.concatenate([hist[out.shape[0]:], out])\n    return hist\n"),
        # windows of an array padded to a whole number of them: one shape
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(p, xb):\n    return p + xb.sum()\n"
                "def train(p, data, bs):\n    n = data.shape[0]\n    padded = jnp.pad(data, (0, (-n) % bs))\n"
                "    for i in range(0, padded.shape[0], bs):\n        p = step(p, padded[i:i + bs])\n    return p\n"),
        # rows padded by hand to a constant length: one shape
        Example("import jax\nimport numpy as np\n@jax.jit\ndef generate(ids):\n    return ids.sum(axis=1)\n"
                "def evaluate(prompt_batches):\n    for prompts in prompt_batches:\n"
                "        generate(np.array([[0] * (16 - len(p)) + p for p in prompts]))\n"),
        # a module-level list the helper starts afresh on every call: one length
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(h):\n    return jnp.mean(h)\n"
                "history = []\ndef run_step(i):\n    history.clear()\n    history.append(float(i))\n"
                "    return step(jnp.array(history))\ndef train(steps):\n    for i in range(steps):\n"
                "        run_step(i)\n"),
        # a maxlen: every batch has the same length
        Example("import jax\nimport jax.numpy as jnp\nfrom keras.utils import pad_sequences\n@jax.jit\n"
                "def step(p, ids):\n    return p * ids.sum()\ndef train(p, batches):\n    for seqs in batches:\n"
                "        p = step(p, jnp.asarray(pad_sequences(seqs, maxlen=128)))\n    return p\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef decode_step(params, prefix):\n"
                "    return prefix * params\ndef generate(params, tokens, max_len):\n"
                "    for t in range(1, max_len):\n        logits = decode_step(params, tokens[:, :t])\n"
                "        tokens = tokens.at[:, t].set(jnp.argmax(logits[:, -1], -1))\n    return tokens\n",
                expected=(
                    (8, 38, 'argument `prefix` of jitted `decode_step` is sliced by `t`, which changes on every '
                            'iteration: each call passes a new shape, so jax.jit traces and compiles again every '
                            'iteration; pass a fixed-size (padded) array with the position or a mask, or bucket the '
                            'lengths'),
                )),
        Example("import jax\n@jax.jit\ndef score(x):\n    return (x ** 2).mean()\n"
                "def stream(x, chunk):\n    start, out = 0, []\n    while start < len(x):\n"
                "        rest = x[start:]\n        out.append(score(rest))\n        start += chunk\n    return out\n",
                expected=(
                    (9, 26, 'argument `x` of jitted `score` is sliced by `start`, which changes on every iteration: '
                            'each call passes a new shape, so jax.jit traces and compiles again every iteration; pass '
                            'a fixed-size (padded) array with the position or a mask, or bucket the lengths'),
                )),
        Example("import jax\n@jax.jit\ndef step(p, xs):\n    return p + xs.sum()\n"
                "def epoch(p, xs, bs):\n    for start in range(0, len(xs), bs):\n"
                "        p = step(p, xs[start:start + bs])\n    return p\n",
                expected=(
                    (7, 21, 'argument `xs` of jitted `step` is the slice `xs[start:start + bs]` of a loop over '
                            '`range(0, len(xs), bs)`: the last batch is shorter whenever len(xs) is not a multiple '
                            'of bs, so jax.jit compiles again for its shape (once per distinct remainder, e.g. each '
                            'data set); drop the remainder or pad the last batch to the full size with a mask'),
                )),
        Example("import jax\n@jax.jit\ndef solve(L):\n    return (L @ L.T).sum()\n"
                "def solve_all(key, sizes):\n    for n in sizes:\n"
                "        L = jax.random.uniform(key, (n, 3))\n        yield solve(L)\n",
                expected=(
                    (8, 21, 'argument `L` of jitted `solve` is built by jax.random.uniform with a size from `n`, '
                            'which changes on every iteration: each call passes a new shape, so jax.jit traces and '
                            'compiles again every iteration; pass a fixed-size (padded) array with the position or '
                            'a mask, or bucket the lengths'),
                )),
        # the result, grown by one row, is fed back (seq.growing_carry: 3 calls, 3 compiles)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef append_mean(h):\n"
                "    return jnp.concatenate([h, h.mean(axis=0, keepdims=True)])\n"
                "def run(h, steps):\n    for _ in range(steps):\n        h = append_mean(h)\n    return h\n",
                expected=(
                    (8, 25, 'argument `h` of jitted `append_mean` is fed back from its own result, which '
                            '`jnp.concatenate` grows from `h` on every call: each iteration passes a longer array, '
                            'so jax.jit traces and compiles again every iteration; write into a fixed-size buffer at '
                            'a traced position (`.at[i].set`, `lax.dynamic_update_slice`)'),
                )),
        # the remainder slice yielded by a batch generator of this file
        Example("import jax\nimport jax.numpy as jnp\ndef chunks(data, size):\n"
                "    for i in range(0, len(data), size):\n        yield data[i:i + size]\n"
                "@jax.jit\ndef step(p, xb):\n    return p - 0.1 * jnp.mean(xb, axis=0)\n"
                "def train(p, data):\n    for xb in chunks(data, 32):\n        p = step(p, xb)\n    return p\n",
                expected=(
                    (11, 21, 'argument `xb` of jitted `step` comes from `chunks()`, which yields the slice '
                             '`data[i:i + size]` of a loop over `range(0, len(data), size)`: the last batch is '
                             'shorter whenever len(data) is not a multiple of size, so jax.jit compiles again for its '
                             'shape (once per distinct remainder, e.g. each data set); drop the remainder or pad the '
                             'last batch to the full size with a mask'),
                )),
        # an array the loop grows by `jnp.concatenate` of itself (shape.new_length)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(x, hist):\n"
                "    return x + jnp.mean(hist)\ndef train(x, steps):\n    hist = x\n"
                "    for _ in range(steps):\n        out = step(x, hist)\n        hist = jnp.concatenate([hist, "
                "out])\n    return hist\n",
                expected=(
                    (9, 23, "argument `hist` of jitted `step` is `hist`, which `jnp.concatenate` makes longer on "
                            "every iteration of this loop (line 10): each call passes a new shape, so jax.jit traces "
                            "and compiles again every iteration; write into a fixed-size buffer at a traced position "
                            "(`.at[i].set`, `lax.dynamic_update_slice`) and pass the length traced"),
                )),
        # `jnp.array` of a list the loop appends to (shape.jnp_array_of_list_new_length)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef score(ctx):\n"
                "    return jnp.sum(ctx)\ndef sample(prompt, n):\n    tokens = list(prompt)\n"
                "    for _ in range(n):\n        s = score(jnp.array(tokens))\n"
                "        tokens.append(int(s) % 7)\n    return tokens\n",
                expected=(
                    (9, 19, "argument `ctx` of jitted `score` is `jnp.array` of `tokens`, a list this loop makes "
                            "longer on every iteration (line 10): each call passes a new shape, so jax.jit traces "
                            "and compiles again every iteration; write into a fixed-size buffer at a traced position "
                            "(`.at[i].set`, `lax.dynamic_update_slice`) and pass the length traced"),
                )),
        # a list of windows built once, the last one shorter (seq.last_partial_batch)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(p, xb):\n    return p + xb.sum()\n"
                "def train(p, data, bs, epochs):\n"
                "    batches = [data[i:i + bs] for i in range(0, len(data), bs)]\n"
                "    for _ in range(epochs):\n        for xb in batches:\n            p = step(p, xb)\n    return p\n",
                expected=(
                    (10, 25, 'argument `xb` of jitted `step` is an item of `batches`, a list of the slice '
                             '`data[i:i + bs]` of a loop over `range(0, len(data), bs)`: the last batch is shorter '
                             'whenever len(data) is not a multiple of bs, so jax.jit compiles again for its shape '
                             '(once per distinct remainder, e.g. each data set); drop the remainder or pad the last '
                             'batch to the full size with a mask'),
                )),
        # rows padded by hand to each batch's own longest
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef generate(ids):\n    return ids.sum(axis=1)\n"
                "def evaluate(prompt_batches):\n    for prompts in prompt_batches:\n"
                "        longest = max(len(p) for p in prompts)\n"
                "        generate(jnp.array([[0] * (longest - len(p)) + p for p in prompts]))\n",
                expected=(
                    (9, 18, 'argument `ids` of jitted `generate` is built by jnp.array of rows padded by hand with '
                            'a size from `longest`, which changes on every iteration: each call passes a new shape, '
                            'so jax.jit traces and compiles again every iteration; pass a fixed-size (padded) array '
                            'with the position or a mask, or bucket the lengths'),
                )),
        # a module-level list a helper appends to, the helper called per step
        # (shape.jnp_array_of_list_new_length)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(h):\n    return jnp.mean(h)\n"
                "history = []\ndef run_step(i):\n    history.append(float(i))\n"
                "    return step(jnp.array(history))\ndef train(steps):\n    for i in range(steps):\n"
                "        run_step(i)\n",
                expected=(
                    (9, 17, 'argument `h` of jitted `step` is `jnp.array` of `history`, a module-level list that '
                            '`run_step()` makes longer on every call (line 8): each call passes a new shape, so '
                            'jax.jit traces and compiles again on every call; write into a fixed-size buffer at a '
                            'traced position (`.at[i].set`) and pass the length traced'),
                )),
        # each batch padded to its own longest by Keras pad_sequences without maxlen (seq.batch_length_per_batch)
        Example("import jax\nimport jax.numpy as jnp\nfrom keras.utils import pad_sequences\n@jax.jit\n"
                "def step(p, ids):\n    return p * ids.sum()\ndef train(p, batches):\n    for seqs in batches:\n"
                "        ids = pad_sequences(seqs, padding='post')\n        p = step(p, jnp.asarray(ids))\n"
                "    return p\n",
                expected=(
                    (10, 21, 'argument `ids` of jitted `step` is padded by pad_sequences (no maxlen) to the longest '
                             'sequence of `seqs`, which changes on every iteration: each call passes a new shape, so '
                             'jax.jit traces and compiles again every iteration; pass a fixed-size (padded) array '
                             'with the position or a mask, or bucket the lengths'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        reported: set[int] = set()
        for call, info in jax_jitted_calls_in_host_code(ctx.facts, index, ctx.path):
            assert not isinstance(info.node, ast.Lambda)
            shown = ast.unparse(call.func)  # `step`, or `self._step` for a jitted method
            loops = index.loops_around(call)
            from_callers = params_varied_by_callers(index, ctx.path, call)
            if not loops and not from_callers:
                continue
            bound = [(p, a) for p, a in bound_arguments(call_params(info, call), call, index)
                     if p not in info.static_params]
            varying = jax_loop_varying_names(index, call) if loops else set()
            why = self._shape_changes(ctx, index, call, bound, varying, loops, from_callers)
            if why is None and loops:
                why = self._grown_carry(index, call, info.node, bound)
            if why is not None:
                param, arg, text = why
                ctx.report(self, arg, f"argument `{param}` of jitted `{shown}` {text}")
                reported.add(id(call))
        self._grown_in_loop(ctx, reported)
        self._grown_per_call(ctx, reported)

    def _grown_per_call(self, ctx: ModuleContext, reported: set[int]) -> None:
        """Outside loops: ``jnp.array(history)`` of a module-level list that the function around the
        call appends to, a function that runs per step (:func:`module_list_grown_per_call`): every
        call of that function passes a longer array (``shape.jnp_array_of_list_new_length``)."""
        if not jax_cache.recompiles("shape.jnp_array_of_list_new_length"):
            return
        index = ctx.index
        for call, info in jax_jitted_calls_in_host_code(ctx.facts, index, ctx.path):
            if id(call) in reported or in_test(index, ctx.path, call) or runs_traced(ctx.facts, index, call):
                continue
            for param, arg in bound_arguments(call_params(info, call), call, index):
                if param.startswith("#") or param in info.static_params:
                    continue
                grown = module_list_grown_per_call(index, call, arg)
                if grown is None:
                    continue
                join, name, line = grown
                func = index.function_of(call)
                assert isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))
                ctx.report(self, arg, f"argument `{param}` of jitted `{ast.unparse(call.func)}` is `{join}` of "
                                      f"`{name}`, a module-level list that `{func.name}()` makes longer on every "
                                      f"call (line {line}): each call passes a new shape, so jax.jit traces and "
                                      "compiles again on every call; write into a fixed-size buffer at a traced "
                                      "position (`.at[i].set`) and pass the length traced")
                break

    def _grown_in_loop(self, ctx: ModuleContext, reported: set[int]) -> None:
        """An array argument that the loop around the call makes longer on every pass
        (``hist = jnp.concatenate([hist, out])``, ``jnp.array(tokens)`` of a list the loop appends to:
        :func:`jax_loop_grown_argument`): every call passes a new shape (``shape.new_length``). Also
        through a forwarder of this file and a ``**dict``."""
        if not jax_cache.recompiles("shape.new_length"):
            return
        index = ctx.index
        resolve = jitted_call_resolver(ctx.facts, index)
        for outer, _ in index.calls:
            loops = [lp for lp in index.loops_around(outer) if isinstance(lp, (ast.For, ast.AsyncFor, ast.While))]
            if id(outer) in reported or not loops or in_test(index, ctx.path, outer) \
                    or runs_traced(ctx.facts, index, outer):
                continue
            hit = resolve(outer)
            if hit is None or id(hit[0]) in reported:
                continue
            call, _, info = hit
            for param, arg in bound_arguments(call_params(info, call), call, index):
                if param.startswith("#") or param in info.static_params:
                    continue
                grown = jax_loop_grown_argument(index, arg, loops)
                if grown is None:
                    continue
                what, line = grown
                ctx.report(self, arg, f"argument `{param}` of jitted `{ast.unparse(call.func)}` is {what} (line "
                                      f"{line}): each call passes a new shape, so jax.jit traces and compiles again "
                                      "every iteration; write into a fixed-size buffer at a traced position "
                                      "(`.at[i].set`, `lax.dynamic_update_slice`) and pass the length traced")
                break

    def _shape_changes(self, ctx: ModuleContext, index: ModuleIndex, call: ast.Call,
                       bound: list[tuple[str, ast.expr]], varying: set[str], loops: list[ast.AST],
                       from_callers: dict[str, CallerLoop]) -> tuple[str, ast.expr, str] | None:
        """(parameter, argument, message tail) for the first argument whose shape changes between calls."""
        tail = ("each call passes a new shape, so jax.jit traces and compiles again every iteration; pass a "
                "fixed-size (padded) array with the position or a mask, or bucket the lengths")
        for param, arg in bound:
            if varying:
                name = varying_slice(index, arg, varying, loops, _SHAPE_KEEPING)
                if name is not None:
                    return param, arg, f"is sliced by `{name}`, which changes on every iteration: {tail}"
                sized = self._varying_size(ctx, index, arg, varying, loops)
                if sized is not None:
                    func, name = sized
                    return param, arg, (f"is built by {func} with a size from `{name}`, which changes on every "
                                        f"iteration: {tail}")
                window = remainder_window(index, arg, loops, _SHAPE_KEEPING)
                if window is not None and jax_cache.recompiles("seq.last_partial_batch"):
                    return param, arg, (f"{window.origin()} {window.slice_text()}: {window.last_shorter()}, so "
                                        "jax.jit compiles again for its shape (once per distinct remainder, e.g. each "
                                        "data set); drop the remainder or pad the last batch to the full size with a "
                                        "mask")
                padded = padding_to_longest(index, arg, loops, _SHAPE_KEEPING)
                if padded is not None and jax_cache.recompiles("seq.batch_length_per_batch"):
                    name = next((n.id for n in ast.walk(padded.args[0]) if isinstance(n, ast.Name) and n.id in varying),
                                None)
                    if name is not None:
                        return param, arg, (f"is padded by pad_sequences (no maxlen) to the longest sequence of "
                                            f"`{name}`, which changes on every iteration: {tail}")
                if isinstance(arg, (ast.ListComp, ast.DictComp)):
                    name = next((n.id for g in arg.generators for n in ast.walk(g.iter)
                                 if isinstance(n, ast.Name) and n.id in varying), None)
                    if name is not None:
                        return param, arg, (f"is a {'list' if isinstance(arg, ast.ListComp) else 'dict'} whose "
                                            f"length follows `{name}`, which changes on every iteration: each call "
                                            "passes a new pytree structure, so jax.jit traces and compiles again "
                                            "every iteration; pass one fixed-size (padded) array with a mask")
            if from_callers:
                name = varying_slice(index, arg, set(from_callers), [], _SHAPE_KEEPING)
                sized = None if name is not None else self._varying_size(ctx, index, arg, set(from_callers), [])
                name = name or (sized[1] if sized is not None else None)
                if name is not None:
                    how = "is sliced by" if sized is None else f"is built by {sized[0]} with a size from"
                    return param, arg, f"{how} `{name}`, which {from_callers[name].words()}: {tail}"
        return None

    @staticmethod
    def _grown_carry(index: ModuleIndex, call: ast.Call, node: ast.FunctionDef | ast.AsyncFunctionDef,
                     bound: list[tuple[str, ast.expr]]) -> tuple[str, ast.expr, str] | None:
        """``h = step(h)`` in a loop where ``step`` returns its parameter grown by
        ``jnp.concatenate``/``append``/``vstack``/``hstack``/``pad`` (directly, or one element of a
        returned tuple that the call's tuple target binds to the same name): every call feeds back a
        longer array (measured, row ``seq.growing_carry``: 3 calls, 3 compiles)."""
        if not jax_cache.recompiles("seq.growing_carry"):
            return None
        assign = index.parent(call)
        if not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
            return None
        target = assign.targets[0]
        names = [target] if isinstance(target, ast.Name) else list(target.elts) if isinstance(target, ast.Tuple) else []
        returns = [n.value for n in ast.walk(node) if isinstance(n, ast.Return) and n.value is not None]
        if len(returns) != 1:
            return None
        ret = returns[0]
        outs = [ret] if isinstance(target, ast.Name) else list(ret.elts) if isinstance(ret, ast.Tuple) else []
        if len(outs) != len(names):
            return None
        resolve = index.aliases.resolve
        for param, arg in bound:
            if not isinstance(arg, ast.Name):
                continue
            for out_name, out in zip(names, outs, strict=True):
                if not isinstance(out_name, ast.Name) or out_name.id != arg.id or not isinstance(out, ast.Call):
                    continue
                grower = resolve(out.func)
                if grower not in _GROWERS or not out.args:
                    continue
                first = out.args[0]
                operands = first.elts if isinstance(first, (ast.List, ast.Tuple)) else [first]
                # the whole parameter is an operand: `concatenate([x[1:], new])` (a rolling window) keeps its length
                if any(isinstance(n, ast.Name) and n.id == param for n in operands):
                    return param, arg, (f"is fed back from its own result, which `{grower}` grows from `{param}` "
                                        "on every call: each iteration passes a longer array, so jax.jit traces "
                                        "and compiles again every iteration; write into a fixed-size buffer at a "
                                        "traced position (`.at[i].set`, `lax.dynamic_update_slice`)")
        return None

    @staticmethod
    def _assigned_once(index: ModuleIndex, name: ast.Name, loops: list[ast.AST]) -> ast.expr | None:
        """The value of the single assignment of ``name`` in the innermost loop (or, outside loops,
        in the enclosing function), else None."""
        scope: ast.AST | None = loops[0] if loops else index.function_of(name)
        if scope is None or isinstance(scope, ast.Lambda):
            return None
        walk = ast.walk(scope) if loops else index.scope_nodes(scope)
        values = [n.value for n in walk if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == name.id for t in n.targets)]
        return values[0] if len(values) == 1 else None

    def _varying_size(self, ctx: ModuleContext, index: ModuleIndex, arg: ast.expr, varying: set[str],
                      loops: list[ast.AST], depth: int = 0) -> tuple[str, str] | None:
        """(function, name): ``arg`` is (or holds) the result of a jax.numpy/jax.random call whose size
        argument (a static argument of the JAX API table that sets the result's size) reads a name
        that changes on every iteration: ``jnp.zeros((n, d))``, ``jax.random.uniform(key, (n, m))``."""
        if isinstance(arg, ast.Name) and depth == 0:
            value = self._assigned_once(index, arg, loops)
            return self._varying_size(ctx, index, value, varying, loops, 1) if value is not None else None
        if not isinstance(arg, ast.Call):
            return None
        name = index.aliases.resolve(arg.func)
        if name in FROM_ROWS and arg.args:  # rows padded by hand to a per-batch length
            hit = padded_rows(arg.args[0], lambda count: _varying_read(count, varying))
            return (f"{name} of rows padded by hand", hit) if hit is not None else None
        if name is None or not name.startswith(("jnp.", "jax.numpy.", "jax.random.", "random.")):
            return None
        for param, value in static_arguments(name, arg):
            if param not in _SIZE_PARAMS:
                continue
            hit = next((n.id for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in varying), None)
            if hit is not None:
                return name, hit
        return None


def _varying_read(node: ast.expr, varying: set[str]) -> str | None:
    """A loop-varying name ``node`` reads, apart from inside ``len(...)`` (a row's own length)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        return None
    if isinstance(node, ast.Name):
        return node.id if node.id in varying else None
    return next((m for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
                 and (m := _varying_read(child, varying)) is not None), None)
