"""Source: https://github.com/keras-team/keras-hub/pull/2585 ("Fix mixed precision crash in TopP and Random samplers": multinomial sampling does not take float16 logits) and https://github.com/tensorflow/probability/issues/1127 (No registered 'StatelessMultinomial' OpKernel for XLA_*_JIT for a dtype outside its kernel). A seeded next-token sampler that keeps the float16 logits of a mixed-precision model."""
import tensorflow as tf


@tf.function(jit_compile=True)
def sample_next(logits, seed, temperature):
    scaled = tf.cast(logits / temperature, tf.float16)
    return tf.random.stateless_categorical(scaled, 1, seed)  # XLA: op


# --- oracle ---
def ENTRY():
    logits = tf.constant([[2.0, 0.5, -1.0, 0.0], [0.1, 0.2, 3.0, -2.0]])
    return sample_next, (logits, tf.constant([7, 17]), tf.constant(0.8))

COMPARE = False
