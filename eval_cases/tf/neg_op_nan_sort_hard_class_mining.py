"""Source: https://github.com/tensorflow/tensorflow/issues/119359 (tf.sort orders NaN differently in eager mode and under jit_compile). Written as a failure, labelled ok by the compiler: hard-class mining sorts the mean loss of each class and an absent class has a 0/0 mean; the two modes place the NaN differently, but the two hardest classes kept by [:2] are the same."""
import tensorflow as tf


@tf.function(jit_compile=True)
def hardest_class_losses(per_example_loss, labels_one_hot):
    class_loss = tf.reduce_sum(per_example_loss[:, None] * labels_one_hot, axis=0)
    class_mean = class_loss / tf.reduce_sum(labels_one_hot, axis=0)
    return tf.sort(class_mean, direction="DESCENDING")[:2]


# --- oracle ---
def ENTRY():
    loss = tf.constant([0.3, 1.2, 0.7, 0.1])
    return hardest_class_losses, (loss, tf.one_hot([0, 1, 1, 3], 4))
