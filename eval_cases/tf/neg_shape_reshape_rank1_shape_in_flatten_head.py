"""Source: https://github.com/tensorflow/tensorflow/issues/51241 (eager tf.reshape accepts a rank-0 shape that tf.function rejects; written with a rank-1 shape `(16,)`, the same flatten head compiles)."""
import tensorflow as tf


class SingleExampleScorer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv1D(2, 3, padding="same")
        self.score = tf.keras.layers.Dense(1)

    def call(self, signal):
        features = self.conv(signal[tf.newaxis, :, tf.newaxis])
        flat = tf.reshape(features, (16,))
        return self.score(flat[tf.newaxis, :])


# --- oracle ---
_KEEP = []


def ENTRY():
    model = SingleExampleScorer()
    _KEEP.append(model)
    return model, (tf.linspace(0.0, 1.0, 8),)
