"""XLA110: ``break``/``return`` depending on a tensor inside a Python-unrolled loop."""

from __future__ import annotations

import ast

from xlacheck.rules.base import Example, Rule, RuleContext


class TensorBreakInPythonLoop(Rule):
    """
    ## What it does
    Flags `break` or `return` inside an `if` on a tensor that sits in a `for` loop over a Python
    iterable (`range(n)`, a list, `tf.unstack(...)`), in AutoGraph-converted code.

    ## Why is this bad?
    AutoGraph unrolls Python loops at trace time and cannot stop one early on a tensor condition:
    `NotImplementedError: break and return statements which depend on a TF condition are not
    supported in Python for loops.` A loop over `tf.range` is staged and may `break`.

    ## Example
    ```python
    for _ in range(50):
        ...
        if tf.abs(new - old) < 1e-4:
            break
    ```

    ## Use instead
    ```python
    for _ in tf.range(50):
        ...
        if tf.abs(new - old) < 1e-4:
            break
    ```

    ## Fix safety
    A `break` out of a `for` over Python's `range(...)` becomes a loop over `tf.range(...)`: AutoGraph
    stages it as a `tf.while_loop` with the break folded into its condition, so the same iterations
    run and stop at the same one. Always unsafe: the loop variable becomes an int32 tensor instead
    of a Python int, and the names the body assigns become loop variables, which must have a value
    before the loop and keep their dtype and shape (tracing fails loudly otherwise); Python values
    the body changes (lists, counters) change only once, while tracing. An `if c: return a` in
    such a loop, in a function that ends in `return b`, keeps a flag across the unrolled iterations
    and returns `tf.where(returned, returned_value, b)`: the `a` of the first iteration whose
    condition holds, else `b`, as Python returned. Always unsafe: every iteration and the rest of
    the function run (their values are discarded; a NaN there reaches the gradient through
    `tf.where`), and the values returned must have one dtype and broadcast to one shape. Refused
    where the loop or the rest breaks, continues, returns elsewhere or calls anything but
    TensorFlow and pure builtins. A loop over another iterable or a loop with an `else` gets no fix.
    """

    code = "XLA110"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_break_loop", "rewrite_loop_return")
    name = "tensor-break-in-python-loop"
    node_types = (ast.Break, ast.Return)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    for _ in tf.range(10):\n        x = x / 2.0\n        if tf.reduce_max(x) < 1.0:\n"
                "            break\n    return x\n"),
        # tensorflow/agents qtopt_cem_actions_sampler_continuous.py: AutoGraph stages range() of a tensor as tf.range
        # (tf-real8)
        Example("""
            import tensorflow as tf


            @tf.function(jit_compile=True)
            def take_positive(x, limit):
                k = tf.constant(0)
                n = tf.shape(tf.where(x > 0))[0]
                for _ in range(n):
                    if k >= limit:
                        break
                    k += 1
                return k
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    for _ in range(10):\n        x = x / 2.0\n        if tf.reduce_max(x) < 1.0:\n"
                "            break\n    return x\n",
                expected=(
                    (7, 13, "`break` depends on a tensor inside a Python-unrolled loop: AutoGraph raises 'break and "
                            'return statements which depend on a TF condition are not supported in Python for '
                            "loops'; iterate over tf.range instead"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if not ctx.converted or not ctx.tensor_branches or not ctx.python_loops:
            return
        branch = ctx.tensor_branches[-1]
        loop = ctx.python_loops[-1]
        if isinstance(branch, ast.If) and branch.lineno > loop.lineno and (
            not ctx.staged_loops or ctx.staged_loops[-1].lineno < loop.lineno
        ):
            word = "break" if isinstance(node, ast.Break) else "return"
            ctx.report(self, node,
                       f"`{word}` depends on a tensor inside a Python-unrolled loop: AutoGraph raises "
                       "'break and return statements which depend on a TF condition are not supported in "
                       "Python for loops'; iterate over tf.range instead")
