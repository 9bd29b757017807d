"""The step counter passed as a NumPy scalar: traced as a tensor, so it does not retrace.

Near miss for tensorflow/tensorflow#46012-style retracing reports
(https://github.com/tensorflow/tensorflow/issues/46012); NumPy values are traced by dtype/shape.
"""
import numpy as np
import tensorflow as tf


@tf.function(jit_compile=True)
def decayed(x, step):
    return x * tf.pow(0.99, tf.cast(step, tf.float32))


def run(xs):
    return [decayed(x, np.int32(i)) for i, x in enumerate(xs)]


# --- oracle ---
WRAP = False


def ENTRY():
    return run, ([tf.ones([2]), tf.ones([2])],)


def ALT_ARGS():
    return [([tf.ones([2])] * 4,)]
