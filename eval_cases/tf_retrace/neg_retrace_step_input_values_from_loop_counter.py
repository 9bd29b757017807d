"""The loop counter goes into the values of a fixed-size NumPy batch, not its shape: one trace.

Near miss for tensorflow/tensorflow#34907 (https://github.com/tensorflow/tensorflow/issues/34907):
NumPy arrays are traced by shape and dtype, so `np.array([i, i + 1, i + 2])` (three values every
time) reuses the compiled step.
"""
import numpy as np
import tensorflow as tf

W = tf.constant([[0.5], [-0.25], [1.0]])


@tf.function(jit_compile=True)
def predict(x):
    return tf.matmul(x, W)


def sweep(n):
    outs = []
    for i in range(1, n + 1):
        outs.append(tf.reduce_sum(predict(np.array([[i, i + 1, i + 2]], np.float32))))
    return tf.stack(outs)


# --- oracle ---
WRAP = False


def ENTRY():
    return sweep, (2,)


def ALT_ARGS():
    return [(4,)]
