"""Source: https://github.com/tensorflow/tensorflow/issues/126190 (tf.constant() on a traced tensor inside a layer's call() works eagerly but fails under jit_compile: "Expected float32, but got Tensor ... of type 'SymbolicTensor'"; here it "detaches" a gate layer's output)."""
import tensorflow as tf


class GatedResidual(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.gate = tf.keras.layers.Dense(units, activation="sigmoid")

    def call(self, x):
        g = tf.constant(self.gate(x), dtype=tf.float32)  # XLA: host
        return x * g


layer = GatedResidual(4)


def forward(x):
    return layer(x)


# --- oracle ---
def ENTRY():
    return forward, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0,)
