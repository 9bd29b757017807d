"""Source: https://github.com/tensorflow/tensorflow/issues/117644 (tf.random.stateless_uniform with a fixed Philox seed returns different values under jit_compile=True than eagerly: a seeded, reproducible dropout mask changes when the step is compiled)."""
import tensorflow as tf


class SeededDropout(tf.keras.layers.Layer):
    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, x, seed):
        keep = tf.random.stateless_uniform(tf.shape(x), seed=seed, alg="philox") >= self.rate  # XLA: op
        return tf.where(keep, x / (1.0 - self.rate), 0.0)


class Classifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(8, activation="relu")
        self.drop = SeededDropout(0.5)
        self.out = tf.keras.layers.Dense(2)

    def call(self, x, seed):
        return self.out(self.drop(self.hidden(x), seed))


model = Classifier()


def forward(x, seed):
    return model(x, seed)


# --- oracle ---
def ENTRY():
    return forward, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0, tf.constant([123, 456]))
