"""Recall and precision of the JAX cond/host rules per compiled CONTEXT, on generated probes labelled by JAX.

Each probe places one SINK (a Python ``if``/``while``/ternary/``bool()``/``assert``/``and``/``max()`` on a
value, or ``float()``/``int()``/``.item()``/``.tolist()``/``np.asarray``/``np.array``/``np.exp``/
``jax.device_get`` of it) on one PRODUCER of that value (a reduction of the traced input, an index into it:
traced; ``.shape[0]``/``.ndim``: static Python ints) in one CONTEXT that real JAX code reaches tracing in
(``@jax.jit``, ``jax.jit(f)`` assigned or inline, ``functools.partial(jax.jit, static_argnames=...)``,
helpers and methods a jitted function calls, ``lax.scan``/``fori_loop``/``while_loop``/``cond``/``switch``
bodies, ``vmap``/``grad``/``value_and_grad``/``checkpoint`` under jit, ``pjit``, ``shard_map``, values
through a dict, a tuple, a registered dataclass, a ``NamedTuple`` or a ``flax.struct`` dataclass, a flax
linen Module under ``jax.jit(model.apply)``/``nn.jit``, an nnx Module under ``nnx.jit``, haiku
``hk.transform``, an optax update function), and in the contexts that are NOT traced (a plain function
called eagerly, a ``pure_callback``/``debug.callback`` host function, eager ``jax.grad``).

A second axis checks the value model against the API table: every unary function ``xlacheck/data/
jax_api.json`` says returns a tensor under jit is placed as ``if F(v).sum() > 1`` and ``float(F(v).sum())``
in a ``@jax.jit`` function (``api_*`` probes), and every function it says returns a Python value as a
negative (``if F(v) ...``).

Nobody reads the probes to write rules: the generator writes them from these tables, ``--label`` runs each
one (``ENTRY()``: the jitted call, or the eager call for eager contexts) and records what JAX raised, and
``--score`` lints them with xlacheck (``check_source``, no ``--jit-compiled`` declaration) and compares.
A probe is positive iff JAX raised a tracer error (TracerBoolConversionError, ConcretizationTypeError,
TracerIntegerConversionError, TracerArrayConversionError); negative iff it ran; any other outcome
(an import missing, a function that rejects the input) leaves it out (``broken``). A finding is any
XLA1xx/XLA2xx/XLA3xx diagnostic in the file.

    python benchmarks/jax_context_probes.py --label [--jobs N]      # (re)write the labels (benchmarks/results/)
    python benchmarks/jax_context_probes.py                         # per-context table (needs no JAX)
    python benchmarks/jax_context_probes.py -v                      # and every miss / false finding
    python benchmarks/jax_context_probes.py --write DIR             # the probe files, to read or run by hand

flax, haiku and optax are not dependencies of this project; the labels of their contexts were made with
them importable (``pip install --target SITE --no-deps flax optax dm-haiku msgpack tabulate treescope jmp``,
``PYTHONPATH=SITE``); without them those probes label as broken and the committed labels are kept.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import textwrap
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
LABELS = ROOT / "benchmarks" / "results" / "jax_context_probes.json"
API_TABLE = ROOT / "xlacheck" / "data" / "jax_api.json"
POSITIVE_ERRORS = frozenset({"TracerBoolConversionError", "ConcretizationTypeError",
                             "TracerIntegerConversionError", "TracerArrayConversionError"})

PRELUDE = """\
import dataclasses
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

X = jnp.arange(1.0, 5.0)
X2 = jnp.stack([X, X + 1.0, X + 2.0])
"""

# --------------------------------------------------------------------------------------------
# contexts: `{BODY}` is replaced by the sink's statements (indented to the placeholder's column);
# `v` is the 1-D float array (length 4, values >= 1) the body reads and leaves an array of that shape.
# `traced`: the body runs under tracing when ENTRY runs (the label decides; this is only for reading).
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    name: str
    source: str
    needs: tuple[str, ...] = ()
    traced: bool = True


# fragments several contexts share (their text is what the probes are, so the labels' digests stay put)
def _sink_fn(name: str) -> str:
    """``def name(v):`` whose body is the sink, returning ``v``."""
    return f"def {name}(v):\n    {{BODY}}\n    return v\n"


def _entry(expr: str) -> str:
    return f"\n\ndef ENTRY():\n    return {expr}\n"


_STEP = "def step(x):\n    v = x\n    {BODY}\n    return v\n"  # the sink in a function of the traced input
_KEEP = "\n\ndef keep(v):\n    return v\n"


def _jit_sink(param: str, first: str) -> str:
    """``@jax.jit def step(param):`` that binds ``v = first`` and runs the sink on it."""
    return f"@jax.jit\ndef step({param}):\n    v = {first}\n    {{BODY}}\n    return v\n"
_JIT_STEP = "\n\n@jax.jit\ndef step(x):\n    return {call}\n"


CONTEXTS = (
    Context("jit_decorator", _jit_sink("x", "x") + _entry("step(X)")),
    Context("jit_call_assigned", _STEP + "\n\nstep_jit = jax.jit(step)\n" + _entry("step_jit(X)")),
    Context("jit_call_inline", _STEP + _entry("jax.jit(step)(X)")),
    Context("jit_in_training_loop", """
        def step(x):
            v = x
            {BODY}
            return v


        def train(batches):
            step_fn = jax.jit(step)
            outs = []
            for batch in batches:
                outs.append(step_fn(batch))
            return outs


        def ENTRY():
            return train([X, X])
        """),
    Context("partial_jit_static_argnames", """
        @functools.partial(jax.jit, static_argnames=("scale",))
        def step(x, scale):
            v = x * scale
            {BODY}
            return v


        def ENTRY():
            return step(X, scale=2)
        """),
    Context("partial_jit_static_argnums", """
        @functools.partial(jax.jit, static_argnums=(1,))
        def step(x, scale):
            v = x * scale
            {BODY}
            return v


        def ENTRY():
            return step(X, 2)
        """),
    Context("partial_jit_donate", """
        @functools.partial(jax.jit, donate_argnums=(0,))
        def step(x):
            v = x
            {BODY}
            return v


        def ENTRY():
            return step(X + 0.0)
        """),
    Context("helper_module_level", _sink_fn("helper") + _JIT_STEP.format(call="helper(x) * 2.0") + _entry("step(X)")),
    Context("helper_defined_after", """
        @jax.jit
        def step(x):
            return helper(x) * 2.0


        def helper(v):
            {BODY}
            return v


        def ENTRY():
            return step(X)
        """),
    Context("helper_chain", """
        def inner(v):
            {BODY}
            return v


        def outer(x):
            return inner(x + 0.0)


        @jax.jit
        def step(x):
            return outer(x)


        def ENTRY():
            return step(X)
        """),
    Context("helper_keyword_argument", """
        def helper(scale, v=None):
            {BODY}
            return v * scale


        @jax.jit
        def step(x):
            return helper(2.0, v=x)


        def ENTRY():
            return step(X)
        """),
    Context("nested_closure", """
        @jax.jit
        def step(x):
            def inner(v):
                {BODY}
                return v

            return inner(x)


        def ENTRY():
            return step(X)
        """),
    Context("method_of_model_object", """
        class Model:
            def apply(self, v):
                {BODY}
                return v


        model = Model()


        @jax.jit
        def step(x):
            return model.apply(x)


        def ENTRY():
            return step(X)
        """),
    Context("method_called_from_jitted_method", """
        class Trainer:
            def __init__(self):
                self.step = jax.jit(self._step)

            def _step(self, x):
                return self.loss(x)

            def loss(self, v):
                {BODY}
                return v


        def ENTRY():
            return Trainer().step(X)
        """),
    Context("bound_method_jitted_in_init", """
        class Trainer:
            def __init__(self):
                self.step = jax.jit(self._step)

            def _step(self, x):
                v = x
                {BODY}
                return v


        def ENTRY():
            return Trainer().step(X)
        """),
    Context("partial_jit_method_self_static", """
        class Model:
            @functools.partial(jax.jit, static_argnums=0)
            def __call__(self, x):
                v = x
                {BODY}
                return v


        def ENTRY():
            return Model()(X)
        """),
    Context("lax_scan_body", """
        def body(carry, xi):
            v = carry + xi
            {BODY}
            return v, jnp.sum(v)


        def ENTRY():
            return jax.lax.scan(body, jnp.zeros(4), X2)
        """),
    Context("lax_scan_in_jit", """
        def body(carry, xi):
            v = carry + xi
            {BODY}
            return v, jnp.sum(v)


        @jax.jit
        def run(xs):
            return jax.lax.scan(body, jnp.zeros(4), xs)


        def ENTRY():
            return run(X2)
        """),
    Context("lax_scan_lambda_helper", """
        def update(v):
            {BODY}
            return v


        @jax.jit
        def run(xs):
            return jax.lax.scan(lambda c, xi: (update(c + xi), None), jnp.zeros(4), xs)


        def ENTRY():
            return run(X2)
        """),
    Context("fori_loop_body", """
        def body(i, v):
            {BODY}
            return v


        def ENTRY():
            return jax.lax.fori_loop(0, 2, body, X)
        """),
    Context("while_loop_body", """
        def cond_fn(state):
            return state[0] < 2


        def body_fn(state):
            i, v = state
            {BODY}
            return i + 1, v


        def ENTRY():
            return jax.lax.while_loop(cond_fn, body_fn, (0, X))
        """),
    Context("lax_cond_branch", _sink_fn("grow") + _KEEP + "\n\n@jax.jit\ndef step(x):\n"
            "    return jax.lax.cond(x[0] > 0, grow, keep, x)\n" + _entry("step(X)")),
    Context("lax_switch_branch", _sink_fn("grow") + _KEEP + "\n\n@jax.jit\ndef step(x, index):\n"
            "    return jax.lax.switch(index, [grow, keep], x)\n" + _entry("step(X, 0)")),
    Context("vmap_under_jit", _sink_fn("per_example") + "\n\n@jax.jit\ndef step(xs):\n"
            "    return jax.vmap(per_example)(xs)\n" + _entry("step(jnp.stack([X, X]))")),
    Context("vmap_called_eagerly", _sink_fn("per_example") + _entry("jax.vmap(per_example)(jnp.stack([X, X]))")),
    Context("grad_under_jit", """
        def loss(x):
            v = x
            {BODY}
            return jnp.sum(v * v)


        def ENTRY():
            return jax.jit(jax.grad(loss))(X)
        """),
    Context("grad_called_eagerly", """
        def loss(x):
            v = x
            {BODY}
            return jnp.sum(v * v)


        def ENTRY():
            return jax.grad(loss)(X)
        """),
    Context("value_and_grad_train_step", """
        def loss_fn(params, x):
            v = params * x
            {BODY}
            return jnp.sum(v * v)


        @jax.jit
        def train_step(params, x):
            loss, grads = jax.value_and_grad(loss_fn)(params, x)
            return params - 0.1 * grads, loss


        def ENTRY():
            return train_step(jnp.ones(4), X)
        """),
    Context("checkpoint_under_jit", "@jax.checkpoint\n" + _sink_fn("block") + _JIT_STEP.format(call="block(x)")
            + _entry("step(X)")),
    Context("pjit", "from jax.experimental.pjit import pjit\n\n\n" + _STEP + "\n\nstep_p = pjit(step)\n"
            + _entry("step_p(X)")),
    Context("shard_map_under_jit", """
        from jax.sharding import PartitionSpec as P

        mesh = jax.make_mesh((1,), ("data",))


        def per_shard(v):
            {BODY}
            return v


        @jax.jit
        def step(x):
            return jax.shard_map(per_shard, mesh=mesh, in_specs=P(), out_specs=P())(x)


        def ENTRY():
            return step(X)
        """),
    Context("dict_batch", _jit_sink("batch", 'batch["x"]') + _entry('step({"x": X})')),
    Context("tuple_batch", """
        @jax.jit
        def step(batch):
            inputs, targets = batch
            v = inputs + targets
            {BODY}
            return v


        def ENTRY():
            return step((X, X))
        """),
    Context("registered_dataclass_state",
            '@functools.partial(jax.tree_util.register_dataclass, data_fields=["x"], meta_fields=[])\n'
            "@dataclasses.dataclass\nclass State:\n    x: jax.Array\n\n\n"
            + _jit_sink("state", "state.x") + _entry("step(State(x=X))")),
    Context("namedtuple_state", "class State(NamedTuple):\n    x: jax.Array\n    count: jax.Array\n\n\n"
            + _jit_sink("state", "state.x") + _entry("step(State(X, jnp.zeros(())))")),
    Context("flax_struct_state",
            "from flax import struct\n\n\n@struct.dataclass\nclass State:\n    x: jax.Array\n"
            '    name: str = struct.field(pytree_node=False, default="s")\n\n\n'
            + _jit_sink("state", "state.x") + _entry("step(State(x=X))"), needs=("flax",)),
    Context("flax_linen_jit_apply", """
        import flax.linen as nn


        class Net(nn.Module):
            @nn.compact
            def __call__(self, x):
                v = nn.Dense(4)(x) + x
                {BODY}
                return v


        def ENTRY():
            model = Net()
            variables = model.init(jax.random.PRNGKey(0), X)
            return jax.jit(model.apply)(variables, X)
        """, needs=("flax",)),
    Context("flax_linen_train_step", """
        import flax.linen as nn


        class Net(nn.Module):
            features: int = 4

            def setup(self):
                self.dense = nn.Dense(self.features)

            def __call__(self, x):
                return self.encode(self.dense(x) + x)

            def encode(self, v):
                {BODY}
                return v


        model = Net()


        @jax.jit
        def train_step(variables, x):
            return model.apply(variables, x)


        def ENTRY():
            variables = model.init(jax.random.PRNGKey(0), X)
            return train_step(variables, X)
        """, needs=("flax",)),
    Context("flax_linen_nn_jit", """
        import flax.linen as nn


        class Block(nn.Module):
            @nn.compact
            def __call__(self, x):
                v = nn.Dense(4)(x) + x
                {BODY}
                return v


        class Net(nn.Module):
            @nn.compact
            def __call__(self, x):
                return nn.jit(Block)()(x)


        def ENTRY():
            model = Net()
            return model.init_with_output(jax.random.PRNGKey(0), X)
        """, needs=("flax",)),
    Context("flax_nnx_jit", """
        from flax import nnx


        class Net(nnx.Module):
            def __init__(self, rngs):
                self.linear = nnx.Linear(4, 4, rngs=rngs)

            def __call__(self, x):
                v = self.linear(x) + x
                {BODY}
                return v


        @nnx.jit
        def step(model, x):
            return model(x)


        def ENTRY():
            return step(Net(nnx.Rngs(0)), X)
        """, needs=("flax",)),
    Context("haiku_transform", """
        import haiku as hk


        def forward(x):
            v = hk.Linear(4)(x) + x
            {BODY}
            return v


        net = hk.without_apply_rng(hk.transform(forward))


        def ENTRY():
            params = net.init(jax.random.PRNGKey(0), X)
            return jax.jit(net.apply)(params, X)
        """, needs=("haiku",)),
    Context("haiku_module_call", """
        import haiku as hk


        class Block(hk.Module):
            def __call__(self, x):
                v = hk.Linear(4)(x) + x
                {BODY}
                return v


        def forward(x):
            return Block()(x)


        net = hk.without_apply_rng(hk.transform(forward))


        @jax.jit
        def step(params, x):
            return net.apply(params, x)


        def ENTRY():
            params = net.init(jax.random.PRNGKey(0), X)
            return step(params, X)
        """, needs=("haiku",)),
    Context("optax_update_fn", """
        import optax


        def init_fn(params):
            return optax.EmptyState()


        def update_fn(updates, state, params=None):
            v = updates
            {BODY}
            return v, state


        tx = optax.GradientTransformation(init_fn, update_fn)


        def loss(params, x):
            return jnp.sum((params * x) ** 2)


        @jax.jit
        def train_step(params, opt_state, x):
            grads = jax.grad(loss)(params, x)
            updates, opt_state = tx.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state


        def ENTRY():
            params = jnp.ones(4)
            return train_step(params, tx.init(params), X)
        """, needs=("optax",)),
    Context("optax_train_step_grads", """
        import optax

        tx = optax.sgd(0.1)


        def loss(params, x):
            return jnp.sum((params * x) ** 2)


        @jax.jit
        def train_step(params, opt_state, x):
            grads = jax.grad(loss)(params, x)
            v = grads + 1.0
            {BODY}
            updates, opt_state = tx.update(v, opt_state, params)
            return optax.apply_updates(params, updates), opt_state


        def ENTRY():
            params = jnp.ones(4)
            return train_step(params, tx.init(params), X)
        """, needs=("optax",)),
    Context("jit_of_partial", """
        def step(x, scale):
            v = x * scale
            {BODY}
            return v


        step_fn = jax.jit(functools.partial(step, scale=2.0))


        def ENTRY():
            return step_fn(X)
        """),
    Context("jit_static_argnames_call", """
        def step(x, scale):
            v = x * scale
            {BODY}
            return v


        step_fn = jax.jit(step, static_argnames=("scale",))


        def ENTRY():
            return step_fn(X, scale=2)
        """),
    Context("local_def_jitted", """
        def main(batches):
            @jax.jit
            def step(x):
                v = x
                {BODY}
                return v

            return [step(b) for b in batches]


        def ENTRY():
            return main([X])
        """),
    Context("nested_loss_fn_grad", """
        @jax.jit
        def train_step(params, x):
            def loss_fn(p):
                v = p * x
                {BODY}
                return jnp.sum(v * v)

            grads = jax.grad(loss_fn)(params)
            return params - 0.1 * grads


        def ENTRY():
            return train_step(jnp.ones(4), X)
        """),
    Context("lax_map_body", _sink_fn("per_row") + _entry("jax.lax.map(per_row, X2)")),
    Context("pmap", _STEP + _entry('jax.pmap(step, axis_name="batch")(X[None])')),
    Context("staticmethod_helper", """
        class Ops:
            @staticmethod
            def normalize(v):
                {BODY}
                return v


        @jax.jit
        def step(x):
            return Ops.normalize(x)


        def ENTRY():
            return step(X)
        """),
    Context("flax_train_state_apply_fn", """
        import flax.linen as nn
        import optax
        from flax.training import train_state


        class Net(nn.Module):
            @nn.compact
            def __call__(self, x):
                v = nn.Dense(4)(x) + x
                {BODY}
                return v


        @jax.jit
        def train_step(state, x):
            def loss_fn(params):
                return jnp.sum(state.apply_fn({"params": params}, x) ** 2)

            grads = jax.grad(loss_fn)(state.params)
            return state.apply_gradients(grads=grads)


        def ENTRY():
            model = Net()
            params = model.init(jax.random.PRNGKey(0), X)["params"]
            state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
            return train_step(state, X).params
        """, needs=("flax",)),
    # not traced: the body runs on concrete arrays
    Context("eager_function", _STEP + _entry("step(X)"), traced=False),
    Context("eager_method", """
        class Evaluator:
            def report(self, x):
                v = x
                {BODY}
                return v


        def ENTRY():
            return Evaluator().report(X)
        """, traced=False),
    Context("pure_callback_host_fn", """
        def host_fn(x):
            v = jnp.asarray(x)
            {BODY}
            return np.asarray(v, dtype=np.float32)


        @jax.jit
        def step(x):
            return jax.pure_callback(host_fn, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


        def ENTRY():
            return step(X)
        """, traced=False),
    Context("debug_callback_host_fn", """
        LOG = []


        def log_fn(x):
            v = jnp.asarray(x)
            {BODY}
            LOG.append(v)


        @jax.jit
        def step(x):
            jax.debug.callback(log_fn, x)
            return x * 2.0


        def ENTRY():
            return step(X)
        """, traced=False),
    Context("jitted_result_read_on_host", """
        @jax.jit
        def forward(x):
            return x * 2.0


        def evaluate(x):
            v = forward(x)
            {BODY}
            return v


        def ENTRY():
            return evaluate(X)
        """, traced=False),
)

# --------------------------------------------------------------------------------------------
# value paths (all under ``jax.jit``): the ways real JAX code hands a traced array to the code that reads it,
# besides the jitted function's own parameter: a Python helper's return, pytree leaves (tree_map's function,
# tree_leaves), arrays closed over by a jitted closure, scan/fori_loop carry tuples, fields of a struct passed
# in, flax ``self.param``, jax.random draws from a traced key, a jnp method result. The sinks read ``v[0]``
# (traced), ``v.shape[0]`` (static) and ``v.shape[0] * v.sum()`` (a shape times a traced value: traced).
# --------------------------------------------------------------------------------------------
PATHS = (
    Context("path_helper_return", """
        def prepare(x):
            return x * 2.0 - 1.0


        @jax.jit
        def step(x):
            v = prepare(x)
            {BODY}
            return v


        def ENTRY():
            return step(X)
        """),
    Context("path_helper_tuple_return", """
        def split(x):
            return x + 0.0, x * 2.0


        @jax.jit
        def step(x):
            v, w = split(x)
            {BODY}
            return v + w


        def ENTRY():
            return step(X)
        """),
    Context("path_method_return", """
        class Encoder:
            def encode(self, x):
                return x * 2.0


        encoder = Encoder()


        @jax.jit
        def step(x):
            v = encoder.encode(x)
            {BODY}
            return v


        def ENTRY():
            return step(X)
        """),
    Context("path_tree_map_fn", """
        def scale(v):
            {BODY}
            return v


        @jax.jit
        def step(params):
            return jax.tree_util.tree_map(scale, params)


        def ENTRY():
            return step({"w": X, "b": X})
        """),
    Context("path_tree_map_lambda", """
        @jax.jit
        def step(params, grads):
            def update(p, g):
                v = p - 0.1 * g
                {BODY}
                return v

            return jax.tree_util.tree_map(lambda p, g: update(p, g), params, grads)


        def ENTRY():
            return step({"w": X}, {"w": X})
        """),
    Context("path_tree_leaves", """
        @jax.jit
        def step(params):
            leaves = jax.tree_util.tree_leaves(params)
            v = leaves[0]
            {BODY}
            return v


        def ENTRY():
            return step({"w": X, "b": X})
        """),
    Context("path_tree_leaves_loop", """
        @jax.jit
        def step(params):
            total = 0.0
            for v in jax.tree.leaves(params):
                {BODY}
                total = total + v
            return total


        def ENTRY():
            return step({"w": X, "b": X})
        """),
    Context("path_closure_factory", """
        def make_step(table):
            @jax.jit
            def step(x):
                v = table + 0.0 * x
                {BODY}
                return v

            return step


        def ENTRY():
            return make_step(X)(X)
        """),
    Context("path_closure_over_traced", """
        @jax.jit
        def step(x):
            h = x * 2.0

            def inner():
                v = h
                {BODY}
                return v

            return inner()


        def ENTRY():
            return step(X)
        """),
    Context("path_scan_carry_tuple", """
        def body(carry, xi):
            v, count = carry
            {BODY}
            return (v + xi, count + 1), None


        @jax.jit
        def run(xs):
            (out, _), _ = jax.lax.scan(body, (xs[0], 0), xs)
            return out


        def ENTRY():
            return run(X2)
        """),
    Context("path_fori_loop_carry_tuple", """
        @jax.jit
        def run(x):
            def body(i, state):
                v, total = state
                {BODY}
                return v, total + jnp.sum(v)

            return jax.lax.fori_loop(0, 2, body, (x, 0.0))


        def ENTRY():
            return run(X)
        """),
    Context("path_scan_output", """
        @jax.jit
        def run(xs):
            last, ys = jax.lax.scan(lambda c, xi: (c + xi, c), jnp.zeros(4), xs)
            v = last
            {BODY}
            return v


        def ENTRY():
            return run(X2)
        """),
    Context("path_struct_field_in_helper", """
        class Batch(NamedTuple):
            x: jax.Array
            y: jax.Array


        def loss(batch):
            v = batch.x * batch.y
            {BODY}
            return v


        @jax.jit
        def step(batch):
            return loss(batch)


        def ENTRY():
            return step(Batch(X, X))
        """),
    Context("path_flax_struct_field", """
        from flax import struct


        @struct.dataclass
        class State:
            params: jax.Array
            step: int = struct.field(pytree_node=False, default=0)


        def apply(state, x):
            v = state.params * x
            {BODY}
            return v


        @jax.jit
        def step(state, x):
            return apply(state, x)


        def ENTRY():
            return step(State(params=X), X)
        """, needs=("flax",)),
    Context("path_flax_self_param", """
        import flax.linen as nn


        class Scale(nn.Module):
            @nn.compact
            def __call__(self, x):
                w = self.param("w", nn.initializers.ones, (4,))
                v = w
                {BODY}
                return v * x


        def ENTRY():
            model = Scale()
            variables = model.init(jax.random.PRNGKey(0), X)
            return jax.jit(model.apply)(variables, X)
        """, needs=("flax",)),
    Context("path_random_traced_key", """
        @jax.jit
        def step(key):
            v = jax.random.uniform(key, (4,)) + 1.0
            {BODY}
            return v


        def ENTRY():
            return step(jax.random.PRNGKey(0))
        """),
    Context("path_random_split_key", """
        @jax.jit
        def step(key, x):
            key, sub = jax.random.split(key)
            v = x + jax.random.normal(sub, x.shape)
            {BODY}
            return v


        def ENTRY():
            return step(jax.random.PRNGKey(0), X)
        """),
    Context("path_value_and_grad_outputs", """
        def loss_fn(params, x):
            return jnp.sum((params * x) ** 2)


        @jax.jit
        def step(params, x):
            loss, grads = jax.value_and_grad(loss_fn)(params, x)
            v = grads
            {BODY}
            return params - 0.1 * v, loss


        def ENTRY():
            return step(X, X)
        """),
    Context("path_args_tuple", """
        @jax.jit
        def step(*arrays):
            v = arrays[0]
            {BODY}
            return v


        def ENTRY():
            return step(X, X)
        """),
    Context("path_list_of_arrays_loop", """
        @jax.jit
        def step(xs):
            outs = []
            for v in xs:
                {BODY}
                outs.append(v)
            return outs


        def ENTRY():
            return step([X, X])
        """),
    Context("path_self_attribute_array", """
        class Model:
            def __init__(self):
                self.w = jnp.ones(4)

            @functools.partial(jax.jit, static_argnums=0)
            def __call__(self, x):
                v = self.w * x
                {BODY}
                return v


        def ENTRY():
            return Model()(X)
        """),
)
# --------------------------------------------------------------------------------------------
# branch forms (all under ``jax.jit``): ``lax.cond``/``lax.switch`` whose two branches return the forms of one
# BRANCH_PAIR, handed over in one of the BRANCH_STYLES real JAX code writes: lambdas taking the operand, lambdas
# closing over a local (``lax.cond(p, lambda: clip[2:], lambda: clip)``, keras.ops.cond's form), defs beside the
# call (with the operand or closing over the local), module-level defs, a switch list. ``{A}``/``{B}`` are the
# branches' return expressions over ``v`` (a 1-D float array of length 4). A probe is positive iff the call raises
# TypeError (branches must have equal output types), negative iff it runs.
# --------------------------------------------------------------------------------------------
BRANCH_STYLES = (
    Context("branch_cond_operand_lambdas", """
        @jax.jit
        def step(x):
            w = x * 1.0
            return jax.lax.cond(x[0] > 2, lambda v: {A}, lambda v: {B}, w)
        """),
    Context("branch_cond_closure_lambdas", """
        @jax.jit
        def step(x):
            v = x * 1.0
            return jax.lax.cond(x[0] > 2, lambda: {A}, lambda: {B})
        """),
    Context("branch_cond_local_defs_operand", """
        @jax.jit
        def step(x):
            def on_true(v):
                return {A}

            def on_false(v):
                return {B}

            return jax.lax.cond(x[0] > 2, on_true, on_false, x * 1.0)
        """),
    Context("branch_cond_local_defs_closure", """
        @jax.jit
        def step(x):
            v = x * 1.0

            def on_true():
                return {A}

            def on_false():
                return {B}

            return jax.lax.cond(x[0] > 2, on_true, on_false)
        """),
    Context("branch_cond_module_defs", """
        def on_true(v):
            return {A}


        def on_false(v):
            return {B}


        @jax.jit
        def step(x):
            return jax.lax.cond(x[0] > 2, on_true, on_false, x * 1.0)
        """),
    Context("branch_switch_operand_lambdas", """
        @jax.jit
        def step(x):
            return jax.lax.switch(jnp.argmax(x), [lambda v: {A}, lambda v: {B}], x * 1.0)
        """),
    Context("branch_switch_closure_lambdas", """
        @jax.jit
        def step(x):
            v = x * 1.0
            return jax.lax.switch(jnp.argmax(x), [lambda: {A}, lambda: {B}])
        """),
    Context("branch_switch_local_defs_closure", """
        @jax.jit
        def step(x):
            v = x * 1.0

            def first():
                return {A}

            def second():
                return {B}

            return jax.lax.switch(jnp.argmax(x), (first, second))
        """),
)
# (name, A, B): the two branches' return expressions
BRANCH_PAIRS = (
    ("same_elementwise", "v * 2.0", "v + 1.0"),
    ("reversed", "v[::-1]", "v"),
    ("keepdims_broadcast", "v.sum(axis=0, keepdims=True) * jnp.ones_like(v)", "v"),
    ("tuple_same", "(v, v * 2.0)", "(v * 3.0, v)"),
    ("mean_axis0", "jnp.mean(v, axis=0)", "v"),
    ("crop_start", "v[1:]", "v"),
    ("crop_stop", "v[:-1] * 2.0", "v"),
    ("new_axis", "v[None]", "v"),
    ("tuple_length", "(v, v)", "(v,)"),
    ("head", "v[:2]", "v"),
    ("astype_int", "v.astype(jnp.int32)", "v"),
    ("full_sum", "v.sum()", "v"),
)
# loop carries (all under ``jax.jit``): a ``fori_loop``/``scan``/``while_loop`` whose carry starts as ``{INIT}`` and
# comes back from the body as ``{OUT}`` (over the carry ``c`` and the closed-over 1-D float array ``v``, length 4),
# in the LOOP_STYLES real JAX code writes, for each LOOP_PAIR. Positive iff the loop raises TypeError (the carry's
# type changed), negative iff it runs.
LOOP_STYLES = (
    Context("loop_fori_lambda", """
        @jax.jit
        def step(x):
            v = x * 1.0
            return jax.lax.fori_loop(0, 3, lambda i, c: {OUT}, {INIT})
        """),
    Context("loop_fori_local_def", """
        @jax.jit
        def step(x):
            v = x * 1.0

            def body(i, c):
                return {OUT}

            return jax.lax.fori_loop(0, 3, body, {INIT})
        """),
    Context("loop_fori_tuple_carry", """
        @jax.jit
        def step(x):
            v = x * 1.0

            def body(i, carry):
                c, count = carry
                return {OUT}, count + 1

            return jax.lax.fori_loop(0, 3, body, ({INIT}, 0))
        """),
    Context("loop_scan_local_def", """
        @jax.jit
        def step(x):
            v = x * 1.0

            def body(c, t):
                return {OUT}, t

            return jax.lax.scan(body, {INIT}, jnp.arange(3.0))
        """),
    Context("loop_while_local_defs", """
        @jax.jit
        def step(x):
            v = x * 1.0

            def cond(state):
                return state[0] < 3

            def body(state):
                i, c = state
                return i + 1, {OUT}

            return jax.lax.while_loop(cond, body, (0, {INIT}))
        """),
)
# (name, INIT, OUT)
LOOP_PAIRS = (
    ("kept_vector", "jnp.zeros(4)", "c + v"),
    ("at_set", "jnp.zeros(4)", "c.at[0].set(v[0])"),
    ("python_float_scalar", "0.0", "c + v[0]"),
    ("from_operand", "v", "c * 0.5 + v"),
    ("python_float_vector", "0.0", "c + v"),
    ("python_int_vector", "0", "c - v"),
    ("concatenate", "jnp.zeros(0)", "jnp.concatenate([c, v[:1]])"),
    ("append", "jnp.zeros(0)", "jnp.append(c, v[0])"),
    ("column", "jnp.zeros(4)", "c[:, None] + v[:, None]"),
    ("reduced", "jnp.zeros(4)", "jnp.sum(c + v)"),
    ("int32_then_float", "jnp.zeros(4, jnp.int32)", "c + v"),
    ("operand_reduced", "v", "jnp.mean(c, axis=0)"),
    ("operand_cropped", "v", "c[1:] * 2.0"),
    ("none_then_array", "None", "v * 2.0"),
)
BRANCH_ERRORS = frozenset({"TypeError"})
_BRANCH_ENTRY = "\n\ndef ENTRY():\n    return step(X)\n"

# --------------------------------------------------------------------------------------------
# sinks: `{P}` is the producer expression (a scalar); `category` is cond or host.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sink:
    name: str
    category: str
    body: str
    array_only: bool = False  # needs a jax array producer (.item(), .tolist())


SINKS = (
    Sink("if", "cond", "if {P} > 1:\n    v = v + 1.0"),
    Sink("while", "cond", "while {P} > 100:\n    v = v - 1.0"),
    Sink("ternary", "cond", "v = v + 1.0 if {P} > 1 else v"),
    Sink("bool", "cond", "v = v * bool({P} > 1)"),
    Sink("assert", "cond", "assert {P} > -1"),
    Sink("builtin_max", "cond", "v = v * max({P}, 1)"),
    Sink("float", "host", "v = v * float({P})"),
    Sink("int", "host", "v = v * int({P})"),
    Sink("item", "host", "v = v * {P}.item()", array_only=True),
    Sink("np_asarray", "host", "v = v * np.asarray({P})"),
    Sink("np_exp", "host", "v = v * np.exp({P})"),
    Sink("device_get", "host", "v = v * jax.device_get({P})"),
)


@dataclass(frozen=True)
class Producer:
    name: str
    expr: str
    array: bool  # a jax array (traced under tracing); else a Python value


# every context: one traced producer and one static one
PRODUCERS = (
    Producer("jnp_sum", "jnp.sum(v)", True),
    Producer("shape", "v.shape[0]", False),
)
# the value axis (in ``@jax.jit``, traced only): more ways of reaching a traced or a static value
VALUE_PRODUCERS = (
    Producer("index", "v[0]", True),
    Producer("slice_sum", "v[1:].sum()", True),
    Producer("method_mean", "v.mean()", True),
    Producer("arith", "(v * 2.0 + 1.0)[0]", True),
    Producer("local_alias", "w[0]", True),
    Producer("ndim", "v.ndim", False),
    Producer("len", "len(v)", False),
    Producer("size", "v.size", False),
    Producer("jnp_shape", "jnp.shape(v)[0]", False),
)
VALUE_SINKS = ("if", "float", "np_asarray")
PATH_SINKS = ("if", "bool", "float", "int", "item", "np_asarray")
PATH_PRODUCERS = (
    Producer("index", "v[0]", True),
    Producer("shape", "v.shape[0]", False),
    Producer("shape_times_sum", "v.shape[0] * v.sum()", True),
)
AXES = ("value_jit_trace", "api_tensor", "api_python")  # the probes that are not in CONTEXTS or PATHS


@dataclass(frozen=True)
class Probe:
    name: str
    context: str
    sink: str
    producer: str
    category: str
    needs: tuple[str, ...]
    source: str

    @property
    def digest(self) -> str:
        return hashlib.sha1(self.source.encode()).hexdigest()[:12]


def _place(template: str, body: str) -> str:
    text = textwrap.dedent(template).strip("\n") + "\n"
    out = []
    for line in text.splitlines():
        if line.strip() == "{BODY}":
            indent = line[: len(line) - len(line.lstrip())]
            out.append(textwrap.indent(body, indent))
        else:
            out.append(line)
    return PRELUDE + "\n\n" + "\n".join(out) + "\n"


def _context_probes() -> list[Probe]:
    probes = []
    for ctx in CONTEXTS:
        for sink in SINKS:
            for prod in PRODUCERS:
                if sink.array_only and not prod.array:
                    continue
                body = sink.body.replace("{P}", prod.expr)
                probes.append(Probe(f"{ctx.name}__{sink.name}__{prod.name}", ctx.name, sink.name, prod.name,
                                    sink.category, ctx.needs, _place(ctx.source, body)))
    return probes


TRACE_ONLY = """
    @jax.jit
    def step(x):
        v = x
        w = v + 0.0
        {BODY}
        return v


    def ENTRY():
        return step.trace(X)
    """


def _value_probes() -> list[Probe]:
    """More producers of traced and static values, in a ``@jax.jit`` function that is only traced."""
    sinks = {s.name: s for s in SINKS}
    return [Probe(f"value__{sink}__{prod.name}", "value_jit_trace", sink, prod.name, sinks[sink].category, (),
                  _place(TRACE_ONLY, sinks[sink].body.replace("{P}", prod.expr)))
            for prod in VALUE_PRODUCERS for sink in VALUE_SINKS]


def _api_probes() -> list[Probe]:
    """The value model against the table: unary functions that return a tensor under jit, and the ones
    that return a Python value, in a ``@jax.jit`` function."""
    table = json.loads(API_TABLE.read_text(encoding="utf-8"))["entries"]
    template = TRACE_ONLY
    probes = []
    for name, entry in sorted(table.items()):
        if entry.get("by") != "call" or len(entry.get("called_with", ())) != 1:
            continue
        fn = name.replace("jax.numpy.", "jnp.", 1) if name.startswith("jax.numpy.") else name
        if entry.get("returns") == "tensor" and entry.get("jit"):
            sinks = (("if", "cond", f"if {fn}(v).sum() > 1:\n    v = v + 1.0"),
                     ("float", "host", f"v = v * float({fn}(v).sum())"))
            kind = "tensor"
        elif entry.get("returns") == "python":
            sinks = (("if", "cond", f"if {fn}(v):\n    v = v + 1.0"),)
            kind = "python"
        else:
            continue
        for sink_name, category, body in sinks:
            probes.append(Probe(f"api__{name}__{sink_name}", f"api_{kind}", sink_name, name, category, (),
                                _place(template, body)))
    return probes


def _path_probes() -> list[Probe]:
    """The value paths (PATHS), each with the PATH_SINKS on the PATH_PRODUCERS."""
    sinks = {s.name: s for s in SINKS}
    probes = []
    for ctx in PATHS:
        for sink in (sinks[name] for name in PATH_SINKS):
            for prod in PATH_PRODUCERS:
                if sink.array_only and not prod.array:
                    continue
                body = sink.body.replace("{P}", prod.expr)
                probes.append(Probe(f"{ctx.name}__{sink.name}__{prod.name}", ctx.name, sink.name, prod.name,
                                    sink.category, ctx.needs, _place(ctx.source, body)))
    return probes


def _form_probes(styles: tuple[Context, ...], pairs: tuple[tuple[str, str, str], ...], slots: tuple[str, str],
                 sink: str) -> list[Probe]:
    """Every pair of ``pairs`` (name, first, second) placed in every style's two ``slots``."""
    probes = []
    for style in styles:
        for pair, first, second in pairs:
            text = textwrap.dedent(style.source).strip("\n").replace(slots[0], first).replace(slots[1], second)
            probes.append(Probe(f"{style.name}__{pair}", style.name, sink, pair, "cond", (),
                                PRELUDE + "\n\n" + text + _BRANCH_ENTRY))
    return probes


def all_probes() -> list[Probe]:
    return _context_probes() + _value_probes() + _api_probes() + _path_probes() \
        + _form_probes(BRANCH_STYLES, BRANCH_PAIRS, ("{A}", "{B}"), "branch") \
        + _form_probes(LOOP_STYLES, LOOP_PAIRS, ("{INIT}", "{OUT}"), "carry")


# --------------------------------------------------------------------------------------------
# labelling: run ENTRY() of each probe in a child process (chunks), record the exception's class name
# --------------------------------------------------------------------------------------------
_RUNNER = r"""
import json, runpy, signal, sys, traceback
import jax

def _alarm(signum, frame):
    raise TimeoutError("probe took too long")

signal.signal(signal.SIGALRM, _alarm)
out = {}
for path in sys.argv[1:]:
    signal.alarm(60)
    try:
        ns = runpy.run_path(path, run_name="probe")
        jax.block_until_ready(ns["ENTRY"]())
        out[path] = "ok"
    except BaseException as exc:  # noqa: BLE001 - every outcome is recorded
        out[path] = type(exc).__name__
    finally:
        signal.alarm(0)
print("@@RESULT@@" + json.dumps(out))
"""


def label(probes: list[Probe], jobs: int, results: dict[str, dict[str, str]], chunk: int = 40) -> None:
    """Run the probes and record each one's outcome in ``results``, saving them after every chunk."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for probe in probes:
            path = Path(tmp) / f"{probe.name.replace('.', '_')}.py"
            path.write_text(probe.source, encoding="utf-8")
            paths[str(path)] = probe
        runner = Path(tmp) / "_runner.py"
        runner.write_text(_RUNNER, encoding="utf-8")
        names = list(paths)
        chunks = [names[i:i + chunk] for i in range(0, len(names), chunk)]
        env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONWARNINGS="ignore")
        running: list[subprocess.Popen[str]] = []
        while chunks or running:
            while chunks and len(running) < jobs:
                running.append(subprocess.Popen([sys.executable, str(runner), *chunks.pop(0)], text=True,
                                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env))
            proc = running.pop(0)
            stdout, _ = proc.communicate()
            marker = stdout.rfind("@@RESULT@@")
            if marker < 0:
                raise SystemExit(f"a labelling process died (rc {proc.returncode})")
            for path, outcome in json.loads(stdout[marker + len("@@RESULT@@"):]).items():
                probe = paths[path]
                results[probe.name] = {"digest": probe.digest, "outcome": outcome}
            _save(results)
            print(f"labelled {len(results)} (of {len(probes)} run now)", file=sys.stderr)


def _save(labels: dict[str, dict[str, str]]) -> None:
    known = {p.name for p in all_probes()}
    kept = {k: labels[k] for k in sorted(labels) if k in known}
    LABELS.write_text(json.dumps(kept, indent=0, sort_keys=True) + "\n", encoding="utf-8")


_PATH_NAMES = frozenset(c.name for c in PATHS)
_BRANCH_NAMES = frozenset(c.name for c in BRANCH_STYLES + LOOP_STYLES)  # positive on TypeError


def verdict(outcome: str, context: str = "") -> str | None:
    """``context``: the probe's; a branch-form probe is positive on the error lax.cond/switch raise."""
    if outcome == "ok":
        return "negative"
    if outcome in (BRANCH_ERRORS if context in _BRANCH_NAMES else POSITIVE_ERRORS):
        return "positive"
    return None


# --------------------------------------------------------------------------------------------
# scoring
# --------------------------------------------------------------------------------------------


def findings_of(probe: Probe) -> list[str]:
    from xlacheck.engine import check_source

    name = "probe_" + hashlib.sha1(probe.name.encode()).hexdigest()[:10] + ".py"
    result = check_source(probe.source, name)
    if result.error is not None:
        raise SystemExit(f"{probe.name}: {result.error.message}")
    return [f"{d.line}:{d.code}" for d in result.diagnostics if d.code[:4] in ("XLA1", "XLA2", "XLA3")]


def _row(label: str, tp: int, fn: int, fp: int, tn: int) -> str:
    pos, neg = tp + fn, fp + tn
    recall = f"{tp / pos:.2f}" if pos else "-"
    precision = f"{tp / (tp + fp):.2f}" if tp + fp else "-"
    return f"| {label} | {pos} | {tp} | {neg} | {fp} | {recall} | {precision} |"




def score(probes: list[Probe], labels: dict[str, dict[str, str]], verbose: bool) -> list[str]:
    by_context: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    by_sink: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misses: list[str] = []
    stale = broken = 0
    for probe in probes:
        rec = labels.get(probe.name)
        if rec is None or rec["digest"] != probe.digest:
            stale += 1
            continue
        truth = verdict(rec["outcome"], probe.context)
        if truth is None:
            broken += 1
            continue
        found = findings_of(probe)
        cell = (0 if found else 1) if truth == "positive" else (2 if found else 3)
        by_context[probe.context][cell] += 1
        group = probe.context.split("_")[0] if probe.context in {*AXES, *_PATH_NAMES, *_BRANCH_NAMES} else "context"
        sink = f"{probe.category}/{probe.sink}" + (f" {probe.producer}" if probe.context in _BRANCH_NAMES else "")
        by_sink[(group, sink)][cell] += 1
        if cell in (1, 2):
            misses.append(f"{'FN' if cell == 1 else 'FP'} {probe.name} {rec['outcome']} {found}")
    lines = ["| context | positives | found | negatives | false findings | recall | precision |",
             "|---|---|---|---|---|---|---|"]
    total = [0, 0, 0, 0]
    for ctx in [c.name for c in CONTEXTS] + list(AXES):
        if ctx in by_context:
            lines.append(_row(ctx, *by_context[ctx]))
            if ctx not in AXES:
                total = [a + b for a, b in zip(total, by_context[ctx])]
    lines.append(_row("**all contexts**", *total))
    for styles, title in ((PATHS, "all value paths"), (BRANCH_STYLES, "all branch styles"),
                          (LOOP_STYLES, "all loop styles")):
        family = [0, 0, 0, 0]
        for ctx in [c.name for c in styles if c.name in by_context]:
            lines.append(_row(ctx, *by_context[ctx]))
            family = [a + b for a, b in zip(family, by_context[ctx])]
        lines.append(_row(f"**{title}**", *family))
    lines += ["", "| sink | positives | found | negatives | false findings | recall | precision |",
              "|---|---|---|---|---|---|---|"]
    for (group, sink), cells in sorted(by_sink.items()):
        lines.append(_row(f"{group} {sink}", *cells))
    lines.append("")
    lines.append(f"probes {len(probes)}, stale or unlabelled {stale}, broken (neither ran nor raised a tracer "
                 f"error) {broken}")
    if verbose:
        lines += ["", *misses]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", action="store_true", help="run every probe and rewrite the labels file")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", help="only probes whose name contains this")
    ap.add_argument("--write", type=Path, help="write the probe files to this folder")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every miss and false finding")
    args = ap.parse_args(argv)
    probes = all_probes()
    if args.only:
        probes = [p for p in probes if args.only in p.name]
    if args.write:
        args.write.mkdir(parents=True, exist_ok=True)
        for probe in probes:
            (args.write / f"{probe.name.replace('.', '_')}.py").write_text(probe.source, encoding="utf-8")
        print(f"wrote {len(probes)} probes to {args.write}")
        return 0
    labels = json.loads(LABELS.read_text(encoding="utf-8")) if LABELS.exists() else {}
    if args.label:
        label(probes, args.jobs, labels)
        return 0
    print("\n".join(score(probes, labels, args.verbose)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
