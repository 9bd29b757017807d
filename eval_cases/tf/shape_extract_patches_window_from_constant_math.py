"""Source: https://github.com/tensorflow/tensorflow/issues/108143 (a local-context layer computes the `tf.image.extract_patches` window as `tf.constant(window) * 2 + 1`; eager converts the scalar tensor to an int, the traced op needs Python ints for its ksizes attribute: "Expected int for argument 'ksizes'")."""
import tensorflow as tf


class LocalContext(tf.keras.layers.Layer):
    def __init__(self, window_size=1, **kwargs):
        super().__init__(**kwargs)
        self.window_size = window_size
        self.proj = tf.keras.layers.Dense(4)

    def call(self, x):
        width = tf.constant(self.window_size) * 2 + 1
        patches = tf.image.extract_patches(  # XLA: shape
            x, sizes=[1, width, 1, 1], strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="SAME")
        return self.proj(patches)


class Tagger(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.context = LocalContext(window_size=1)
        self.out = tf.keras.layers.Dense(3)

    def call(self, x):
        return self.out(self.context(x))


# --- oracle ---
_KEEP = []


def ENTRY():
    model = Tagger()
    _KEEP.append(model)
    x = tf.reshape(tf.range(2 * 5 * 1 * 2, dtype=tf.float32), [2, 5, 1, 2]) / 20.0
    return model, (x,)
