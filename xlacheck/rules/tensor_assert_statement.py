"""XLA102: an ``assert`` statement on a tensor in compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import is_computed_tensor, is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


class TensorAssertStatement(Rule):
    """
    ## What it does
    Flags `assert <tensor condition>` inside compiled code (and in tensor helpers).

    ## Why is this bad?
    AutoGraph does not convert `assert` statements: tracing asks the symbolic tensor for a Python
    `bool` and fails with `Using a symbolic tf.Tensor as a Python bool is not allowed`.
    `tf.debugging.assert_*` compiles, but note that XLA silently drops the check.

    ## Example
    ```python
    def checked_loss(labels, logits):
        assert tf.reduce_all(labels >= 0), "negative label id"
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    ```

    ## Use instead
    ```python
    def checked_loss(labels, logits):
        labels = tf.debugging.assert_non_negative(labels)  # dropped under XLA, checked eagerly
        ...
    ```

    ## Fix safety
    `assert c, "msg"` becomes `tf.debugging.Assert(c, ["msg"])`. The fix is safe (for plain
    `python`; `python -O` skips the original assert, the fix still checks outside XLA): wherever
    the original returns, the condition held, so the Assert passes and changes nothing. A
    condition that is not provably rank-0 is wrapped in `tf.reduce_any` (Python's `bool()` of a
    one-element tensor is its element, of an empty one False); a number becomes
    `tf.not_equal(c, 0)`, which is `bool()` for every real and complex dtype, NaN included.
    Where the original raises, the fix differs: XLA drops the check under `jit_compile`, and
    eagerly or in a `tf.function` it raises `InvalidArgumentError`, not `AssertionError`.
    Unsafe when the message is not a string literal (the fix evaluates it every time), when an
    `and`/`or` could skip operands on a passing input, when a `try` or an `except` in the file
    could catch the `AssertionError`, or when the condition is not provably a boolean or a number.
    Leading Python-level guards (`w is not None and ...`) stay a Python `assert` before the Assert.
    A condition made only of shape facts (`assert tf.rank(m) == 5`) whose Assert form would be
    unsafe (a message that is not a literal) stays a Python assert on the static shape
    (`assert len(m.shape) == 5`): it raises `AssertionError` while tracing where the original
    raises eagerly, and XLA cannot drop it; unsafe only because a dimension unknown while tracing
    reads as None. Under `jax.jit`, `assert c, msg` becomes a `jax.debug.callback` that raises
    `AssertionError(msg)` when the compiled code runs and `c` is false: equal wherever the original
    returns; unsafe because the error reaches the caller wrapped in JAX's runtime error (and the
    check also runs under `python -O`). An assert of a sequence equality
    (`assert shape_list(mask) == [bs, slen]`) becomes
    `tf.debugging.Assert(tf.reduce_all(tf.equal(A, B)), ...)`: Python compares the pairs one by
    one, `tf.equal` the packed sides at once, equal wherever the original returns. Unsafe: a
    `None`, a nested list or mixed dtypes in a side raise when packed.
    """

    code = "XLA102"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_assert", "rewrite_jax_check")
    name = "tensor-assert-statement"
    node_types = (ast.Assert,)
    in_helpers = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    assert x.shape[-1] == 4\n    return x * 2.0\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    tf.debugging.assert_non_negative(x)\n    return x\n"),
        # the rank a caller passes may be a tensor (tf.size), but the assert runs only for an int
        Example("import tensorflow as tf\ndef has_rank(t, rank):\n"
                "    if t.shape.ndims is not None and isinstance(rank, int):\n"
                "        assert t.shape.ndims == rank, 'rank'\n    return t\n"
                "@tf.function(jit_compile=True)\ndef f(x, shape):\n"
                "    return has_rank(has_rank(x, 2), tf.size(shape)) * 2.0\n"),
        # tensorflow/tpu custom_tpuestimator.py: a flag read through tf.compat.v1.flags.FLAGS is a Python value
        # (tf-real8)
        Example("""
            import tensorflow.compat.v1 as tf
            from tensorflow.contrib import tpu as contrib_tpu

            FLAGS = tf.flags.FLAGS


            def main(model_fn):
                if FLAGS.use_tpu:
                    assert FLAGS.model_dir.startswith('gs://'), 'model_dir must be a GCS path'
                return contrib_tpu.TPUEstimator(model_fn=model_fn)
        """),
        # ott-jax/ott tests (judged false, batch 17): an object a function of another module builds inside
        # the jitted function; it has an `ndim`, but `is_fused` is no member of any tensor, so it is no
        # array, and what it holds is of unknown kind (a Python bool, a float it was given)
        Example("""
            import jax
            from mylib import problems


            def solve(y, sizes, penalty):
                def run(y):
                    prob = problems.BarycenterProblem(y=y, sizes=sizes, penalty=penalty)
                    assert prob.is_fused
                    assert prob.penalty == penalty
                    assert prob.ndim == 2
                    return prob.solve()
                return jax.jit(run)(y)
        """),
        # google/learned_optimization (judged false, batch 19): a helper of another module compared with a
        # static argument; `first_dim` returns `leaves[0].shape[0]`, a Python int while tracing
        Example("""
            import functools
            import jax
            import jax.numpy as jnp
            from mylib import tree_utils


            @functools.partial(jax.jit, static_argnums=(1,))
            def unroll(datas, length):
                assert tree_utils.first_dim(datas) == length, "one step per datum"
                return jnp.sum(datas)
        """),
        # a list of shape entries compared with another: Python ints while tracing (static shapes), no tensor
        Example("""
            import tensorflow as tf


            def shape_list(t):
                static = t.shape.as_list()
                dynamic = tf.shape(t)
                return [dynamic[i] if s is None else s for i, s in enumerate(static)]


            @tf.function(jit_compile=True)
            def f(lengths):
                mask = tf.range(6)[None, :] < lengths[:, None]
                bs, slen = shape_list(mask)
                assert shape_list(mask) == [bs, slen]
                return mask
        """),
        # the variable-collection getters return Python lists (xlacheck/data/tf_api.json `structure: "list"`,
        # measured: an empty one in the probe's graph): the assert tests that the list is non-empty (tf-gan's
        # create_train_op, real-code batch 23; prec24)
        Example("import tensorflow as tf\ndef train_op(loss, optimizer, variables_to_train=None):\n"
                "    loss = tf.reduce_mean(loss)\n    if variables_to_train is None:\n"
                "        variables_to_train = tf.compat.v1.trainable_variables()\n    assert variables_to_train\n"
                "    return optimizer.minimize(loss, var_list=variables_to_train)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(labels):\n"
                "    assert tf.reduce_all(labels >= 0), 'negative'\n    return labels\n",
                expected=(
                    (4, 5, '`assert` on a tensor: AutoGraph does not convert assert statements, so tracing fails '
                           "with 'Using a symbolic tf.Tensor as a Python bool'; use tf.debugging.assert_* (XLA drops "
                           'the check, eager mode keeps it)'),
                )),
        Example("import tensorflow as tf\ndef loss(labels, logits):\n"
                "    assert tf.reduce_min(labels) >= 0\n    return tf.reduce_mean(logits)\n",
                expected=(
                    (3, 5, '`assert` on a tensor: AutoGraph does not convert assert statements, so tracing fails '
                           "with 'Using a symbolic tf.Tensor as a Python bool'; use tf.debugging.assert_* (XLA drops "
                           'the check, eager mode keeps it)'),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(labels):\n"
                "    assert jnp.all(labels >= 0), 'negative'\n    return labels\n",
                expected=(
                    (5, 5, '`assert` on a traced array under jax.jit: Python asks for its truth while tracing, which '
                           'fails with TracerBoolConversionError; use jax.experimental.checkify.check, or check '
                           'outside the jitted function'),
                )),
        # the same comparison with a proven array on one side is an array
        Example("""
            import functools
            import jax
            import jax.numpy as jnp
            from mylib import tree_utils


            @functools.partial(jax.jit, static_argnums=(1,))
            def unroll(datas, length):
                assert jnp.sum(datas) == tree_utils.first_dim(datas), "one step per datum"
                return jnp.sum(datas)
        """, expected=(
            (9, 5, '`assert` on a traced array under jax.jit: Python asks for its truth while tracing, which '
                    'fails with TracerBoolConversionError; use jax.experimental.checkify.check, or check '
                    'outside the jitted function'),
        )),
        # reports23-tf (transformers#19030): Python's list equality asks each element comparison for its truth,
        # and `6 == slen` with a tensor `slen` is an elementwise tensor: it raises in every tf.function
        Example("""
            import tensorflow as tf


            def shape_list(t):
                static = t.shape.as_list()
                dynamic = tf.shape(t)
                return [dynamic[i] if s is None else s for i, s in enumerate(static)]


            @tf.function(jit_compile=True)
            def f(lengths):
                slen = tf.reduce_max(lengths)
                mask = tf.range(6)[None, :] < lengths[:, None]
                assert shape_list(mask) == [2, slen]
                return mask
        """, expected=(
            (14, 5, '`assert` on a tensor: AutoGraph does not convert assert statements, so tracing fails '
                    "with 'Using a symbolic tf.Tensor as a Python bool'; use tf.debugging.assert_* (XLA drops "
                    'the check, eager mode keeps it)'),
        )),
        # the same sequence equality, fixed: the two sides packed and compared as one tensor (fixes28)
        Example("""
            import tensorflow as tf


            @tf.function(jit_compile=True)
            def f(lengths):
                slen = tf.reduce_max(lengths)
                mask = tf.range(6)[None, :] < lengths[:, None]
                assert [mask.shape[0], 6] == [2, slen], "mask shape"
                return mask
        """, fixed="""
            import tensorflow as tf


            @tf.function(jit_compile=True)
            def f(lengths):
                slen = tf.reduce_max(lengths)
                mask = tf.range(6)[None, :] < lengths[:, None]
                tf.debugging.Assert(tf.reduce_all(tf.equal([mask.shape[0], 6], [2, slen])), ["mask shape"])
                return mask
        """, expected=(
            (8, 5, '`assert` on a tensor: AutoGraph does not convert assert statements, so tracing fails '
                   "with 'Using a symbolic tf.Tensor as a Python bool'; use tf.debugging.assert_* (XLA drops "
                   'the check, eager mode keeps it)'),
        )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Assert)
        k = ctx.flags(node.test)
        if is_computed_tensor(k) or (ctx.function.jit_entry and is_tensor(k)):
            if ctx.function.jax:
                ctx.report(self, node,
                           "`assert` on a traced array under jax.jit: Python asks for its truth while tracing, which "
                           "fails with TracerBoolConversionError; use jax.experimental.checkify.check, or check "
                           "outside the jitted function")
                return
            ctx.report(self, node,
                       "`assert` on a tensor: AutoGraph does not convert assert statements, so tracing fails "
                       "with 'Using a symbolic tf.Tensor as a Python bool'; use tf.debugging.assert_* "
                       "(XLA drops the check, eager mode keeps it)")
