"""XLA320: a Python/NumPy random draw inside compiled code (frozen at trace time)."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.tables import HOST_RANDOM_DRAWS
from xlacheck.analysis.values import TENSOR
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

# The constructors of host generator objects whose methods draw like the module functions.
_GENERATORS = {"np.random.RandomState": "np.random", "random.Random": "random"}


def _generator_attr(node: ast.expr, ctx: RuleContext) -> str | None:
    """The module whose draws ``node``'s methods are, for ``self.rng`` set to
    ``np.random.RandomState(...)`` / ``random.Random(...)`` in the class."""
    cls = ctx.function.cls
    if cls is None or not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                           and node.value.id == "self"):
        return None
    value = cls.attrs.get(node.attr)
    if isinstance(value, ast.Call):
        made = ctx.aliases.resolve(value.func)
        return _GENERATORS.get(made) if made is not None else None
    return None


class HostRandomInCompiledCode(Rule):
    """
    ## What it does
    Flags a host-side random draw (`random.randint(...)`, `np.random.uniform(...)`, a method of
    a `np.random.RandomState`/`random.Random` kept on `self`) inside compiled code: a
    `tf.function`, `jit_compile=True`, `jax.jit`, and with `--preview` Keras `call`/`train_step`
    (traced by `fit` as well; on transformers' TF models they are 24 true LayerDrop draws that
    would break issue 11's bound of 3 findings per 10k lines on that code). The draws come from
    one table (`HOST_RANDOM_DRAWS` in `xlacheck/analysis/tables.py`).

    ## Why is this bad?
    Python runs once, while tracing. The draw's value becomes a constant of the compiled
    program, so every later call reuses it: an augmentation that never varies, a dropout mask
    that is always the same. Nothing fails; eager runs draw a new value per call, so tests pass
    and training silently differs (TF 2.21 `jit_compile=True` and `jax.jit` measured: three calls,
    one value).

    ## Example
    ```python
    def call(self, x, training=True):
        if training:
            x = x * (random.randint(8, 12) / 10.0)
        return x
    ```

    ## Use instead
    ```python
    def call(self, x, training=True):
        if training:
            x = x * tf.random.uniform([], 0.8, 1.2)  # drawn on the device, per call
        return x
    ```

    ## Fix safety
    No automatic fix: a framework draw (`tf.random.*` with a generator or seed, `jax.random` with
    a key threaded through the step) changes the random stream and, for JAX, the signature.
    """

    code = "XLA320"
    fix = None
    name = "host-random-in-compiled-code"
    # every graph traces the draw once (a plain tf.function too); a Keras call() only with --preview
    levels = frozenset({Level.CERTAIN, Level.GRAPH})
    preview_levels = frozenset({Level.LIKELY})
    severity = Severity.WRONG_RESULT
    node_types = (ast.Call,)

    VALID = (
        Example("import numpy as np\nimport tensorflow as tf\nclass Aug(tf.keras.layers.Layer):\n"
                "    def __init__(self):\n        super().__init__()\n"
                "        self.scale = np.random.uniform(0.9, 1.1)\n"
                "    def call(self, x):\n        return x * tf.random.uniform([], 0.9, 1.1)\n"),
        # an op-level seed is a trace-time constant anyway: the stateful op still varies per call
        Example("import random\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x + tf.random.uniform(tf.shape(x), seed=random.randint(0, 1000))\n"),
        # eager code draws per call
        Example("import random\nimport tensorflow as tf\ndef f(x):\n    return x * random.random()\n"),
        # a tf.data function: a host graph, not compiled by XLA
        Example("import numpy as np\nimport tensorflow as tf\ndef aug(x):\n    return x * np.random.uniform()\n"
                "def make(ds):\n    return ds.map(aug)\n", jit_compiled=True),
        # a seed maker called from compiled code (edward2 utils.gen_int_seed): the stateful ops it seeds vary
        Example("import random\nimport tensorflow as tf\ndef gen_int_seed():\n    return random.randrange(2**31)\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n"
                "    return x + tf.random.normal(tf.shape(x), seed=gen_int_seed())\n"),
        # a Keras call() (traced by fit, jit_compile or not) is reported only with --preview: on
        # transformers' TF models it is 24 LayerDrop draws, true but over issue 11's 3 per 10k lines
        Example("import random\nimport tensorflow as tf\nclass RandomGain(tf.keras.layers.Layer):\n"
                "    def call(self, x, training=True):\n        if training:\n"
                "            x = x * (random.randint(8, 12) / 10.0)\n        return x\n"),
    )
    INVALID = (
        Example("""
            import random

            import tensorflow as tf


            @tf.function(jit_compile=True)
            def random_gain(x):
                return x * (random.randint(8, 12) / 10.0)
        """, expected=(
            (8, 17, "random.randint inside compiled code (decorated with tf.function(jit_compile=True) at line 6) runs "
                    "once, while tracing: its value is frozen into the compiled program and every call reuses it "
                    "(wrong result, no error); draw with tf.random.* (a tf.random.Generator or stateless op)"),
        )),
        Example("import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.jit\ndef dropout(x):\n"
                "    keep = np.random.rand(*x.shape) > 0.5\n    return jnp.where(keep, x, 0.0)\n",
                expected=(
                    (6, 12, "np.random.rand inside compiled code (decorated with jax.jit at line 4) runs once, while "
                            "tracing: its value is frozen into the compiled program and every call reuses it (wrong "
                            "result, no error); draw with jax.random and a key passed to the function"),
                )),
        Example("import numpy as np\nimport tensorflow as tf\nclass Jitter(tf.Module):\n"
                "    def __init__(self):\n        super().__init__()\n        self.rng = np.random.RandomState(0)\n"
                "    @tf.function(jit_compile=True)\n    def __call__(self, x):\n"
                "        return x + self.rng.normal(0.0, 0.1)\n",
                expected=(
                    (9, 20, "np.random.RandomState.normal inside compiled code (decorated with "
                            "tf.function(jit_compile=True) at line 7) runs once, while tracing: its value is frozen "
                            "into the compiled program and every call reuses it (wrong result, no error); draw with "
                            "tf.random.* (a tf.random.Generator or stateless op)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        label = self._draw(node, ctx)
        if label is None:
            return
        if any(ctx.flags(a) & TENSOR for a in [*node.args, *(kw.value for kw in node.keywords)]):
            return  # a draw from a tensor fails instead (XLA304)
        if self._seed_only(node, ctx):
            return
        instead = ("jax.random and a key passed to the function" if ctx.function.jax
                   else "tf.random.* (a tf.random.Generator or stateless op)")
        ctx.report(self, node,
                   f"{label} inside compiled code ({ctx.function.evidence}) runs once, while tracing: its value is "
                   "frozen into the compiled program and every call reuses it (wrong result, no error); draw with "
                   f"{instead}")

    @staticmethod
    def _draw(node: ast.Call, ctx: RuleContext) -> str | None:
        name = call_name(node, ctx)
        if name is not None:
            module, _, leaf = name.rpartition(".")
            if leaf in HOST_RANDOM_DRAWS.get(module, ()):
                return name
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = _generator_attr(func.value, ctx)
            if owner is not None and func.attr in HOST_RANDOM_DRAWS[owner]:
                return f"{'np.random.RandomState' if owner == 'np.random' else 'random.Random'}.{func.attr}"
        return None

    @staticmethod
    def _seed_only(node: ast.Call, ctx: RuleContext) -> bool:
        """Whether the draw only seeds ops (``seed=random.randint(...)``, a name bound to the draw and
        read only as ``seed=`` or named as a seed, the return of a seed-making function): an op-level
        seed is a constant of the graph in any case, and the stateful op it seeds still draws per call."""
        seeds: list[ast.AST] = []
        bound: set[str] = set()
        for n in ast.walk(ctx.function.node):
            if isinstance(n, ast.keyword) and n.arg in ("seed", "seeds"):
                seeds.append(n.value)
            elif isinstance(n, ast.Assign) and n.value is node:
                bound.update(t.id for t in n.targets if isinstance(t, ast.Name))
            elif isinstance(n, ast.Return) and n.value is node and "seed" in ctx.function.name.lower():
                return True  # `def gen_int_seed(): return random.randrange(...)` (edward2): a seed maker
        if any("seed" in name.lower() for name in bound):
            return True  # `op_seed = random.randint(...)`: named as a seed, used as one further on
        in_seed = {id(x) for s in seeds for x in ast.walk(s)}
        if id(node) in in_seed:
            return True
        if not bound:
            return False
        loads = [n for n in ast.walk(ctx.function.node)
                 if isinstance(n, ast.Name) and n.id in bound and isinstance(n.ctx, ast.Load)]
        return bool(loads) and all(id(n) in in_seed for n in loads)
