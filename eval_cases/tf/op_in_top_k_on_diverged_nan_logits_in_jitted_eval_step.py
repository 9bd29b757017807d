"""Source: https://github.com/tensorflow/tensorflow/issues/118376 ("XLA jit_compile=True returns different result for tf.math.in_top_k with NaN predictions": with a NaN among the predictions, eager `in_top_k` says the target is not in the top k while the XLA-compiled one says it is). Here a jit-compiled evaluation step scores top-1 accuracy with `tf.math.in_top_k`; once some logits of a diverging model are NaN, the compiled accuracy differs from the eager one."""
import numpy as np
import tensorflow as tf


@tf.function(jit_compile=True)
def eval_step(logits, labels):
    hits = tf.math.in_top_k(labels, logits, k=1)  # XLA: op
    return tf.reduce_mean(tf.cast(hits, tf.float32))


# --- oracle ---
def ENTRY():
    logits = tf.constant([[0.5, np.nan, 0.7, 0.6],
                          [0.1, 0.2, 0.3, 0.9],
                          [np.nan, 0.4, 0.2, 0.1]], tf.float32)
    labels = tf.constant([2, 3, 1], tf.int32)
    return eval_step, (logits, labels)
