"""Source: https://github.com/tensorflow/tensorflow/issues/47170 (TensorArray filled in a tf.while_loop with elements whose shape changes between iterations does not compile under XLA: every element must have the same static shape)."""
import tensorflow as tf


class PrefixPooling(tf.keras.layers.Layer):
    """Mean-pools every prefix of the sequence and concatenates the pooled prefixes."""

    def call(self, hidden):
        steps = tf.shape(hidden)[1]
        pooled = tf.TensorArray(tf.float32, size=steps, infer_shape=False, element_shape=tf.TensorShape(None))
        for t in tf.range(steps):
            prefix = hidden[:, : t + 1, :]
            pooled = pooled.write(t, tf.reshape(prefix, [-1]))  # XLA: shape
        return pooled.concat()


layer = PrefixPooling()


def summarize(hidden):
    return tf.reduce_sum(layer(hidden))


# --- oracle ---
def ENTRY():
    return summarize, (tf.reshape(tf.range(24, dtype=tf.float32), [2, 4, 3]) / 10.0,)
