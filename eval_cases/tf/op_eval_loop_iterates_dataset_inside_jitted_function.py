"""Source: https://github.com/tensorflow/tensorflow/issues/54254 ("Dataset error when using with XLA device (No unary variant device copy function found)": a function placed on the XLA device receives a `tf.data.Dataset` and iterates it, and the dataset variant cannot be handed to the compiled computation). Here an evaluation helper that takes the validation dataset and loops over it inside one jit-compiled function, accumulating the mean squared error."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.layers.Dense(6, activation="tanh"),
    tf.keras.layers.Dense(1),
])
model.build([None, 3])


@tf.function(jit_compile=True)
def evaluate(dataset):
    total = tf.constant(0.0)
    count = tf.constant(0.0)
    for features, targets in dataset:  # XLA: op
        err = tf.square(model(features, training=False) - targets)
        total += tf.reduce_sum(err)
        count += tf.cast(tf.size(err), tf.float32)
    return total / count


def validation_set():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(12, 3)).astype("float32")
    y = rng.normal(size=(12, 1)).astype("float32")
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(4)


# --- oracle ---
WRAP = False


def ENTRY():
    return evaluate, (validation_set(),)
