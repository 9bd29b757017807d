"""Source: https://github.com/tensorflow/tensorflow/issues/108076 ("Python range() fails with symbolic tensors in @tf.function(jit_compile=True)": a hand-written LSTM loops `for t in range(tf.shape(x)[1])` and fails with "'SymbolicTensor' object cannot be interpreted as an integer"). Does not reproduce on TF 2.21 with AutoGraph on (the default): the loop over a tensor bound becomes a `while_loop` and compiles. Here a hand-written LSTM cell unrolled over the sequence length of a jit-compiled encoder."""
import tensorflow as tf


class LSTMCell(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.units = units
        self.gates = tf.keras.layers.Dense(4 * units)
        self.gates.build((None, 6 + units))

    def call(self, inputs, states):
        h, c = states
        z = self.gates(tf.concat([inputs, h], axis=-1))
        i, f, g, o = tf.split(z, 4, axis=-1)
        c = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(g)
        h = tf.sigmoid(o) * tf.tanh(c)
        return h, (h, c)


cell = LSTMCell(8)


@tf.function(jit_compile=True)
def encode(x):
    h = tf.zeros([tf.shape(x)[0], 8])
    c = tf.zeros([tf.shape(x)[0], 8])
    for t in range(tf.shape(x)[1]):
        h, (h, c) = cell(x[:, t, :], (h, c))
    return h


# --- oracle ---
def ENTRY():
    return encode, (tf.reshape(tf.range(2 * 5 * 6, dtype=tf.float32), [2, 5, 6]) / 60.0,)
