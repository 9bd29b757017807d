"""Source: https://github.com/tensorflow/tensorflow/issues/62253 ("Different Behavior of tf.raw_ops.Exp+tf.raw_ops.Square with jit_compile=True" on CPU). Here an energy-based reranker scores candidates with `square(exp(logit))` on unnormalised logits inside its jit-compiled scorer; large logits push the chain into float32 overflow. Does not reproduce on TF 2.21 CPU: both give the same values (including inf), so this is a negative."""
import tensorflow as tf


@tf.function(jit_compile=True)
def energy_scores(logits):
    e = tf.exp(logits)
    return tf.reduce_sum(tf.square(e), axis=-1)


# --- oracle ---
def ENTRY():
    logits = tf.constant([[1.5, 20.0, 44.0, -3.0], [43.9, 0.25, 2.0, 44.4]])
    return energy_scores, (logits,)
