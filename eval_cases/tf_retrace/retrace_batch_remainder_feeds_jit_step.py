"""An epoch over `dataset.batch(4)`: when the data set size is not a multiple of 4 (10 examples
after 8), the last, partial batch is a new shape and compiles again.

Rebuilt from tensorflow/tensorflow#49151 (https://github.com/tensorflow/tensorflow/issues/49151):
"the reason for re-tracing might be ... variable batch size (last batch size might be smaller)".
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def batch_loss(x, y):
    return tf.reduce_mean(tf.square(x - y))


def epoch(features, targets):
    ds = tf.data.Dataset.from_tensor_slices((features, targets)).batch(4)  # XLA: retrace
    return [batch_loss(x, y) for x, y in ds]


# --- oracle ---
WRAP = False


def ENTRY():
    return epoch, (tf.range(8, dtype=tf.float32), tf.ones([8]))


def ALT_ARGS():
    return [(tf.range(10, dtype=tf.float32) * 2.0, tf.zeros([10]))]
