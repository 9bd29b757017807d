"""Source: https://github.com/aligirayhanozbay/poisson_CNN/issues/2 (a Python int axis passed to a `tf.function` helper inside a loop over axes retraces per axis). The fix used here: the loop over axes moves inside one jit-compiled loss, where the axis ints are trace-time constants, and the loss is called with tensors only, so it compiles once."""
import tensorflow as tf


def _neighbour_mean(field, k):
    forward = tf.roll(field, shift=-1, axis=k)
    return 0.5 * (field + forward)


@tf.function(jit_compile=True)
def integral_loss(pred, target):
    err = tf.square(pred - target)
    total = 0.0
    for k in range(1, 3):
        total += tf.reduce_mean(_neighbour_mean(err, k))
    return total


# --- oracle ---
def _field():
    return tf.reshape(tf.range(2 * 6 * 6, dtype=tf.float32), [2, 6, 6]) % 7.0 / 7.0


def ENTRY():
    return integral_loss, (_field(), _field() * 0.5)


def ALT_ARGS():
    return [(_field() * 0.9, _field() * 0.4)]
