"""Source: https://github.com/keras-team/keras/issues/21708 (a near miss: the probe bins the activations itself, bucket ids clipped to the bin range and counted with a one-hot sum, which XLA compiles). Regressor with an activation-histogram probe between its layers."""
import tensorflow as tf


class HistogramProbe(tf.keras.layers.Layer):
    def __init__(self, bins=8, lo=0.0, hi=1.0, **kwargs):
        super().__init__(**kwargs)
        self.bins = bins
        self.lo = lo
        self.hi = hi

    def build(self, input_shape):
        self.counts = self.add_weight(name="counts", shape=[self.bins], dtype=tf.int32, initializer="zeros", trainable=False)

    def call(self, x):
        flat = tf.reshape(x, [-1])
        ids = tf.cast(tf.floor((flat - self.lo) / (self.hi - self.lo) * self.bins), tf.int32)
        ids = tf.clip_by_value(ids, 0, self.bins - 1)
        self.counts.assign(tf.reduce_sum(tf.one_hot(ids, self.bins, dtype=tf.int32), axis=0))
        return x


class ProbedRegressor(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(8, activation="sigmoid")
        self.probe = HistogramProbe()
        self.out = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.out(self.probe(self.hidden(x)))


# --- oracle ---
def ENTRY():
    model = ProbedRegressor()
    return model, (tf.reshape(tf.range(16, dtype=tf.float32), [4, 4]) / 16.0,)
