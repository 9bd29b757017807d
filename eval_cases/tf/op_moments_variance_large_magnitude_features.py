"""Source: https://github.com/tensorflow/tensorflow/issues/118179 (tf.nn.moments under jit_compile returns a large non-zero variance for identical large float32 values where eager returns 0: feature standardization of raw large-magnitude inputs (timestamps) diverges when compiled)."""
import tensorflow as tf


class Standardize(tf.keras.layers.Layer):
    def call(self, x):
        mean, var = tf.nn.moments(x, axes=[1], keepdims=True)  # XLA: op
        return (x - mean) * tf.math.rsqrt(var + 1.0)


layer = Standardize()


def standardized_timestamps(x):
    return layer(x)


# --- oracle ---
def ENTRY():
    return standardized_timestamps, (tf.constant([[7.5e10, 7.5e10, 7.5e10], [1.0, 2.0, 3.0]]),)
