"""Source: https://github.com/tensorflow/tensorflow/issues/117917 (tf.while_loop with a TensorArray loop variable given the stacked output shape [None, None, 32] as shape invariant fails under jit_compile: the loop variable is the TensorArray handle, whose shape is scalar)."""
import tensorflow as tf


class RowEncoder(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.proj = tf.keras.layers.Dense(8)

    def call(self, x):
        n = tf.shape(x)[0]
        ta = tf.TensorArray(tf.float32, size=n)

        def body(i, ta):
            return i + 1, ta.write(i, self.proj(x[i:i + 1]))

        _, ta = tf.while_loop(lambda i, ta: i < n, body, (0, ta),
                              shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, None, 8])))  # XLA: shape
        return ta.stack()


encoder = RowEncoder()


def encode(x):
    return tf.reduce_sum(encoder(x), axis=[1, 2])


# --- oracle ---
def ENTRY():
    return encode, (tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 12.0,)
