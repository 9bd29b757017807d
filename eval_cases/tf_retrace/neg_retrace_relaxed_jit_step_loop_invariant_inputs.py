"""reduce_retracing on a jit step whose inputs are bound once before the loop: one compilation.

Near miss for tensorflow/tensorflow#38561 (https://github.com/tensorflow/tensorflow/issues/38561),
where relaxed shapes were the suggested cure for variable-length inputs: here nothing varies,
the loop repeats the step on the same tensors (a timing or averaging loop).
"""
import tensorflow as tf


@tf.function(jit_compile=True, reduce_retracing=True)
def score(x, w):
    return tf.reduce_sum(tf.tanh(tf.matmul(x, w)))


def averaged_score(x, w, repeats):
    total = tf.constant(0.0)
    for _ in range(repeats):
        total += score(x, w)
    return total / repeats


# --- oracle ---
WRAP = False
_X = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0
_W = tf.constant([[0.5], [-0.25], [1.0]])


def ENTRY():
    return averaged_score, (_X, _W, 2)


def ALT_ARGS():
    return [(_X, _W, 4), (_X * 2.0, _W, 3)]
