"""An evaluation loop that passes `len(batch)` (a Python int that varies) into the compiled step.

Rebuilt from keiohta/tf2rl#99 (https://github.com/keiohta/tf2rl/issues/99): retracing warnings
traced to "(3) passing Python objects instead of tensors" into a tf.function.
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def mean_score(scores, n):
    return tf.reduce_sum(scores) / n


def evaluate(batches):
    total = 0.0
    for scores in batches:
        total += mean_score(tf.constant(scores), len(scores))  # XLA: retrace
    return total


# --- oracle ---
WRAP = False


def ENTRY():
    return evaluate, ([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]],)


def ALT_ARGS():
    return [([[1.0, 2.0], [2.0, 2.0]],), ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],)]
