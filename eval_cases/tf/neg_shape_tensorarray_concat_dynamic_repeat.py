"""Source: https://github.com/tensorflow/tensorflow/issues/118384 (near miss, no longer reproduces on TF 2.21 XLA:CPU: jit_compile returned a wrong TensorArray.concat shape with a repeat count computed by tf.where)."""
import tensorflow as tf


def gather_hits(x):
    count = tf.size(tf.where(tf.equal(x, 1)))
    repeated = tf.repeat(x, count, axis=0)[:count]
    arr = tf.TensorArray(x.dtype, size=1, infer_shape=False)
    arr = arr.write(0, repeated[:, 0])
    return arr.concat()


# --- oracle ---
def ENTRY():
    return gather_hits, (tf.constant([[0, 1], [1, 0], [0, 1]]),)
