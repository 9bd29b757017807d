"""Source: https://github.com/tensorflow/tensorflow/issues/108094 ("XLA compilation fails with LSTM(unroll=True) when input sequence length is dynamically sliced"). The near miss: the history window is cut with the static time dimension of the input (`series.shape[1]`), so the unrolled LSTM sees a known number of steps under `jit_compile=True`."""
import tensorflow as tf


class Forecaster(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.lstm = tf.keras.layers.LSTM(8, unroll=True)
        self.head = tf.keras.layers.Dense(1)

    @tf.function(jit_compile=True)
    def call(self, series):
        history = series[:, :series.shape[1] - 1, :]
        return self.head(self.lstm(history))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = Forecaster()
    _KEEP.append(m)
    series = tf.reshape(tf.range(2 * 6 * 3, dtype=tf.float32), [2, 6, 3]) / 36.0
    return m, (series,)
