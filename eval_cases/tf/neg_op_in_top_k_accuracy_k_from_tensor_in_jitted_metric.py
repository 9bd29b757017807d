"""Source: https://github.com/tensorflow/tensorflow/issues/33805 ("InTopKV2 cannot use k as a tensor": the reporter computes in-top-k accuracy with `k` held in a tensor rather than a Python number). Here a top-k accuracy metric whose `k` is kept in a non-trainable variable (so a callback can change it) and read inside the metric's jit-compiled update. Written as the failing case; does not reproduce on TF 2.21 CPU (`tf.math.in_top_k` with `k` read from a variable compiles and matches eager execution), so it is a negative."""
import tensorflow as tf


class TopKAccuracy(tf.Module):
    def __init__(self, k):
        super().__init__()
        self.k = tf.Variable(k, trainable=False)
        self.hits = tf.Variable(0.0, trainable=False)
        self.count = tf.Variable(0.0, trainable=False)

    @tf.function(jit_compile=True)
    def update_state(self, labels, logits):
        in_top = tf.math.in_top_k(labels, logits, self.k)
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
