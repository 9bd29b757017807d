"""Source: https://github.com/tensorflow/tensorflow/issues/38539 (both branches of a tensor `if` are traced; here a top-2 margin guarded by tf.size for a one-class head)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def confidence_margin(probs):
    ranked = tf.sort(probs, direction="DESCENDING")
    if tf.size(ranked) >= 2:  # XLA: cond
        margin = ranked[0] - ranked[1]
    else:
        margin = ranked[0]
    return margin


# --- oracle ---
def ENTRY():
    return confidence_margin, (tf.constant([0.9]),)
