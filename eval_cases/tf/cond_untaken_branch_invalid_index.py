"""Source: https://github.com/tensorflow/tensorflow/issues/38539 (tf.function fails if a branch of a tensor `if` is invalid for the input, although that branch never runs: both branches are traced)."""
import tensorflow as tf


def last_or_first(tensor):
    if tf.size(tensor) == 2:  # XLA: cond
        return tensor[1]
    else:
        return tensor[0]


# --- oracle ---
def ENTRY():
    return last_or_first, (tf.constant([7]),)
