"""Source: https://github.com/tensorflow/tensorflow/issues/33805 (top-k accuracy written with a Python-int `k`: `tf.math.top_k` of the logits and a comparison with the labels, which compiles with a static `k`). Top-k accuracy metric with a jit-compiled update."""
import tensorflow as tf


class TopKAccuracy(tf.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.hits = tf.Variable(0.0, trainable=False)
        self.count = tf.Variable(0.0, trainable=False)

    @tf.function(jit_compile=True)
    def update_state(self, labels, logits):
        _, top = tf.math.top_k(logits, k=self.k)
        in_top = tf.reduce_any(tf.equal(top, labels[:, None]), axis=1)
        self.hits.assign_add(tf.reduce_sum(tf.cast(in_top, tf.float32)))
        self.count.assign_add(tf.cast(tf.size(labels), tf.float32))
        return self.hits / self.count


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = TopKAccuracy(2)
    _KEEP.append(m)
    logits = tf.constant([[0.1, 0.5, 0.2, 0.9], [0.8, 0.1, 0.05, 0.05], [0.3, 0.3, 0.2, 0.2]])
    return m.update_state, (tf.constant([1, 2, 0]), logits)
