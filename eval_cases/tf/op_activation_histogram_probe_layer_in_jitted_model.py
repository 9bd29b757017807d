"""Source: https://github.com/keras-team/keras/issues/21708 (a `HistogramProbe` identity layer that records a histogram of the activations passing through it breaks a model compiled with `jit_compile`: the TensorFlow histogram it builds cannot be compiled; with the TF backend, `tf.histogram_fixed_width` has no XLA kernel). Here a regressor with an activation-histogram probe between its layers, stored on a variable for monitoring."""
import tensorflow as tf


class HistogramProbe(tf.keras.layers.Layer):
    def __init__(self, bins=8, lo=0.0, hi=1.0, **kwargs):
        super().__init__(**kwargs)
        self.bins = bins
        self.value_range = [lo, hi]

    def build(self, input_shape):
        self.counts = self.add_weight(name="counts", shape=[self.bins], dtype=tf.int32, initializer="zeros", trainable=False)

    def call(self, x):
        flat = tf.reshape(x, [-1])
        self.counts.assign(tf.histogram_fixed_width(flat, self.value_range, nbins=self.bins))  # XLA: op
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
