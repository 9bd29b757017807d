"""Source: https://github.com/tensorflow/tensorflow/issues/117883 (near miss: the same per-row loop with the default shape invariants and a TensorArray sized by the batch)."""
import tensorflow as tf


class TestModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(8)

    def call(self, x):
        batch_size = tf.shape(x)[0]
        ta = tf.TensorArray(tf.float32, size=batch_size)

        def body(i, ta):
            return i + 1, ta.write(i, self.d1(x[i:i + 1, :])[0])

        _, ta = tf.while_loop(lambda i, ta: i < batch_size, body, [tf.constant(0), ta])
        return ta.stack()


# --- oracle ---
_KEEP = []


def ENTRY():
    m = TestModel()
    _KEEP.append(m)
    return m, (tf.reshape(tf.range(12, dtype=tf.float32) / 12.0, [3, 4]),)
