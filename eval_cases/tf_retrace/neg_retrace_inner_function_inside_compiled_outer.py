"""A helper builds a jit tf.function per call, but it is only ever called inside a compiled outer step.

Near miss from the issue-10 audit (tensorflow/models official/core/base_trainer.py, judged a
false XLA404 finding: "step_fn only runs inside orbit's tf.function train loop via
strategy.run: the inner jit tf.function is traced once per outer trace, not per step").
"""
import tensorflow as tf


def _scaled_loss(x):
    return tf.reduce_sum(x * x)


def step_fn(x):
    fast = tf.function(_scaled_loss, jit_compile=True)
    return fast(x)


@tf.function(jit_compile=True)
def train_loop(x):
    return step_fn(x) + 1.0


# --- oracle ---
WRAP = False


def ENTRY():
    return train_loop, (tf.constant([1.0, 2.0]),)


def ALT_ARGS():
    return [(tf.constant([3.0, 4.0]),), (tf.constant([0.0, 1.0]),)]
