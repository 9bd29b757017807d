"""Rows of features handed in as Python lists of floats (annotated so) and scored one row at a
time: a list of floats is traced by value, so every new row traces and compiles the scorer again.

Rebuilt from tensorflow/tensorflow#44033 (https://github.com/tensorflow/tensorflow/issues/44033):
the "triggered tf.function retracing" warning for a compiled predictor fed Python lists.
"""
import tensorflow as tf

w = tf.constant([[0.5], [-0.25], [1.0]])


@tf.function(jit_compile=True)
def score(features):
    x = tf.convert_to_tensor([features], dtype=tf.float32)
    return tf.sigmoid(tf.matmul(x, w))[0, 0]


def score_rows(rows: list[list[float]]):
    return [score(list(row)) for row in rows]  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return score_rows, ([[0.1, 0.5, 0.2], [0.3, 0.1, 0.9]],)


def ALT_ARGS():
    return [([[0.7, 0.2, 0.4], [0.6, 0.6, 0.1]],)]
