"""Source: https://github.com/tensorflow/tensorflow/issues/22102 (near miss: the mode is passed as a boolean tensor instead of a string)."""
import tensorflow as tf

dense = tf.keras.layers.Dense(2)


@tf.function(jit_compile=True)
def step(x, training):
    y = dense(x)
    return tf.where(training, y * 0.9, y)


# --- oracle ---
def ENTRY():
    return step, (tf.constant([[1.0, 2.0]]), tf.constant(True))
