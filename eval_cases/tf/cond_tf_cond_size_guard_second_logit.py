"""Source: https://github.com/tensorflow/tensorflow/issues/38539 (tf.cond traces both branches; here an explicit tf.cond on tf.size picks the second logit for a one-logit binary head)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def positive_logit(logits):
    return tf.cond(tf.size(logits) > 1, lambda: logits[1], lambda: logits[0])  # XLA: cond


# --- oracle ---
def ENTRY():
    return positive_logit, (tf.constant([0.3]),)
