"""Source: https://github.com/tensorflow/tensorflow/issues/110219 (tf.random.shuffle of a 1-D float tensor under jit_compile: "Expected comparison type SIGNED"): a permutation-noise regularizer that shuffles a 1-D vector of draws."""
import tensorflow as tf


@tf.function(jit_compile=True)
def permuted_noise_penalty(weights):
    noise = tf.random.uniform([8], seed=3)
    shuffled = tf.random.shuffle(noise, seed=5)  # XLA: op
    return tf.reduce_sum(weights * shuffled)


# --- oracle ---
COMPARE = False


def ENTRY():
    return permuted_noise_penalty, (tf.linspace(0.0, 1.0, 8),)
