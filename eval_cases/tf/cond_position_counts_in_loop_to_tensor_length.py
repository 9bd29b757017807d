"""Source: https://github.com/tensorflow/tensorflow/issues/34500 (a FizzBuzz-style counting loop `for i in range(n)` with Python `if` on `i % 6`, traced with a scalar tensor `n` and compiled with XLA; the maintainer notes XLA's static-shape requirement bites the vectorized `tf.range(n)` form. Here a positional-feature helper counts periodic positions up to a tensor sequence length inside the compiled model; the loop compiles only with the length's value folded in, `tf.range(n)` must be a compile-time constant)."""
import tensorflow as tf


def periodic_position_counts(n):
    every6 = 0
    every3 = 0
    every2 = 0
    for i in tf.range(n):  # XLA: cond
        if i % 6 == 0:
            every6 += 1
        elif i % 3 == 0:
            every3 += 1
        elif i % 2 == 0:
            every2 += 1
    return tf.cast(tf.stack([every6, every3, every2]), tf.float32)


class LengthFeatures(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)

    def call(self, x, length):
        counts = periodic_position_counts(length)
        return self.dense(x * tf.reduce_sum(counts))


# --- oracle ---
_KEEP = []


def ENTRY():
    m = LengthFeatures()
    m(tf.zeros([2, 3]), tf.constant(4))
    _KEEP.append(m)
    return m, (tf.ones([2, 3]), tf.constant(20))
