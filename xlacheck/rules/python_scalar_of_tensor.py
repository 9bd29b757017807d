"""XLA302: ``int()``/``float()``/``bool()`` of a tensor where AutoGraph cannot turn it into a cast."""

from __future__ import annotations

import ast
import math

from xlacheck.analysis.tracers import proven_tracer
from xlacheck.analysis.values import DATA, OP, OPAQUE, PARAM, SHAPE, TENSOR, VARIABLE, is_unknown_result
from xlacheck.rules.base import Example, Rule, RuleContext

# Python's `math` module: every function converts its arguments to Python numbers (`__float__`,
# `__index__`, `__ceil__`...) or iterates them (`fsum`, `prod`, `dist`), which a symbolic tensor
# cannot do, and AutoGraph converts none of them (TF 2.21: `math.sqrt(t)`, `math.exp(t)`,
# `math.isnan(t)`, `math.ceil(t)` in a tf.function raise TypeError, also for a tensor computed
# from shapes only; eagerly a scalar tensor converts). Read from the interpreter: stdlib only.
_MATH_FUNCTIONS = frozenset(f"math.{n}" for n in dir(math) if not n.startswith("_") and callable(getattr(math, n)))


def _value_tensor(k: int) -> bool:
    return bool(k & TENSOR) and (bool(k & (DATA | PARAM | VARIABLE)) or not k & SHAPE)


def _symbolic_shape(k: int) -> bool:
    """A tensor computed from shapes only (``tf.shape(x)[1]``, ``tf.size(x) // 2``; the value model's
    ``TENSOR|SHAPE``, never a bare parameter): symbolic in a tf.function even when the dimension is
    static, so ``range()``/``int()`` of it fail where AutoGraph does not convert them (TF 2.21,
    ``tf.function(jit_compile=True, autograph=False)``: ``range(tf.shape(x)[1])`` raises TypeError
    "'SymbolicTensor' object cannot be interpreted as an integer"). ``shape_list(x)[1]`` (a Python
    int where the dimension is static) carries SHAPE without TENSOR."""
    return bool(k & TENSOR) and bool(k & SHAPE) and not k & (PARAM | OPAQUE)


# math functions without a jax.numpy function of the same name
_NO_JNP_TWIN = frozenset({"fabs", "erf", "gamma", "lgamma", "fsum", "isqrt", "comb", "perm", "factorial", "dist",
                          "erfc", "ulp", "nextafter", "remainder", "pow", "atan2", "isclose"})


def _cast(fn: str, jax: bool) -> str:
    dtype = "int32" if fn == "int" else "float32"
    return f"t.astype(jnp.{dtype})" if jax else f"tf.cast(t, tf.{dtype})"


class PythonScalarOfTensor(Rule):
    """
    ## What it does
    Flags `bool(t)` and the functions of Python's `math` module (`math.sqrt(t)`, `math.exp(t)`,
    `math.isnan(t)`, ...) on a tensor in compiled code, and `int(t)`/`float(t)`/`range(t)` in
    compiled code that AutoGraph does not convert (`autograph=False`, `do_not_convert`, lambdas,
    `jax.jit`).
    Under `jax.jit` `math.prod` is left alone: it multiplies, and a traced array of static length
    iterates.

    ## Why is this bad?
    Converting a symbolic tensor to a Python number needs its value: tracing fails
    (`TypeError: int() argument must be ... not 'SymbolicTensor'`, `Using a symbolic tf.Tensor
    as a Python bool`; under `jax.jit` `ConcretizationTypeError`, `TracerIntegerConversionError`).
    AutoGraph converts no `math` function, so `math.sqrt(t)` fails even in converted code, and
    even when `t` is computed from shapes only (`tf.cast(tf.shape(x)[-1], tf.float32)`).
    Inside AutoGraph-converted code `int(t)`/`float(t)` become
    `tf.cast(t, tf.int32/float32)` and compile; XLA303 flags what the int32 cast breaks later.

    ## Example
    ```python
    @tf.function(autograph=False, jit_compile=True)
    def adaptive_loss(recon, kl):
        beta = min(1.0, 0.1 * float(recon / kl))
    ```

    ## Use instead
    ```python
    beta = tf.minimum(1.0, 0.1 * recon / kl)
    ```

    ## Fix safety
    `float(t)` -> `tf.cast(t, tf.float32)` (what AutoGraph does) is unsafe: a float32 tensor
    instead of a double-precision Python number. `bool(t)` -> `tf.cast(t, tf.bool)` (`t != 0`, NaN
    true, as Python's `bool()` of one element) is safe where the result is only tested (an
    `if`/`while`/ternary/`assert` test, through `not`/`and`/`or`) and `t` is provably numeric or
    boolean; as a value it is unsafe (a boolean tensor where code may need a Python bool). `int(t)`
    gets no fix here (XLA303 fixes what its int32 cast breaks). Under `jax.jit`, `for i in
    range(n)` with a traced `n` and a body of assignments becomes `jax.lax.fori_loop` over the
    names the body assigns: unsafe (a traced trip count cannot be reverse-differentiated; carried
    values must keep their shape and dtype). Under `jax.jit`, `float(x)` read only by arithmetic,
    a `return` or JAX calls becomes `x.astype(jnp.float32)`, and `int(x)` read only by arithmetic
    `x.astype(jnp.int32)`: unsafe (a 0-d array is not weakly typed as a Python scalar is; int32
    wraps). A printed `float(t)`/`int(t)` becomes `jax.debug.print` of the array (unsafe: it
    prints each run and formats the array); `range(n)` of a parameter that no `lax` loop can take
    (the body appends to a list) makes `n` static in `jax.jit` (unsafe: a compile per value).
    Under `jax.jit`, `bool(x)` that is the test of an `if` or a conditional expression (`loss if
    bool(flag) else jnp.nan`, also in a helper the jitted function calls) gets XLA101's
    `jax.lax.cond` fix of that test (`bool(x)` has `x`'s truth value): unsafe as that fix is.

    A Python `range` over a tensor's dimension (`tf.shape(x)[k]`, or a name bound once to it) in
    TensorFlow code loops over `x.shape[k]` instead, the size known when traced, so Python unrolls
    the loop (`rewrites/static_dims.py`). Unsafe: the loop is unrolled (one copy of its body per
    step), and a dimension unknown when traced (None in an input_signature) makes `range` raise.
    """

    code = "XLA302"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_builtin_call", "rewrite_jax_loop", "rewrite_jax_host_read", "rewrite_jax_debug_print",
           "rewrite_jax_static_argument", "rewrite_static_dim_range",
           "rewrite_jax_tested_bool")
    name = "python-scalar-of-tensor"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    n = int(x.shape[1]) // 2\n    return x[:, :n]\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(recon, kl, step):\n"
                "    beta = float(step) / 1000.0\n    return recon + tf.minimum(beta, 1.0) * kl\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, autograph=False)\ndef f(x, steps):\n"
                "    for _ in range(steps):\n        x = x * 2.0\n    return x\n"),
        Example("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
                "def unroll(y, steps):\n    for _ in range(steps):\n        y = y * 0.5\n    return y\n"),
        Example("import jax\nimport math\n@jax.jit\ndef attend(q, k):\n"
                "    return q @ k.T / math.sqrt(q.shape[-1]) * math.prod([q.sum(), 1.0])\n"),
        Example("import math\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(q, k):\n"
                "    scale = math.sqrt(q.shape[-1]) * math.log(2.0)\n"
                "    return tf.matmul(q, k, transpose_b=True) / scale\n"),
        # a method no kind of tensor has (tensor_members.json): `rng` is a NumPy Generator, read at trace time
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, rng):\n"
                "    flip = bool(rng.random() < 0.5)\n    return tf.reverse(x, [1]) if flip else x\n"),
        # `n: int` declares a Python int: the zip of the caller's shapes is inferred, the annotation wins
        Example("import math\nimport tensorflow as tf\ndef grid_sizes(n: int, cores: int):\n    sizes = []\n"
                "    while n > cores + 2:\n        n = int(math.ceil((n - 2) / cores)) * cores + 2\n"
                "        sizes.append(n)\n    return sizes\n@tf.function\ndef restrict(x, full_shape, cores):\n"
                "    pairs = [grid_sizes(n, c) for n, c in zip(full_shape, cores)]\n    return x * len(pairs)\n"),
        # the static dimension `x.shape[1]` is a Python int, also without AutoGraph
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, autograph=False)\ndef f(x):\n"
                "    h = x[:, 0]\n    for t in range(1, x.shape[1]):\n        h = h + x[:, t]\n    return h\n"),
    )
    INVALID = (
        Example("import jax\nimport math\n@jax.jit\ndef standardize(x):\n    return x / math.sqrt(x.var())\n",
                expected=(
                    (5, 16, '`math.sqrt()` of a traced value under jax.jit: the math module converts its arguments '
                            'to Python numbers, so tracing fails (ConcretizationTypeError); use jnp.sqrt'),
                )),
        Example("import tensorflow as tf\n@tf.function(autograph=False, jit_compile=True)\ndef f(recon, kl):\n"
                "    ratio = float(recon / (kl + 1e-6))\n    return recon + ratio * kl\n",
                expected=(
                    (4, 13, '`float()` of a tensor in code AutoGraph does not convert (jit-compiled without '
                            'AutoGraph): tracing fails because the value is symbolic; use tf.cast(t, tf.float32)'),
                )),
        Example("import jax\n@jax.jit\ndef integrate(y, t0, t1, dt):\n"
                "    for _ in range((t1 - t0) // dt):\n        y = y - dt * y\n    return y\n",
                expected=(
                    (4, 14, '`range()` of a tensor in code AutoGraph does not convert (decorated with jax.jit): its '
                            'bounds must be Python ints, the value is symbolic; mark it static (static_argnums) or '
                            'use lax.fori_loop'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    flag = bool(tf.reduce_any(x > 0))\n    return x\n",
                expected=(
                    (4, 12, "`bool()` of a tensor in compiled code: tracing fails with 'Using a symbolic tf.Tensor "
                            "as a Python bool'; keep it a boolean tensor"),
                )),
        Example("import math\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(q, k):\n"
                "    scale = math.sqrt(tf.cast(tf.shape(q)[-1], tf.float32))\n"
                "    return tf.matmul(q, k, transpose_b=True) / scale\n",
                expected=(
                    (5, 13, "`math.sqrt()` of a tensor in compiled code: Python's math functions need a Python "
                            "number and a traced tensor has no value, so tracing fails with a TypeError; use the "
                            "tf.math op of the same name"),
                )),
        # tf.shape gives a symbolic tensor even for a static dimension: without AutoGraph range() of it
        # raises TypeError ("'SymbolicTensor' object cannot be interpreted as an integer", TF 2.21)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, autograph=False)\ndef f(x):\n"
                "    h = x[:, 0]\n    for t in range(1, tf.shape(x)[1]):\n        h = h + x[:, t]\n    return h\n",
                expected=(
                    (5, 14, "`range()` of a tensor in code AutoGraph does not convert (jit-compiled without "
                            "AutoGraph): its bounds must be Python ints, the value is symbolic; use tf.while_loop or "
                            "let AutoGraph convert the loop"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True, autograph=False)\ndef f(x):\n"
                "    half = int(tf.shape(x)[1]) // 2\n    return x[:, :half]\n",
                expected=(
                    (4, 12, "`int()` of a tensor in code AutoGraph does not convert (jit-compiled without AutoGraph): "
                            "tracing fails because the value is symbolic; use tf.cast(t, tf.int32)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        f = node.func
        if isinstance(f, (ast.Name, ast.Attribute)) and not (isinstance(f, ast.Name) and f.id in (
                "int", "float", "bool", "range")):
            name = ctx.resolve(f)
            if name in _MATH_FUNCTIONS:
                self._math(node, name, ctx)
            return
        if not isinstance(f, ast.Name):
            return
        if f.id in ctx.values.env:
            return  # shadowed builtin
        if f.id == "range":
            # range() calls __index__: AutoGraph turns a `for` over range(t) into a loop, jax.jit
            # raises TracerIntegerConversionError
            # a bare parameter of a tf.function may be a Python int (one trace per value); under
            # jax.jit every non-static argument is traced
            # (a bound that a function of unknown kind returns is taken for the count it names:
            # `range(num_blocks(x))`, where the helper computes it from static shapes)
            if not ctx.converted and any((_value_tensor(k) and not is_unknown_result(k)
                                          and (ctx.function.jax or bool(k & (DATA | VARIABLE | OP))))
                                         or (not ctx.function.jax and _symbolic_shape(k))
                                         for k in map(ctx.flags, node.args)):
                fix = "mark it static (static_argnums) or use lax.fori_loop" if ctx.function.jax else "use tf.while_loop or let AutoGraph convert the loop"
                ctx.report(self, node, f"`range()` of a tensor in code AutoGraph does not convert ({ctx.function.why}):"
                                       f" its bounds must be Python ints, the value is symbolic; {fix}")
            return
        if len(node.args) != 1:
            return
        k = ctx.flags(node.args[0])
        if not _value_tensor(k) and ctx.function.jax and not isinstance(node.args[0], ast.Name) \
                and proven_tracer(node.args[0], ctx.flags, ctx.function, ctx.facts) is not None:
            k |= TENSOR | OP  # proven a tracer where the value model does not know it (a helper's return, a leaf)
        if not _value_tensor(k):
            if f.id == "int" and not ctx.converted and not ctx.function.jax and _symbolic_shape(k):
                ctx.report(self, node,
                           f"`int()` of a tensor in code AutoGraph does not convert ({ctx.function.why}): tracing "
                           f"fails because the value is symbolic; use {_cast(f.id, ctx.function.jax)}")
            return
        if f.id == "bool":
            ctx.report(self, node, "`bool()` of a tensor in compiled code: tracing fails with 'Using a symbolic "
                                   "tf.Tensor as a Python bool'; keep it a boolean tensor")
        elif not ctx.converted:
            ctx.report(self, node,
                       f"`{f.id}()` of a tensor in code AutoGraph does not convert ({ctx.function.why}): tracing "
                       f"fails because the value is symbolic; use {_cast(f.id, ctx.function.jax)}")

    def _math(self, node: ast.Call, name: str, ctx: RuleContext) -> None:
        """``math.sqrt(t)``: any tensor fails, converted code or not (AutoGraph leaves math alone).
        Under jax.jit every function of the math module but ``prod`` converts its arguments with
        ``__float__``/``__index__`` (measured on jax 0.10.2: 33 of them raise
        ConcretizationTypeError or TypeError on a tracer; ``math.prod`` multiplies and traces)."""
        jax = ctx.function.jax
        if (jax and name == "math.prod") or not any(ctx.tensor_value(ctx.flags(a)) for a in node.args):
            return
        op = name.split(".", 1)[1]
        if jax:
            ctx.report(self, node, f"`{name}()` of a traced value under jax.jit: the math module converts its "
                                   "arguments to Python numbers, so tracing fails (ConcretizationTypeError); use "
                                   f"jnp.{op}" + ("" if op not in _NO_JNP_TWIN else " or its jax.numpy equivalent"))
            return
        ctx.report(self, node,
                   f"`{name}()` of a tensor in compiled code: Python's math functions need a Python number and a "
                   "traced tensor has no value, so tracing fails with a TypeError; use the tf.math op of the same name")
