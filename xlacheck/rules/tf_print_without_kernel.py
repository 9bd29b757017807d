"""XLA307: ``tf.print`` inside compiled code."""

from __future__ import annotations

import ast

from xlacheck.rules.base import Example, Rule, RuleContext, call_name


class TfPrintWithoutKernel(Rule):
    """
    ## What it does
    Flags `tf.print(...)` in compiled code unless it is guarded by `if tf.executing_eagerly():`.

    ## Why is this bad?
    `tf.print` is often recommended as "the graph-safe print", but under `jit_compile=True` it
    fails: `Detected unsupported operations when trying to compile graph ...: StringFormat (No
    registered 'StringFormat' OpKernel for XLA_CPU_JIT devices)`. A Python `print` runs once at
    trace time and compiles.

    ## Example
    ```python
    tf.print("loss", loss)
    ```

    ## Use instead
    ```python
    return loss  # log it outside the compiled step (Keras logs, callbacks, TensorBoard)
    ```

    ## Fix safety
    The fix guards a `tf.print` statement with `if tf.executing_eagerly():` and is unsafe: every
    value is kept, but compiled (and plain `tf.function`) code no longer prints; it prints when the
    code runs eagerly (`tf.config.run_functions_eagerly(True)`). Moving the logging out of the
    compiled step keeps it.
    """

    code = "XLA307"
    fix = ("rewrite_print",)
    name = "tf-print-without-kernel"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.executing_eagerly():\n        tf.print(x)\n    return x\n"),
        Example("import tensorflow as tf\ndef report(x):\n    tf.print(x)\n"),
        # declared jit-compiled, but mapped over a tf.data pipeline: host-side graph, not XLA
        Example("import tensorflow as tf\ndef report(x):\n    tf.print(x)\n    return x\n"
                "def make_dataset(xs):\n    return tf.data.Dataset.from_tensor_slices(xs).map(report)\n",
                jit_compiled=True),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    tf.print('x', x)\n    return x * 2.0\n",
                expected=(
                    (4, 5, 'tf.print has no XLA kernel (StringFormat/PrintV2): compilation fails under jit_compile; '
                           'return the value and log it outside the compiled step'),
                )),
        # the project declares its model code jit-compiled (a trainer elsewhere compiles it)
        Example("import tensorflow as tf\ndef report(x):\n    tf.print(x)\n", jit_compiled=True,
                expected=(
                    (3, 5, 'tf.print has no XLA kernel (StringFormat/PrintV2): compilation fails under jit_compile; '
                           'return the value and log it outside the compiled step'),
                )),
        # tf.compat.v1.print is the same object as tf.print (the API table's alias_of)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    tf.compat.v1.print(x)\n    return x * 2.0\n",
                expected=(
                    (4, 5, "tf.print has no XLA kernel (StringFormat/PrintV2): compilation fails under jit_compile; "
                           "return the value and log it outside the compiled step"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        if call_name(node, ctx) in ("tf.print", "tf.compat.v1.Print", "tf.Print"):
            ctx.report(self, node,
                       "tf.print has no XLA kernel (StringFormat/PrintV2): compilation fails under jit_compile; "
                       "return the value and log it outside the compiled step")
