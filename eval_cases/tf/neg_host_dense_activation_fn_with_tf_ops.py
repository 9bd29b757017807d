"""Source: https://github.com/keras-team/keras/issues/12969 (the fix of a custom activation that read its input with NumPy: the same temperature computed with tf ops compiles)."""
import tensorflow as tf


def temperature_swish(x):
    temperature = tf.math.reduce_std(x) + 1.0
    return x * tf.sigmoid(x / temperature)


def build_classifier():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(8, activation=temperature_swish),
        tf.keras.layers.Dense(3),
    ])


# --- oracle ---
def ENTRY():
    model = build_classifier()
    return (lambda x: model(x)), (tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 12.0,)
