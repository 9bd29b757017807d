"""XLA317: a TensorFlow API called with a dtype its XLA:CPU kernel does not accept (from the generated op table)."""

from __future__ import annotations

import ast

from xlacheck import op_table
from xlacheck.analysis.dtypes import dtype_literal
from xlacheck.op_table import DtypeVerdict
from xlacheck.rules.base import Example, Rule, RuleContext, call_name


def probed_operand(call: ast.Call, verdict: DtypeVerdict) -> ast.expr | None:
    """The argument of ``call`` that the op table's dtype probe varied (by position or keyword)."""
    for kw in call.keywords:
        if kw.arg == verdict.param:
            return kw.value
    position = verdict.position
    if position is None or position >= len(call.args):
        return None
    if any(isinstance(a, ast.Starred) for a in call.args[:position + 1]):
        return None
    return call.args[position]


class DtypeWithoutXlaKernel(Rule):
    """
    ## What it does
    Flags a call in compiled code whose tensor argument has a **proven** dtype that the op table
    measured not to compile under XLA:CPU: `tf.math.cumsum` of an `int8`, `uint8`, `int16` or
    `complex64` tensor, `tf.linalg.inv` of a `complex64` matrix, ... The op has an XLA:CPU
    kernel, but the kernel is registered for other dtypes only. Also a dtype argument given literally
    that the table measured the same way: `tf.random.truncated_normal(shape, dtype=tf.float16)`
    (`TruncatedNormal` has no float16/bfloat16 XLA:CPU kernel), and one whose kernel exists but
    whose element type tf2xla rejects: `tf.bitcast(iq, tf.complex64)` ("Complex types not
    supported" on `Bitcast`; the table's `rejected`).

    The facts come from TensorFlow: `tools/generate_op_table.py` calls every traced public
    function with its first tensor argument in each common dtype it accepts eagerly and compiles
    it with `jit_compile=True` on the CPU (the table's `api[name]["dtypes"]`); the XLA_CPU_JIT
    kernel registry's type constraints (`raw_ops[op]["xla_cpu_jit_types"]`) explain the result.
    The facts are XLA:CPU's: the table records only whether an XLA_GPU_JIT kernel exists, not
    its dtypes, so on a GPU or a TPU the same call may compile. The argument's dtype
    must be proven by the value model (`tf.cast(x, tf.int8)`, `dtype=` of a factory, a
    comparison's bool, `tf.shape`'s int32 ...): a tensor of unknown dtype is never flagged.

    ## Why is this bad?
    The function does not compile: `No registered 'Cumsum' OpKernel for XLA_CPU_JIT devices
    compatible with node ... (OpKernel was found, but attributes didn't match) Requested
    Attributes: T=DT_INT8`. The same code runs eagerly and in a plain `tf.function`, so the
    failure shows only once `jit_compile=True` is used on the CPU (as in CPU tests and CPU
    inference).

    ## Example
    ```python
    counts = tf.cast(mask, tf.int8)
    positions = tf.math.cumsum(counts, axis=1)
    ```

    ## Use instead
    ```python
    counts = tf.cast(mask, tf.int32)
    positions = tf.math.cumsum(counts, axis=1)
    ```

    ## Fix safety
    A safe fix for `tf.math.cumsum` and `tf.math.cumprod` (also `tf.cumsum`, `tf.cumprod`) of an
    8- or 16-bit integer tensor given as the first positional argument: it is computed in int32
    and cast back (`tf.cast(tf.math.cumsum(tf.cast(x, tf.int32)), tf.int8)`), when the table
    says the function compiles for int32. Integer addition and multiplication wrap around modulo
    2^8 (2^16) in the original and modulo 2^32 in the fix, and the cast back keeps the low bits,
    so every result is bit-for-bit the same. The fix needs the dtype proven by the rewrite's own
    reading of the code as well. No fix for other functions (reductions, maxima, minima, ...),
    for floating or complex dtypes (a wider float rounds differently), nor for dtype arguments
    (a float32 draw cast to float16 is not the float16 draw).

    ## References
    The table records the TensorFlow version and command it was generated with
    (`xlacheck.op_table.table_info()`); `docs/op-table.md` describes the probe.
    """

    code = "XLA317"
    fix = ("rewrite_widen_int_dtype",)
    name = "dtype-without-xla-kernel"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(mask):\n"
                "    return tf.math.cumsum(tf.cast(mask, tf.int32), axis=1)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.math.cumsum(x, axis=1)\n"),
        Example("import tensorflow as tf\ndef f(mask):\n"
                "    return tf.math.cumsum(tf.cast(mask, tf.int8), axis=1)\n"),
        # the documented fix: the complex value built from the interleaved parts, and a bitcast to a real type
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef envelope(iq):\n"
                "    samples = tf.complex(iq[..., 0], iq[..., 1])\n"
                "    bits = tf.bitcast(iq, tf.int32)\n    return tf.abs(samples), bits\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(mask):\n"
                "    counts = tf.cast(mask, tf.int8)\n    return tf.math.cumsum(counts, axis=1)\n",
                expected=(
                    (5, 12, "tf.math.cumsum does not compile for int8 `x`: XLA:CPU has no Cumsum kernel for "
                            "int8 ('OpKernel was found, but attributes didn't match'); it compiles for float16, "
                            "bfloat16, float32, float64, int32, int64: cast to one of them (compiled: decorated "
                            "with tf.function(jit_compile=True) at line 2)"),
                ),
                fixed="import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(mask):\n"
                      "    counts = tf.cast(mask, tf.int8)\n"
                      "    return tf.cast(tf.math.cumsum(tf.cast(counts, tf.int32), axis=1), tf.int8)\n"),
        Example("import tensorflow as tf\nclass Equalizer(tf.keras.layers.Layer):\n"
                "    @tf.function(jit_compile=True)\n    def call(self, h):\n"
                "        return tf.linalg.inv(tf.cast(h, tf.complex64))\n",
                expected=(
                    (5, 16, "tf.linalg.inv does not compile for complex64 `input`: XLA:CPU has no MatrixInverse kernel "
                            "for complex64 ('OpKernel was found, but attributes didn't match'); it compiles for "
                            "float16, float32, float64: no complex dtype does, so compute on the real and imaginary "
                            "parts (compiled: decorated with tf.function(jit_compile=True) at line 3)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef init(shape):\n"
                "    return tf.random.truncated_normal(shape, stddev=0.02, dtype=tf.float16)\n",
                expected=(
                    (4, 12, "tf.random.truncated_normal does not compile with dtype=float16: XLA:CPU has no "
                            "TruncatedNormal kernel for float16 ('OpKernel was found, but attributes didn't "
                            "match'); it compiles for float32, float64: create it in one of them and cast "
                            "(compiled: decorated with tf.function(jit_compile=True) at line 2)"),
                )),
        # the operand rebound in straight-line code (the read after the cast sees int8)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(mask):\n"
                "    mask = tf.cast(mask, tf.int8)\n    return tf.math.cumsum(mask, axis=1)\n",
                expected=(
                    (5, 12, "tf.math.cumsum does not compile for int8 `x`: XLA:CPU has no Cumsum kernel for "
                            "int8 ('OpKernel was found, but attributes didn't match'); it compiles for float16, "
                            "bfloat16, float32, float64, int32, int64: cast to one of them (compiled: decorated "
                            "with tf.function(jit_compile=True) at line 2)"),
                ),
                fixed="import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(mask):\n"
                      "    mask = tf.cast(mask, tf.int8)\n"
                      "    return tf.cast(tf.math.cumsum(tf.cast(mask, tf.int32), axis=1), tf.int8)\n"),
        # Keras 3 spellings: keras.ops.cast proves the dtype, keras.ops.cumsum has its own measured entry
        Example("import tensorflow as tf\nimport keras\n@tf.function(jit_compile=True)\ndef f(mask):\n"
                "    counts = keras.ops.cast(mask, \"int8\")\n    return keras.ops.cumsum(counts, axis=1)\n",
                expected=(
                    (6, 12, "tf.keras.ops.cumsum does not compile for int8 `x`: XLA:CPU has no Cumsum kernel for "
                            "int8 ('OpKernel was found, but attributes didn't match'); it compiles for float16, "
                            "bfloat16, float32, float64, int32, int64, bool: cast to one of them (compiled: decorated "
                            "with tf.function(jit_compile=True) at line 3)"),
                )),
        # a kernel exists for complex64, but tf2xla rejects the element type (the table's `rejected`)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef envelope(iq):\n"
                "    samples = tf.bitcast(iq, tf.complex64)\n    return tf.abs(samples)\n",
                expected=(
                    (4, 15, "tf.bitcast does not compile with type=complex64: XLA:CPU rejects complex64 in Bitcast "
                            "('Complex types not supported'); it compiles for float16, bfloat16, float32, float64, "
                            "int8, uint8, int16, int32, int64: build the complex value from its parts with "
                            "tf.complex (compiled: decorated with tf.function(jit_compile=True) at line 2)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name is None or not name.startswith("tf.") or ctx.function.jax:
            return
        self._dtype_argument(node, name, ctx)
        verdict = op_table.dtype_verdict(name)
        if verdict is None:
            return
        operand = probed_operand(node, verdict)
        dtype = ctx.values.dtype(operand) if operand is not None else None
        if dtype is None:
            return
        ops = verdict.failing_ops(dtype)
        if not ops:
            return
        advice = "cast to one of them"
        if dtype.startswith("complex") and not any(d.startswith("complex") for d in verdict.compile):
            advice = "no complex dtype does, so compute on the real and imaginary parts"
        ctx.report(self, node,
                   f"{name} does not compile for {dtype} `{verdict.param}`: {_reason(verdict, dtype, ops)}; it "
                   f"compiles for {', '.join(verdict.compile)}: {advice} (compiled: {ctx.function.evidence})")

    def _dtype_argument(self, node: ast.Call, name: str, ctx: RuleContext) -> None:
        """A literal dtype argument (``dtype=tf.float16``) that the table measured not to compile."""
        verdict = op_table.dtype_argument_verdict(name)
        if verdict is None:
            return
        given = probed_operand(node, verdict)
        dtype = dtype_literal(given, ctx.resolve) if given is not None else None
        ops = verdict.failing_ops(dtype) if dtype is not None else ()
        if not ops:
            return
        assert dtype is not None
        advice = "create it in one of them and cast"
        if verdict.rejection(dtype) is not None and dtype.startswith("complex"):
            advice = "build the complex value from its parts with tf.complex"
        ctx.report(self, node,
                   f"{name} does not compile with {verdict.param}={dtype}: {_reason(verdict, dtype, ops)}; it "
                   f"compiles for {', '.join(verdict.compile)}: {advice} (compiled: {ctx.function.evidence})")


def _reason(verdict: DtypeVerdict, dtype: str, ops: tuple[str, ...]) -> str:
    """Why the compiler refused ``dtype``: no kernel for it, or tf2xla rejecting the element type."""
    sentence = verdict.rejection(dtype)
    if sentence is not None:
        return f"XLA:CPU rejects {dtype} in {', '.join(ops)} ('{sentence}')"
    return f"XLA:CPU has no {', '.join(ops)} kernel for {dtype} ('OpKernel was found, but attributes didn't match')"
