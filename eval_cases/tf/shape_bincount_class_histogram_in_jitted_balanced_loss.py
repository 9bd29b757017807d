"""Source: https://github.com/tensorflow/tensorflow/pull/56276 ("TF2XLA Bincount kernel": the XLA lowering of `Bincount`/`DenseBincount` needs the output size as a compile-time constant; without `minlength`/`maxlength` the size is `max(values) + 1`, a value of the data). Here a class-balanced loss counts the labels of the batch with `tf.math.bincount(labels)` inside the jit-compiled step, so the histogram's length depends on the largest label seen."""
import tensorflow as tf

NUM_CLASSES = 5


@tf.function(jit_compile=True)
def balanced_loss(logits, labels):
    counts = tf.math.bincount(labels, dtype=tf.float32)  # XLA: shape
    weights = tf.gather(1.0 / tf.maximum(counts, 1.0), labels)
    per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return tf.reduce_sum(weights * per_example) / tf.reduce_sum(weights)


# --- oracle ---
def ENTRY():
    logits = tf.reshape(tf.range(6 * NUM_CLASSES, dtype=tf.float32) / 10.0, [6, NUM_CLASSES])
    labels = tf.constant([0, 1, 1, 3, 4, 1], tf.int32)
    return balanced_loss, (logits, labels)
