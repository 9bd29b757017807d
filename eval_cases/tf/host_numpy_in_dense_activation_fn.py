"""Source: https://github.com/keras-team/keras/issues/12969 (a custom activation handed to Dense as `activation=` reads its input with NumPy: "'Tensor' object has no attribute 'numpy'" once the model is traced; here a temperature from np.std of x.numpy())."""
import numpy as np
import tensorflow as tf


def temperature_swish(x):
    temperature = float(np.std(x.numpy())) + 1.0  # XLA: host
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
