"""Source: https://github.com/tensorflow/tensorflow/issues/59474 ("Conditional padding issue with jit_compile=True": a layer pads its input only when the length is not a multiple of the window size, so the two branches of the condition produce different shapes)."""
import tensorflow as tf


class WindowPooling(tf.keras.layers.Layer):
    def __init__(self, window=4, **kwargs):
        super().__init__(**kwargs)
        self.window = window

    def call(self, x, lengths):
        length = tf.reduce_max(lengths)
        remainder = length % self.window
        if remainder > 0:  # XLA: shape
            x = tf.pad(x[:, :length], [[0, 0], [0, self.window - remainder], [0, 0]])
        else:
            x = x[:, :length]
        windows = tf.reshape(x, [tf.shape(x)[0], -1, self.window, x.shape[-1]])
        return tf.reduce_max(windows, axis=2)


layer = WindowPooling()


def pool(x, lengths):
    return tf.reduce_sum(layer(x, lengths), axis=1)


# --- oracle ---
def ENTRY():
    x = tf.reshape(tf.range(2 * 8 * 3, dtype=tf.float32), [2, 8, 3]) / 48.0
    return pool, (x, tf.constant([6, 5]))
