"""Source: https://github.com/tensorflow/tensorflow/issues/118376 ("XLA jit_compile=True returns different result for tf.math.in_top_k with NaN predictions"). Here the jit-compiled evaluation step scores top-1 accuracy by comparing `tf.argmax` of the logits with the labels instead of `in_top_k`; on the same logits with NaN entries the compiled and eager accuracies agree."""
import numpy as np
import tensorflow as tf


@tf.function(jit_compile=True)
def eval_step(logits, labels):
    predicted = tf.argmax(logits, axis=-1, output_type=tf.int32)
    return tf.reduce_mean(tf.cast(tf.equal(predicted, labels), tf.float32))


# --- oracle ---
def ENTRY():
    logits = tf.constant([[0.5, np.nan, 0.7, 0.6],
                          [0.1, 0.2, 0.3, 0.9],
                          [np.nan, 0.4, 0.2, 0.1]], tf.float32)
    labels = tf.constant([2, 3, 1], tf.int32)
    return eval_step, (logits, labels)
