"""XLA326: a NumPy/SciPy function given a value proven to be a tracer: a JAX tracer under ``jax.jit``,
a symbolic tensor in a ``tf.function``."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis import index_values
from xlacheck.analysis.tracers import proven_symbolic, proven_tracer
from xlacheck.rules.base import Example, Rule, RuleContext, call_name


def numpy_on_traced_value(node: ast.AST, ctx: RuleContext) -> str | None:
    """The message for ``node`` when it hands a proven tracer to NumPy (XLA326), else None. XLA304
    (behind --preview, weaker evidence) leaves these nodes to XLA326."""
    jax = ctx.function.jax
    if isinstance(node, ast.Subscript):
        return _indexed(node, ctx) if jax else None
    if isinstance(node, (ast.Assign, ast.AugAssign)):
        return _stored(node, ctx)
    if not isinstance(node, ast.Call):
        return None
    name = call_name(node, ctx)
    if name is None or name not in (api_table.numpy_fails_under_jit() | api_table.jax_host_conversions() if jax
                                    else api_table.numpy_fails_on_symbolic()):
        return None
    for arg in list(node.args) + [kw.value for kw in node.keywords]:
        # a list or tuple display: NumPy converts it element by element (np.stack([a, b]))
        for value in (arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]):
            if isinstance(value, ast.Starred):
                continue
            if not jax:
                if (evidence := proven_symbolic(ctx.flags(value), ctx.function)) is not None:
                    return (f"{name} on a symbolic tensor ({evidence}) in a graph ({ctx.function.why}): it needs "
                            "concrete values and raises 'Cannot convert a symbolic tf.Tensor to a numpy array' "
                            f"(measured); {_remedy(name, 'tf.debugging.assert_* op', 'tf.* op')}")
                continue
            evidence = proven_tracer(value, ctx.flags, ctx.function, ctx.facts)
            if evidence is not None:
                return (f"{name} on a traced array ({evidence}) under jax.jit ({ctx.function.why}): it needs "
                        "concrete values and raises a tracer conversion error (measured); "
                        f"{_remedy(name, 'jax.experimental.checkify check', 'jnp.* / jax.scipy op')}")
    return None


def _remedy(name: str, check: str, op: str) -> str:
    """What to use instead: a NumPy test assertion checks concrete values, so it moves out of the
    compiled function (or becomes the framework's own check); any other function has a framework op."""
    if name.startswith("np.testing."):
        return f"assert on the returned value outside the compiled function, or use a {check}"
    if name in api_table.jax_host_conversions():  # jnp.array_repr/array_str: text of the value
        return "format the returned value outside the jitted function, or print it with jax.debug.print"
    return f"use the {op}"


def _indexed(node: ast.Subscript, ctx: RuleContext) -> str | None:
    """``table[ids]`` where ``table`` is evidently a NumPy array (analysis.host_arrays: an ``np.*``
    result here, a module constant, a helper's result, an attribute filled from NumPy) and ``ids`` a
    proven tracer: NumPy indexing converts the index."""
    if not isinstance(node.ctx, ast.Load) or (evidence := _traced_index(node, ctx)) is None:
        return None
    if (source := _numpy_source(node.value, ctx)) is None:
        return None
    return (f"NumPy array from {source} indexed with a traced array ({evidence}) under jax.jit "
            f"({ctx.function.why}): NumPy converts the index (TracerArrayConversionError); build the array with "
            "jnp.* (jnp.asarray(table) once, outside the function)")


def _traced(value: ast.expr, ctx: RuleContext) -> str | None:
    """How ``value`` is proven traced where it is read (a JAX tracer, or a symbolic TF tensor), or None."""
    if ctx.function.jax:
        return proven_tracer(value, ctx.flags, ctx.function, ctx.facts)
    return proven_symbolic(ctx.flags(value), ctx.function)


def _traced_index(node: ast.Subscript, ctx: RuleContext) -> str | None:
    """How one of the index values of ``node`` (tuple elements, slice bounds) is proven traced, or None."""
    return next((found for b in index_values(node) if (found := _traced(b, ctx)) is not None), None)


def _numpy_source(expr: ast.expr, ctx: RuleContext) -> str | None:
    """The NumPy call that evidently built ``expr``, read in the current function (analysis.host_arrays)."""
    cls = ctx.function.cls.node if ctx.function.cls is not None else None
    return ctx.host_arrays.source(expr, ctx.function.node, cls)


_VALUE_STORES = ("[:]=array", "[:]=scalar", "[0]=row", "[0,0]=scalar")


def _stored(node: ast.Assign | ast.AugAssign, ctx: RuleContext) -> str | None:
    """``buf[...] = value`` (or ``+=``) where ``buf`` is evidently a NumPy array and the value or the
    index is proven traced, in a form the generators measured to fail (``api_table.numpy_store_errors``)."""
    jax = ctx.function.jax
    errors = api_table.numpy_store_errors(jax)
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        # (the array first: most stores in compiled code go into lists, dicts and tensors' Python containers)
        if not isinstance(target, ast.Subscript) or (source := _numpy_source(target.value, ctx)) is None:
            continue
        # the value's rank is not known here: every measured store of a value must fail
        forms = ("[:]+=array",) if isinstance(node, ast.AugAssign) else _VALUE_STORES
        what = None
        if all(f in errors for f in forms) and (evidence := _traced(node.value, ctx)) is not None:
            what, error = f"a traced value ({evidence}) stored into", " or ".join(sorted({errors[f] for f in forms}))
        elif "[i]=constant" in errors and (evidence := _traced_index(target, ctx)) is not None:
            what, error = f"a store at a traced index ({evidence}) into", errors["[i]=constant"]
        if what is None:
            continue
        if jax:
            return (f"{what} a NumPy array from {source} under jax.jit ({ctx.function.why}): NumPy converts the "
                    f"value ({error}, measured); keep the result a JAX array (jnp, x.at[i].set(v)) and copy it to "
                    "the host after the jitted call")
        return (f"{what} a NumPy array from {source} in a graph ({ctx.function.why}): NumPy converts the value "
                f"({error}, measured; 'Cannot convert a symbolic tf.Tensor to a numpy array'); keep the result a "
                "tensor (tf.tensor_scatter_nd_update) and read it after the call")
    return None


class NumpyOnTracedValue(Rule):
    """
    ## What it does
    Flags a NumPy or SciPy function called on a value proven to be a tracer:
    - under `jax.jit`: the result of a `jnp`/`lax` op (every JAX op is staged under `jax.jit`), a
      parameter that `jax.jit` or a JAX transformation traces (not static, no default), a helper's
      parameter that such a function passes one of those, a leaf `jax.tree.map` hands its function
      from such values, a nested function's free variable bound to one, or a call of a function of
      the same file whose every `return` is a JAX op's result; also a NumPy array (an `np.*` result, a
      module-level NumPy table) indexed with such a value;
    - in TensorFlow: the result of a TensorFlow op in a function a `tf.function` traces (decorated
      or wrapped, with or without `jit_compile`, and what it calls).

    Also the JAX functions that convert their argument to a host value (`jnp.array_repr`,
    `jnp.array_str`: the JAX table records TracerArrayConversionError for them under `jax.jit`).

    Which functions fail comes from the tables, measured by calling each public `np.*`,
    `np.linalg.*`, `np.fft.*`, `np.random.*` and `scipy.linalg/special/signal/ndimage` function on
    traced values: the JAX table's `numpy_on_tracer` (`np.sum(x)` is `x.sum()` on a JAX array and
    compiles, `np.exp(x)` does not) and the TF table's `numpy_on_symbolic` (only `np.shape`,
    `np.ndim` and a few others read a symbolic tensor's own attributes).

    ## Why is this bad?
    NumPy needs concrete values. There are none while tracing, so the call raises
    `TracerArrayConversionError` (`TracerIntegerConversionError` for a seed or a size) under
    `jax.jit`, and "Cannot convert a symbolic tf.Tensor to a numpy array" in a TensorFlow graph:
    the function never compiles, with or without XLA.

    ## Example
    ```python
    @jax.jit
    def reward(tip, target):
        return -np.linalg.norm(tip - target)
    ```

    ## Use instead
    ```python
    @jax.jit
    def reward(tip, target):
        return -jnp.linalg.norm(tip - target)
    ```

    ## Fix safety
    No automatic fix: the `jnp`/`tf` counterpart can differ in dtype (NumPy computes in float64 by
    default, JAX and TensorFlow in float32), and NumPy's random generators have no stateless
    counterpart.
    """

    code = "XLA326"
    name = "numpy-on-traced-value"
    fails_in_any_graph = True  # a tf.function without jit_compile fails too
    fix = None
    node_types = (ast.Call, ast.Subscript, ast.Assign, ast.AugAssign)

    VALID = (
        # NumPy hands the array to its own method: np.sum(x) is x.sum() (measured)
        Example("import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n    return np.sum(x) * 2\n"),
        # static shapes are Python ints
        Example("import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n    return x / np.sqrt(x.shape[-1])\n"),
        # a parameter jax.jit is told is static, and one with a default jit never sees
        Example("import functools\nimport jax\nimport numpy as np\n"
                "@functools.partial(jax.jit, static_argnames=('n',))\ndef f(x, n, scale=2.0):\n"
                "    return x * np.arange(n).sum() * np.exp(scale)\n"),
        # not compiled: NumPy on a JAX array converts it eagerly
        Example("import jax.numpy as jnp\nimport numpy as np\ndef report(x):\n"
                "    return np.asarray(jnp.exp(x))\n"),
        # the callback runs on the host with NumPy arrays
        Example("import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n"
                "    return jax.pure_callback(lambda v: np.exp(v), x, x)\n"),
        # TensorFlow: np.shape reads the symbolic tensor's static shape (measured: traceable)
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    h = tf.nn.relu(x)\n    return h / float(np.shape(h)[-1])\n"),
        # a Keras method alone: a model only ever called eagerly computes NumPy on eager tensors
        Example("import numpy as np\nimport tensorflow as tf\nclass Pool(tf.keras.layers.Layer):\n"
                "    def call(self, x):\n        return tf.constant(np.mean(tf.nn.relu(x)))\n"),
        # a static shape stored into a NumPy buffer under jit, and a store in eager code
        Example("import jax\nimport numpy as np\nSIZES = np.zeros(2)\n@jax.jit\ndef f(x):\n"
                "    SIZES[0] = x.shape[0]\n    return x\ndef record(x):\n    SIZES[:] = x\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.jit\ndef reward(tip, target):\n"
                "    return -np.linalg.norm(jnp.tanh(tip) - target)\n",
                expected=(
                    (6, 13, 'np.linalg.norm on a traced array (computed by a JAX op) under jax.jit (decorated with '
                            'jax.jit): it needs concrete values and raises a tracer conversion error (measured); '
                            'use the jnp.* / jax.scipy op'),
                )),
        Example("import jax\nimport numpy as np\n@jax.jit\ndef noisy(image, seed):\n"
                "    rng = np.random.RandomState(seed)\n    return image + rng.normal(size=image.shape)\n",
                expected=(
                    (5, 11, 'np.random.RandomState on a traced array (parameter `seed` of a function JAX traces) '
                            'under jax.jit (decorated with jax.jit): it needs concrete values and raises a tracer '
                            'conversion error (measured); use the jnp.* / jax.scipy op'),
                )),
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\nTABLE = np.linspace(0.0, 1.0, 16)\n"
                "@jax.jit\ndef lookup(ids):\n    return jnp.sum(TABLE[ids])\n",
                expected=(
                    (7, 20, 'NumPy array from np.linspace indexed with a traced array (parameter `ids` of a '
                            'function JAX traces) under jax.jit (decorated with jax.jit): NumPy converts the index '
                            '(TracerArrayConversionError); build the array with jnp.* (jnp.asarray(table) once, '
                            'outside the function)'),
                )),
        Example("import jax\nimport jax.numpy as jnp\nimport scipy.linalg\n@jax.jit\ndef steady(m, b):\n"
                "    return scipy.linalg.solve(m + jnp.eye(m.shape[0]), b)\n",
                expected=(
                    (6, 12, 'scipy.linalg.solve on a traced array (computed by a JAX op) under jax.jit (decorated '
                            'with jax.jit): it needs concrete values and raises a tracer conversion error '
                            '(measured); use the jnp.* / jax.scipy op'),
                )),
        # a helper of this file whose every return is a JAX op's result gives a tracer under jax.jit
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\ndef fingertip(q):\n"
                "    return jnp.stack([jnp.cos(q[0]), jnp.sin(q[1])])\n@jax.jit\ndef reward(q, target):\n"
                "    return -np.linalg.norm(fingertip(q) - target)\n",
                expected=(
                    (8, 13, 'np.linalg.norm on a traced array (computed by a JAX op) under jax.jit (decorated with '
                            'jax.jit): it needs concrete values and raises a tracer conversion error (measured); '
                            'use the jnp.* / jax.scipy op'),
                )),
        # a helper's parameter that a jitted function passes its own traced parameter (jax#7545)
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\nclass Sky:\n"
                "    def __init__(self):\n        self.flux = np.linspace(0.5, 2.0, 6)\n"
                "    def visibilities(self, ids, gains):\n        return jnp.sum(gains * self.flux[ids])\n"
                "sky = Sky()\n@jax.jit\ndef predict(ids, gains):\n    return sky.visibilities(ids, gains)\n",
                expected=(
                    (8, 32, 'NumPy array from np.linspace indexed with a traced array (parameter `ids`, which a '
                            'function JAX traces passes a tracer) under jax.jit (called from predict()): NumPy '
                            'converts the index (TracerArrayConversionError); build the array with jnp.* '
                            '(jnp.asarray(table) once, outside the function)'),
                )),
        # TensorFlow: NumPy on a TF op's result in a jit-compiled tf.function
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\n"
                "def eval_step(logits, labels):\n"
                "    per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)\n"
                "    return np.mean(per_example)\n",
                expected=(
                    (6, 12, 'np.mean on a symbolic tensor (computed by a TensorFlow op) in a graph (decorated with '
                            "tf.function(jit_compile=True)): it needs concrete values and raises 'Cannot convert a "
                            "symbolic tf.Tensor to a numpy array' (measured); use the tf.* op"),
                )),
        # the leaves jax.tree.map hands its function from a jitted function's traced arguments
        Example("import jax\nimport numpy as np\n@jax.jit\ndef shifted(params):\n"
                "    return jax.tree_util.tree_map(lambda x: np.append(x[0], x[:-1]), params)\n",
                expected=(
                    (5, 45, 'np.append on a traced array (an item of a tracer: `x`, a leaf jax.tree.map takes from '
                            'traced arrays) under jax.jit (nested in shifted()): it needs concrete values and raises a '
                            'tracer conversion error (measured); use the jnp.* / jax.scipy op'),
                )),
        # a closure's free variable is the enclosing jitted function's traced parameter
        Example("import jax\nimport numpy as np\n@jax.jit\ndef energy(x):\n    def norm():\n"
                "        return np.linalg.norm(x)\n    return norm() ** 2\n",
                expected=(
                    (6, 16, 'np.linalg.norm on a traced array (parameter `x` of a function JAX traces (read in a '
                            'nested function)) under jax.jit (called from energy()): it needs concrete values and '
                            'raises a tracer conversion error (measured); use the jnp.* / jax.scipy op'),
                )),
        # a local name computed from a tracer by Python arithmetic, in a helper a jitted function passes
        # tracers (brax#227)
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\ndef observe(state, action):\n"
                "    angles = state['angles'] + 0.05 * action\n    return np.sin(angles)\n@jax.jit\n"
                "def step(state, action):\n    return jnp.asarray(observe(state, action))\n",
                expected=(
                    (6, 12, 'np.sin on a traced array (`angles`, computed from a tracer: an item of a tracer: '
                            'parameter `state`, which a function JAX traces passes a tracer) under jax.jit (called '
                            'from step()): it needs concrete values and raises a tracer conversion error (measured); '
                            'use the jnp.* / jax.scipy op'),
                )),
        # a helper's parameter bound to an entry of the jitted function's traced dict
        Example("import jax\nimport numpy as np\ndef gather_positions(perm):\n"
                "    positions = np.arange(perm.shape[0])\n    return positions[perm] * 2\n"
                "@jax.jit\ndef f(batch):\n    return gather_positions(batch['perm'])\n",
                expected=(
                    (5, 12, 'NumPy array from np.arange indexed with a traced array (parameter `perm`, which a '
                            'function JAX traces passes a tracer) under jax.jit (called from f()): NumPy converts '
                            'the index (TracerArrayConversionError); build the array with jnp.* (jnp.asarray(table) '
                            'once, outside the function)'),
                )),
        # a traced value written into a NumPy buffer (mujoco#1256), in TensorFlow too, and a traced index
        Example("import jax\nimport numpy as np\nFRAME = np.zeros(3, dtype=np.float32)\n@jax.jit\n"
                "def step(qpos, qvel):\n    qpos = qpos + 0.01 * qvel\n    FRAME[:] = qpos\n    return qpos\n",
                expected=(
                    (7, 5, 'a traced value (parameter `qpos` of a function JAX traces, rebound to arithmetic on '
                           'tracers) stored into a NumPy array from np.zeros under jax.jit (decorated with jax.jit): '
                           'NumPy converts the value (TracerArrayConversionError or ValueError, measured); keep the '
                           'result a JAX array (jnp, x.at[i].set(v)) and copy it to the host after the jitted call'),
                )),
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function\ndef summarize(x):\n"
                "    out = np.zeros((2, 3), np.float32)\n    out[0] = tf.reduce_mean(x, axis=0)\n    return x\n",
                expected=(
                    (6, 5, "a traced value (computed by a TensorFlow op) stored into a NumPy array from np.zeros in "
                           "a graph (decorated with tf.function): NumPy converts the value (NotImplementedError or "
                           "ValueError, measured; 'Cannot convert a symbolic tf.Tensor to a numpy array'); keep the "
                           "result a tensor (tf.tensor_scatter_nd_update) and read it after the call"),
                )),
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.jit\ndef one_hot(logits):\n"
                "    v = np.zeros(10)\n    v[jnp.argmax(logits)] = 1.0\n    return jnp.asarray(v)\n",
                expected=(
                    (7, 5, 'a store at a traced index (computed by a JAX op) into a NumPy array from np.zeros under '
                           'jax.jit (decorated with jax.jit): NumPy converts the value (TracerArrayConversionError, '
                           'measured); keep the result a JAX array (jnp, x.at[i].set(v)) and copy it to the host '
                           'after the jitted call'),
                )),
        # an element of a tracer and a jnp method of one are tracers (benchmarks/jax_context_probes.py)
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\ndef features(theta):\n"
                "    return np.stack([theta[0], theta[1]])\n@jax.jit\ndef potential(theta):\n"
                "    return jnp.sum(features(theta) ** 2) + np.exp(theta[1:].mean())\n",
                expected=(
                    (5, 12, 'np.stack on a traced array (an item of a tracer: parameter `theta`, which a function '
                            'JAX traces passes a tracer) under jax.jit (called from potential()): it needs concrete '
                            'values and raises a tracer conversion error (measured); use the jnp.* / jax.scipy op'),
                    (8, 44, 'np.exp on a traced array (`.mean()` of a tracer: an item of a tracer: parameter `theta` '
                            'of a function JAX traces) under jax.jit (decorated with jax.jit): it needs concrete '
                            'values and raises a tracer conversion error (measured); use the jnp.* / jax.scipy op'),
                )),
        # a lambda jax.jit(jax.grad(...)) traces passes its traced parameter on (XLA304's stheno#21 example)
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\ndef nll(w, y):\n"
                "    keep = np.asarray(y)\n    return jnp.sum(jnp.where(jnp.isnan(keep), 0.0, y)) * w\n"
                "grad_fn = jax.jit(jax.grad(lambda w, y: -nll(w, y)))\n",
                expected=(
                    (5, 12, 'np.asarray on a traced array (parameter `y`, which a function JAX traces passes a '
                            'tracer) under jax.jit (called from <lambda>()): it needs concrete values and raises a '
                            'tracer conversion error (measured); use the jnp.* / jax.scipy op'),
                )),
        # jnp.array_str converts the array to NumPy to format it (jax_api.json: TracerArrayConversionError)
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef log_step(x):\n"
                "    h = jnp.tanh(x)\n    text = jnp.array_str(h)\n    return h, len(text)\n",
                expected=(
                    (6, 12, 'jnp.array_str on a traced array (computed by a JAX op) under jax.jit (decorated with '
                            'jax.jit): it needs concrete values and raises a tracer conversion error (measured); '
                            'format the returned value outside the jitted function, or print it with jax.debug.print'),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        message = numpy_on_traced_value(node, ctx)
        if message is not None:
            ctx.report(self, node, message)
