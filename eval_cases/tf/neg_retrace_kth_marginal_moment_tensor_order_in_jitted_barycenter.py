"""Source: https://github.com/lingxiaoli94/CWB/issues/2 (a Python int moment order passed to a `tf.function` retraces per order). The fix used here: the order is passed as a float32 tensor (`tf.pow` takes a tensor exponent), so the moments of every order share one compiled function."""
import tensorflow as tf


@tf.function(jit_compile=True)
def compute_kth_marginal_moment(samples, weights, k):
    centred = samples - tf.reduce_sum(weights[:, None] * samples, axis=0)
    return tf.reduce_sum(weights[:, None] * tf.pow(centred, k), axis=0)


def marginal_moments(samples, weights, max_order=4):
    return [compute_kth_marginal_moment(samples, weights, tf.constant(float(k))) for k in range(1, max_order + 1)]


# --- oracle ---
def _args(k):
    samples = tf.reshape(tf.range(6 * 2, dtype=tf.float32), [6, 2]) / 12.0
    return (samples, tf.fill([6], 1.0 / 6.0), tf.constant(k))


def ENTRY():
    return compute_kth_marginal_moment, _args(1.0)


def ALT_ARGS():
    return [_args(2.0), _args(3.0), _args(4.0)]
