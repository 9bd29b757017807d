"""Source: https://github.com/tensorflow/probability/issues/934 (many samplers built on the gamma sampler cannot use XLA): Dirichlet mixing weights drawn through tf.random.gamma."""
import tensorflow as tf


@tf.function(jit_compile=True)
def mix(samples, concentration):
    g = tf.random.gamma([tf.shape(samples)[0]], concentration)  # XLA: op
    weights = g / tf.reduce_sum(g, axis=-1, keepdims=True)
    return tf.einsum("bk,bkd->bd", weights, samples)


# --- oracle ---
COMPARE = False


def ENTRY():
    samples = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])
    return mix, (samples, tf.constant([1.0, 2.0, 0.5]))
