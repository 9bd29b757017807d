"""Source: https://github.com/tensorflow/tensorflow/issues/44033 ("triggered tf.function retracing" warning: a feature vector passed to the compiled predictor as a Python list of floats is a new trace key for every new set of values)."""
import tensorflow as tf

scorer = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
scorer.build((None, 3))


@tf.function(jit_compile=True)
def score(features):
    x = tf.convert_to_tensor([features], dtype=tf.float32)
    return tf.sigmoid(scorer(x))[0, 0]


def score_all(rows):
    return [score(list(r)) for r in rows]  # XLA: retrace


# --- oracle ---
def ENTRY():
    return score, ([0.1, 0.5, 0.2],)


def ALT_ARGS():
    return [([0.3, 0.1, 0.9],), ([0.7, 0.2, 0.4],)]
