"""XLA207: shapes from traced values under ``jax.jit`` (JAX has no bounded dynamic shapes)."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis.tables import array_method_as_function, call_arguments, splatted, static_arguments
from xlacheck.analysis.values import BOOL, DATA, LOOP, OP, PARAM, PYLIST, RANDOM, SHAPE, TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name

# Data-dependent results come from the JAX API table (``jit_error`` ConcretizationTypeError with the
# probing call's arguments, ``sized_by`` the arguments that give a static size: jnp.nonzero,
# jnp.where(c), jnp.unique, jnp.extract, jnp.bincount ...; `holds_with` the optional arrays measured
# not to change that: jnp.bincount's `weights`). One the probe's call does not cover: jnp.repeat
# (data-dependent only when `repeats` is an array, which the probe passes as a Python int).
_NEED_SIZE = {"jnp.repeat": "total_repeat_length"}


def _error(name: str) -> str:
    """The error class jax.jit raised on the table's probing call of ``name`` (jnp.extract:
    TracerBoolConversionError), ConcretizationTypeError where not measured."""
    fact = api_table.fact_for(name)
    return fact.jit_error if fact is not None and fact.jit_error else "ConcretizationTypeError"


def _static_error(name: str, keyword: str) -> str:
    """The error class tracing raised once the table's probe passed ``keyword`` traced (ValueError, an
    unhashable static argument, for jax.scipy.linalg.hilbert's `n`), ConcretizationTypeError where
    not measured."""
    fact = api_table.fact_for(name)
    return dict(fact.static_errors).get(keyword, "ConcretizationTypeError") if fact is not None \
        else "ConcretizationTypeError"


def _remedy(name: str) -> str:
    """What makes a data-dependent call that no argument sizes compile: the boolean options the table
    measured lifting it (jnp.delete's `assume_unique_indices=True`), else a mask."""
    fact = api_table.fact_for(name)
    lifting = ", ".join(f"`{p}={v}`" for p, v in fact.lifted_by) if fact is not None else ""
    return f"pass {lifting} where that holds" if lifting else "compute with a mask (jnp.where) instead"


def _literal(node: ast.AST) -> bool:
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _literal(node.operand)
    return isinstance(node, (ast.Constant, ast.Slice))


def _data_dependent(name: str, node: ast.Call) -> str | None:
    """The argument that would give ``name``'s result a static size when this call's result has
    a data-dependent shape under jax.jit (per the JAX API table), else None."""
    fact = api_table.fact_for(name)
    if fact is None or not fact.dynamic_shape or splatted(node):
        return None
    positional, keywords = call_arguments(node)
    given = fact.bind(positional, keywords)
    if set(given) & set(fact.sized_by):
        return None
    # a boolean option the table measured lifting it, given its lifting value or a value not known
    # here (jnp.delete(x, i, assume_unique_indices=True) compiles)
    lifting = dict(fact.lifted_by)
    if any(p in lifting and not (isinstance(v, ast.Constant) and v.value is not lifting[p]) for p, v in given.items()):
        return None
    probed = set(fact.called_with or ())
    # the arguments the table measured as driving the shape (traced alone, the call still fails), all
    # spelled as Python literals: static here, so it compiles (jnp.delete(x, 0): only `obj` drives it;
    # jnp.setdiff1d(x, 0) still fails, `ar1` drives it too). Not measured: any probed literal exempts
    drivers = [p for p in fact.shape_args if p in given] if fact.shape_args else [p for p in given if p in probed]
    if fact.shape_args and all(_literal(given[p]) for p in drivers) or not fact.shape_args and any(
            _literal(given[p]) for p in drivers):
        return None
    # other arguments keep the probe's verdict only when they are options spelled as literals
    # (`return_counts=True`) or arrays it was measured with (jnp.bincount's `weights`);
    # jnp.where(c, x, y) with its branches is elementwise
    if any(p not in probed and p not in fact.holds_with and not (p in keywords and isinstance(v, ast.Constant))
           for p, v in given.items()):
        return None
    return fact.sized_by[0] if fact.sized_by else ""  # "": no argument gives it a static size (jnp.trim_zeros)


def _traced(k: int) -> bool:
    return bool(k & TENSOR) and bool(k & (PARAM | DATA | LOOP | RANDOM | OP)) and not (k & SHAPE and not k & DATA)


class JaxTracedShape(Rule):
    """
    ## What it does
    Inside `jax.jit` code, flags shapes that depend on traced values: arguments that `jax.jit`
    needs as static values according to the generated JAX API table (`xlacheck/data/jax_api.json`,
    measured by tracing each one), such as the sizes of `jnp.arange/zeros/ones/full/reshape/tile`
    and `lax.top_k`'s `k`, `jnp.squeeze`'s axis, `jnp.repeat` without `total_repeat_length`,
    functions whose result size depends on data unless a static size is given (from the same
    table: `jnp.nonzero/argwhere/unique`, one-argument `jnp.where` without `size=`,
    `jax.ops.segment_sum/max/min/prod` without `num_segments=`, or with a traced one: the table
    measures that size argument failing when it is passed traced), the same
    arguments of array methods (`x.reshape(n, -1)` is `jnp.reshape(x, ...)`, `x.nonzero()` is
    `jnp.nonzero(x)`), data-dependent functions that no argument can size (`jnp.trim_zeros`), `jnp.bincount`
    without `length=`, boolean-mask indexing `x[mask]` (also `x.at[~mask]`) and slices `x[:n]` with
    traced bounds.

    ## Why is this bad?
    Unlike TensorFlow on XLA:CPU, JAX neither specializes on argument values nor builds bounded
    dynamic shapes: these raise `ConcretizationTypeError`, `NonConcreteBooleanIndexError` or
    `IndexError: Slice entries must be static integers` while tracing.

    ## Example
    ```python
    @jax.jit
    def length_regulate(phoneme_emb, durations):
        return jnp.repeat(phoneme_emb, durations, axis=0)
    ```

    ## Use instead
    ```python
    @jax.jit
    def length_regulate(phoneme_emb, durations):
        return jnp.repeat(phoneme_emb, durations, axis=0, total_repeat_length=MAX_FRAMES)
    ```

    ## Fix safety
    Unsafe fixes (`--unsafe-fixes`) for two consumers of a boolean selection (`x[m]`,
    `x[jnp.nonzero(m)]`, `x[jnp.where(m)]`, `x[jnp.nonzero(m)[0]]`, `x[jnp.argwhere(m)[:, 0]]`,
    `x[jnp.flatnonzero(m)]` or `idx = jnp.nonzero(m)[0]` read only as `x[idx]` (exact for a 1-D
    mask), a slice of traced bounds `x[a:b]`, `x[:, :n]`,
    `x[i, :n]`): `jnp.sum/mean/prod/var/std/any/all/max/min(E)` or `E.sum()`, `jnp.linalg.norm(E)`,
    `jnp.count_nonzero(E)`, `logsumexp(E)` (max/min with
    `initial=` -inf/inf: an empty selection raises in the original) of arithmetic, comparisons and
    elementwise `jnp` functions on selections by one mask becomes the same reduction of the whole
    arrays with `where=m` (`jnp.dot(a[m], b[m])`: `jnp.sum(a * b, where=m)`, exact for a mask of the
    arrays' shape); `jnp.median(E)` and `jnp.quantile/percentile(E, q)` of every entry become
    `jnp.nanmedian/nanquantile/nanpercentile(jnp.where(m, E, jnp.nan), q)` (a NaN among the
    selected entries is skipped there, and an empty selection gives NaN where the original raises); and
    `x.at[m].set(c)` with `c` the same at every entry (a number, `jnp.nan`, `-jnp.inf`, a full
    reduction) becomes `jnp.where(m, c, x)` (`.add(c)`: `jnp.where(m, x + c, x)`, and so on for
    multiply/divide/power/min/max; `.set(y[m])`: `jnp.where(m, y, x)`). They assume the mask has the
    array's shape, compute the expression on masked-out entries (a NaN gradient where those are not
    finite), reorder a float sum, and `jnp.where` promotes where `.at[].set` casts. A selection
    assigned to a name that only such reductions read is read through the name (where the array
    is rebound later, the name keeps the array and a second name its mask), and its length read
    beside them in arithmetic (`sel.sum() / sel.shape[0]`) is `jnp.count_nonzero(m)`. `jnp.nonzero/where/
    flatnonzero/argwhere/unique` without `size=` read only by sums get `size=<operand>.size,
    fill_value=0` (safe for indices: the padding adds 0); read only for their length in arithmetic
    with an array, the length is counted on the device (`jnp.count_nonzero`; unsafe for
    `jnp.unique`, whose NaNs count as one). A window of static length at a traced start
    (`x[i:i + K]`) becomes `jax.lax.dynamic_slice_in_dim(x, i, K)`: unsafe, as it clamps the start
    where the original window would run past the end. `jnp.arange(n)`, `jnp.zeros/ones/empty/full`
    at a traced size `n` that counts entries of an array (`jnp.sum(m)`, `jnp.count_nonzero(a)`, the
    size of a `jnp.unique`/`nonzero` result, `jnp.argmax(a)`, plus or minus a literal, `jnp.minimum`)
    are created at that array's static size: read only by such reductions, with `where=` the first
    `n` positions; a constant one read only by items (`s[idx]`), as it is (every entry is the fill
    value). `jnp.repeat(x, c, axis=k)` with counts from data, read once by `jnp.sum`/`jnp.mean`
    over axis `k` (also `r.mean(axis=k)`, or in place), weights the rows of `x` by `c` instead, as
    XLA205's fix does for `tf.repeat`: `jnp.sum(jnp.where(w > 0, x * w, 0), axis=k)`, divided by
    the number of repeated rows for a mean (unsafe: `x * c` is rounded once where the original
    adds `c` copies). A prefix of traced length (`x[:n]`, `x.at[:n, :, :].get()`, `n` a parameter,
    a number or a local bound once) read only through `jnp.repeat` on other axes, `jnp.einsum` and
    products by values without its rows, up to a `jax.nn.softmax` over its rows and an einsum or
    `jnp.sum` that removes them (a KV-cache decode step; across a module-level helper that returns
    it, into each caller in the file) becomes the whole array with its rows past `n` zeroed, and the
    softmax gets `where=` those rows: unsafe, as an inf past the prefix times 0 is NaN, a negative
    `n` counts from the end only in the slice, and a caller outside the file gets the whole array.
    A size or axis
    argument, or a slice bound that no reduction above reads with `where=` and no window of static
    length covers (`x[:n]`), made only of parameters of a `@jax.jit` function (and numbers) makes those
    parameters static (`functools.partial(jax.jit, static_argnames=...)`; where the function is
    wrapped by a call, `jax.jit(f, static_argnames=...)`, a bound method's `static_argnums` counted
    after `self`, also at `jax.jit(jax.grad(f))`; in a helper that only jitted functions call, by name
    or through `jax.grad(helper)(...)` and the other transformations that hand on the parameters they
    do not differentiate (`jax.vmap` those its `in_axes` maps with None), the callers' parameters it
    is passed from; a module constant bound once to a number is a number, and names unpacked from
    a Python value (`b, t = x.shape`, `h, w = size`) are, as is `*x.shape[:-1]` in a tuple;
    `jnp.array([b, h * 2, w])` (`jnp.asarray`, `jnp.array(x.shape)`, `jnp.array(n)`) of such values, itself
    a shape argument or bound to a name read only as shape arguments (or, for one value, as their
    items), becomes the tuple (or the value) itself (jax#8047: a traced array is no shape); a size
    that reads Python values through `jnp.log2/sqrt/floor/...`, traced even so, gets Python's
    `math` instead, in float64, and `.astype(int)` of one becomes `int(...)` (`A, B = 0.0, 1.0` at
    module level binds numbers too): unsafe, as each new
    value compiles anew and a caller passing an array there raises. `jax.ops.segment_sum/max/min/prod`
    without `num_segments` whose result is concatenated beside an array on an axis other than 0, or
    combined elementwise with one, gets `num_segments=<that array>.shape[0]`: where the original returns
    its segment count is that size (unsafe for `axis=-1`, axis 0 for 1-D data, and for an elementwise
    partner of leading size 1, which broadcasts). A data-sized result that is a selection of a static
    array (NumPy's definitions, measured under `jax.jit`) is read as one by every consumer above:
    `jnp.nonzero(a)[k]`/`jnp.where(a)[k]`/`jnp.argwhere(a)[:, k]` (positions: `broadcasted_iota`
    where `a != 0`), the full `jnp.argwhere(a)` (`jnp.indices(a.shape)` stacked last, where
    `(a != 0)[..., None]`), `jnp.flatnonzero(a)`, `jnp.extract/compress(c, a)` (`jnp.ravel(a)` where `c`;
    unsafe if `c` has another size), `jnp.unique(a)` and the values of `unique_counts/_all/_inverse`
    (`jnp.unique(a, size=a.size)` where `unique_counts(...).counts > 0`), `jnp.setdiff1d/intersect1d/
    union1d/setxor1d` (the same through `jnp.isin`; measured on finite values only) and
    `jnp.delete(a, obj)` (an index out of bounds is ignored, where the original raises); so is
    `jnp.concatenate([S, P])` of selections and plain arrays (the masks concatenated); a named
    position array read by `x.at[idx].set(c)` (and the other updates) becomes `jnp.where` through
    the mask, and `(idx,) = jnp.nonzero(m)` reads as `jnp.nonzero(m)[0]`. Across a call in the same
    file: a module-level function that returns such a selection returns the whole array and the mask
    instead, and each caller (all of them in the file, each binding the result to a name read only
    by those consumers) reduces with `where=` that mask (unsafe also because a caller outside the
    file would read a pair); one that returns a tuple holding selections by one mask (`return c,
    A[rows], b[rows]`, also through names and through `rows = jnp.where(m)[0]`) binds the whole
    arrays and returns the mask as a last item, which each caller in the file unpacks (`c, A_ub,
    b_ub, A_ub_mask = f(...)`); a product of selected rows by a plain operand (`h = sel @ W`) is also
    reduced in full, the mask broadcast over the product's trailing axes; a selection passed to a
    module-level function that reads the parameter only in full sum/mean/prod/var/std/any/all
    reductions of elementwise expressions (its other parameters numbers in that call) gives that
    function a keyword mask parameter, default None (all entries: its other callers get what they
    got), and the call passes the whole array and the mask. Other sizes get no automatic fix: the
    static bound must come from the model's configuration.
    """

    code = "XLA207"
    # Default again (tf-prec10): its first-sight false findings (9 findings, 2 true,
    # docs/real-code-judgments-8-final.md) were all fixed in the shared model (lax.axis_size measured a
    # Python int, pmap static_broadcasted_argnums, jit defaults, classes defined in compiled code); on
    # the 20 JAX corpora judged so far it gives 2 findings, both true (docs/known-results.md).
    # the repeat reduction before the static argument: it needs no Python value (repeat counts are arrays)
    fix = ("rewrite_jax_boolean_mask", "rewrite_jax_dynamic_slice", "rewrite_repeat_reduction",
           "rewrite_jax_prefix_attention",
           "rewrite_jax_static_argument", "rewrite_jax_segment_count")
    name = "jax-traced-shape"
    node_types = (ast.Call, ast.Subscript)

    VALID = (
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(emb, d):\n"
                "    return jnp.repeat(emb, d, axis=0, total_repeat_length=8)\n"),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n"
                "    return jnp.arange(x.shape[0]) + x[: x.shape[0] // 2].sum()\n"),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(labels):\n"
                "    return jnp.bincount(labels, length=3)\n"),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, idx):\n"
                "    keep = jnp.where(x > 0, x, 0.0)\n    rows = jnp.nonzero(x, size=4, fill_value=0)[0]\n"
                "    return keep.at[idx].set(0.0), jnp.squeeze(x[None], 0), rows\n"),
        # psum of a Python constant is the axis size as a Python int (maxtext's collective matmul)
        Example("import functools\nimport jax\nimport jax.numpy as jnp\n"
                "@functools.partial(jax.pmap, axis_name='i')\ndef f(x):\n"
                "    n = jax.lax.psum(1, axis_name='i')\n"
                "    perm = [(j, (j + 1) % n) for j in range(n)]\n"
                "    return jnp.zeros((n, x.shape[0])) + jax.lax.ppermute(x, 'i', perm)\n"),
        # init2winit metrics.py: a method of a class that a compiled function defines is not run by defining it
        # (tf-real8)
        Example("""
            import jax
            import jax.numpy as jnp


            def word_errors(decoded, paddings):
                lengths = jnp.sum(paddings == 0.0, axis=-1)
                total = 0
                for i in range(decoded.shape[0]):
                    total += len(decoded[i][:lengths[i]])
                return total


            def make_metric(vocab):
                class WordErrors:
                    def compute(self):
                        values = {k: jnp.array(v) for k, v in self.values.items()}
                        return word_errors(values['hyps'], values['paddings'])
                return WordErrors


            @jax.jit
            def step(x):
                metric_cls = make_metric(None)
                return x * jnp.sum(x)
        """),
        # deepmind-research kfac_ferminet_alpha/example.py, physics_inspired_models/utils.py: a default the caller
        # leaves out, a pmap static_broadcasted_argnums lambda argument (tf-real8)
        Example("""
            import jax
            import jax.numpy as jnp


            def init(rng, batch, sizes=(16, 8)):
                params = []
                for dim in sizes:
                    params.append(jnp.zeros([dim]) + jax.random.uniform(rng, (dim,)))
                return params


            init_fn = jax.jit(init)
            p_split = jax.pmap(lambda x, num: list(jax.random.split(x, num)), static_broadcasted_argnums=1)
        """),
        # maxdiffusion ring attention: lax.axis_size is a Python int where the axis is bound (the JAX table's
        # named-axis probe), so it sizes slices, aranges and permutations; a traced scale is dispatched by
        # type before the Python branch (tf-prec10)
        Example("""
            import functools

            import jax
            import jax.numpy as jnp
            from jax import lax


            def ring(x, scale, mesh_axes):
                ring_size = lax.axis_size(mesh_axes.ring)
                shard_len = x.shape[-1] // ring_size
                block = lax.dynamic_slice_in_dim(x, lax.axis_index(mesh_axes.ring) * shard_len, shard_len, axis=-1)
                steps = jnp.arange(0, ring_size)
                if isinstance(scale, jax.core.Tracer):
                    return block * jnp.where(scale > 0, scale, 1.0) + steps.sum()
                if scale > 0:
                    block = block * scale
                return block + steps.sum()


            class MeshAxes:
                ring = "ring"


            @jax.jit
            @functools.partial(jax.vmap, in_axes=(0, None), axis_name="ring")
            def step(x, scale):
                return ring(x, scale, MeshAxes())
        """),
        # a method of a traced pytree object (levanter's _DecodeOutputs.append): no jax.Array has
        # .append (the JAX table's array_methods), so it is not jnp.append(outputs, tokens, axis=n)
        Example("import jax\n@jax.jit\ndef step(outputs, tokens, n):\n    return outputs.append(tokens, n)\n"),
        # a Python computation of a static shape stays a Python int (reports17, after flax#1077)
        Example("import math\nimport jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n"
                "    return jnp.arange(int(math.log2(x.shape[-1]))).sum() + x\n"),
        # traced repeats with a static total_repeat_length compile: the JAX table's measured static_unless
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(counts):\n"
                "    return jnp.arange(3).repeat(counts, total_repeat_length=8)\n"),
        # a field listed in register_dataclass's meta_fields is static tree metadata, a Python int
        Example("import dataclasses\nfrom functools import partial\nimport jax\nimport jax.numpy as jnp\n"
                "@partial(jax.tree_util.register_dataclass, data_fields=['scale'], meta_fields=['window'])\n"
                "@dataclasses.dataclass(frozen=True)\nclass Cfg:\n    scale: float\n    window: int\n"
                "@jax.jit\ndef smooth(x, cfg: Cfg):\n"
                "    return jnp.convolve(x, jnp.ones((cfg.window,))) * cfg.scale\n"),
        # jax.ops segment reductions with a static `num_segments` (the JAX API table probes jax.ops;
        # jax#6350's fix; reports19-jax)
        Example("import jax\n@jax.jit\ndef pool(messages, receivers):\n"
                "    return jax.ops.segment_sum(messages, receivers, num_segments=8)\n"),
        # an indexed update's min/max take the values, not an axis (optax _hungarian_algorithm.py:157,
        # a false XLA207 at first sight; reports20-jax)
        Example("import jax\nimport jax.numpy as jnp\ndef body(it, costs):\n    j = it % 3\n"
                "    r = costs[j] - 1.0\n    return costs.at[j].min(r).at[j].max(r - 2.0)\n"
                "@jax.jit\ndef relax(costs):\n    return jax.lax.fori_loop(0, 3, body, costs)\n"),
        # the selected entries padded to a static size (the JAX table's `sized_by` for jnp.extract)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(scores, keep):\n"
                "    return jnp.extract(keep > 0, scores, size=8).sum()\n"),
        # the index the table's probe traced, given as a literal: static, it compiles
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(tokens):\n"
                "    return jnp.delete(tokens, 0, axis=0)\n"),
        # a traced index with the option the table measured making it compile (JaxMARL hanabi_game.py:273,
        # a false XLA207 before the table recorded `lifted_by`)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(hand, card_idx):\n"
                "    return jnp.delete(hand, card_idx, axis=0, assume_unique_indices=True)\n"),
        # weighted counts with a static length compile (the table's `holds_with` and `sized_by`)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(ids, w):\n"
                "    return jnp.bincount(ids, weights=w, length=8)\n"),
        # every compiled caller passes the literal use_jax=True: the NumPy arm is never traced (sofima's
        # masked_xcorr, batch 24; tests/xlacheck/test_literal_flag_truth.py runs it under jax.jit)
        Example("import jax\nimport jax.numpy as jnp\ndef masked_mean(x, mask, use_jax=False):\n"
                "    if use_jax:\n        total = jnp.where(mask, x, 0.0).sum()\n    else:\n"
                "        total = x[mask].sum()\n    return total / mask.sum()\n"
                "@jax.jit\ndef step(x):\n    return masked_mean(x, x > 0, use_jax=True)\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(signal, n_fft):\n"
                "    return jnp.abs(jnp.fft.rfft(signal, n=n_fft))\n",
                expected=(
                    (5, 20, '`n` of jnp.fft.rfft is a traced value under jax.jit: shapes must be static '
                            '(TracerIntegerConversionError); use a static bound or static_argnums'),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(emb, d):\n"
                "    return jnp.repeat(emb, d, axis=0)\n",
                expected=(
                    (5, 12, 'jnp.repeat without `total_repeat_length=` under jax.jit: its output size depends on '
                            'traced values, so tracing fails (ConcretizationTypeError); pass a static '
                            '`total_repeat_length`'),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(n, offset):\n"
                "    return jnp.arange(n) + offset\n",
                expected=(
                    (5, 12, '`start` of jnp.arange is a traced value under jax.jit: shapes must be static '
                            '(ConcretizationTypeError); use a static bound or static_argnums'),
                )),
        Example("import jax\nimport jax.numpy as jnp\nfrom jax import lax\n@jax.jit\ndef f(loss, valid):\n"
                "    k = jnp.ceil(jnp.sum(valid) * 0.5).astype(jnp.int32)\n    return lax.top_k(loss, k)[0]\n",
                expected=(
                    (7, 12, '`k` of jax.lax.top_k is a traced value under jax.jit: shapes must be static '
                            '(TracerBoolConversionError); use a static bound or static_argnums'),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, valid):\n"
                "    rows, cols = jnp.where(x == 0)\n    return x.at[~valid].set(0.0), jnp.squeeze(x, valid.ndim)\n",
                expected=(
                    (5, 18, 'jnp.where without `size=` under jax.jit: its output size depends on traced values, so '
                            'tracing fails (ConcretizationTypeError); pass a static `size`'),
                    (6, 12, 'boolean-mask indexing under jax.jit: the result size depends on data '
                            '(NonConcreteBooleanIndexError); use jnp.where(mask, x, 0) and a masked reduction'),
                )),
        Example("import jax\n@jax.jit\ndef f(tokens, n_heads):\n    return tokens.reshape(n_heads, -1).sum(0)\n",
                expected=(
                    (4, 12, '`shape` of .reshape() (jnp.reshape) is a traced value under jax.jit: shapes must be '
                            'static (TypeError); use a static bound or static_argnums'),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(features, channel_axis):\n"
                "    return jnp.squeeze(features, channel_axis)\n",
                expected=(
                    (5, 12, '`axis` of jnp.squeeze is a traced value under jax.jit: shapes must be static '
                            '(ConcretizationTypeError); use a static bound or static_argnums'),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, labels):\n"
                "    return jnp.mean(x[labels >= 0])\n",
                expected=(
                    (5, 21, 'boolean-mask indexing under jax.jit: the result size depends on data '
                            '(NonConcreteBooleanIndexError); use jnp.where(mask, x, 0) and a masked reduction'),
                )),
        # a jnp op of static values is still staged: a tracer (reports17, after flax#1077)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n"
                "    return jnp.arange(jnp.log2(x.shape[-1])).sum() + x\n",
                expected=(
                    (5, 12, '`start` of jnp.arange is a traced value under jax.jit: shapes must be static '
                            '(ConcretizationTypeError); use a static bound or static_argnums'),
                )),
        # without it the number of segments is read off the traced ids (jax#6350, a GNN's message
        # aggregation; reports19-jax)
        Example("import jax\n@jax.jit\ndef pool(messages, receivers):\n"
                "    return jax.ops.segment_sum(messages, receivers)\n",
                expected=(
                    (4, 12, "jax.ops.segment_sum without `num_segments=` under jax.jit: its output size depends on "
                            "traced values, so tracing fails (ConcretizationTypeError); pass a static `num_segments`"),
                )),
        # jnp.extract / jnp.compress select by a mask: the table measures their result shape following
        # the mask's values (they raise TracerBoolConversionError, a ConcretizationTypeError; the message
        # names the class the table measured)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(scores, keep):\n"
                "    kept = jnp.extract(keep > 0, scores)\n"
                "    return jnp.compress(keep > 0, scores).sum() + kept.sum()\n",
                expected=(
                    (5, 12, "jnp.extract without `size=` under jax.jit: its output size depends on traced values, so "
                            "tracing fails (TracerBoolConversionError); pass a static `size`"),
                    (6, 12, "jnp.compress without `size=` under jax.jit: its output size depends on traced values, "
                            "so tracing fails (TracerBoolConversionError); pass a static `size`"),
                )),
        # a static repeat count does not make the axis static (the table's static_args for jnp.repeat;
        # api_coverage jax-const)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(emb, time_axis):\n"
                "    return jnp.repeat(emb, 2, axis=time_axis)\n",
                expected=(
                    (5, 12, "`axis` of jnp.repeat is a traced value under jax.jit: shapes must be static "
                            "(ConcretizationTypeError); use a static bound or static_argnums"),
                )),
        # a literal second operand: the table's `shape_args` measures the first driving the shape too
        # (review22: a literal argument exempted the whole call)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(labels):\n"
                "    return jnp.setdiff1d(labels, 0).sum()\n",
                expected=(
                    (5, 12, "jnp.setdiff1d without `size=` under jax.jit: its output size depends on traced values, "
                            "so tracing fails (ConcretizationTypeError); pass a static `size`"),
                )),
        # weighted counts: the table measures `weights` keeping the verdict (`holds_with`)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(ids, w):\n"
                "    return jnp.bincount(ids, weights=w)\n",
                expected=(
                    (5, 12, "jnp.bincount without `length=` under jax.jit: its output size depends on traced values, "
                            "so tracing fails (ConcretizationTypeError); pass a static `length`"),
                )),
        # a traced index: the message names the option the table measured lifting it
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(hand, card_idx):\n"
                "    return jnp.delete(hand, card_idx, axis=0)\n",
                expected=(
                    (5, 12, "jnp.delete under jax.jit: its output size depends on traced values and no argument "
                            "gives it a static size, so tracing fails (ConcretizationTypeError); pass "
                            "`assume_unique_indices=True` where that holds"),
                )),
        # the size argument given, but as a traced value: the table measured it failing traced too
        # (the sized_by parameters in static_args; alexOarga/haiku-geometric#3, reports30)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef pool(messages, receivers):\n"
                "    return jax.ops.segment_sum(messages, receivers, num_segments=jnp.max(receivers) + 1)\n",
                expected=(
                    (5, 12, "`num_segments` of jax.ops.segment_sum is a traced value under jax.jit: shapes must be "
                            "static (ConcretizationTypeError); use a static bound or static_argnums"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if not ctx.function.jax:
            return
        if isinstance(node, ast.Subscript):
            self._subscript(node, ctx)
            return
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None:
            self._method(node, ctx)
            return
        need = _NEED_SIZE.get(name) or _data_dependent(name, node)
        if need == "":
            ctx.report(self, node, f"{name} under jax.jit: its output size depends on traced values and no argument "
                                   f"gives it a static size, so tracing fails ({_error(name)}); {_remedy(name)}")
            return
        if need is not None:
            given = any(kw.arg == need for kw in node.keywords)
            if not given and (name != "jnp.repeat" or _traced(ctx.flags(argument(node, 1, "repeats")))):
                ctx.report(self, node, f"{name} without `{need}=` under jax.jit: its output size depends on traced "
                                       f"values, so tracing fails ({_error(name)}); pass a static `{need}`")
                return
            # sized (or repeats a Python value): its other static arguments still must be static
            # (jnp.repeat's `axis`, the table's static_args)
        for keyword, arg in static_arguments(name, node):  # the JAX API table's static_args
            if _traced(ctx.flags(arg)):
                ctx.report(self, node, f"`{keyword}` of {name} is a traced value under jax.jit: shapes must be static "
                                       f"({_static_error(name, keyword)}); use a static bound or static_argnums")
                return

    def _method(self, node: ast.Call, ctx: RuleContext) -> None:
        """``x.reshape(n, -1)``: a jax.Array method is the jax.numpy function of the same name with
        the array first, so the table's static arguments hold for it."""
        f = node.func
        if not isinstance(f, ast.Attribute) or ctx.resolve(f.value) is not None:
            return
        if isinstance(f.value, ast.Subscript) and isinstance(f.value.value, ast.Attribute) \
                and f.value.value.attr == "at":
            return  # x.at[i].min(v) is an indexed update (v the values), not x.min(axis=v)
        k = ctx.flags(f.value)
        if not k & TENSOR or k & PYLIST or f.attr not in api_table.jax_array_methods():
            return  # `outputs.append(...)` on a traced pytree object is its class's method: no jax.Array has .append
        name, as_function = array_method_as_function(node)  # type: ignore[misc]  # f.attr is an array method
        args = as_function.args[1:]
        packed = len(args) != len(node.args)
        need = _data_dependent(name, as_function)
        if need:  # x.nonzero(): the method is jnp.nonzero(x)
            if _traced(k) and not any(kw.arg == need for kw in node.keywords):
                ctx.report(self, node, f".{f.attr}() (jnp.{f.attr}) without `{need}=` under jax.jit: its output size "
                                       f"depends on traced values, so tracing fails ({_error(name)}); pass a "
                                       f"static `{need}`")
            return
        for keyword, arg in static_arguments(name, as_function):
            # the packed tuple is built here: its elements' flags, never its own (flags are memoized by id)
            parts = arg.elts if packed and arg is args[0] and isinstance(arg, ast.Tuple) else [arg]
            if arg is not f.value and any(_traced(ctx.flags(a)) for a in parts):
                ctx.report(self, node, f"`{keyword}` of .{f.attr}() (jnp.{f.attr}) is a traced value under jax.jit: "
                                       f"shapes must be static ({_static_error(name, keyword)}); use a static "
                                       "bound or static_argnums")
                return

    def _subscript(self, node: ast.Subscript, ctx: RuleContext) -> None:
        if not isinstance(node.ctx, ast.Load) or not ctx.flags(node.value) & TENSOR:
            return
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in parts:
            if isinstance(part, ast.Slice):
                if any(b is not None and _traced(ctx.flags(b)) for b in (part.lower, part.upper, part.step)):
                    ctx.report(self, node, "slice bound is a traced value under jax.jit: 'Slice entries must be static "
                                           "integers'; use lax.dynamic_slice with a static size")
                    return
            else:
                k = ctx.flags(part)
                # `~t` as an index is a mask: on an integer array it would index from the end (-t-1)
                if k & TENSOR and (k & BOOL or isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Invert)):
                    ctx.report(self, node, "boolean-mask indexing under jax.jit: the result size depends on data "
                                           "(NonConcreteBooleanIndexError); use jnp.where(mask, x, 0) and a masked "
                                           "reduction")
                    return
