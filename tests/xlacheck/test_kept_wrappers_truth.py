"""A comprehension that builds one jax.jit / tf.function per item and keeps the collection (stored on the
object or under a key, or returned) traces each entry once, on its first call; the same comprehension in a
function that rebuilds and drops the collection per call traces again on every call. Measured by counting
traces (a Python side effect runs once per trace) with jax.jit and tf.function (prec25; the fact behind
JaxMARL's `self.batch_samplers = {agent: jax.jit(jax.vmap(...)) for agent in self.agents}`, judged false
twice in batch 22). XLA404 reads it in ``_kept_per_item``.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from xlacheck.engine import check_source  # noqa: E402

JAX_KEPT = """\
import jax

TRACES = []


def make_scale(k):
    def scale(x):
        TRACES.append(k)
        return x * k
    return scale


class Sampler:
    def __init__(self, keys):
        self.fns = {k: jax.jit(jax.vmap(make_scale(k))) for k in keys}

    def sample(self, k, x):
        return self.fns[k](x)
"""

# the collection rebuilt and dropped on every call: each call traces again
JAX_DROPPED = JAX_KEPT.replace("""    def __init__(self, keys):
        self.fns = {k: jax.jit(jax.vmap(make_scale(k))) for k in keys}

    def sample(self, k, x):
        return self.fns[k](x)
""", """    def __init__(self, keys):
        self.keys = keys

    def sample(self, k, x):
        fns = {j: jax.jit(jax.vmap(make_scale(j))) for j in self.keys}
        return fns[k](x)
""")

TF_KEPT = """\
import tensorflow as tf

TRACES = []


def make_scale(k):
    def scale(x):
        TRACES.append(k)
        return x * k
    return scale


def build(keys):
    return [tf.function(make_scale(k), jit_compile=True) for k in keys]
"""


def _codes(src: str) -> list[str]:
    return [d.code for d in check_source(src, "model.py").diagnostics]


def _module(src: str) -> dict:
    namespace: dict = {}
    exec(compile(src, "model.py", "exec"), namespace)  # noqa: S102 - our own snippet
    return namespace


def test_jax_kept_per_item_traces_each_once() -> None:
    pytest.importorskip("jax")
    import numpy as np

    assert "XLA404" not in _codes(JAX_KEPT)
    ns = _module(JAX_KEPT)
    s = ns["Sampler"]((1.0, 2.0, 3.0))
    x = np.ones(3, np.float32)
    for _ in range(4):
        for k in (1.0, 2.0, 3.0):
            s.sample(k, x)
    assert sorted(ns["TRACES"]) == [1.0, 2.0, 3.0]  # one trace per entry, then the stored entry's cache


def test_jax_rebuilt_per_call_traces_every_call() -> None:
    pytest.importorskip("jax")
    import numpy as np

    assert "XLA404" in _codes(JAX_DROPPED)
    ns = _module(JAX_DROPPED)
    s = ns["Sampler"]((1.0, 2.0))
    x = np.ones(3, np.float32)
    for _ in range(3):
        s.sample(1.0, x)
    assert ns["TRACES"] == [1.0, 1.0, 1.0]  # a new function per call: its cache is empty each time


def test_tf_returned_list_traces_each_once() -> None:
    tf = pytest.importorskip("tensorflow")

    assert "XLA404" not in _codes(TF_KEPT)
    ns = _module(TF_KEPT)
    fns = ns["build"]((1.0, 2.0))
    x = tf.ones(3)
    for _ in range(3):
        for f in fns:
            f(x)
    assert sorted(ns["TRACES"]) == [1.0, 2.0]
