"""XLA312: a global debugging switch that instruments every traced function, in a file that jit-compiles."""

from __future__ import annotations

import ast

from xlacheck import op_table
from xlacheck.analysis.contexts import Level
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule


class InstrumentationSwitchWithJitCompile(ModuleRule):
    """
    ## What it does
    Flags a call to a global switch that instruments every function TensorFlow traces after it,
    according to the op table's `switches` (`xlacheck/data/tf_xla_ops.json`, measured by
    switching each on and tracing a step): `tf.debugging.enable_check_numerics()` and
    `tf.debugging.experimental.enable_dump_debug_info(...)`, in a file that also defines a
    `tf.function(jit_compile=True)`.

    ## Why is this bad?
    The switch inserts `CheckNumericsV2`/`DebugNumericSummaryV2` (or `DebugIdentityV2`) after
    every op of every later trace, and these ops have no XLA kernel: each jit-compiled function
    then fails with `Detected unsupported operations ... DebugNumericSummaryV2` (TensorFlow issue
    59215). The same model runs without `jit_compile`, so the failure looks unrelated to the
    debugging call made at start-up.

    ## Example
    ```python
    tf.debugging.enable_check_numerics()

    @tf.function(jit_compile=True)
    def train_step(x, y):
        ...
    ```

    ## Use instead
    ```python
    if debug:  # check numerics in an uncompiled run; compile when not debugging
        tf.debugging.enable_check_numerics()
    train_step = tf.function(train_step, jit_compile=not debug)
    ```

    ## Fix safety
    No automatic fix: whether to debug or to compile is the author's choice.
    """

    code = "XLA312"
    fix = None
    name = "instrumentation-switch-with-jit-compile"

    VALID = (
        Example("import tensorflow as tf\ntf.debugging.enable_check_numerics()\n"
                "@tf.function\ndef step(x):\n    return tf.nn.softmax(x)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x):\n"
                "    return tf.nn.softmax(x)\ntf.debugging.disable_check_numerics()\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\ntf.debugging.enable_check_numerics()\n"
                "@tf.function(jit_compile=True)\ndef step(x):\n    return tf.nn.softmax(x)\n",
                expected=(
                    (2, 1, 'tf.debugging.enable_check_numerics instruments every function traced after it with ops '
                           "that have no XLA kernel (CheckNumericsV2, DebugNumericSummaryV2): the jit-compiled "
                           "step() (line 4) fails with 'Detected unsupported operations'; enable it only in runs "
                           'without jit_compile'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        switches = op_table.switch_names()
        compiled = [f for f in ctx.facts.functions
                    if f.level is Level.CERTAIN and f.jit_entry and not f.jax and not f.host]
        if not compiled:
            return
        first = min(compiled, key=lambda f: f.node.lineno)
        resolve = ctx.facts.aliases.resolve
        for node in ast.walk(ctx.tree):
            if not isinstance(node, ast.Call):
                continue
            name = resolve(node.func)
            if name not in switches:
                continue
            ops = op_table.switch_unsupported(name)
            if not ops:
                continue
            ctx.report(self, node,
                       f"{name} instruments every function traced after it with ops that have no XLA kernel "
                       f"({', '.join(ops)}): the jit-compiled {first.name}() (line {first.node.lineno}) fails with "
                       "'Detected unsupported operations'; enable it only in runs without jit_compile")
