"""Source: https://github.com/tensorflow/tensorflow/issues/38539 (both branches of a tensor `if` are traced; here a Keras layer reads the previous time step behind a tf.shape guard, built for length-1 inputs)."""
import tensorflow as tf


class DeltaFeatures(tf.keras.layers.Layer):
    def call(self, states):
        if tf.shape(states)[0] >= 2:  # XLA: cond
            delta = states[1] - states[0]
        else:
            delta = tf.zeros_like(states[0])
        return delta


# --- oracle ---
def ENTRY():
    layer = DeltaFeatures()
    return layer, (tf.ones([1, 4]),)
