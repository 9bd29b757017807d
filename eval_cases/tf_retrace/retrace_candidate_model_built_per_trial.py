"""An evolutionary search builds a fresh Keras model for every candidate and scores it with one
shared jit-compiled function that takes the model as an argument: models are trace keys by
identity, so every candidate traces and compiles the scorer again.

Rebuilt from tensorflow/tensorflow#42441 (https://github.com/tensorflow/tensorflow/issues/42441):
"tf.function retracing warnings when rapidly creating new TF models ... (which is necessary e.g.
for TF evolutionary frameworks)".
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def fitness(model, x, y):
    return -tf.reduce_mean(tf.square(model(x) - y))


def evolve(x, y, widths):
    scores = []
    for width in widths:
        candidate = tf.keras.Sequential([tf.keras.layers.Dense(width, activation="relu"), tf.keras.layers.Dense(1)])
        candidate.build((None, x.shape[-1]))
        scores.append(fitness(candidate, x, y))  # XLA: retrace
    return scores


# --- oracle ---
WRAP = False


def ENTRY():
    return evolve, (tf.ones([4, 3]), tf.zeros([4, 1]), [4, 4])


def ALT_ARGS():
    return [(tf.ones([4, 3]), tf.zeros([4, 1]), [4, 4])]
