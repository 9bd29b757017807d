"""Source: https://github.com/tensorflow/tensorflow/issues/52905 (near miss from the report: the same tf.repeat works under jit_compile when repeats is a Python list)."""
import tensorflow as tf

REPEATS = [3, 1, 2]


@tf.function(jit_compile=True)
def oversample(features):
    expanded = tf.repeat(features, REPEATS, axis=0)
    return tf.reduce_mean(expanded, axis=0)


# --- oracle ---
def ENTRY():
    features = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return oversample, (features,)
