"""XLA101: a Python condition on a tensor in compiled code that AutoGraph does not convert."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.tables import TF_VARIABLES
from xlacheck.analysis.tracers import proven_tracer
from xlacheck.analysis.truth import only_truth_tested, parents, required_params
from xlacheck.analysis.values import BOOL, TENSOR, VARIABLE, is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext

_DO_NOT_CONVERT = "tf.autograph.experimental.do_not_convert"


def _declared_do_not_convert(ctx: RuleContext) -> bool:
    """The function itself carries ``@tf.autograph.experimental.do_not_convert``: the decorator
    only matters inside a graph, so a helper that has it is written to be traced by its callers."""
    node = ctx.function.node
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        ctx.resolve(d.func if isinstance(d, ast.Call) else d) == _DO_NOT_CONVERT for d in node.decorator_list)


def _variable_dtype_bool(ctor: ast.Call, ctx: RuleContext) -> bool | None:
    """Whether the variable ``ctor`` builds is boolean (None: not a variable constructor we read).
    ``add_weight`` defaults to the layer's float dtype; ``tf.Variable`` takes the initial value's."""
    name = ctx.resolve(ctor.func)
    is_add_weight = isinstance(ctor.func, ast.Attribute) and ctor.func.attr == "add_weight"
    if not is_add_weight and name not in TF_VARIABLES:
        return None
    for kw in ctor.keywords:
        if kw.arg == "dtype":
            if isinstance(kw.value, ast.Constant):  # dtype="bool"
                return kw.value.value == "bool"
            return ctx.resolve(kw.value) in ("tf.bool", "tf.dtypes.bool")
    if is_add_weight:
        return False
    initial = ctor.args[0] if ctor.args else next((kw.value for kw in ctor.keywords if kw.arg == "initial_value"), None)
    if isinstance(initial, ast.Constant) and type(initial.value) in (int, float):
        return False
    return None  # the initial value's dtype is not read here


def _numeric_variable(test: ast.expr, ctx: RuleContext) -> str | None:
    """``self.<attr>`` (or ``not self.<attr>``) that holds a non-boolean ``tf.Variable`` built in
    ``__init__``/``build`` (``add_weight``, ``tf.Variable``; either branch of a conditional
    expression): the attribute's text, else None."""
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    cls = ctx.values.cls
    if cls is None or not (isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name)
                           and test.value.id == "self"):
        return None
    flags = ctx.flags(test)
    if not flags & TENSOR or not flags & VARIABLE or flags & BOOL:
        return None
    value = cls.attrs.get(test.attr)
    candidates = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
    verdicts = [_variable_dtype_bool(c, ctx) for c in candidates if isinstance(c, ast.Call)]
    if verdicts and all(v is False for v in verdicts):
        return f"self.{test.attr}"
    return None


def _proven_computed_tracer(test: ast.expr, ctx: RuleContext) -> bool:
    """Under jax.jit, ``test`` is computed from values proven to be tracers (analysis.tracers: a comparison,
    an item, arithmetic or a JAX op on them, a helper's return), where the value model lost them. A bare
    name is left to the value model and :func:`_bare_jit_argument` (a container passed whole is truthy)."""
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    return ctx.function.jax and not isinstance(test, ast.Name) \
        and proven_tracer(test, ctx.flags, ctx.function, ctx.facts) is not None


def _bare_jit_argument(test: ast.expr, ctx: RuleContext) -> bool:
    """``if flag:`` / ``if not flag:`` / ``if mask[i]:`` on a parameter (or an item of one) of an
    explicit ``jax.jit`` entry that is not static, has no default, is never rebound and is read
    only for its truth. jax.jit passes every leaf of its non-static arguments as a tracer, a Python
    bool or int included (measured, jax 0.10.2: ``jax.jit(f)(x, True)`` raises
    TracerBoolConversionError at ``if not flag:``); only a container passed whole is truthy without
    a trace error, and a container is read some other way too (``x['a']``, ``jnp.stack(x)``). None
    of the 570 functions decorated with jax.jit in the JAX corpora judged so far (reserve10-15,
    real_code.py's) tests such an argument's truth (a static flag is in ``static_argnames``, an
    optional one defaults to None). Not an attribute (``state.flag``): a registered pytree may keep
    it as static metadata. Also a required parameter of a function (or method) that every compiled
    caller here passes such an argument whole, positionally (``helper(x, flag)`` in the entry, which
    reads ``flag`` only for its truth or hands it on: :func:`analysis.truth.passed_whole_jit_argument`),
    read only for its truth there too (dm-haiku issue 187: `if is_training:` in a network's
    ``__call__``)."""
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    while isinstance(test, ast.Subscript):
        test = test.value  # an item of it (`mask[i]`): a leaf, so a tracer, or a sub-container
    info = ctx.function
    node = info.node
    if not (isinstance(test, ast.Name) and info.jax and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
        return False
    if info.jit_entry:
        if info.cls is not None or test.id in info.static_params or info.static_params_unknown:
            return False
    elif test.id not in ctx.jit_leaf_params:
        return False
    required = required_params(node)
    if required is None or test.id not in required:
        return False
    return all(isinstance(n.ctx, ast.Load) and only_truth_tested(n, up)
               for up in [parents(node)] for n in ast.walk(node)
               if isinstance(n, ast.Name) and n.id == test.id)


class TensorConditionWithoutAutograph(Rule):
    """
    ## What it does
    Flags `if`, `while`, ternaries and `and`/`or` whose condition is a tensor, in compiled code
    that AutoGraph does not convert: `@tf.function(autograph=False)`,
    `@tf.autograph.experimental.do_not_convert`, lambdas (including `keras.layers.Lambda`),
    `jax.jit` functions (and what they run through `jax.grad`/`jax.vmap`/`jax.tree.map`; a
    `jax.vmap`/`jax.checkpoint` body anywhere; a truth test on a required non-static `jax.jit`
    argument or an item of one, which JAX passes as a tracer even when the caller passes a Python
    bool), and whatever an `autograph=False` entry runs on its trace, even where
    another path converts it (its helpers, and the `call` of the Keras layers and models it calls:
    Keras converts `call` only when its caller's AutoGraph status allows); also in a module-level
    helper that nothing in the file compiles when the helper declares
    `@tf.autograph.experimental.do_not_convert` itself (the decorator only matters inside a
    graph). In converted code it flags `if`/`while`/ternaries on
    the truth value of a non-boolean `tf.Variable` attribute (`if self.bias:` where `self.bias`
    comes from `add_weight`).

    ## Why is this bad?
    Without AutoGraph, Python asks the symbolic tensor for a `bool` while tracing and TensorFlow
    raises `OperatorNotAllowedInGraphError: Using a symbolic tf.Tensor as a Python bool is not
    allowed` (JAX: `TracerBoolConversionError`). Inside AutoGraph-converted code the same `if`
    becomes `tf.cond` and compiles, so this rule stays silent there, except when the condition is
    not a `tf.bool`: AutoGraph stages only boolean conditions and a float variable fails with
    `ValueError: condition of if statement expected to be tf.bool scalar` (measured on TF 2.21,
    plain `tf.function` and `jit_compile=True` alike).

    ## Example
    ```python
    @tf.function(jit_compile=True, autograph=False)
    def scale(x):
        if tf.reduce_sum(x) > 10.0:
            x = x / 2.0
        return x
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True, autograph=False)
    def scale(x):
        return x / (1.0 + tf.cast(tf.reduce_sum(x) > 10.0, x.dtype))
    ```

    ## Fix safety
    `if c: x = f(x)`, `a if c else b` and `if c: return a` / `return b` become indicator
    arithmetic (`x / (1.0 + tf.cast(c, x.dtype))`), `tf.where` (branches linear in the inputs) or
    `tf.cond` (anything else). The fix is safe when the condition is provably a scalar and both
    branches provably share shape and dtype; unsafe, with the reason, when a one-element condition
    of higher rank could broadcast, when `tf.where` would broadcast branches of different shapes,
    when `tf.cond` would run a non-TensorFlow function's side effects for both branches, or when a
    zero gradient sent to the branch not taken would meet a non-linear op (NaN at inf).

    Branches of several assignments that read each other's results (`h = f(x)`, `y = g(h)`, tuple
    and augmented assignments; or a `return` ending both arms) become `tf.cond` over two local
    functions that hold the branches as written, take the names the branch assigns that have a
    value before the `if`, and return every name the `if` assigns (a branch's own temporary,
    read nowhere after the `if`, stays inside it). Only the taken branch runs, so values are the
    original's: safe under the same conditions as `tf.cond` above. Branches with other
    statements (calls for their side effects, loops, one arm returning) get no fix.

    The condition enters every form as its truth value, a bool tensor: as written when it is
    provably boolean, `tf.not_equal(c, 0)` for a full reduction (a number), and otherwise
    `tf.cast(c, tf.bool)`, which is Python's truth value for bool, integer and float tensors
    (unsafe: not for a complex tensor or a non-tensor). An operand that may be None (a parameter
    defaulting to None, `self.bias = ... if use_bias else None`) is checked first: the rewritten
    block goes under `if self.bias is not None:` (a ternary gets `... if b is not None else
    <else value>`), since the original skips the branch there; with an `else` branch no guard is
    exact, and the fix is unsafe and says so. A test made only of shape facts (`tf.size(x)`,
    `tf.rank(x)`, `tf.shape(x)[k]`, names bound once to them) is read on the static shape instead
    (`x.shape.num_elements()`, `len(x.shape)`, `x.shape[k]`), branches kept as written, so only the
    branch that runs is traced: unsafe, because a dimension unknown while tracing (an
    `input_signature` with None) reads as None there.

    Under `jax.jit` (a file that imports `jax`), `a if c else b`, one-assignment branches
    (`if c: x = a` / `else: x = b`, an augmented `x += a`) and `if c: return a` / `return b`
    become `jax.lax.cond(c, lambda: a, lambda: b)`; always unsafe: both branches are traced (their
    Python side effects run, branches of different shapes or dtypes raise), and a value computed
    outside and read by a branch gets a zero gradient from the untaken one (NaN through a norm at
    0). Every other `if` whose branches can move into local functions (several statements or
    names, no `else`, an `elif` chain from its `if`, an early `return` with the rest of the
    function) becomes `jax.lax.cond` over two local functions, built as the `tf.cond` form above
    and unsafe for the same reasons. `not c` is `jnp.logical_not`; `and`/`or` of operands that
    call only JAX are `jnp.logical_and`/`logical_or`, unsafe also because every operand is then
    evaluated; other `and`/`or` conditions are left alone. A `while` of assignments becomes
    `jax.lax.while_loop` over the names it assigns (unsafe: not reverse-differentiable, carried
    values must keep shape and dtype). An `if`/`else` whose two statements differ in one expression
    (`out.append(a)` / `out.append(b)`) runs that statement once on `jax.lax.cond(c, lambda: a,
    lambda: b)`, unsafe as above. `if c: raise E(...)` becomes the same check in a
    `jax.debug.callback` that raises `E` when the compiled code runs: equal wherever the original
    returns; unsafe because the error then reaches the caller wrapped in JAX's runtime error, and a
    message that formats traced values shows tracers. A test made only of parameters of the
    `jax.jit` function that are read nowhere else but in tests (`if training:`), where no `lax`
    form applies (a branch appends to a list), makes them static instead (unsafe: a compile per
    value, and a caller passing an array there raises). TensorFlow
    code never gets a JAX fix.
    """

    code = "XLA101"
    fix = ("rewrite_if", "rewrite_ternary", "rewrite_while", "rewrite_jax_cond", "rewrite_jax_loop",
           "rewrite_jax_check", "rewrite_jax_static_condition")
    name = "tensor-condition-without-autograph"
    node_types = (ast.If, ast.While, ast.IfExp, ast.BoolOp)
    # HELPER: only in a helper that declares @tf.autograph.experimental.do_not_convert itself
    levels = frozenset({Level.CERTAIN, Level.LIKELY, Level.GRAPH, Level.HELPER})

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.reduce_sum(x) > 10.0:\n        x = x / 2.0\n    return x\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, autograph=False)\ndef f(x, training=False):\n"
                "    if training:\n        x = x * 2.0\n    return x\n"),
        Example("import tensorflow as tf\n@tf.function(autograph=False)\ndef f(x):\n"
                "    if x.shape[0] > 2:\n        x = x[:2]\n    return x\n"),
        Example("import tensorflow as tf\nclass Conv(tf.keras.layers.Layer):\n    def build(self, shape):\n"
                "        self.bias = self.add_weight(name=\"b\", shape=[]) if self.use_bias else None\n"
                "        self.on = self.add_weight(name=\"on\", shape=[], dtype=tf.bool)\n"
                "    def call(self, x):\n        if self.bias is not None:\n            x = x + self.bias\n"
                "        if self.on:\n            x = -x\n        return x\n"),
        Example("import tensorflow as tf\n@tf.autograph.experimental.do_not_convert\ndef cost(a, valid):\n"
                "    if valid:\n        a = tf.abs(a)\n    return a\n"),
        Example("import tensorflow as tf\ndef cost(a, valid):\n"
                "    if tf.reduce_any(valid):\n        a = tf.where(valid, a, 1e4)\n    return a\n"),
        # jax.dtypes answers with Python values (xlacheck/data/jax_api.json; dm-haiku's PRNG key check)
        Example("import jax\n@jax.jit\ndef f(key, x):\n"
                "    if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key):\n        x = x + 1.0\n"
                "    return x * jax.dtypes.itemsize_bits(x.dtype)\n"),
        # maxdiffusion ltx2 pipeline: a traced scale returns through lax.cond first, so the Python `if` below
        # sees only Python numbers (a type dispatch that exits; tf-prec10)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(noise, scale):\n"
                "    if isinstance(scale, jax.core.Tracer):\n"
                "        return jax.lax.cond(scale > 0, lambda: noise * scale, lambda: noise)\n"
                "    if scale > 0:\n        return noise * scale\n    return noise\n"),
        # a method jitted bound to its object: static_argnums=(1,) is `t`, counted after self, a Python int
        Example("import jax\nimport jax.numpy as jnp\nclass Agent:\n    def __init__(self):\n"
                "        self._act = jax.jit(self._policy, static_argnums=(1,))\n"
                "    def _policy(self, obs, t):\n        eps = max(0.05, 1.0 - t / 1000)\n"
                "        return jnp.argmax(obs) if eps < 0.5 else 0\n"),
        Example(
                "import jax\n"
                "import jax.numpy as jnp\n"
                "def body(carry, x):\n"
                "    x = jnp.where(jnp.sum(x) > 0, x * 2.0, x)\n"
                "    return carry + jnp.sum(x), x\n"
                "def accumulate(xs):\n"
                "    return jax.lax.scan(body, 0.0, xs)\n"),
        # long-range-arena's pmapped eval step: the old top-level alias jax.tree_leaves returns a Python
        # list of the leaves, so the `if` tests whether the pytree has any (fourth first sight, corpora13)
        Example("import jax\n@jax.jit\ndef f(state, x):\n"
                "    if jax.tree_leaves(state):\n        x = x + 1.0\n    return x\n"),
        # RecML's splash attention (seventh first sight, corpora16): a jax.* module the JAX table does not
        # probe returns a value of unknown kind; here the mesh's (name, size) pairs, a Python tuple
        Example("import jax\n@jax.jit\ndef f(x):\n"
                "    if jax.sharding.get_abstract_mesh().shape_tuple:\n        x = x * 2.0\n    return x\n"),
        # a NamedTuple marked static is hashed into the cache key: its fields are Python values (equinox#987's
        # near miss; reports19-jax)
        Example("from functools import partial\nfrom typing import NamedTuple\nimport jax\n"
                "class Dropout(NamedTuple):\n    rate: float\n    inference: bool\n"
                "@partial(jax.jit, static_argnums=0)\ndef apply(layer, x):\n"
                "    if layer.inference:\n        return x\n    return x * (1.0 - layer.rate)\n"),
        # the same flag static in the jitted loss: a Python bool in the helper
        Example("import functools\nimport jax\ndef forward(x, is_training):\n"
                "    if is_training:\n        x = x * 0.9\n    return x\n"
                "@functools.partial(jax.jit, static_argnames=('is_training',))\ndef loss(x, is_training):\n"
                "    return forward(x, is_training).sum()\n"),
        # the jitted loss reads the argument as a container (`flags['train']`): not a leaf
        Example("import jax\ndef forward(x, flags):\n    if flags:\n        x = x * 0.9\n    return x\n"
                "@jax.jit\ndef loss(x, flags):\n    return forward(x, flags).sum() + flags['scale']\n"),
        # the jitted loss hands the argument to a library function or builtin (`jnp.stack`, `len`): a list of
        # arrays, whose truth is a Python bool (runs on jax 0.10.2)
        Example("import jax\nimport jax.numpy as jnp\ndef forward(x, flags):\n    if flags:\n        x = x * 0.9\n"
                "    return x\n@jax.jit\ndef loss(x, flags):\n"
                "    return forward(x, flags).sum() + jnp.stack(flags).sum()\n"),
        Example("import jax\ndef forward(x, layers):\n    if layers:\n        x = x * 0.9\n    return x\n"
                "@jax.jit\ndef loss(x, layers):\n    return forward(x, layers).sum() * len(layers)\n"),
        # jax.jit refuses a str-Enum member as an argument (TypeError, jax 0.10.2), so no call passes one and
        # `norm` holds its default, a Python value (octo's sample_actions, real-code batch 23; prec24)
        Example("import enum\nimport jax\nclass Norm(str, enum.Enum):\n    NORMAL = 'normal'\n"
                "    BOUNDS = 'bounds'\n@jax.jit\ndef unnormalize(action, stats, norm=Norm.NORMAL):\n"
                "    if norm == Norm.NORMAL:\n        return action * stats['std'] + stats['mean']\n"
                "    return (action + 1.0) * 0.5 * (stats['high'] - stats['low']) + stats['low']\n"),
        # `and` evaluates `x > 0` only when `isinstance(x, int)` held: a tracer short-circuits there
        Example("import jax\n@jax.jit\ndef f(params, x):\n    if isinstance(x, int) and x > 0:\n"
                "        return params\n    return x\n"),
        # sbx's align_params: `k in p1` runs only on a dict (a leaf array fails the isinstance first)
        Example("import jax\ndef align(p1, p2):\n    if isinstance(p2, dict):\n"
                "        return {k: align(p1[k] if isinstance(p1, dict) and k in p1 else None, v)\n"
                "                for k, v in p2.items()}\n"
                "    return p1 if p1 is not None and p1.shape == p2.shape else p2\n"
                "@jax.jit\ndef step(a, b):\n    return align(a, b)\n"),
        # Kinetix sfl.py: `k` iterates a dict's keys; a string literal is never an element of an array
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef stats(x, full_nan=False):\n"
                "    ans = {'sampled_mean': x.mean(), 'max': x.max()}\n    if full_nan:\n"
                "        for k in ans:\n            if '_sampled_' in k:\n                ans[k] = jnp.nan\n"
                "    return ans\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, autograph=False)\ndef f(x):\n"
                "    if tf.reduce_sum(x) > 10.0:\n        x = x / 2.0\n    return x\n",
                expected=(
                    (4, 8, '`if` on a tensor in code AutoGraph does not convert (jit-compiled without AutoGraph): '
                           "tracing fails with 'Using a symbolic tf.Tensor as a Python bool is not allowed'; use "
                           'tf.where/tf.cond or an indicator rewrite'),
                )),
        Example("import tensorflow as tf\nclass L(tf.keras.layers.Layer):\n"
                "    @tf.autograph.experimental.do_not_convert\n    def call(self, x):\n"
                "        return x if tf.reduce_mean(x) > 0 else -x\n",
                expected=(
                    (5, 21, 'conditional expression on a tensor in code AutoGraph does not convert (Keras call()): '
                            "tracing fails with 'Using a symbolic tf.Tensor as a Python bool is not allowed'; use "
                            'tf.where/tf.cond or an indicator rewrite'),
                )),
        Example("import tensorflow as tf\nlayer = tf.keras.layers.Lambda(lambda t: t * 2.0 if tf.reduce_max(t) > 1.0 else t)\n",
                expected=(
                    (2, 53, 'conditional expression on a tensor in code AutoGraph does not convert (wrapped in a '
                            "Keras Lambda layer, which runs it without AutoGraph): tracing fails with 'Using a "
                            "symbolic tf.Tensor as a Python bool is not allowed'; use tf.where/tf.cond or an "
                            "indicator rewrite"),
                )),
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n"
                "    while jnp.sum(x) > 1.0:\n        x = x / 2.0\n    return x\n",
                expected=(
                    (5, 11, '`while` on a traced array under jax.jit (decorated with jax.jit): tracing fails with '
                            'TracerBoolConversionError; use jnp.where or jax.lax.cond/while_loop'),
                )),
        Example("import tensorflow as tf\nclass Conv(tf.keras.layers.Layer):\n    def build(self, shape):\n"
                "        self.bias = self.add_weight(name=\"b\", shape=[]) if self.use_bias else None\n"
                "    def call(self, x):\n        if self.bias:\n            x = x + self.bias\n        return x\n",
                expected=(
                    (6, 12, "`if` on the truth value of self.bias, a non-boolean tf.Variable: AutoGraph stages only "
                            "tf.bool conditions, so tracing fails with 'condition of if statement expected to be "
                            "`tf.bool` scalar'; test `self.bias is not None` or compare its value explicitly "
                            "(Keras call())"),
                )),
        Example("import tensorflow as tf\n@tf.autograph.experimental.do_not_convert\ndef cost(a, valid):\n"
                "    if tf.reduce_any(valid):\n        a = tf.where(valid, a, 1e4)\n    return a\n",
                expected=(
                    (4, 8, "`if` on a tensor in code AutoGraph does not convert (a helper decorated with "
                           "tf.autograph.experimental.do_not_convert, traced by its callers): tracing fails with "
                           "'Using a symbolic tf.Tensor as a Python bool is not allowed'; use tf.where/tf.cond or "
                           "an indicator rewrite"),
                )),
        Example(
                "import jax\n"
                "import jax.numpy as jnp\n"
                "def body(carry, x):\n"
                "    if jnp.sum(x) > 0:\n"
                "        x = x * 2.0\n"
                "    return carry + jnp.sum(x), x\n"
                "def accumulate(xs):\n"
                "    return jax.lax.scan(body, 0.0, xs)\n",
                expected=(
                    (4, 8, "`if` on a traced array under jax.jit (traced by jax.lax.scan): tracing fails with "
                           "TracerBoolConversionError; use jnp.where or jax.lax.cond/while_loop"),
                )),
        # a Python bool passed to jax.jit is traced like an array unless it is static
        Example("import jax\n@jax.jit\ndef dropout(x, key, deterministic):\n    if not deterministic:\n"
                "        x = x * jax.random.bernoulli(key, 0.9, x.shape) / 0.9\n    return x\n",
                expected=(
                    (4, 8, "`if` on a traced array under jax.jit (decorated with jax.jit): tracing fails with "
                           "TracerBoolConversionError; use jnp.where or jax.lax.cond/while_loop"),
                )),
        # a NamedTuple has no static fields: as a jitted argument (or a scan carry) its `inference: bool`
        # is a traced leaf (equinox#987, a dropout flag carried through lax.scan; reports19-jax)
        Example("from typing import NamedTuple\nimport jax\n"
                "class Dropout(NamedTuple):\n    rate: float\n    inference: bool\n"
                "@jax.jit\ndef apply(layer, x):\n"
                "    if layer.inference:\n        return x\n    return x * (1.0 - layer.rate)\n",
                expected=(
                    (8, 8, '`if` on a traced array under jax.jit (decorated with jax.jit): tracing fails with '
                           'TracerBoolConversionError; use jnp.where or jax.lax.cond/while_loop'),
                )),
        # a network's __call__ (of a module-level instance) tests a flag the jitted loss passes it whole: a
        # traced leaf there too (dm-haiku#187; reports22-jax)
        Example("import jax\nclass Net:\n    def __call__(self, x, is_training):\n"
                "        if is_training:\n            x = x * 0.9\n        return x\nnet = Net()\n"
                "@jax.jit\ndef loss(x, is_training):\n    return net(x, is_training).sum()\n",
                expected=(
                    (4, 12, '`if` on a traced array under jax.jit (called from loss()): tracing fails with '
                            'TracerBoolConversionError; use jnp.where or jax.lax.cond/while_loop'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        helper = ctx.function.level is Level.HELPER
        if helper and not _declared_do_not_convert(ctx):
            return
        if ctx.converted and not ctx.function.unconverted_from:
            if not isinstance(node, ast.BoolOp):
                self._variable_condition(node, ctx)
            return
        if isinstance(node, ast.BoolOp):
            tested = node.values[:-1]  # Python evaluates all but the last operand for truth
        else:
            tested = [node.test]  # type: ignore[attr-defined]
        for test in tested:
            flags = ctx.flags(test)
            if (ctx.tensor_value(flags) if helper else is_tensor(flags)) or _bare_jit_argument(test, ctx) or (
                    _proven_computed_tracer(test, ctx)):
                kind = {ast.If: "`if`", ast.While: "`while`", ast.IfExp: "conditional expression",
                        ast.BoolOp: "`and`/`or`"}[type(node)]
                if ctx.function.jax:  # say it in JAX's terms: no AutoGraph, no tf.Tensor there
                    ctx.report(self, test,
                               f"{kind} on a traced array under jax.jit ({ctx.function.why}): tracing fails with "
                               "TracerBoolConversionError; use jnp.where or jax.lax.cond/while_loop")
                    return
                why = ("a helper decorated with tf.autograph.experimental.do_not_convert, traced by its callers"
                       if helper else ctx.function.unconverted_from if ctx.converted else ctx.function.why)
                ctx.report(self, test,
                           f"{kind} on a tensor in code AutoGraph does not convert ({why}): "
                           "tracing fails with 'Using a symbolic tf.Tensor as a Python bool is not allowed'; "
                           "use tf.where/tf.cond or an indicator rewrite")
                return

    def _variable_condition(self, node: ast.AST, ctx: RuleContext) -> None:
        """AutoGraph stages an `if`/`while`/ternary on a tensor only when it is a tf.bool scalar; a
        float or int variable used for its truth value fails while tracing, in every graph."""
        test = node.test  # type: ignore[attr-defined]
        attr = _numeric_variable(test, ctx)
        if attr is None:
            return
        kind = {ast.If: "`if`", ast.While: "`while`", ast.IfExp: "conditional expression"}[type(node)]
        ctx.report(self, test,
                   f"{kind} on the truth value of {attr}, a non-boolean tf.Variable: AutoGraph stages only "
                   "tf.bool conditions, so tracing fails with 'condition of if statement expected to be `tf.bool` "
                   f"scalar'; test `{attr} is not None` or compare its value explicitly ({ctx.function.why})")
