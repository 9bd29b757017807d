"""Source: https://github.com/tensorflow/nmt/issues/373 ("The shape for decoder_1/while/Merge_5:0 is not an invariant for the loop. It enters the loop with shape (25, 7), but has shape (25, 1) after one iteration"); here a decoding loop trims the oldest column of its context window each step without appending one."""
import tensorflow as tf


@tf.function(jit_compile=True)
def context_energy(context, steps):
    energy = tf.constant(0.0)
    for _ in tf.range(steps):
        energy += tf.reduce_sum(context[:, -1])
        context = context[:, 1:]  # XLA: shape
    return energy


# --- oracle ---
def ENTRY():
    return context_energy, (tf.reshape(tf.range(12, dtype=tf.float32), [2, 6]), tf.constant(3))
