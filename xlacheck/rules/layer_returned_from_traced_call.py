"""XLA323: a traced function or Keras ``call`` that returns a Keras layer object instead of a tensor."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.values import LAYER, TENSOR
from xlacheck.rules._traced_returns import traced_return
from xlacheck.rules.base import Example, Rule, RuleContext


class LayerReturnedFromTracedCall(Rule):
    """
    ## What it does
    Flags a `return` of a function that `tf.function` traces itself (decorated or wrapped,
    `jit_compile` or not), or of a Keras layer's or model's `call`, that hands back a Keras layer
    or model object (the value model's layer fact: a constructor the generated API table records
    as returning a layer, `tf.keras.layers.Lambda(...)`, `tf.keras.layers.Dense(...)`, a class of
    the project (a CapWords name: `Head()`), or a name bound to one) instead of applying it. What a
    layer call returns (`super().__call__(...)`, `self(...)`) is its output, and what any other
    unresolved call returns is unknown: neither is a layer: `return main, tf.keras.layers.Lambda(lambda t: head(t))`.

    ## Why is this bad?
    A traced function may only return tensors (and nested structures of them, ExtensionTypes or
    None). Eager execution hands the layer object back without complaint, so the mistake goes
    unnoticed until the model is compiled: `tf.function(jit_compile=True)` then raises
    `TypeError: To be compatible with tf.function, Python functions must return zero or more
    Tensors or ExtensionTypes or None values ... found return value of type Lambda` (TF 2.21,
    measured; tensorflow/tensorflow#108142).

    ## Example
    ```python
    class TwoHead(tf.keras.Model):
        def call(self, x):
            h = self.trunk(x)
            return self.main(h), tf.keras.layers.Lambda(lambda t: self.aux(t))
    ```

    ## Use instead
    ```python
    class TwoHead(tf.keras.Model):
        def call(self, x):
            h = self.trunk(x)
            return self.main(h), self.aux(h)  # apply the layer: return its output tensor
    ```

    ## Fix safety
    No automatic fix: which input the layer was meant to be applied to is not visible here.
    """

    code = "XLA323"
    fix = None
    name = "layer-returned-from-traced-call"
    fails_in_any_graph = True
    levels = frozenset({Level.CERTAIN, Level.LIKELY, Level.GRAPH})
    # behind --preview: on real code its one finding was false (tensorflow-addons 0.23
    # attention_wrapper.py:235 returns `self.values = super().__call__(...)`, a tensor; the value model
    # calls any unresolved call assigned to self a layer object, which is no proof of one)
    preview = True
    node_types = (ast.Return,)

    VALID = (
        # the layer is applied: its output tensor is returned
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n        self.d = tf.keras.layers.Dense(2)\n"
                "    def call(self, x):\n        return tf.keras.layers.Lambda(lambda t: self.d(t))(x)\n"),
        # a builder that returns a layer to its (Python) caller is not a traced function
        Example("import tensorflow as tf\ndef head(units):\n    return tf.keras.layers.Dense(units)\n"
                "HEAD = head(3)\n@tf.function(jit_compile=True)\ndef f(x):\n    return HEAD(x)\n"),
        # a nested helper of the traced function returns a layer to the traced code, which applies it
        Example("import tensorflow as tf\nDENSE = tf.keras.layers.Dense(2)\n@tf.function\ndef f(x):\n"
                "    def pick():\n        return DENSE\n    return pick()(x)\n"),
        # what a function of this file returns is unknown, not a layer: `self.values` is a tensor
        # (compiles under jit_compile, measured)
        Example("import tensorflow as tf\ndef _prepare(x):\n    return x * 2.0\n"
                "class Memory(tf.keras.layers.Layer):\n    def setup_memory(self, x):\n"
                "        self.values = _prepare(x)\n    def call(self, x):\n        self.setup_memory(x)\n"
                "        return self.values\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return Memory()(x)\n"),
        # a layer call returns its output (tensorflow-addons' attention wrapper keeps
        # `super().__call__(...)` on self and returns it from call)
        Example("import tensorflow as tf\nclass Memory(tf.keras.layers.Layer):\n"
                "    def __call__(self, x, setup_memory=False):\n        if setup_memory:\n"
                "            self.values = super().__call__(x, setup_memory=True)\n            return self.values\n"
                "        return super().__call__(x)\n"
                "    def call(self, x, setup_memory=False):\n        if setup_memory:\n            return x * 2.0\n"
                "        return self.values\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass TwoHead(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n        self.main = tf.keras.layers.Dense(1)\n"
                "        self.aux = tf.keras.layers.Dense(3)\n"
                "    def call(self, x):\n"
                "        return self.main(x), tf.keras.layers.Lambda(lambda t: self.aux(t))\n",
                expected=(
                    (8, 30, "call of a Keras layer/model returns a Keras layer object (tf.keras.layers.Lambda(...)), "
                            "not a tensor: a traced function may only return tensors, so tracing the model fails "
                            "(TypeError: \"must return zero or more Tensors\"); apply the layer to its input and "
                            "return the result"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef project(x):\n"
                "    proj = tf.keras.layers.Dense(4)\n    return proj\n",
                expected=(
                    (5, 12, "project (decorated with tf.function(jit_compile=True) at line 2) returns a Keras layer "
                            "object (proj), not a tensor: a traced function may only return tensors, so tracing "
                            "fails (TypeError: \"must return zero or more Tensors\"); apply the layer to its input "
                            "and return the result"),
                )),
        # a class of the project (CapWords) builds a layer object
        Example("import tensorflow as tf\nclass Head(tf.keras.layers.Layer):\n    def call(self, x):\n"
                "        return x\nclass TwoHead(tf.keras.Model):\n    def __init__(self):\n"
                "        super().__init__()\n        self.aux = Head()\n    def call(self, x):\n"
                "        return x, self.aux\n",
                expected=(
                    (10, 19, "call of a Keras layer/model returns a Keras layer object (self.aux), not a tensor: a "
                             "traced function may only return tensors, so tracing the model fails (TypeError: \"must "
                             "return zero or more Tensors\"); apply the layer to its input and return the result"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Return)
        found = traced_return(node, ctx)
        if found is None:
            return
        for part in found.parts:
            k = ctx.flags(part)
            if not k & LAYER or k & TENSOR:
                continue
            shown = ast.unparse(part)
            if isinstance(part, ast.Call):
                shown = ast.unparse(part.func) + "(...)"
            ctx.report(self, part,
                       f"{found.who} returns a Keras layer object ({shown}), not a tensor: a traced function may "
                       f"only return tensors, so {found.where} (TypeError: \"must return zero or more Tensors\"); "
                       "apply the layer to its input and return the result")
            return
