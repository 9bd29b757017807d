"""Retrace coverage matrix: for each measured cache-key fact, does a rule flag the training loop that hits it?

Every fact below names the row of a measured table that says a compiled function traces (or compiles)
again: ``xlacheck/data/jax_cache_key.json`` (``tools/generate_jax_cache_table.py``),
``xlacheck/data/jax_weak_types.json`` and ``xlacheck/data/tf_retrace.json``
(``tools/generate_tf_retrace_table.py``). For each fact this script generates the call the way training
code makes it: the compiled function and, in the same file, the loop that varies the value (a loop over
steps, a per-length or per-batch loop), in two call sites:

- ``loop``: the call inside ``for i in range(steps)`` of a ``train`` function;
- ``helper``: the call inside ``run_step(i)``, a module function called from that loop (facts without a
  value carried from one step to the next);

and a near miss of each (the value hoisted out of the loop, made a tensor, or constant).

Ground truth comes from the compiler, not from the author: each generated file is run (its ``train``
entry, three or four steps) with a counter prepended to the body of the traced Python function (``step``,
or the function the fact names), so the counter counts traces. A file whose function is traced more than
once retraces; a near miss is counted only when it traces exactly once. ``_cache_size()`` is never used.
Facts whose cost is an XLA compilation without a new trace (``count="compiles"``: an ``input_signature``
with ``None`` dims under ``jit_compile``, Keras ``fit`` with a partial last batch) are counted in XLA
compilations instead: TF, one ``*.before_optimizations.txt`` per compilation in an ``--xla_dump_to``
folder (as ``tools/generate_tf_retrace_table.py`` counts them; a plain ``tf.function`` dumps none, and
the near misses of these facts dump exactly one); JAX, the ``jax.monitoring`` event
``/jax/core/compile/backend_compile_duration``.
Each framework's files run in one subprocess (``--run-compiler``), each in fresh globals.

The linter sees the file without the counter: :func:`xlacheck.engine.check_source`, default rules, with
the jit-compiled declaration as ``benchmarks/xla_cases_score.py`` lints cases (``--no-declare``: without).
A file counts as flagged when it gets any finding.

    python benchmarks/retrace_coverage.py [--framework jax|tf] [--fact NAME] [--list] [--json] [--preview]
    python benchmarks/retrace_coverage.py --write DIR    # write the generated files (no compiler run)

Prints per fact: generated (files the compiler saw retrace), flagged, missed, near misses (files the
compiler saw trace once) and false flags on them; ``compiler disagreed`` lists files whose measured
behaviour is not the one the fact's table row predicts (left out of both counts).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from xlacheck.engine import check_source  # noqa: E402

COUNTER = "_RC_TRACES"

JAX_HEAD = """\
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

X = jnp.arange(6.0).reshape(2, 3) / 10.0
KEY = jax.random.PRNGKey(0)
"""

TF_HEAD = """\
import numpy as np
import tensorflow as tf

X = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 10.0
ROWS = tf.reshape(tf.range(30, dtype=tf.float32), [10, 3]) / 10.0
"""


@dataclass(frozen=True)
class Fact:
    name: str              # short name of the fact
    framework: str         # "jax" | "tf"
    table: str             # the measured row(s) it encodes: "jax_cache_key:static.int_new_value"
    module: str            # module-level code after the head: the compiled function and helpers
    pos: str               # the loop body's lines that vary the value (loop variable ``i``)
    neg: str               # the near miss's loop body
    setup: str = ""        # lines before the loop (positive)
    neg_setup: str = ""    # lines before the loop (near miss); "" = the positive's setup
    carry: str = ""        # a name carried from step to step (no helper site then)
    target: str = "step"   # the Python function whose traces are counted
    steps: int = 3
    neg_module: str = ""   # the near miss's module code ("" = the same)
    count: str = "traces"  # what the compiler run counts: "traces" of ``target``, or XLA "compiles"


BOUNDED = frozenset({"static_str_cycled", "dict_argument_new_key", "last_partial_batch", "python_bool_per_step",
                     "python_str_per_step", "dict_of_tensors_new_key", "none_then_tensor_fed_back",
                     "dataset_partial_batch_epochs", "stepped_windows_last_shorter", "none_then_array_fed_back",
                     "dataset_partial_batch_signature", "keras_fit_partial_last_batch",
                     "keras_fit_dataset_partial_batch"})


def _jax(name: str, table: str, module: str, pos: str, neg: str, **kw) -> Fact:
    return Fact(name, "jax", table, textwrap.dedent(module), textwrap.dedent(pos), textwrap.dedent(neg),
                **{k: textwrap.dedent(v) if isinstance(v, str) else v for k, v in kw.items()})


def _tf(name: str, table: str, module: str, pos: str, neg: str, **kw) -> Fact:
    return Fact(name, "tf", table, textwrap.dedent(module), textwrap.dedent(pos), textwrap.dedent(neg),
                **{k: textwrap.dedent(v) if isinstance(v, str) else v for k, v in kw.items()})


JIT_STATIC_N = """
@partial(jax.jit, static_argnums=1)
def step(x, n):
    return jnp.sum(x[:, :n]) * n
"""
BODY = """
def body(v):
    return jnp.tanh(v) * 2.0
"""
LOSS = """
def loss(w):
    return jnp.sum(jnp.tanh(X * w))
"""
KERAS_JIT = """
TARGETS = tf.ones((10, 2))


def build():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.compile(optimizer="sgd", loss="mse", jit_compile=True)
    return model
"""
CONFIG = """
class Config:
    def __init__(self):
        self.scale = 2.0
"""

FACTS: tuple[Fact, ...] = (
    # ---------------- JAX: static arguments (jax_cache_key static.*, seq.static_*) ----------------
    _jax("static_int_loop_variable", "jax_cache_key:static.int_new_value,seq.static_size_new_each_call",
         JIT_STATIC_N, "out = step(X, i + 1)\n", "out = step(X, 2)\n"),
    _jax("static_float_from_step", "jax_cache_key:static.float_new_value",
         """
         @partial(jax.jit, static_argnames=("lr",))
         def step(x, lr):
             return x - lr * jnp.tanh(x)
         """, "lr = 0.1 / (i + 1)\nout = step(X, lr=lr)\n", "lr = 0.1\nout = step(X, lr=lr)\n"),
    _jax("static_str_cycled", "jax_cache_key:static.str_new_value",
         """
         MODES = ("relu", "gelu", "tanh")


         @partial(jax.jit, static_argnums=1)
         def step(x, mode):
             return jax.nn.relu(x) if mode == "relu" else jnp.tanh(x)
         """, "out = step(X, MODES[i % 3])\n", "out = step(X, MODES[0])\n"),
    _jax("static_shape_size", "jax_cache_key:seq.static_size_new_each_call",
         """
         @partial(jax.jit, static_argnums=1)
         def step(key, n):
             return jax.random.normal(key, (n,))
         """, "noise = step(KEY, 4 + i)\n", "noise = step(KEY, 4)\n"),
    _jax("static_new_lambda", "jax_cache_key:static.new_lambda",
         """
         @partial(jax.jit, static_argnums=1)
         def step(x, act):
             return act(x) * 2.0
         """, "out = step(X, lambda v: jnp.tanh(v))\n", "out = step(X, jnp.tanh)\n"),
    _jax("static_new_partial", "jax_cache_key:static.new_partial",
         """
         def scaled(v, k):
             return v * k


         @partial(jax.jit, static_argnums=1)
         def step(x, act):
             return act(x) + 1.0
         """, "out = step(X, partial(scaled, k=2.0))\n", "out = step(X, act)\n",
         neg_setup="act = partial(scaled, k=2.0)\n"),
    _jax("static_new_plain_object", "jax_cache_key:static.new_plain_object", CONFIG + textwrap.dedent("""

         @partial(jax.jit, static_argnums=1)
         def step(x, cfg):
             return x * cfg.scale
         """), "out = step(X, Config())\n", "out = step(X, cfg)\n", neg_setup="cfg = Config()\n"),
    # the same object made by a builder of this file (`cfg = make_config()` per step; retrace25)
    _jax("static_new_object_from_builder", "jax_cache_key:static.new_plain_object", CONFIG + textwrap.dedent("""

         def make_config():
             cfg = Config()
             cfg.scale = 3.0
             return cfg


         @partial(jax.jit, static_argnums=1)
         def step(x, cfg):
             return x * cfg.scale
         """), "cfg = make_config()\nout = step(X, cfg)\n", "out = step(X, cfg)\n",
         neg_setup="cfg = make_config()\n"),
    # an optax-style NamedTuple of closures a builder of this file makes per call (retrace25)
    _jax("static_namedtuple_of_new_closures", "jax_cache_key:static.namedtuple_of_new_closures", """
         from typing import Callable, NamedTuple


         class Transform(NamedTuple):
             update: Callable


         def momentum(lr):
             def update_fn(g):
                 return -lr * g
             return Transform(update_fn)


         @partial(jax.jit, static_argnums=1)
         def step(x, opt):
             return x + opt.update(x)
         """, "opt = momentum(0.1)\nout = step(X, opt)\n", "out = step(X, opt)\n",
         neg_setup="opt = momentum(0.1)\n"),
    # ---------------- JAX: shapes and pytree structure of traced arguments ----------------
    _jax("shape_length_per_step", "jax_cache_key:shape.new_length,seq.batch_length_per_batch",
         """
         @jax.jit
         def step(x):
             return jnp.sum(jnp.tanh(x))
         """, "out = step(jnp.ones((2, 3 + i)))\n", "out = step(jnp.ones((2, 4)) * i)\n"),
    _jax("array_of_growing_list", "jax_cache_key:shape.jnp_array_of_list_new_length",
         """
         @jax.jit
         def step(h):
             return jnp.mean(h)
         """, "history.append(float(i))\nout = step(jnp.array(history))\n",
         "history.append(float(i))\nout = step(jnp.array(history[-1:]))\n", setup="history = []\n"),
    _jax("list_argument_grows", "jax_cache_key:pytree.list_new_length",
         """
         @jax.jit
         def step(feats):
             return sum(jnp.sum(f) for f in feats)
         """, "feats.append(X * i)\nout = step(feats)\n", "out = step([X * i, X])\n", setup="feats = []\n"),
    _jax("dict_argument_new_key", "jax_cache_key:pytree.dict_new_key",
         """
         @jax.jit
         def step(batch):
             return sum(jnp.sum(v) for v in batch.values())
         """, "batch = {'x': X}\nif i > 0:\n    batch['mask'] = X > 0.2\nout = step(batch)\n",
         "batch = {'x': X, 'mask': X > 0.2 * i}\nout = step(batch)\n"),
    _jax("none_then_array_fed_back", "jax_cache_key:pytree.none_then_array,seq.optional_none_then_array",
         """
         @jax.jit
         def step(x, prev):
             return x if prev is None else x + prev
         """, "prev = step(X, prev)\n", "prev = step(X, prev)\n", setup="prev = None\n",
         neg_setup="prev = jnp.zeros_like(X)\n", carry="prev"),
    _jax("growing_carry", "jax_cache_key:seq.growing_carry",
         """
         @jax.jit
         def step(x):
             return jnp.concatenate([x, x[:1] * 0.5])
         """, "out = step(out)\n", "out = step(out)[:2]\n", setup="out = X\n", carry="out"),
    _jax("last_partial_batch", "jax_cache_key:seq.last_partial_batch",
         """
         DATA = jnp.ones((10, 3))


         @jax.jit
         def step(x):
             return jnp.mean(x)
         """, "out = step(DATA[4 * i:4 * i + 4])\n", "out = step(DATA[3 * i:3 * i + 3])\n"),
    # ---------------- JAX: a new function object per call (jax_cache_key wrap.*, seq.jit_of_*) ------------
    _jax("jit_new_lambda_per_step", "jax_cache_key:wrap.new_lambda,seq.jit_lambda_in_function_called_in_loop",
         BODY, "out = jax.jit(lambda v: body(v))(X)\n", "out = fast(X)\n", target="body",
         neg_setup="fast = jax.jit(lambda v: body(v))\n"),
    _jax("jit_new_partial_per_step", "jax_cache_key:wrap.new_partial,seq.jit_of_new_partial_per_call",
         """
         def body(v, k):
             return jnp.tanh(v) * k
         """, "out = jax.jit(partial(body, k=2.0))(X)\n", "out = fast(X)\n", target="body",
         neg_setup="fast = jax.jit(partial(body, k=2.0))\n"),
    _jax("jit_new_local_def_per_step", "jax_cache_key:wrap.new_local_def",
         BODY, "def local(v):\n    return body(v) + 1.0\nout = jax.jit(local)(X)\n", "out = fast(X)\n",
         target="body", neg_setup="def local(v):\n    return body(v) + 1.0\nfast = jax.jit(local)\n"),
    _jax("jit_of_grad_per_step", "jax_cache_key:seq.jit_of_new_grad_per_call",
         LOSS, "g = jax.jit(jax.grad(loss))(1.0 + i)\n", "g = grad_fn(1.0 + i)\n", target="loss",
         neg_setup="grad_fn = jax.jit(jax.grad(loss))\n"),
    _jax("jit_of_value_and_grad_per_step", "jax_cache_key:seq.jit_of_new_value_and_grad_per_call",
         LOSS, "v, g = jax.jit(jax.value_and_grad(loss))(1.0 + i)\n", "v, g = vg_fn(1.0 + i)\n", target="loss",
         neg_setup="vg_fn = jax.jit(jax.value_and_grad(loss))\n"),
    _jax("jit_bound_method_per_step", "jax_cache_key:wrap.bound_method_new_instance,wrap.bound_method_same_instance",
         """
         class Model:
             def __init__(self):
                 self.scale = 2.0

             def apply(self, v):
                 return jnp.tanh(v) * self.scale
         """, "out = jax.jit(model.apply)(X)\n", "out = apply_fn(X)\n", target="apply",
         setup="model = Model()\n", neg_setup="model = Model()\napply_fn = jax.jit(model.apply)\n"),
    # ---------------- JAX: weak types (jax_weak_types, jax_cache_key weak.*) ----------------
    _jax("weak_int_then_float", "jax_cache_key:weak.python_int_then_python_float",
         """
         @jax.jit
         def step(x, scale):
             return x * scale
         """, "out = step(X, scale)\nscale = scale * 0.5\n", "out = step(X, scale)\nscale = scale * 0.5\n",
         setup="scale = 1\n", neg_setup="scale = 1.0\n", carry="scale"),
    _jax("weak_float_then_float32", "jax_cache_key:weak.python_float_then_float32_scalar",
         """
         @jax.jit
         def step(x, lr):
             return x - lr * x
         """, "out = step(X, lr)\nlr = jnp.float32(lr * 0.9)\n", "out = step(X, lr)\nlr = jnp.float32(lr * 0.9)\n",
         setup="lr = 0.1\n", neg_setup="lr = jnp.float32(0.1)\n", carry="lr"),
    _jax("weak_float_then_numpy_float32", "jax_cache_key:weak.python_float_then_numpy_float32",
         """
         @jax.jit
         def step(x, lr):
             return x - lr * x
         """, "out = step(X, lr)\nlr = np.float32(lr * 0.9)\n", "out = step(X, lr)\nlr = np.float32(lr * 0.9)\n",
         setup="lr = 0.1\n", neg_setup="lr = np.float32(0.1)\n", carry="lr"),
    # ---------------- JAX: pytree aux data (jax_cache_key pytree.aux_data_*; retrace27) ----------------
    # near miss: the same aux value every step (pytree.aux_data_float_same_value: no trace, no compile)
    _jax("pytree_aux_float_per_step", "jax_cache_key:pytree.aux_data_float_new_value,seq.aux_data_float_new_each_call",
         """
         @jax.tree_util.register_pytree_node_class
         class Scaled:
             def __init__(self, w, scale):
                 self.w = w
                 self.scale = scale

             def tree_flatten(self):
                 return (self.w,), (self.scale,)

             @classmethod
             def tree_unflatten(cls, aux, children):
                 return cls(children[0], *aux)


         @jax.jit
         def step(t):
             return jnp.sum(t.w) * t.scale
         """, "out = step(Scaled(X, 0.1 / (i + 1)))\n", "out = step(Scaled(X, 0.1))\n"),
    _jax("pytree_meta_field_float_per_step", "jax_cache_key:pytree.dataclass_meta_field_float_new_value",
         """
         import dataclasses


         @partial(jax.tree_util.register_dataclass, data_fields=["w"], meta_fields=["scale"])
         @dataclasses.dataclass
         class Scaled:
             w: jax.Array
             scale: float


         @jax.jit
         def step(t):
             return jnp.sum(t.w) * t.scale
         """, "out = step(Scaled(X, 0.1 / (i + 1)))\n", "out = step(Scaled(X, 0.1))\n"),
    # ---------------- JAX: eager lax control flow with a body made per call (jax_cache_key eager.*; retrace26) ----
    # near miss: the same function under jax.jit, where the new body is traced with it once
    # (the near miss: eager.while_loop_new_body_under_jit, one trace and one compile)
    _jax("eager_while_loop_new_body", "jax_cache_key:eager.while_loop_new_body_per_call", """
         def solve(x, k):
             def body(s):
                 return (s[0] * k, s[1] + 1)
             return jax.lax.while_loop(lambda s: s[1] < 3, body, (x, 0))[0]
         """, "out = solve(X, 0.5 + 0.1 * i)\n", "out = fast(X, 0.5 + 0.1 * i)\n", target="body",
         neg_setup="fast = jax.jit(solve)\n"),
    _jax("eager_scan_new_body", "jax_cache_key:eager.scan_new_body_per_call", """
         def smooth(x, k):
             def body(c, row):
                 return c * k + row, c
             return jax.lax.scan(body, x[0], x)[0]
         """, "out = smooth(X, 0.5 + 0.1 * i)\n", "out = fast(X, 0.5 + 0.1 * i)\n", target="body",
         neg_setup="fast = jax.jit(smooth)\n"),
    _jax("eager_fori_loop_new_body", "jax_cache_key:eager.fori_loop_new_body_per_call", """
         def decay(x, k):
             def body(j, v):
                 return v * k
             return jax.lax.fori_loop(0, 3, body, x)
         """, "out = decay(X, 0.5 + 0.1 * i)\n", "out = fast(X, 0.5 + 0.1 * i)\n", target="body",
         neg_setup="fast = jax.jit(decay)\n"),
    _jax("eager_cond_new_branch", "jax_cache_key:eager.cond_new_body_per_call", """
         def gate(x, k):
             def body(v):
                 return v * k
             return jax.lax.cond(x[0, 0] >= 0, body, jnp.negative, x)
         """, "out = gate(X, 0.5 + 0.1 * i)\n", "out = fast(X, 0.5 + 0.1 * i)\n", target="body",
         neg_setup="fast = jax.jit(gate)\n"),
    # ---------------- TF (tf_retrace.json rows) ----------------
    _tf("python_float_per_step", "tf_retrace:python_float_value_changes",
        """
        @tf.function(jit_compile=True)
        def step(x, lr):
            return x - lr * x
        """, "out = step(X, 0.1 / (i + 1))\n", "out = step(X, tf.constant(0.1 / (i + 1)))\n"),
    _tf("python_int_per_step", "tf_retrace:python_int_value_changes",
        """
        @tf.function(jit_compile=True)
        def step(x, t):
            return x * tf.cast(t, tf.float32)
        """, "out = step(X, i)\n", "out = step(X, tf.constant(i))\n"),
    _tf("python_bool_per_step", "tf_retrace:python_bool_changes",
        """
        @tf.function(jit_compile=True)
        def step(x, training):
            return x * 0.5 if training else x
        """, "out = step(X, i % 2 == 0)\n", "out = step(X, True)\n"),
    _tf("python_str_per_step", "tf_retrace:python_str_changes",
        """
        MODES = ("relu", "gelu", "tanh")


        @tf.function(jit_compile=True)
        def step(x, mode):
            return tf.nn.relu(x) if mode == "relu" else tf.tanh(x)
        """, "out = step(X, MODES[i % 3])\n", "out = step(X, MODES[0])\n"),
    _tf("numpy_random_draw_per_step", "tf_retrace:numpy_random_draw_each_call",
        """
        @tf.function(jit_compile=True)
        def step(x, lam):
            return lam * x + (1.0 - lam) * x[::-1]
        """, "lam = np.random.beta(0.2, 0.2)\nout = step(X, lam)\n",
        "lam = np.random.beta(0.2, 0.2)\nout = step(X, tf.constant(lam, tf.float32))\n"),
    _tf("reduce_retracing_python_float", "tf_retrace:python_float_value_changes_reduce_retracing",
        """
        @tf.function(reduce_retracing=True)
        def step(x, lr):
            return x - lr * x
        """, "out = step(X, 0.1 * (i + 1))\n", "out = step(X, tf.constant(0.1 * (i + 1)))\n"),
    _tf("tensor_shape_per_step", "tf_retrace:tensor_shape_changes",
        """
        @tf.function(jit_compile=True)
        def step(x):
            return tf.reduce_sum(tf.tanh(x))
        """, "out = step(tf.ones((i + 2, 3)))\n", "out = step(tf.ones((4, 3)) * i)\n"),
    _tf("list_of_tensors_grows", "tf_retrace:list_of_tensors_length_changes",
        """
        @tf.function(jit_compile=True)
        def step(feats):
            return tf.add_n(feats)
        """, "feats.append(X * i)\nout = step(feats)\n", "out = step([X * i, X])\n", setup="feats = []\n"),
    _tf("dict_of_tensors_new_key", "tf_retrace:dict_of_tensors_keys_change",
        """
        @tf.function(jit_compile=True)
        def step(batch):
            return tf.add_n(list(batch.values()))
        """, "batch = {'x': X}\nif i > 0:\n    batch['y'] = X\nout = step(batch)\n",
        "batch = {'x': X, 'y': X * i}\nout = step(batch)\n"),
    _tf("list_of_python_floats_per_step", "tf_retrace:list_of_python_floats_values_change",
        """
        @tf.function(jit_compile=True)
        def step(x, weights):
            return x * weights[0] + weights[1]
        """, "out = step(X, [0.1 * i, 0.5])\n", "out = step(X, [0.1, 0.5])\n"),
    _tf("none_then_tensor_fed_back", "tf_retrace:none_vs_tensor",
        """
        @tf.function(jit_compile=True)
        def step(x, prev):
            return x if prev is None else x + prev
        """, "prev = step(X, prev)\n", "prev = step(X, prev)\n", setup="prev = None\n",
        neg_setup="prev = tf.zeros_like(X)\n", carry="prev"),
    _tf("new_plain_object_per_step", "tf_retrace:new_plain_object_each_call",
        """
        class Config:
            def __init__(self):
                self.scale = 2.0


        @tf.function(jit_compile=True)
        def step(x, cfg):
            return x * cfg.scale
        """, "out = step(X, Config())\n", "out = step(X, cfg)\n", neg_setup="cfg = Config()\n"),
    _tf("method_on_new_instance", "tf_retrace:method_on_new_instance",
        """
        class Model:
            def __init__(self):
                self.scale = 2.0

            @tf.function(jit_compile=True)
            def step(self, x):
                return x * self.scale
        """, "model = Model()\nout = model.step(X)\n", "out = model.step(X)\n",
        neg_setup="model = Model()\n"),
    _tf("function_created_per_step", "tf_retrace:function_created_per_call",
        """
        def body(x):
            return tf.tanh(x) * 2.0
        """, "out = tf.function(body, jit_compile=True)(X)\n", "out = fast(X)\n", target="body",
        neg_setup="fast = tf.function(body, jit_compile=True)\n"),
    _tf("keras_model_rebuilt_per_step", "tf_retrace:new_plain_object_each_call",
        """
        def build():
            return tf.keras.Sequential([tf.keras.layers.Dense(2)])


        @tf.function
        def step(model, x):
            return model(x)
        """, "model = build()\nmodel(X)\nout = step(model, X)\n", "out = step(model, X)\n",
        neg_setup="model = build()\nmodel(X)\n"),
    # a builder of this file that returns a new plain object per call (retrace25)
    _tf("new_object_from_builder", "tf_retrace:new_plain_object_each_call", CONFIG + textwrap.dedent("""

        def make_config():
            cfg = Config()
            cfg.scale = 3.0
            return cfg


        @tf.function(jit_compile=True)
        def step(x, cfg):
            return x * cfg.scale
        """), "cfg = make_config()\nout = step(X, cfg)\n", "out = step(X, cfg)\n",
        neg_setup="cfg = make_config()\n"),
    _tf("dataset_partial_batch_epochs", "tf_retrace:dataset_partial_batch_epochs",
        """
        @tf.function(jit_compile=True)
        def step(x):
            return tf.reduce_mean(x)
        """, "for batch in ds:\n    out = step(batch)\n", "for batch in ds:\n    out = step(batch)\n",
        setup="ds = tf.data.Dataset.from_tensor_slices(ROWS).batch(4)\n",
        neg_setup="ds = tf.data.Dataset.from_tensor_slices(ROWS).batch(4, drop_remainder=True)\n", steps=2),
    _tf("stepped_windows_last_shorter", "tf_retrace:stepped_windows_last_shorter",
        """
        @tf.function(jit_compile=True)
        def step(x):
            return tf.reduce_mean(x)
        """, "out = step(ROWS[4 * i:4 * i + 4])\n", "out = step(ROWS[3 * i:3 * i + 3])\n"),
    # ---------------- TF: XLA compiles without a new trace (counted in compiles; retrace26) ----------------
    # an input_signature with a None dim traces once, and jit_compile compiles once per new shape
    _tf("signature_none_dim_shape_per_step", "tf_retrace:tensor_shape_changes_input_signature_none",
        """
        @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def step(x):
            return tf.reduce_sum(tf.tanh(x))
        """, "out = step(tf.ones((i + 2, 3)))\n", "out = step(tf.ones((4, 3)) * i)\n",
        count="compiles"),
    _tf("signature_none_sequence_dim_per_step", "tf_retrace:sequence_dim_changes_input_signature_none",
        """
        @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([2, None], tf.float32)])
        def step(x):
            return tf.reduce_sum(tf.tanh(x), axis=1)
        """, "out = step(tf.ones((2, 3 + 2 * i)))\n", "out = step(tf.ones((2, 5)) * (0.1 * i))\n",
        count="compiles"),
    _tf("dataset_partial_batch_signature", "tf_retrace:dataset_partial_batch_epochs_input_signature",
        """
        @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def step(x):
            return tf.reduce_mean(x)
        """, "for batch in ds:\n    out = step(batch)\n", "for batch in ds:\n    out = step(batch)\n",
        setup="ds = tf.data.Dataset.from_tensor_slices(ROWS).batch(4)\n",
        neg_setup="ds = tf.data.Dataset.from_tensor_slices(ROWS).batch(4, drop_remainder=True)\n", steps=2,
        count="compiles"),
    # Keras fit under jit_compile: train_function traces once, XLA compiles the last, smaller batch again
    _tf("keras_fit_partial_last_batch", "tf_retrace:keras_fit_partial_last_batch", KERAS_JIT,
        "model.fit(ROWS, TARGETS, batch_size=4, epochs=1, verbose=0, shuffle=False)\n",
        "model.fit(ROWS[:8], TARGETS[:8], batch_size=4, epochs=1, verbose=0, shuffle=False)\n",
        setup="model = build()\n", steps=2, count="compiles", target="build"),
    _tf("keras_fit_dataset_partial_batch", "tf_retrace:keras_fit_dataset_partial_batch", KERAS_JIT,
        "model.fit(ds, epochs=1, verbose=0)\n", "model.fit(ds, epochs=1, verbose=0)\n",
        setup="model = build()\nds = tf.data.Dataset.from_tensor_slices((ROWS, TARGETS)).batch(4)\n",
        neg_setup="model = build()\n"
                  "ds = tf.data.Dataset.from_tensor_slices((ROWS, TARGETS)).batch(4, drop_remainder=True)\n",
        steps=2, count="compiles", target="build"),
)


def _indent(text: str, n: int) -> str:
    return textwrap.indent(text, " " * n)


def generate(fact: Fact, site: str, near_miss: bool) -> str:
    """The file for one (fact, site, positive|near miss)."""
    head = JAX_HEAD if fact.framework == "jax" else TF_HEAD
    module = (fact.neg_module or fact.module) if near_miss else fact.module
    body = fact.neg if near_miss else fact.pos
    setup = (fact.neg_setup or fact.setup) if near_miss else fact.setup
    parts = [head, "\n", module.strip("\n"), "\n"]
    if site == "loop":
        parts.append(f"\n\ndef train(steps={fact.steps}):\n")
        parts.append(_indent(setup, 4))
        parts.append("    for i in range(steps):\n")
        parts.append(_indent(body, 8))
    else:  # helper: the varying call inside a function called once per step
        if setup:
            parts.append("\n\n" + setup)
        parts.append("\n\ndef run_step(i):\n")
        parts.append(_indent(body, 4))
        parts.append(f"\n\ndef train(steps={fact.steps}):\n")
        parts.append("    for i in range(steps):\n")
        parts.append("        run_step(i)\n")
    parts.append('\n\nif __name__ == "__main__":\n    train()\n')
    return "".join(parts)


def cells(facts: tuple[Fact, ...]) -> list[dict]:
    out = []
    for fact in facts:
        for site in ("loop", "helper"):
            if site == "helper" and fact.carry:
                continue
            for near in (False, True):
                out.append({"id": f"{fact.framework}/{fact.name}/{site}/{'neg' if near else 'pos'}",
                            "fact": fact.name, "framework": fact.framework, "site": site, "near_miss": near,
                            "target": fact.target, "source": generate(fact, site, near)})
    return out


def instrument(source: str, target: str) -> str:
    """The source with ``_RC_TRACES.append(1)`` first in every function named ``target``."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == target:
            node.body.insert(0, ast.parse(f"{COUNTER}.append(1)").body[0])
    return ast.unparse(ast.fix_missing_locations(tree))


def _compile_counter(framework: str):  # noqa: ANN202 - a zero-argument counter
    """A function giving the XLA compilations made so far in this process.

    TF: one ``*.before_optimizations.txt`` per compilation in the ``--xla_dump_to`` folder that
    :func:`measure` sets (as ``tools/generate_tf_retrace_table.py`` counts them: a plain
    ``tf.function`` dumps nothing, a ``jit_compile`` one with an ``input_signature`` of ``None`` dims
    dumps one per new shape while it traces once). JAX: the ``jax.monitoring`` event
    ``/jax/core/compile/backend_compile_duration`` (as ``tools/generate_jax_cache_table.py``)."""
    if framework == "tf":
        dump = os.environ.get("_RC_XLA_DUMP", "")
        return lambda: sum(1 for f in os.listdir(dump) if f.endswith(".before_optimizations.txt")) if dump else 0
    from jax import monitoring

    seen = [0]

    def listener(event: str, duration_secs: float, **_: object) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            seen[0] += 1

    monitoring.register_event_duration_secs_listener(listener)
    return lambda: seen[0]


def _run_compiler_child(framework: str) -> int:
    """Child mode: read cells (JSON) on stdin, run each file's ``train()``, print
    {"traces": {id: traces | error}, "compiles": {id: XLA compilations}}."""
    cases = json.loads(sys.stdin.read())
    compiles = _compile_counter(framework)
    result: dict[str, object] = {}
    compiled: dict[str, int] = {}
    for case in cases:
        traces: list[int] = []
        # a real module in sys.modules, so a generated dataclass finds its module's namespace
        module = types.ModuleType("retrace_coverage_case")
        sys.modules[module.__name__] = module
        env = module.__dict__
        env[COUNTER] = traces
        before = compiles()
        try:
            exec(compile(instrument(case["source"], case["target"]), case["id"], "exec"), env)  # noqa: S102
            env["train"]()
            result[case["id"]] = len(traces)
        except Exception as exc:  # noqa: BLE001 - a broken generated file is reported, not fatal
            result[case["id"]] = f"{type(exc).__name__}: {exc}"[:300]
        compiled[case["id"]] = compiles() - before
    print(json.dumps({"traces": result, "compiles": compiled}))
    return 0


def measure(cases: list[dict], framework: str, timeout: int = 900) -> tuple[dict[str, object], dict[str, int]]:
    """Trace counts and XLA compile counts of ``cases`` (one framework) measured in a child process."""
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3", JAX_PLATFORMS="cpu",
               CUDA_VISIBLE_DEVICES="")
    with tempfile.TemporaryDirectory(prefix="retrace_coverage_dump_") as dump:
        if framework == "tf":
            env["XLA_FLAGS"] = f"{env.get('XLA_FLAGS', '')} --xla_dump_to={dump} --xla_dump_hlo_as_text".strip()
            env["_RC_XLA_DUMP"] = dump
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--run-compiler", framework],
                              input=json.dumps(cases), capture_output=True, text=True, env=env, timeout=timeout)
    if proc.returncode != 0:
        raise SystemExit(f"compiler run failed ({framework}):\n{proc.stderr[-3000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return out["traces"], out["compiles"]


def lint(source: str, preview: bool, declare: bool) -> list[str]:
    name = "case_" + hashlib.sha1(source.encode()).hexdigest()[:10] + ".py"
    result = check_source(source, name, preview=preview, jit_compiled=declare)
    return [f"{d.line}:{d.code}" for d in result.diagnostics]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--framework", choices=["jax", "tf"], action="append")
    ap.add_argument("--fact", action="append", help="only this fact (repeatable)")
    ap.add_argument("--preview", action="store_true")
    ap.add_argument("--no-declare", action="store_true", help="lint without the jit-compiled declaration")
    ap.add_argument("--list", action="store_true", help="list missed files and false flags")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--write", type=Path, help="write the generated files to this folder and exit")
    ap.add_argument("--run-compiler", choices=["jax", "tf"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.run_compiler:
        return _run_compiler_child(args.run_compiler)
    facts = tuple(f for f in FACTS if (not args.framework or f.framework in args.framework)
                  and (not args.fact or f.name in args.fact))
    all_cells = cells(facts)
    if args.write:
        args.write.mkdir(parents=True, exist_ok=True)
        for c in all_cells:
            (args.write / (c["id"].replace("/", "__") + ".py")).write_text(c["source"], encoding="utf-8")
        print(f"wrote {len(all_cells)} files to {args.write}")
        return 0
    traces: dict[str, object] = {}
    compiles: dict[str, int] = {}
    for fw in sorted({c["framework"] for c in all_cells}):
        fw_traces, fw_compiles = measure([c for c in all_cells if c["framework"] == fw], fw)
        traces.update(fw_traces)
        compiles.update(fw_compiles)
    rows = []
    for fact in facts:
        row = {"fact": fact.name, "framework": fact.framework, "table": fact.table, "generated": 0,
               "flagged": 0, "missed": [], "near_misses": 0, "false_flags": [], "disagreed": [], "codes": set()}
        for c in (c for c in all_cells if c["fact"] == fact.name):
            n = traces[c["id"]]
            if fact.count == "compiles" and isinstance(n, int):
                n = compiles[c["id"]]
            found = lint(c["source"], args.preview, not args.no_declare)
            expected = 1 if c["near_miss"] else 2
            if not isinstance(n, int) or (n < 2 if expected == 2 else n != 1):
                row["disagreed"].append(f"{c['id']} {fact.count}={n}")
                continue
            if c["near_miss"]:
                row["near_misses"] += 1
                if found:
                    row["false_flags"].append(f"{c['id']} {found}")
            else:
                row["generated"] += 1
                if found:
                    row["flagged"] += 1
                    row["codes"].update(f.split(":")[1] for f in found)
                else:
                    row["missed"].append(c["id"])
        row["codes"] = sorted(row["codes"])
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    cmd = "python benchmarks/retrace_coverage.py" + (" --preview" if args.preview else "") + (
        " --no-declare" if args.no_declare else "")
    print(f"# {cmd}")
    print(f"{'fw':5} {'fact':34} {'gen':>4} {'flag':>5} {'miss':>5} {'near':>5} {'false':>6}  codes"
          "  (b: bounded, a fixed number of extra traces)")
    tot = [0, 0, 0, 0, 0]
    for r in rows:
        vals = [r["generated"], r["flagged"], len(r["missed"]), r["near_misses"], len(r["false_flags"])]
        tot = [a + b for a, b in zip(tot, vals)]
        mark = " b" if r["fact"] in BOUNDED else ""
        counts = "".join(f"{v:>{w}}" for v, w in zip(vals, (5, 6, 6, 6, 7)))
        print(f"{r['framework']:5} {r['fact'] + mark:34}{counts}  {','.join(r['codes'])}")
    for fw in ("jax", "tf"):
        sub = [r for r in rows if r["framework"] == fw]
        if sub:
            g = sum(r["generated"] for r in sub)
            f = sum(r["flagged"] for r in sub)
            n = sum(r["near_misses"] for r in sub)
            ff = sum(len(r["false_flags"]) for r in sub)
            ub = [r for r in sub if r["fact"] not in BOUNDED]
            ug, uf = sum(r["generated"] for r in ub), sum(r["flagged"] for r in ub)
            print(f"{fw}: facts {len(sub)}, retracing files {g}, flagged {f} ({f / g if g else 0:.3f}); "
                  f"unbounded facts: {uf}/{ug}; near misses {n}, false flags {ff}")
    disagreed = [d for r in rows for d in r["disagreed"]]
    if disagreed:
        print("compiler disagreed (left out):")
        for d in disagreed:
            print("  " + d)
    if args.list:
        for r in rows:
            for m in r["missed"]:
                print("MISSED " + m)
            for m in r["false_flags"]:
                print("FALSE  " + m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
