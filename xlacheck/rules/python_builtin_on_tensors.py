"""XLA103: max/min/sorted/any/all over tensors."""

from __future__ import annotations

import ast

from xlacheck.analysis.values import DATA, PARAM, PYLIST, SHAPE, TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext
from xlacheck.rules.python_builtin_on_tracer import builtin_on_tracer

_BUILTINS = {
    "max": "tf.maximum / tf.reduce_max",
    "min": "tf.minimum / tf.reduce_min",
    "sorted": "tf.sort / tf.math.top_k",
    "any": "tf.reduce_any",
    "all": "tf.reduce_all",
}


# Annotations of a Python mapping: iterating one (what these builtins do) gives its keys.
_MAPPINGS = frozenset({"Mapping", "MutableMapping", "Dict", "dict", "OrderedDict", "FlatMapping"})


def _mapping_parameter(ctx: RuleContext, arg: ast.expr) -> bool:
    """``arg`` is a parameter annotated as a mapping (``structure: Mapping[str, Array]``) that the
    function never rebinds, or a name the function assigns once from an item of such a parameter
    whose annotated value type is a mapping too (``bundle = structure[module]`` with ``structure:
    Mapping[str, Mapping[str, T]]``): the builtin walks its keys, whatever tensors its values are."""
    func = ctx.function.node
    if not isinstance(arg, ast.Name) or isinstance(func, ast.Lambda):
        return False
    params = {p.arg: p.annotation for p in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    stores = [n for stmt in func.body for n in ast.walk(stmt)
              if isinstance(n, ast.Name) and n.id == arg.id and isinstance(n.ctx, ast.Store)]
    if arg.id in params:
        return not stores and _mapping_type(params[arg.id]) is not None
    assigns = [n for stmt in func.body for n in ast.walk(stmt) if isinstance(n, ast.Assign)
               and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == arg.id]
    if len(stores) != 1 or len(assigns) != 1 or not isinstance(item := assigns[0].value, ast.Subscript) \
            or not isinstance(item.value, ast.Name) or item.value.id not in params:
        return False
    source = item.value.id
    if any(isinstance(n, ast.Name) and n.id == source and isinstance(n.ctx, ast.Store)
           for stmt in func.body for n in ast.walk(stmt)):
        return False
    outer = _mapping_type(params[source])
    if not isinstance(outer, ast.Subscript) or not isinstance(outer.slice, ast.Tuple) or len(outer.slice.elts) != 2:
        return False
    return _mapping_type(outer.slice.elts[1]) is not None


def _mapping_type(ann: ast.expr | None) -> ast.expr | None:
    """The annotation itself (``Optional[...]`` unwrapped) when it names a mapping type, else None."""
    while isinstance(ann, ast.Subscript) and ast.unparse(ann.value) in ("Optional", "typing.Optional"):
        ann = ann.slice
    if ann is None:
        return None
    head = ann.value if isinstance(ann, ast.Subscript) else ann
    return ann if ast.unparse(head).rsplit(".", 1)[-1] in _MAPPINGS else None


class PythonBuiltinOnTensors(Rule):
    """
    ## What it does
    Flags the Python builtins `max`, `min`, `sorted`, `any` and `all` applied to tensors or to
    Python lists of tensors in compiled code.

    ## Why is this bad?
    AutoGraph converts `if` and `while`, but it does not overload these builtins: they compare
    tensors with Python truth tests while tracing, which raises
    `Using a symbolic tf.Tensor as a Python bool is not allowed`.

    ## Example
    ```python
    lr = min(base_lr * (step + 1.0) / warmup_steps, base_lr)
    ```

    ## Use instead
    ```python
    lr = tf.minimum(base_lr * (step + 1.0) / warmup_steps, base_lr)
    ```

    ## Fix safety
    `min(a, b)` becomes `tf.where(b < a, b, a)` and `max(a, b)` becomes `tf.where(b > a, b, a)`,
    CPython's own choice, with ties and NaN included. The fix is safe when both arguments are
    provably rank-0 tensors computed linearly from the inputs. Otherwise it is unsafe: `min()`
    may return a Python number, and a non-linear argument gets a zero gradient that can turn NaN.
    `max(a, b, c)`, `min(xs)` and `sorted(xs)` are unsafe (NaN handling, and a tensor instead of
    a list). `any`/`all` of rank-0 TensorFlow expressions are safe.
    """

    code = "XLA103"
    fails_in_any_graph = True  # tracing rejects it in every tf.function, jit_compile or not
    # untuned real code, first sight: 3 findings, 0 true (docs/real-code-judgments-8-final.md)
    preview = True
    fix = ("rewrite_builtin_call",)
    name = "python-builtin-on-tensors"
    node_types = (ast.Call,)
    in_helpers = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    n = max(x.shape[0], 1)\n    return x / n\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, step):\n"
                "    return x * tf.minimum(step / 100.0, 1.0)\n"),
        Example("import tensorflow as tf\nfrom transformers.modeling_tf_utils import shape_list\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    n = max(shape_list(x)[1], 8)\n    return x[:, :n]\n"),
        # a mapping iterates its keys (dm-haiku's filtering.traverse over a params dict)
        Example("from typing import Mapping\nimport tensorflow as tf\n@tf.function(jit_compile=True)\n"
                "def f(features: Mapping[str, tf.Tensor]):\n"
                "    return tf.add_n([features[k] for k in sorted(features)])\n"),
        # an item of a mapping of mappings is a mapping (dm-haiku's filtering.traverse, called from
        # jitted code: runs under jax.jit)
        Example("from typing import Mapping\nimport jax\nimport jax.numpy as jnp\n"
                "def traverse(structure: Mapping[str, Mapping[str, jax.Array]]):\n"
                "    for module in sorted(structure):\n        bundle = structure[module]\n"
                "        for name in sorted(bundle):\n            yield module, name, bundle[name]\n"
                "@jax.jit\ndef total(params):\n    return sum(jnp.sum(v) for _, _, v in traverse(params))\n"),
        # tensorflow/tpu resnet_estimator.py: TF1 Estimator objects and what they return are no tensors (tf-real8)
        Example("""
            import tensorflow.compat.v1 as tf
            from tensorflow.compat.v1 import estimator as tf_estimator
            from tensorflow.contrib import tpu as contrib_tpu


            def main(model_fn, train_steps, steps_per_eval):
                config = contrib_tpu.RunConfig(save_checkpoints_steps=steps_per_eval)
                est = tf_estimator.Estimator(model_fn=model_fn, config=config)
                step = est.get_variable_value(tf.GraphKeys.GLOBAL_STEP)
                while step < train_steps:
                    step = min(step + steps_per_eval, train_steps)
                    est.train(input_fn=None, max_steps=step)
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, step):\n"
                "    lr = min(0.1 * step / 100.0, 0.1)\n    return x * lr\n",
                expected=(
                    (4, 10, '`min()` over a tensor: AutoGraph does not convert this builtin, so it evaluates a '
                            'tensor comparison as a Python bool and tracing fails; use tf.minimum / tf.reduce_min'),
                )),
        Example("import tensorflow as tf\ndef best_two(preds, target):\n"
                "    losses = [tf.reduce_mean(tf.square(p - target)) for p in tf.unstack(preds)]\n"
                "    best = sorted(losses)[:2]\n    return best[0] + best[1]\n",
                expected=(
                    (4, 12, '`sorted()` over a list of tensors: AutoGraph does not convert this builtin, so it '
                            'evaluates a tensor comparison as a Python bool and tracing fails; use tf.sort / '
                            'tf.math.top_k'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if any(v > 0 for v in tf.unstack(x)):\n        x = -x\n    return x\n",
                expected=(
                    (4, 8, '`any()` over a list of tensors: AutoGraph does not convert this builtin, so it evaluates '
                           'a tensor comparison as a Python bool and tracing fails; use tf.reduce_any'),
                )),
        Example("import tensorflow as tf\nclass Warmup(tf.keras.optimizers.schedules.LearningRateSchedule):\n"
                "    def __init__(self, base, warmup):\n        self.base, self.warmup = base, warmup\n"
                "    def __call__(self, step):\n"
                "        return min(self.base * (tf.cast(step, tf.float32) + 1.0) / self.warmup, self.base)\n",
                expected=(
                    (6, 16, '`min()` over a tensor: AutoGraph does not convert this builtin, so it evaluates a '
                            'tensor comparison as a Python bool and tracing fails; use tf.minimum / tf.reduce_min'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        f = node.func
        if not isinstance(f, ast.Name) or f.id not in _BUILTINS or f.id in ctx.values.env:
            return
        if builtin_on_tracer(node, ctx) is not None:
            return  # proven a tracer under jax.jit: XLA124's, on by default
        for arg in node.args:
            if _mapping_parameter(ctx, arg):
                continue  # a dict iterates its keys: sorted(params) compares strings, not tensors
            k = ctx.flags(arg)
            if k & TENSOR and (k & (DATA | PARAM) or not k & SHAPE or k & PYLIST) and (
                    ctx.certain or ctx.tensor_value(k & ~PYLIST)):
                what = "a list of tensors" if k & PYLIST else "a tensor"
                ctx.report(self, node,
                           f"`{f.id}()` over {what}: AutoGraph does not convert this builtin, so it evaluates "
                           f"a tensor comparison as a Python bool and tracing fails; use {_BUILTINS[f.id]}")
                return
