"""XLA117: a Python value as the predicate of ``tf.cond`` / ``tf.switch_case`` / ``tf.case`` in compiled code."""

from __future__ import annotations

import ast

from xlacheck.analysis import argument
from xlacheck.analysis.tables import TENSOR_ONLY_ARGS
from xlacheck.analysis.values import is_python
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

# Tests of whether a value is a tensor or has a static value: a function that makes one on the
# predicate dispatches on its kind (a `smart_cond` calls tf.cond only for a tensor).
_KIND_TESTS = frozenset({"isinstance", "hasattr", "type", "callable", "tf.is_tensor", "tf.get_static_value",
                         "tf.keras.backend.is_tensor", "tf.is_symbolic_tensor", "tf.keras.backend.is_keras_tensor",
                         "tf.__internal__.smart_cond.smart_cond"})


def _kind_tested(fn: ast.AST, names: set[str], ctx: RuleContext) -> bool:
    """Whether ``fn`` tests the kind or static value of one of ``names`` (``isinstance(pred, ...)``,
    ``tf.get_static_value(pred)``)."""
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id in names:
            called = n.func.id if isinstance(n.func, ast.Name) else call_name(n, ctx)
            if called in _KIND_TESTS:
                return True
    return False


class PythonPredicateInTfCond(Rule):
    """
    ## What it does
    Flags `tf.cond(pred, ...)`, `tf.switch_case(branch_index, ...)` and the predicates of
    `tf.case([(pred, fn), ...])` where the predicate is proven a Python value (a literal, a
    comparison of Python values, a `self.<attr>` or parameter set to a Python literal) inside
    compiled code. The arguments that must be tensors come from one table
    (`TENSOR_ONLY_ARGS` in `xlacheck/analysis/tables.py`).

    ## Why is this bad?
    Eagerly these ops accept a Python predicate and just call the chosen branch, so the code works
    in eager tests. Once traced (`tf.function`, `jit_compile=True`, Keras `fit`) they take only a
    tensor: tracing fails with `TypeError: pred must not be a Python bool` (`'branch_index' must be
    a Tensor`, `pred must be a Tensor` for `tf.case`).

    ## Example
    ```python
    def __init__(self, units, use_gate=True):
        ...
        self.use_gate = use_gate

    def call(self, x):
        return tf.cond(self.use_gate, lambda: x * self.gate(x), lambda: x)
    ```

    ## Use instead
    ```python
    def call(self, x):
        return x * self.gate(x) if self.use_gate else x  # a Python choice, made while tracing
    ```

    ## Fix safety
    Unsafe fix for `tf.cond` (`--unsafe-fixes`): the call becomes a Python conditional expression,
    `(body_of_true_fn if pred else body_of_false_fn)` (a branch that is not a lambda without
    parameters is called: `true_fn()`), which picks the branch eager `tf.cond` picked. It is unsafe
    because eager `tf.cond` returns the item of a one-item list or tuple a branch returns, and read
    the predicate as a NumPy value (the same truth for a bool, int or float). `tf.switch_case` and
    `tf.case` get no fix (an out-of-range index runs the default branch; `exclusive=`).
    """

    code = "XLA117"
    fix = ("rewrite_python_predicate_cond",)
    name = "python-predicate-in-tf-cond"
    node_types = (ast.Call,)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.cond(tf.reduce_sum(x) > 0, lambda: x, lambda: -x)\n"),
        # a parameter without a Python default may be given a tensor
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, flag):\n"
                "    return tf.cond(flag, lambda: x, lambda: -x)\n"),
        # eager code: tf.cond with a Python bool calls the branch
        Example("import tensorflow as tf\ndef f(x):\n    return tf.cond(True, lambda: x, lambda: -x)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return tf.switch_case(tf.cast(x[0] > 0, tf.int32), [lambda: x, lambda: -x])\n"),
        # a smart_cond (tensorflow/models bigbird): tf.cond only when the predicate has no static value
        Example("""
            import tensorflow as tf


            def smart_cond(pred, true_fn, false_fn):
                if tf.get_static_value(pred) is None:
                    return tf.cond(pred, true_fn, false_fn)
                return true_fn() if pred else false_fn()


            class Drop(tf.keras.layers.Layer):
                def call(self, x, training=False):
                    return smart_cond(training, lambda: x * 0.5, lambda: x)
        """),
    )
    INVALID = (
        Example("""
            import tensorflow as tf


            class GatedBlock(tf.keras.layers.Layer):
                def __init__(self, units, use_gate=True):
                    super().__init__()
                    self.use_gate = use_gate
                    self.gate = tf.keras.layers.Dense(units, activation="sigmoid")

                def call(self, x):
                    return tf.cond(self.use_gate, lambda: x * self.gate(x), lambda: x)


            block = GatedBlock(2)


            @tf.function(jit_compile=True)
            def f(x):
                return block(x)
        """, expected=(
            (11, 16, "tf.cond with a Python value as `pred` inside compiled code (called from f() at line 18): "
                     "once traced it takes only a tensor and tracing fails (TypeError: pred must not be a Python "
                     "bool); choose the branch with a Python `if` instead"),
        )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, mode=1):\n"
                "    return tf.switch_case(mode, [lambda: x, lambda: -x])\n",
                expected=(
                    (4, 12, "tf.switch_case with a Python value as `branch_index` inside compiled code (decorated "
                            "with tf.function(jit_compile=True) at line 2): once traced it takes only a tensor and "
                            "tracing fails (TypeError: 'branch_index' must be a Tensor); choose the branch with a "
                            "Python `if` instead"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, scale=2):\n"
                "    return tf.case([(scale > 1, lambda: x * 2.0)], default=lambda: x)\n",
                expected=(
                    (4, 12, "tf.case with a Python value as `pred` inside compiled code (decorated with "
                            "tf.function(jit_compile=True) at line 2): once traced it takes only a tensor and tracing "
                            "fails (TypeError: pred must be a Tensor); choose the branch with a Python `if` "
                            "instead"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        spec = TENSOR_ONLY_ARGS.get(name) if name is not None else None
        if name is None or spec is None or ctx.function.jax:
            return
        arg = argument(node, spec.position, spec.keyword)
        if arg is None:
            return
        if spec.keyword == "pred_fn_pairs":  # tf.case: the first item of each (pred, fn) pair
            if not isinstance(arg, (ast.List, ast.Tuple)):
                return
            preds = [p.elts[0] for p in arg.elts if isinstance(p, ast.Tuple) and len(p.elts) == 2]
            if not preds or not any(is_python(ctx.flags(p)) for p in preds):
                return
            what = "pred"
        else:
            if not is_python(ctx.flags(arg)):
                return
            what = spec.keyword
        names = {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)}
        if names and _kind_tested(ctx.function.node, names, ctx):
            return  # a smart_cond: tf.cond only when the predicate is a tensor
        label = name.replace("tf.compat.v1.", "tf.")
        ctx.report(self, node,
                   f"{label} with a Python value as `{what}` inside compiled code ({ctx.function.evidence}): once "
                   f"traced it takes only a tensor and tracing fails (TypeError: {spec.error}); choose the branch "
                   "with a Python `if` instead")
