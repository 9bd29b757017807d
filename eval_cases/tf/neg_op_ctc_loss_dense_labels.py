"""Source: https://github.com/tensorflow/tensorflow/issues/24296 (near miss: tf.nn.ctc_loss with dense labels and length vectors, which compiles on XLA:CPU)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def ctc_step(logits, labels, logit_length, label_length):
    loss = tf.nn.ctc_loss(labels, logits, label_length, logit_length, logits_time_major=False, blank_index=0)
    return tf.reduce_mean(loss)


# --- oracle ---
def ENTRY():
    logits = tf.reshape(tf.range(2 * 6 * 5, dtype=tf.float32) / 17.0, [2, 6, 5])
    labels = tf.constant([[1, 2, 0], [3, 3, 1]])
    return ctc_step, (logits, labels, tf.constant([6, 6]), tf.constant([2, 3]))
