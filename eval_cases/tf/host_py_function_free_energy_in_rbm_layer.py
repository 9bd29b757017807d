"""Source: https://github.com/tensorflow/tensorflow/issues/108072 (a Boltzmann-machine layer computes part of its energy with `tf.py_function` inside `call`; under `jit_compile=True` the model fails to compile, the EagerPyFunc op has no XLA kernel and its output has no static shape)."""
import numpy as np
import tensorflow as tf


def _visible_term(v, b):
    return np.sum(v * b, axis=1, keepdims=True).astype(np.float32)


class BoltzmannMachine(tf.keras.layers.Layer):
    def __init__(self, visible_units=6, hidden_units=4):
        super().__init__()
        self.visible_units = visible_units
        self.hidden_units = hidden_units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(self.visible_units, self.hidden_units), initializer="random_normal")
        self.b_visible = self.add_weight(shape=(self.visible_units,), initializer="zeros")
        self.b_hidden = self.add_weight(shape=(self.hidden_units,), initializer="zeros")

    def call(self, v):
        hidden = tf.reduce_sum(tf.math.softplus(tf.matmul(v, self.w) + self.b_hidden), axis=1, keepdims=True)
        visible = tf.py_function(_visible_term, [v, self.b_visible], Tout=tf.float32)  # XLA: host
        visible = tf.reshape(visible, [-1, 1])
        return -hidden - visible


class EnergyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.rbm = BoltzmannMachine()
        self.out = tf.keras.layers.Dense(1)

    def call(self, v):
        return self.out(self.rbm(v))


# --- oracle ---
_KEEP = []


def ENTRY():
    m = EnergyModel()
    m(tf.zeros([2, 6]))
    _KEEP.append(m)
    return m, (tf.cast(tf.reshape(tf.range(12) % 2, [2, 6]), tf.float32),)
