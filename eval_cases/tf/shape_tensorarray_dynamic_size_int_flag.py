"""Source: https://github.com/tensorflow/tensorflow/issues/108087 (XLA compilation fails when TensorArray is created with dynamic_size=2, an int instead of a bool)."""
import tensorflow as tf


class TestModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(4)

    def call(self, x):
        ta = tf.TensorArray(dtype=tf.float32, size=0, dynamic_size=2, element_shape=x.shape[1:])  # XLA: shape
        seq_len = tf.shape(x)[0]

        def body(i, ta_acc):
            return i + 1, ta_acc.write(i, x[i])

        _, ta = tf.while_loop(lambda i, _: i < seq_len, body, (tf.constant(0), ta))
        return self.d1(ta.stack())


# --- oracle ---
_KEEP = []


def ENTRY():
    m = TestModel()
    _KEEP.append(m)
    return m, (tf.reshape(tf.range(12, dtype=tf.float32) / 12.0, [3, 4]),)
