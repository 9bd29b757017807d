"""Source: https://github.com/tensorflow/tensorflow/issues/113334 (a model whose call gates a block with `tf.cond` on a Python bool runs eagerly, where tf.cond accepts any truthy predicate, but fails once traced for jit_compile: "pred must not be a Python bool")."""
import tensorflow as tf


class GatedResidualBlock(tf.keras.layers.Layer):
    def __init__(self, units, use_gate=True):
        super().__init__()
        self.use_gate = use_gate
        self.inner = tf.keras.layers.Dense(units, activation="relu")
        self.gate = tf.keras.layers.Dense(units, activation="sigmoid")

    def call(self, x):
        h = self.inner(x)
        h = tf.cond(self.use_gate, lambda: h * self.gate(x), lambda: h)  # XLA: cond
        return x + h


class Classifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.block = GatedResidualBlock(6)
        self.out = tf.keras.layers.Dense(3)

    def call(self, x):
        return self.out(self.block(x))


# --- oracle ---
_KEEP = []


def ENTRY():
    model = Classifier()
    _KEEP.append(model)
    x = tf.reshape(tf.range(24, dtype=tf.float32), [4, 6]) / 24.0
    return model, (x,)
