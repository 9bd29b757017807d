"""Source: https://github.com/tensorflow/tensorflow/issues/54254 ("Dataset error when using with XLA device": a function compiled for the XLA device receives a `tf.data.Dataset` and iterates it). The working layout: the Python evaluation loop walks the dataset and only the per-batch error is jit-compiled."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.layers.Dense(6, activation="tanh"),
    tf.keras.layers.Dense(1),
])
model.build([None, 3])


@tf.function(jit_compile=True)
def batch_error(features, targets):
    err = tf.square(model(features, training=False) - targets)
    return tf.reduce_sum(err), tf.cast(tf.size(err), tf.float32)


def evaluate(dataset):
    total, count = 0.0, 0.0
    for features, targets in dataset:
        s, n = batch_error(features, targets)
        total += float(s)
        count += float(n)
    return tf.constant(total / count)


def validation_set():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(12, 3)).astype("float32")
    y = rng.normal(size=(12, 1)).astype("float32")
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(4)


# --- oracle ---
WRAP = False


def ENTRY():
    x, y = next(iter(validation_set()))
    return batch_error, (x, y)
