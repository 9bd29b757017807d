"""Source: https://github.com/tensorflow/tensorflow/issues/122046 (tf.nn.isotonic_regression has no XLA_CPU_JIT kernel): monotone calibration of scores in a compiled step."""
import tensorflow as tf


@tf.function(jit_compile=True)
def calibrate(scores):
    fitted, _ = tf.nn.isotonic_regression(scores, axis=1)  # XLA: op
    return tf.sigmoid(fitted)


# --- oracle ---
def ENTRY():
    return calibrate, (tf.constant([[0.1, 0.5, 0.3, 0.9], [1.0, 0.2, 0.4, 0.3]]),)
