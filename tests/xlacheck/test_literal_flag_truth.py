"""A parameter that every compiled call site of a function sets to the same literal holds that value while the
function traces, so a branch on it takes one arm there and the other arm is never traced: checked against
jax.jit and tf.function(jit_compile=True) (prec25; the fact behind sofima's ``masked_xcorr(..., use_jax=True)``,
whose NumPy arm judged real code batch 24 flagged twice).

The model: :func:`xlacheck.analysis.contexts._mark_literal_params` sets ``const_params`` of a module-level
function traced only through direct calls of this file's compiled code (agreeing with callers in other files),
and the flow walker (``analysis.flow``) walks only the live arm of ``if flag:``. Near misses: a compiled caller
that passes the other literal, two compiled callers that disagree, a non-literal argument, a body that assigns
the parameter, or a function also handed to a compiler by name: the shut arm is traced there and the finding
stays. Each case is linted and run.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from xlacheck.engine import check_source  # noqa: E402

JAX_SRC = """\
import jax
import jax.numpy as jnp
import numpy as np


def masked_mean(x, mask, use_jax=False):
    if use_jax:
        total = jnp.where(mask, x, 0.0).sum()
    else:
        total = x[mask].sum()
    return total / mask.sum()


@jax.jit
def step(x):
    return masked_mean(x, x > 0, use_jax=True)


def host_stats(x):
    return masked_mean(np.asarray(x), np.asarray(x) > 0)
"""

TF_SRC = """\
import numpy as np
import tensorflow as tf


def distinct(x, use_xla=False):
    if use_xla:
        return tf.reduce_sum(tf.ones_like(x))
    return tf.constant(np.unique(x.numpy()).size, x.dtype)


@tf.function(jit_compile=True)
def step(x):
    return distinct(x, use_xla=True) * 2


def host_count(x):
    return distinct(x)
"""

# (name, edit of the source): the shut arm is traced, or may be
JAX_NEAR_MISSES = {
    "other_literal": ("use_jax=True)", "use_jax=False)"),
    "left_to_default": (", use_jax=True)", ")"),
    "not_a_literal": ("use_jax=True)", "use_jax=x.ndim == 0)"),
    "callers_disagree": ("\n\ndef host_stats", "\n\n@jax.jit\ndef other(x):\n    return masked_mean(x, x > 1)\n\n\n"
                                             "def host_stats"),
    "also_jitted_by_name": ("\n\ndef host_stats", "\n\nfast = jax.jit(masked_mean, static_argnames='use_jax')\n\n\n"
                                                "def host_stats"),
    # the body assigns the parameter: the literal the caller passed no longer decides the branch
    "rebound_in_body": ("    if use_jax:\n", "    use_jax = x.ndim > 5\n    if use_jax:\n"),
}


def _codes(src: str) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in check_source(src, "model.py").diagnostics]


def _module(src: str) -> dict:
    namespace: dict = {}
    exec(compile(src, "model.py", "exec"), namespace)  # noqa: S102 - our own snippet
    return namespace


def test_jax_literal_flag_shuts_the_numpy_arm() -> None:
    jax = pytest.importorskip("jax")
    import numpy as np

    assert _codes(JAX_SRC) == []
    ns = _module(JAX_SRC)
    x = np.array([1.0, -2.0, 3.0, 0.5], np.float32)
    # traced with use_jax=True: only the jnp.where arm is traced, and it agrees with the host path
    assert float(jax.block_until_ready(ns["step"](x))) == pytest.approx(float(ns["host_stats"](x)))


@pytest.mark.parametrize("name", sorted(JAX_NEAR_MISSES))
def test_jax_near_misses_keep_the_finding(name: str) -> None:
    jax = pytest.importorskip("jax")
    import numpy as np

    old, new = JAX_NEAR_MISSES[name]
    assert old in JAX_SRC
    src = JAX_SRC.replace(old, new)
    line = src.splitlines().index("        total = x[mask].sum()") + 1
    assert (line, "XLA207") in _codes(src), name
    ns = _module(src)
    x = np.array([1.0, -2.0, 3.0, 0.5], np.float32)
    with pytest.raises(jax.errors.NonConcreteBooleanIndexError):
        if name == "also_jitted_by_name":
            ns["fast"](x, x > 0)  # the function itself is the jit entry: `mask` is traced, the NumPy arm runs
        elif name == "callers_disagree":
            ns["other"](x)
        else:
            ns["step"](x)


def test_tf_literal_flag_shuts_the_eager_arm() -> None:
    tf = pytest.importorskip("tensorflow")

    assert _codes(TF_SRC) == []
    ns = _module(TF_SRC)
    x = tf.constant([1, 2, 2, 5])
    assert int(ns["step"](x)) == 8  # use_xla=True: the traced arm only, compiled by XLA
    assert int(ns["host_count"](x)) == 3  # eagerly the NumPy arm runs
    bad = TF_SRC.replace("use_xla=True)", "use_xla=False)")
    assert _codes(bad) == [(8, "XLA301")]
    with pytest.raises(AttributeError, match="numpy"):
        _module(bad)["step"](x)
