"""XLA108: ``return`` in only one branch of a tensor ``if`` with nothing returned after it."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext


def _returns(body: list[ast.stmt]) -> bool:
    return any(isinstance(s, ast.Return) for s in body) or any(
        isinstance(s, ast.If) and _returns(s.body) and _returns(s.orelse) for s in body
    )


class ReturnInOneBranch(Rule):
    """
    ## What it does
    Flags an `if` on a tensor where one branch returns and the other falls through to the end of
    the function without a `return`, in AutoGraph-converted code.

    ## Why is this bad?
    AutoGraph stages the `if` as `tf.cond`; one branch yields a tensor and the other `None`, so
    tracing fails: `ValueError: the else branch must also have a return statement.`

    ## Example
    ```python
    def kl_term(mu, logvar, warmup_done):
        if warmup_done:
            return -0.5 * tf.reduce_mean(1.0 + logvar - tf.square(mu) - tf.exp(logvar))
    ```

    ## Use instead
    ```python
    def kl_term(mu, logvar, warmup_done):
        kl = -0.5 * tf.reduce_mean(1.0 + logvar - tf.square(mu) - tf.exp(logvar))
        return kl * tf.cast(warmup_done, kl.dtype)
    ```

    ## Fix safety
    Unsafe: `if c: return a` at the end of a function becomes `return tf.where(c, a, float("nan"))`;
    a branch of several statements becomes a local function run by `tf.cond`, with NaN in the
    structure and shape of its value for the other branch. Where the condition is false the
    original returns `None`, and the fix returns NaN. Write the value you mean (for a warm-up
    term, 0.0) in an `else` branch.
    """

    code = "XLA108"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    fix = ("rewrite_if",)
    name = "return-in-one-branch"
    node_types = (ast.If,)
    in_helpers = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.reduce_sum(x) > 0:\n        return x\n    return -x\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, flag=None):\n"
                "    if flag is None:\n        return x\n"),
        # deepmind-research galaxy_mergers/helpers.py: an option compared with its name is a Python bool (tf-real8)
        Example("""
            import tensorflow as tf


            def aggregate(logits, ensemble_size, reduction):
                logits = tf.reshape(logits, [ensemble_size, -1])
                if reduction == 'sum':
                    return tf.reduce_mean(logits, axis=0)
                elif reduction == 'none':
                    return logits
                else:
                    raise ValueError(reduction)
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\ndef kl(mu, done):\n    if done:\n"
                "        return tf.reduce_mean(tf.square(mu))\n"
                "def loss(x, mu, done):\n    return tf.reduce_mean(x) + kl(mu, done)\n"
                "@tf.function(jit_compile=True)\ndef step(x, mu):\n    return loss(x, mu, tf.reduce_any(x > 0))\n",
                expected=(
                    (3, 5, 'only one branch of this `if` on a tensor returns; AutoGraph makes it a tf.cond and '
                           "tracing fails with 'the else branch must also have a return statement'"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.If)
        if not ctx.converted or not is_tensor(ctx.flags(node.test)):
            return
        if _returns(node.body) == _returns(node.orelse):
            return
        if any(isinstance(n, ast.Return) for s in ctx.following_statements() for n in ast.walk(s)):
            return  # AutoGraph rewrites `if c: return a` + later `return b` into a staged return
        if len(ctx.blocks) > 1:
            return  # nested in another block: a return further out may follow
        ctx.report(self, node,
                   "only one branch of this `if` on a tensor returns; AutoGraph makes it a tf.cond and tracing "
                   "fails with 'the else branch must also have a return statement'")
