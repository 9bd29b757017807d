"""Source: https://github.com/tensorflow/tensorflow/issues/39091 (a NUM_TO_DENSE layer over a dict of numeric columns keeps moving means in variables and branches on a Python `training` flag; on TF 2.21 XLA:CPU with the flag a Python bool and the dict keys fixed, the layer compiles under jit_compile)."""
import tensorflow as tf


class NumToDense(tf.keras.layers.Layer):
    def __init__(self, num_cols, **kwargs):
        super().__init__(**kwargs)
        self.keys = list(num_cols)

    def build(self, input_shape):
        self.moving_means = {k: self.add_weight(name=f"mean_{k}", shape=(), initializer="zeros", trainable=False)
                             for k in self.keys}

    def call(self, inputs, training=True):
        present = {k: tf.math.is_finite(inputs[k]) for k in self.keys}
        if training:
            for k in self.keys:
                mean = tf.math.divide_no_nan(tf.reduce_sum(tf.where(present[k], inputs[k], 0.0)),
                                             tf.reduce_sum(tf.cast(present[k], tf.float32)))
                self.moving_means[k].assign(0.9 * self.moving_means[k] + 0.1 * mean)
        filled = [tf.where(present[k], inputs[k], self.moving_means[k]) for k in self.keys]
        return tf.stack(filled + [tf.cast(present[k], tf.float32) for k in self.keys], axis=-1)


class Trainer:
    def __init__(self):
        self.layer = NumToDense(["age", "income"])

    @tf.function(jit_compile=True)
    def encode(self, features):
        return self.layer(features, training=True)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.encode, ({"age": tf.constant([31.0, float("nan"), 45.0]), "income": tf.constant([2.0, 3.5, float("nan")])},)
