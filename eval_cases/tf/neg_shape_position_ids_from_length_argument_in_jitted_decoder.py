"""Source: https://github.com/tensorflow/tensorflow/issues/30182 (a loop bound or `tf.range` limit that is a tensor argument of the compiled function is not a compile-time constant under XLA). A near miss that compiles on TF 2.21 (named as a failure before labelling; the oracle labelled it ok): a decoder step materialises its position ids with `tf.range(length)` from a tensor `length` argument and slices its 16-row cache with it; XLA bounds both by the cache size."""
import tensorflow as tf


class CachedDecoderStep(tf.Module):
    def __init__(self):
        super().__init__()
        self.pos_table = tf.Variable(tf.random.stateless_normal([16, 8], seed=[1, 2]))

    @tf.function(jit_compile=True)
    def __call__(self, cache, length):
        positions = tf.range(length)
        pos = tf.gather(self.pos_table, positions)
        return tf.reduce_sum(cache[:length] + pos, axis=0)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = CachedDecoderStep()
    _KEEP.append(m)
    cache = tf.reshape(tf.range(16 * 8, dtype=tf.float32), [16, 8]) / 128.0
    return m.__call__, (cache, tf.constant(5))
