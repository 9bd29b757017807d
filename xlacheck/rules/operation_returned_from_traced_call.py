"""XLA324: a traced function or Keras ``call`` that returns the graph operation of an op without outputs."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis.contexts import Level
from xlacheck.rules._traced_returns import traced_return
from xlacheck.rules.base import Example, Rule, RuleContext


class OperationReturnedFromTracedCall(Rule):
    """
    ## What it does
    Flags a `return` of a function that `tf.function` traces itself (decorated or wrapped,
    `jit_compile` or not), or of a Keras layer's or model's `call`, that hands back the result of
    a call the generated API table records as an op without outputs (its op definition has no
    output arguments: `tf.raw_ops.AssignVariableOp`, `tf.raw_ops.AssignAddVariableOp`,
    `tf.raw_ops.NoOp`, ...), directly, in a tuple/list/dict display, or through a name the function
    binds once to such a call.

    ## Why is this bad?
    Eagerly such a call returns None, so the model runs; traced, it returns the `tf.Operation` it
    adds to the graph, and a traced function may only return tensors, ExtensionTypes or None:
    `tf.function` (with or without `jit_compile=True`) raises `TypeError: To be compatible with
    tf.function, Python functions must return zero or more Tensors or ExtensionTypes or None values
    ... found return value of type Operation` (TF 2.21, measured; tensorflow/tensorflow#88038).

    ## Example
    ```python
    class RunningMax(tf.keras.layers.Layer):
        def call(self, x):
            return tf.raw_ops.AssignVariableOp(resource=self.peak.handle, value=tf.maximum(self.peak, x))
    ```

    ## Use instead
    ```python
    class RunningMax(tf.keras.layers.Layer):
        def call(self, x):
            return self.peak.assign(tf.maximum(self.peak, x))  # the updated value, a tensor
    ```

    ## Fix safety
    No automatic fix: which tensor the caller expected back (the new state, the input) is not
    visible here.
    """

    code = "XLA324"
    fix = None
    name = "operation-returned-from-traced-call"
    fails_in_any_graph = True
    levels = frozenset({Level.CERTAIN, Level.LIKELY, Level.GRAPH})
    node_types = (ast.Return,)

    VALID = (
        # the op updates state; the function returns a tensor
        Example("import tensorflow as tf\nv = tf.Variable(0.0)\n@tf.function(jit_compile=True)\ndef bump(x):\n"
                "    tf.raw_ops.AssignAddVariableOp(resource=v.handle, value=tf.reduce_sum(x))\n"
                "    return v.read_value()\n"),
        # a plain function, not traced by itself: eagerly the op returns None
        Example("import tensorflow as tf\nv = tf.Variable(0.0)\ndef reset():\n"
                "    return tf.raw_ops.AssignVariableOp(resource=v.handle, value=tf.constant(0.0))\n"),
        # a raw op with outputs returns tensors
        Example("import tensorflow as tf\n@tf.function\ndef total(x):\n"
                "    return tf.raw_ops.Sum(input=x, axis=0)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass Counter(tf.keras.layers.Layer):\n"
                "    def build(self, input_shape):\n"
                "        self.seen = self.add_weight(name='seen', shape=(), initializer='zeros', trainable=False)\n"
                "    def call(self, x):\n"
                "        n = tf.cast(tf.shape(x)[0], tf.float32)\n"
                "        return x, tf.raw_ops.AssignAddVariableOp(resource=self.seen.handle, value=n)\n",
                expected=(
                    (7, 19, "call of a Keras layer/model returns what tf.raw_ops.AssignAddVariableOp(...) returns, "
                            "the tf.Operation of an op without outputs when traced (None only eagerly): a traced "
                            "function may only return tensors, so tracing the model fails (TypeError: \"must "
                            "return zero or more Tensors\"); run the op and return a tensor (the updated value, "
                            "or nothing)"),
                )),
        Example("import tensorflow as tf\nstate = tf.Variable(tf.zeros([4]))\n"
                "@tf.function(jit_compile=True)\ndef remember(x):\n"
                "    update = tf.raw_ops.AssignVariableOp(resource=state.handle, value=x)\n"
                "    return update\n",
                expected=(
                    (6, 12, "remember (decorated with tf.function(jit_compile=True) at line 3) returns what "
                            "tf.raw_ops.AssignVariableOp(...) returns, the tf.Operation of an op without outputs "
                            "when traced (None only eagerly): a traced function may only return tensors, so "
                            "tracing fails (TypeError: \"must return zero or more Tensors\"); run the op and return "
                            "a tensor (the updated value, or nothing)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Return)
        found = traced_return(node, ctx)
        if found is None:
            return
        func = ctx.function.node
        assert isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))
        for part in found.parts:
            call = _bound_call(part, func)
            if call is None:
                continue
            name = ctx.resolve(call.func)
            fact = api_table.fact_for(name) if name else None
            if fact is None or not fact.returns_operation_when_traced:
                continue
            ctx.report(self, part,
                       f"{found.who} returns what {name}(...) returns, the tf.Operation of an op without outputs "
                       f"when traced (None only eagerly): a traced function may only return tensors, so {found.where} "
                       "(TypeError: \"must return zero or more Tensors\"); run the op and return a tensor (the "
                       "updated value, or nothing)")
            return


def _bound_call(part: ast.expr, func: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Call | None:
    """``part`` when it is a call, or the call a name is bound to by the one assignment of that name
    in ``func`` (nested functions and classes not counted)."""
    if isinstance(part, ast.Call):
        return part
    if not isinstance(part, ast.Name):
        return None
    binds: list[ast.AST] = []
    stack: list[ast.AST] = list(func.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With, ast.NamedExpr)):
            targets = n.targets if isinstance(n, ast.Assign) else [getattr(n, "target", None)] \
                if not isinstance(n, ast.With) else [i.optional_vars for i in n.items]
            if any(t is not None and any(isinstance(x, ast.Name) and x.id == part.id for x in ast.walk(t))
                   for t in targets):
                binds.append(n)
        stack.extend(ast.iter_child_nodes(n))
    if len(binds) == 1 and isinstance(binds[0], ast.Assign) and len(binds[0].targets) == 1 \
            and isinstance(binds[0].targets[0], ast.Name) and isinstance(binds[0].value, ast.Call):
        return binds[0].value
    return None
