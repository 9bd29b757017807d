"""Source: https://github.com/tensorflow/tensorflow/issues/117318 ("`tf.nn.batch_normalization` returns wrong result under `jit_compile=True` for large-magnitude inputs": the op computes `x * inv + (-mean * inv)`, and with fused multiply-adds under XLA the large terms cancel catastrophically, so exact mean and variance no longer give zeros). Here a tabular model that standardizes raw Unix-timestamp and byte-count features with statistics precomputed on the training set, via `tf.nn.batch_normalization`, in a jit-compiled forward pass."""
import tensorflow as tf

FEATURE_MEAN = tf.constant([1.7e9, 3.0e8])
FEATURE_VAR = tf.constant([1.0e6, 4.0e4])


class EventScorer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(4, activation="relu")
        self.out = tf.keras.layers.Dense(1)

    def call(self, raw):
        x = tf.nn.batch_normalization(raw, FEATURE_MEAN, FEATURE_VAR, None, None, 1e-5)  # XLA: op
        return self.out(self.hidden(x))


scorer = EventScorer()


@tf.function(jit_compile=True)
def score(raw):
    return scorer(raw)


# --- oracle ---
WRAP = False


def ENTRY():
    raw = tf.constant([[1.7e9 + 512.0, 3.0e8 + 64.0], [1.7e9 - 1024.0, 3.0e8 - 32.0], [1.7e9, 3.0e8]])
    return score, (raw,)
