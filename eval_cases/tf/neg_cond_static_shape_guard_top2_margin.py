"""Source: https://github.com/tensorflow/tensorflow/issues/38539 (the documented fix: guard on the static shape, a Python int at trace time, so only the taken branch is traced)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def confidence_margin(probs):
    ranked = tf.sort(probs, direction="DESCENDING")
    if ranked.shape[0] >= 2:
        margin = ranked[0] - ranked[1]
    else:
        margin = ranked[0]
    return margin


# --- oracle ---
def ENTRY():
    return confidence_margin, (tf.constant([0.9]),)
