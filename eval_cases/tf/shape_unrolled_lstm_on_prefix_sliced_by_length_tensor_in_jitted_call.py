"""Source: https://github.com/tensorflow/tensorflow/issues/108094 ("XLA compilation fails with LSTM(unroll=True) when input sequence length is dynamically sliced": `x[:, :sequence_length - 1]` with a tensor length leaves the time dimension undefined, and the unrolled LSTM cannot be built under `jit_compile=True`, while eager execution works). Here a next-step forecaster that drops the last observed step with a length tensor before an unrolled LSTM, in a jit-compiled `call`."""
import tensorflow as tf


class Forecaster(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.lstm = tf.keras.layers.LSTM(8, unroll=True)
        self.head = tf.keras.layers.Dense(1)

    @tf.function(jit_compile=True)
    def call(self, series, sequence_length):
        history = series[:, :sequence_length - 1, :]
        return self.head(self.lstm(history))  # XLA: shape


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = Forecaster()
    _KEEP.append(m)
    series = tf.reshape(tf.range(2 * 6 * 3, dtype=tf.float32), [2, 6, 3]) / 36.0
    return m, (series, tf.constant(6))
