"""XLA304: NumPy functions applied to tensors in compiled code."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis import index_values
from xlacheck.analysis.tables import NUMPY_CONVERSIONS, PYTHON_VALUE_ARGS
from xlacheck.analysis.values import CONST, DATA, OP, OPAQUE, PARAM, PYLIST, SHAPE, TENSOR, VARIABLE
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name
from xlacheck.rules.constant_of_symbolic_tensor import constant_of_symbolic_tensor
from xlacheck.rules.numpy_on_traced_value import numpy_on_traced_value


class NumpyCallOnTensor(Rule):
    """
    ## What it does
    Flags `np.<function>(t)` (and `scipy.*`) where `t` is a tensor, inside compiled code (Keras `call`,
    `train_step`, metrics' `update_state`, `loss=`/`metrics=` functions, `tf.function`s, `jax.jit`),
    and a NumPy array (an `np.*` call's result) indexed with a tensor (`np.arange(n)[perm]`); under
    `jax.jit` also a NumPy table built elsewhere in the file (a module-level constant, a helper's
    result, an attribute a class fills from NumPy or a NumPy random generator).
    `tf.experimental.numpy` is TensorFlow and is not flagged. Also Keras 3's
    `keras.ops.convert_to_numpy(t)`, and `tf.constant(t)` and
    `tf.TensorShape(t)` of a computed tensor: both read their argument as Python/NumPy data while
    tracing (`TypeError: Expected float32, but got Tensor(...) of type 'SymbolicTensor'`).

    ## Why is this bad?
    NumPy needs concrete values: tracing fails with `NotImplementedError: Cannot convert a
    symbolic tf.Tensor to a numpy array.`

    ## Example
    ```python
    hard = np.where(y_pred > 0.5, 1.0, 0.0)
    ```

    ## Use instead
    ```python
    hard = tf.where(y_pred > 0.5, 1.0, 0.0)
    ```

    ## Fix safety
    NumPy reductions and elementwise functions on tensors -> the same-named TensorFlow op is
    unsafe: the result is a tensor, not a NumPy value, it keeps the input's dtype where NumPy may
    give float64, and float sums may round differently.
    """

    code = "XLA304"
    # untuned real code, first sight: 3 findings, 1 true (docs/real-code-judgments-8-final.md)
    preview = True
    fix = ("rewrite_host_read",)
    name = "numpy-call-on-tensor"
    node_types = (ast.Call, ast.Subscript)

    VALID = (
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x / np.sqrt(x.shape[-1])\n"),
        Example("import tensorflow as tf\nimport tensorflow.experimental.numpy as tnp\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return tnp.mean(x)\n"),
        # a type dispatch: the NumPy branch never runs on a traced tensor
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if isinstance(x, np.ndarray):\n        return np.where(x > 0, x, 0)\n"
                "    if not hasattr(x, 'astype'):\n        return tf.nn.relu(x)\n    return np.maximum(x, 0)\n"),
        Example("import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n"
                "    scale = np.linspace(0.0, 1.0, 8)[: x.shape[0]]\n    return x * scale\n"),
        # tf.constant of Python numbers, tf.TensorShape of a static shape or of a non-tensor
        Example("import tensorflow as tf\nclass L(tf.keras.layers.Layer):\n    def call(self, x, dims=None):\n"
                "        if hasattr(dims, 'shape'):\n            dims = dims.shape\n        else:\n"
                "            dims = tf.TensorShape(dims)\n"
                "        return x * tf.constant([0.5, 2.0]) + tf.zeros(tf.TensorShape(x.shape))\n"
                "layer = L()\ndef f(x):\n    return layer(x)\n"),
        # uncertainty-baselines batchensemble_utils.py: the PyTreeDef of jax.tree.flatten is no array (tf-real8)
        Example("""
            import jax
            import numpy as np


            def _names(tree):
                return [("a", 0)]


            @jax.jit
            def leaves_in_order(tree):
                vals, treedef = jax.tree.flatten(tree)
                tokens = treedef.unflatten(range(len(vals)))
                names, perm = zip(*_names(tokens))
                inv = np.argsort(perm)
                return [vals[i] for i in inv]
        """),
        # NumPy over a list of static shape ints and Python numbers compiles (measured, reports23-jax)
        Example("import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n"
                "    scale = np.array([x.shape[0], x.ndim, 2.0])\n    return x * scale.sum()\n"),
        # a NumPy table built by a helper, made a JAX array once at module level (reports24-jax, jax#3133)
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\ndef sinusoid(n):\n"
                "    t = np.zeros((n, 4), np.float32)\n    t[:, 0] = np.arange(n)\n    return t\n"
                "POSITIONS = jnp.asarray(sinusoid(16))\n@jax.jit\ndef embed(tokens, position_ids):\n"
                "    return tokens + POSITIONS[position_ids]\n"),
    )
    INVALID = (
        # a helper's parameter bound to an entry of a dict that a jitted function may be given or may leave
        # at its default (XLA326 takes what is proven: a jitted function's parameters without a default,
        # what it passes a helper of them, their entries, and JAX ops' results)
        Example("import jax\nimport numpy as np\ndef gather_positions(perm):\n"
                "    positions = np.arange(perm.shape[0])\n    return positions[perm] * 2\n"
                "@jax.jit\ndef f(batch=None):\n    return gather_positions(batch['perm'])\n",
                expected=(
                    (5, 12, 'NumPy array from np.arange indexed with a tensor under jax.jit (called from '
                            'f()): NumPy needs concrete values (TracerArrayConversionError); build the array '
                            'with jnp.*'),
                )),
        Example("import numpy as np\nimport tensorflow as tf\ndef mae(y_true, y_pred):\n"
                "    return tf.constant(np.mean(tf.abs(y_true - y_pred)))\n"
                "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nmodel.compile(loss='mse', metrics=[mae])\n",
                expected=(
                    (4, 24, 'np.mean on a tensor inside compiled code (passed to compile()/strategy.run): NumPy '
                            "needs concrete values ('Cannot convert a symbolic tf.Tensor to a numpy array'); use the "
                            'tf.* op'),
                )),
        Example("import tensorflow as tf\nclass Gate(tf.keras.layers.Layer):\n    def call(self, x):\n"
                "        g = tf.constant(tf.sigmoid(x), dtype=tf.float32)\n        return x * g\n"
                "gate = Gate()\ndef f(x):\n    return gate(x)\n",
                expected=(
                    (4, 13, "tf.constant of a tensor inside compiled code (Keras call()): it needs the argument's "
                            'value as Python/NumPy data while tracing ("got Tensor ... of type \'SymbolicTensor\'"); '
                            'use tf.cast / tf.convert_to_tensor'),
                )),
        Example("import keras\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    top = keras.ops.convert_to_numpy(tf.argmax(x))\n    return x * float(top)\n",
                expected=(
                    (5, 11, 'tf.keras.ops.convert_to_numpy on a tensor inside compiled code (decorated with '
                            "tf.function(jit_compile=True)): NumPy needs concrete values ('Cannot convert a symbolic "
                            "tf.Tensor to a numpy array'); keep the value as a tensor"),
                )),
        # jax.jit of jax.grad of a lambda compiles what the lambda calls (stheno#21); with jit options not read
        # here any argument may be static, so `y` is no proven tracer (XLA326 flags it without them)
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\ndef nll(w, y):\n"
                "    keep = np.asarray(y)\n    return jnp.sum(jnp.where(jnp.isnan(keep), 0.0, y)) * w\n"
                "grad_fn = jax.jit(jax.grad(lambda w, y: -nll(w, y)), **OPTIONS)\n",
                expected=(
                    (5, 12, 'np.asarray on a traced array under jax.jit (called from <lambda>()): NumPy needs '
                            'concrete values (TracerArrayConversionError); use the jnp.* / jax.lax op'),
                )),
        # a list literal holding a traced element: NumPy converts it element by element (cosmopower-jax#9);
        # `theta` has a default here, so it is no proven tracer (without one, XLA326 flags it: a proven one)
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\ndef features(theta):\n"
                "    return np.stack([theta[0], theta[1]])\n@jax.jit\ndef potential(theta=None):\n"
                "    return jnp.sum(features(theta) ** 2)\n",
                expected=(
                    (5, 12, 'np.stack of a list holding a traced array under jax.jit (called from potential()): '
                            'NumPy converts each element (TracerArrayConversionError); use the jnp.* op'),
                )),
        # a module-level NumPy table a helper of this file built, indexed with traced ids (reports24-jax, jax#3133)
        Example("import jax\nimport numpy as np\ndef sinusoid(n):\n"
                "    t = np.zeros((n, 4), np.float32)\n    t[:, 0] = np.arange(n)\n    return t\n"
                "POSITIONS = sinusoid(16)\ndef add_positions(tokens, position_ids):\n"
                "    return tokens + POSITIONS[position_ids]\n@jax.jit\ndef embed(batch=None):\n"
                "    return add_positions(batch['tokens'], batch['position_ids'])\n",
                expected=(
                    (9, 21, 'NumPy array from np.zeros (returned by sinusoid()) indexed with a tensor under jax.jit '
                            '(called from embed()): NumPy needs concrete values (TracerArrayConversionError); '
                            'build the array with jnp.*'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if numpy_on_traced_value(node, ctx) is not None or constant_of_symbolic_tensor(node, ctx) is not None:
            return  # XLA326's / XLA327's: the value is proven symbolic in a traced function
        if isinstance(node, ast.Subscript):
            self._indexed(node, ctx)
            return
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if name in PYTHON_VALUE_ARGS:
            self._python_value_arg(node, name, ctx)
            return
        # jax.device_get is not a host read under jax.jit: it returns a tracer unchanged (measured on
        # jax 0.10.2: jax.jit(lambda v: jax.device_get(v) * 2) compiles and runs)
        if name is None or not (name.startswith(("np.", "scipy.")) or name in NUMPY_CONVERSIONS):
            return
        if ctx.function.jax and self._jax_list_of_traced(node, name, ctx):
            return
        if ctx.function.jax and name in api_table.numpy_traceable_under_jit():
            return  # np.sum(x) is x.sum() on a tracer (the JAX table's numpy_on_tracer, measured)
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            k = ctx.flags(arg)
            if k & TENSOR and not k & PYLIST and (k & (DATA | PARAM | VARIABLE) or not k & SHAPE):
                if ctx.function.jax:  # in JAX's terms
                    ctx.report(self, node,
                               f"{name} on a traced array under jax.jit ({ctx.function.why}): NumPy needs concrete "
                               "values (TracerArrayConversionError); use the jnp.* / jax.lax op")
                    return
                ctx.report(self, node,
                           f"{name} on a tensor inside compiled code ({ctx.function.why}): NumPy needs concrete "
                           "values ('Cannot convert a symbolic tf.Tensor to a numpy array'); "
                           + ("keep the value as a tensor" if name in NUMPY_CONVERSIONS else "use the tf.* op"))
                return

    def _jax_list_of_traced(self, node: ast.Call, name: str, ctx: RuleContext) -> bool:
        """``np.stack([a, b])`` / ``np.array([[a, b]])`` under jax.jit with a traced element: NumPy
        converts a list/tuple literal element by element, and a tracer's ``__array__`` raises
        TracerArrayConversionError. Measured on jax 0.10.2: np.vstack, np.stack, np.concatenate,
        np.array and np.sum over a literal holding a traced array all raise under jax.jit (np.sum of
        a bare tracer does not: it dispatches to the tracer's method), while np.array of static
        shape ints compiles. Reports and returns True when it found one."""
        pending = [a for a in list(node.args) + [kw.value for kw in node.keywords]
                   if isinstance(a, (ast.List, ast.Tuple))]
        while pending:
            literal = pending.pop()
            for element in literal.elts:
                if isinstance(element, (ast.List, ast.Tuple)):
                    pending.append(element)
                    continue
                k = ctx.flags(element)
                if k & TENSOR and not k & PYLIST and (k & (DATA | PARAM | VARIABLE) or not k & SHAPE):
                    ctx.report(self, node,
                               f"{name} of a list holding a traced array under jax.jit ({ctx.function.why}): "
                               "NumPy converts each element (TracerArrayConversionError); use the jnp.* op")
                    return True
        return False

    def _python_value_arg(self, node: ast.Call, name: str, ctx: RuleContext) -> None:
        """``tf.constant(t)`` / ``tf.TensorShape(t)`` with a tensor ``t``: they need its value as
        Python/NumPy data while tracing (tables.PYTHON_VALUE_ARGS)."""
        position, keyword = PYTHON_VALUE_ARGS[name]
        arg = argument(node, position, keyword)
        if arg is None or ctx.function.jax:
            return
        k = ctx.flags(arg)
        if not (k & TENSOR and not k & PYLIST and k & (DATA | VARIABLE | OP | CONST | OPAQUE)):
            return  # a computed tensor (a bare parameter may be a Python value)
        ctx.report(self, node,
                   f"{name} of a tensor inside compiled code ({ctx.function.why}): it needs the argument's value "
                   "as Python/NumPy data while tracing (\"got Tensor ... of type 'SymbolicTensor'\"); "
                   + ("use tf.cast / tf.convert_to_tensor" if name != "tf.TensorShape"
                      else "give it Python ints (or None for an unknown dimension)"))

    def _indexed(self, node: ast.Subscript, ctx: RuleContext) -> None:
        """``np.arange(n)[t]``: a NumPy array (a NumPy call's result, here or bound once in this
        function) indexed with a tensor converts the tensor to NumPy as well."""
        if not isinstance(node.ctx, ast.Load):
            return
        # the index first: it is cheap, and most subscripts index with Python values
        if not any((k := ctx.flags(b)) & TENSOR and not k & PYLIST and (k & (DATA | PARAM | VARIABLE) or not k & SHAPE)
                   for b in index_values(node)):
            return
        base = node.value
        if isinstance(base, ast.Name):
            bound = [n.value for n in ast.walk(ctx.function.node) if isinstance(n, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == base.id for t in n.targets)]
            base = bound[0] if len(bound) == 1 else base
        name = call_name(base, ctx) if isinstance(base, ast.Call) else None
        if name is None or not name.startswith("np."):
            # a NumPy table bound elsewhere in this file: a module-level constant, a helper's result,
            # an attribute the class fills with NumPy data (analysis.host_arrays)
            cls = ctx.function.cls.node if ctx.function.cls is not None else None
            name = ctx.host_arrays.source(node.value, ctx.function.node, cls) if ctx.function.jax else None
            if name is None:
                return
        where = (f"under jax.jit ({ctx.function.why}): NumPy needs concrete values "
                 "(TracerArrayConversionError); build the array with jnp.*") if ctx.function.jax else \
            (f"inside compiled code ({ctx.function.why}): NumPy needs concrete values ('Cannot convert a "
             "symbolic tf.Tensor to a numpy array'); build the array with tf.*")
        ctx.report(self, node, f"NumPy array from {name} indexed with a tensor {where}")
