"""Source: https://github.com/tensorflow/tensorflow/issues/61856 (a model flattens with `tf.reshape(x, (n))`, where `(n)` is a plain int rather than a one-element tuple; eager accepts a rank-0 shape, the traced Reshape fails: "Shape must be rank 1 but is rank 0")."""
import tensorflow as tf


class SingleExampleScorer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv1D(2, 3, padding="same")
        self.score = tf.keras.layers.Dense(1)

    def call(self, signal):
        features = self.conv(signal[tf.newaxis, :, tf.newaxis])
        flat = tf.reshape(features, (16))  # XLA: shape
        return self.score(flat[tf.newaxis, :])


# --- oracle ---
_KEEP = []


def ENTRY():
    model = SingleExampleScorer()
    _KEEP.append(model)
    return model, (tf.linspace(0.0, 1.0, 8),)
