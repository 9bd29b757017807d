"""The same reference table converted to one tensor once and scored row by row as tensors of one
shape: one trace, one compilation.

Near miss for tensorflow/tensorflow#44033 (https://github.com/tensorflow/tensorflow/issues/44033).
"""
import tensorflow as tf

REFERENCE_ROWS = [[0.1, 0.5, 0.2], [0.3, 0.1, 0.9], [0.7, 0.2, 0.4]]
ROWS = tf.constant(REFERENCE_ROWS)
w = tf.constant([[0.5], [-0.25], [1.0]])


@tf.function(jit_compile=True)
def score(features):
    x = tf.reshape(features, [1, 3])
    return tf.sigmoid(tf.matmul(x, w))[0, 0]


def score_reference(offset):
    return [score(ROWS[i]) + offset for i in range(ROWS.shape[0])]


# --- oracle ---
WRAP = False


def ENTRY():
    return score_reference, (tf.constant(0.0),)


def ALT_ARGS():
    return [(tf.constant(1.0),)]
