"""Source: https://github.com/aligirayhanozbay/poisson_CNN/issues/2 ("Performance issue in poisson_CNN/losses/integral_loss.py": the Python int `k` is passed to the `tf.function` `find_neighbouring_indices_along_axis` inside a for loop over axes, so each axis traces a new graph). Here a Poisson-solver integral loss compiles the neighbour lookup with XLA and calls it once per spatial axis with a Python int, compiling once per axis at every loss evaluation site."""
import tensorflow as tf


@tf.function(jit_compile=True)
def find_neighbouring_indices_along_axis(field, k):
    forward = tf.roll(field, shift=-1, axis=k)
    return 0.5 * (field + forward)


def integral_loss(pred, target):
    err = tf.square(pred - target)
    total = 0.0
    for k in range(1, 3):
        total += tf.reduce_mean(find_neighbouring_indices_along_axis(err, k))  # XLA: retrace
    return total


# --- oracle ---
def _field():
    return tf.reshape(tf.range(2 * 6 * 6, dtype=tf.float32), [2, 6, 6]) % 7.0 / 7.0


def ENTRY():
    return find_neighbouring_indices_along_axis, (_field(), 1)


def ALT_ARGS():
    return [(_field(), 2)]
