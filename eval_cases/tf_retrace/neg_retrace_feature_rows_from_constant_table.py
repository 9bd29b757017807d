"""Feature rows kept as a fixed table of Python floats and scored one `list(row)` at a time. A list
of floats is traced by value: the first pass compiles once per row (3), later passes hit the
cache (oracle: no new compilation on the second call), so the cost is bounded by the table.

Near miss for tensorflow/tensorflow#44033 (https://github.com/tensorflow/tensorflow/issues/44033):
the "triggered tf.function retracing" warning for a compiled predictor fed Python lists.
"""
import tensorflow as tf

REFERENCE_ROWS = [[0.1, 0.5, 0.2], [0.3, 0.1, 0.9], [0.7, 0.2, 0.4]]
w = tf.constant([[0.5], [-0.25], [1.0]])


@tf.function(jit_compile=True)
def score(features):
    x = tf.convert_to_tensor([features], dtype=tf.float32)
    return tf.sigmoid(tf.matmul(x, w))[0, 0]


def score_reference(offset):
    return [score(list(row)) + offset for row in REFERENCE_ROWS]


# --- oracle ---
WRAP = False


def ENTRY():
    return score_reference, (tf.constant(0.0),)


def ALT_ARGS():
    return [(tf.constant(1.0),)]
