"""Source: https://github.com/tensorflow/tensorflow/issues/47170 (documented fix: give every TensorArray element the same static shape; here each prefix mean is written at a fixed shape, so XLA compiles the loop)."""
import tensorflow as tf


class PrefixPooling(tf.keras.layers.Layer):
    """Mean-pools every prefix of the sequence with a causal mask instead of slicing."""

    def call(self, hidden):
        steps = hidden.shape[1]
        pooled = tf.TensorArray(tf.float32, size=steps, element_shape=hidden.shape[:1] + hidden.shape[2:])
        positions = tf.range(steps)
        for t in tf.range(steps):
            mask = tf.cast(positions <= t, hidden.dtype)[None, :, None]
            prefix_mean = tf.reduce_sum(hidden * mask, axis=1) / tf.cast(t + 1, hidden.dtype)
            pooled = pooled.write(t, prefix_mean)
        return pooled.stack()


layer = PrefixPooling()


def summarize(hidden):
    return tf.reduce_sum(layer(hidden), axis=0)


# --- oracle ---
def ENTRY():
    return summarize, (tf.reshape(tf.range(24, dtype=tf.float32), [2, 4, 3]) / 10.0,)
