"""XLA315: a seeded (stateless) random draw whose values XLA computes differently from TensorFlow."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis.contexts import Level
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name


def _alg(node: ast.Call, ctx: RuleContext) -> tuple[bool, str | None]:
    """(known, alg): the ``alg`` argument as the table spells it (None: not given), or
    known=False when it is given but not a literal (``"philox"``, ``tf.random.Algorithm.PHILOX``)."""
    value = next((kw.value for kw in node.keywords if kw.arg == "alg"), None)
    if value is None:
        return True, None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return True, value.value.lower()
    if isinstance(value, ast.Attribute) and (ctx.resolve(value.value) or "").endswith("random.Algorithm"):
        return True, value.attr.lower()
    return False, None


def _constant_seed(seed: ast.expr | None, ctx: RuleContext, depth: int = 0) -> bool | None:
    """True: the seed is a Python constant (a literal pair, or a module-level name bound to one);
    False: a tensor; None: unknown (an attribute, a Python variable, a call this cannot see into)."""
    if seed is None or depth > 2:
        return None
    if isinstance(seed, (ast.Tuple, ast.List)):
        return all(isinstance(e, ast.Constant) and type(e.value) is int for e in seed.elts) or None
    if isinstance(seed, ast.Name) and seed.id in ctx.module_values:
        return _constant_seed(ctx.module_values[seed.id], ctx, depth + 1)
    flags = ctx.flags(seed)
    return False if ctx.tensor_value(flags) else None


class SeededRandomDiffersUnderXla(Rule):
    """
    ## What it does
    Flags seeded random draws (`tf.random.stateless_*`, `tf.image.stateless_random_*`) in
    jit-compiled code when the generated API table (`xlacheck/data/tf_api.json`, `xla_values`)
    records that XLA returns other values than TensorFlow for the same seed in that form of the
    call: which `alg` it passes and whether the seed is a Python constant or a tensor. Also the
    stateful random ops given an integer op seed (`tf.random.uniform(..., seed=7)`,
    `tf.nn.dropout`, `tf.image.random_brightness`, ...) where the table records (`op_seed`) that
    the compiled call draws other values than the eager one for the same global and op seeds.

    ## Why is this bad?
    A stateless draw promises the same numbers for the same seed. Compiled with
    `jit_compile=True`, TensorFlow 2.21 gives other numbers on XLA:CPU for the default algorithm
    (`auto_select` picks another generator under XLA) and for `alg="philox"` with a tensor seed
    (measured by running each API eagerly and compiled on the same inputs). Seeded augmentation
    picks other crops, a seeded dropout mask or initialisation changes, and a result checked
    against an eager run no longer matches: no error, other numbers. XLA ignores the seeds of the
    stateful ops (TensorFlow logs "Using tf.random.uniform with XLA compilation will ignore seeds"),
    so a run seeded for reproducibility stops being reproducible once its step is compiled.

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def jitter(x):
        return x + tf.random.stateless_uniform(tf.shape(x), seed=(1, 2), maxval=0.1)
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True)
    def jitter(x):  # philox with a constant seed: the same numbers with and without XLA
        return x + tf.random.stateless_uniform(tf.shape(x), seed=(1, 2), maxval=0.1, alg="philox")
    ```

    ## Fix safety
    Without `alg` and with a constant seed, where the table records that philox with a constant
    seed gives the same numbers under XLA, the fix adds `alg="philox"`. Unsafe: pinning `alg`
    changes the numbers the eager code draws too where `auto_select` is not philox (on CPU it is,
    so eager results stay the same there). Where the seed is a tensor there is no fix: draw the
    numbers outside the compiled function and pass them in.
    """

    code = "XLA315"
    fix = ("rewrite_seeded_random_alg",)
    name = "seeded-random-differs-under-xla"
    severity = Severity.WRONG_RESULT
    node_types = (ast.Call,)
    levels = frozenset({Level.CERTAIN})  # a Keras method or a plain tf.function may never meet XLA

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x + tf.random.stateless_uniform([4], seed=(1, 2), alg='philox')\n"),
        Example("import tensorflow as tf\ndef augment(x, seed):\n"
                "    return x + tf.random.stateless_normal(tf.shape(x), seed)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.image.stateless_random_crop(x, [4, 4, 1], seed=(1, 2))\n"),
        # no op seed: the eager draw is not reproducible either, so nothing changes when compiled
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x + tf.random.uniform([4])\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, seed):\n"
                "    a = tf.random.stateless_uniform([4], seed=(1, 2))\n"
                "    b = tf.random.stateless_normal([4], seed, alg='philox')\n    return x + a + b\n",
                expected=(
                    (4, 9, 'tf.random.stateless_uniform (default alg, constant seed) draws other values under XLA '
                           'than TensorFlow does for the same seed (measured, xlacheck/data/tf_api.json): seeded '
                           'results change when this is compiled; alg="philox" with a constant seed gives the '
                           'same values (compiled: decorated with tf.function(jit_compile=True) at line 2)'),
                    (5, 9, 'tf.random.stateless_normal (alg="philox", tensor seed) draws other values under XLA '
                           'than TensorFlow does for the same seed (measured, xlacheck/data/tf_api.json): seeded '
                           'results change when this is compiled; draw the numbers outside the compiled function '
                           'and pass them in (compiled: decorated with tf.function(jit_compile=True) at line 2)'),
                )),
        # a stateful op with an integer op seed: XLA ignores it (the table's op_seed)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x + tf.random.uniform([4], seed=11)\n",
                expected=(
                    (4, 16, 'tf.random.uniform with an op seed draws other values under XLA than TensorFlow does for '
                            'the same seeds (measured, xlacheck/data/tf_api.json; XLA ignores the seeds of stateful '
                            'random ops): seeded results change when this is compiled; draw the numbers outside the '
                            'compiled function and pass them in (compiled: decorated with '
                            'tf.function(jit_compile=True) at line 2)'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None:
            return
        if "stateless" not in name:
            self._check_op_seed(node, name, ctx)
            return
        fact = api_table.fact_for(name)
        if fact is None or not fact.xla_values:
            return
        known, alg = _alg(node, ctx)
        if not known:
            return
        seed_param = "seed"
        position = fact.params.index(seed_param) if seed_param in fact.params else -1
        seed = argument(node, position, seed_param) if position >= 0 else \
            next((kw.value for kw in node.keywords if kw.arg == seed_param), None)
        constant = _constant_seed(seed, ctx)
        kinds = (True, False) if constant is None else (constant,)
        if not all(fact.xla_values_differ(alg, c) for c in kinds):
            return  # not measured, or equal for some seed this may be
        where = "default alg" if alg is None else f'alg="{alg}"'
        if constant is not None:
            where += ", constant seed" if constant else ", tensor seed"
        philox_constant = fact.xla_values_differ("philox", True) is False
        advice = ('alg="philox" with a constant seed gives the same values' if philox_constant and constant
                  else "draw the numbers outside the compiled function and pass them in")
        ctx.report(self, node,
                   f"{name} ({where}) draws other values under XLA than TensorFlow does for the same seed "
                   "(measured, xlacheck/data/tf_api.json): seeded results change when this is compiled; "
                   f"{advice} (compiled: {ctx.function.evidence})")

    def _check_op_seed(self, node: ast.Call, name: str, ctx: RuleContext) -> None:
        """A stateful random op given an integer op seed (``tf.random.uniform(..., seed=7)``) where the
        table measured other values under XLA for the same global and op seeds (``op_seed``)."""
        fact = api_table.fact_for(name)
        if fact is None or dict(fact.xla_values).get("op_seed") != "differs" or "seed" not in fact.params:
            return
        seed = argument(node, fact.params.index("seed"), "seed")
        if not _int_seed(seed, ctx):
            return
        ctx.report(self, node,
                   f"{name} with an op seed draws other values under XLA than TensorFlow does for the same "
                   "seeds (measured, xlacheck/data/tf_api.json; XLA ignores the seeds of stateful random ops): "
                   "seeded results change when this is compiled; draw the numbers outside the compiled function "
                   f"and pass them in (compiled: {ctx.function.evidence})")


def _int_seed(seed: ast.expr | None, ctx: RuleContext) -> bool:
    """The op seed is a Python int: a literal, or a module-level name bound to one."""
    if isinstance(seed, ast.Name) and seed.id in ctx.module_values:
        seed = ctx.module_values[seed.id]
    return isinstance(seed, ast.Constant) and type(seed.value) is int
