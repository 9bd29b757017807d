"""Source: https://github.com/lingxiaoli94/CWB/issues/2 ("Performance issue in cwb/common/utils.py": the Python int `k` is passed to the `tf.function` `compute_kth_marginal_moment` in a for loop over moment orders, so each order traces a new graph). Here a Wasserstein-barycenter diagnostic compiles the moment computation with XLA and calls it for orders 1..4 with a Python int, compiling once per order."""
import tensorflow as tf


@tf.function(jit_compile=True)
def compute_kth_marginal_moment(samples, weights, k):
    centred = samples - tf.reduce_sum(weights[:, None] * samples, axis=0)
    return tf.reduce_sum(weights[:, None] * centred ** k, axis=0)


def marginal_moments(samples, weights, max_order=4):
    return [compute_kth_marginal_moment(samples, weights, k) for k in range(1, max_order + 1)]  # XLA: retrace


# --- oracle ---
def _args(k):
    samples = tf.reshape(tf.range(6 * 2, dtype=tf.float32), [6, 2]) / 12.0
    return (samples, tf.fill([6], 1.0 / 6.0), k)


def ENTRY():
    return compute_kth_marginal_moment, _args(1)


def ALT_ARGS():
    return [_args(2), _args(3), _args(4)]
