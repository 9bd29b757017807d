"""Source: https://github.com/tensorflow/tensorflow/issues/31848 (a per-sample top-k hit metric written as a while loop over the batch failed on Keras symbolic tensors in TF 2.0 eager-by-default; inside a converted function the tf.while_loop over rows compiles)."""
import tensorflow as tf


def topk_hits(logits, labels, k=2):
    n = tf.shape(logits)[0]
    hits = tf.TensorArray(tf.float32, size=n)
    i = tf.constant(0)
    while i < n:
        top = tf.math.top_k(logits[i], k=k).indices
        hit = tf.reduce_any(tf.equal(top, labels[i]))
        hits = hits.write(i, tf.cast(hit, tf.float32))
        i += 1
    return tf.reduce_mean(hits.stack())


# --- oracle ---
def ENTRY():
    logits = tf.constant([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.3, 0.1, 0.6], [0.2, 0.2, 0.6]])
    return topk_hits, (logits, tf.constant([1, 2, 0, 2]))
