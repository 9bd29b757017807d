"""Source: https://github.com/tensorflow/tensorflow/issues/62442 ("StatelessRandomUniformV2 requires Compile Time Constant": the shape of a stateless random draw comes from a tensor argument, which XLA cannot treat as a constant)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def jittered_positions(positions, n_valid, seed):
    noise = tf.random.stateless_uniform([n_valid], seed=seed, minval=-0.01, maxval=0.01)  # XLA: shape
    pad = tf.zeros([tf.shape(positions)[0] - n_valid])
    return positions + tf.concat([noise, pad], axis=0)


# --- oracle ---
COMPARE = False


def ENTRY():
    return jittered_positions, (tf.constant([0.1, 0.4, 0.7, 0.9]), tf.constant(3), tf.constant([4, 2]))
