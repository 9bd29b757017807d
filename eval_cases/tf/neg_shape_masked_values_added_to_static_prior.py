"""Source: https://github.com/tensorflow/tensorflow/issues/122055 (near miss of "Invalid shape broadcast from f64[<=96] to [44]": a bounded dynamic result of a boolean_mask is added to a weight of static shape; on TF 2.21 XLA:CPU this compiles and runs when every value is kept)."""
import tensorflow as tf


class CalibratedScores(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.prior = self.add_weight(name="prior", shape=(input_shape[-1],), initializer="zeros")

    def call(self, logits):
        finite = tf.boolean_mask(logits, tf.math.is_finite(logits))
        return finite + self.prior


layer = CalibratedScores()


def calibrate(logits):
    return layer(logits)


# --- oracle ---
def ENTRY():
    return calibrate, (tf.constant([0.3, -1.2, 2.0, 0.5]),)
