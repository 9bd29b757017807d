"""A jit-compiled step fed a NumPy batch whose size follows the loop counter.

Rebuilt from tensorflow/tensorflow#34907 (https://github.com/tensorflow/tensorflow/issues/34907):
`for i in range(1, 300): model.predict_on_batch(np.ones([i, 1]))` "is retraced all the time",
because every call has a new batch size. Here the compiled function is the file's own.
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
        outs.append(tf.reduce_sum(predict(np.ones([i, 3], np.float32))))  # XLA: retrace
    return tf.stack(outs)


# --- oracle ---
WRAP = False


def ENTRY():
    return sweep, (2,)


def ALT_ARGS():
    return [(4,)]
