"""Source: https://github.com/keras-team/keras-hub/pull/780 ("Simplify the cache decoding graph": the cached attention sliced the key/value cache to the dynamic length `cache_index + 1` at every decode step; the fix keeps the cache at a fixed length and masks the unused positions). Here the decode step attends over `cache[:, :index + 1]` inside the compiled function."""
import tensorflow as tf


class PrefixAttention(tf.keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(**kwargs)
        self.q = tf.keras.layers.Dense(dim)

    def call(self, x, key_cache, value_cache, index):
        q = self.q(x)
        keys = key_cache[:, : index + 1, :]  # XLA: shape
        values = value_cache[:, : index + 1, :]
        weights = tf.nn.softmax(tf.matmul(q, keys, transpose_b=True), axis=-1)
        return tf.matmul(weights, values)


class DecodeStep(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.attn = PrefixAttention(4)
        self.logits = tf.keras.layers.Dense(7)

    def call(self, x, key_cache, value_cache, index):
        return self.logits(self.attn(x, key_cache, value_cache, index))


# --- oracle ---
_KEEP = []


def ENTRY():
    m = DecodeStep()
    m(tf.zeros([2, 1, 3]), tf.zeros([2, 5, 4]), tf.zeros([2, 5, 4]), tf.constant(0))
    _KEEP.append(m)
    cache = tf.reshape(tf.range(40, dtype=tf.float32), [2, 5, 4]) / 40.0
    return m, (tf.ones([2, 1, 3]), cache, cache * 0.5, tf.constant(2))


def ALT_ARGS():
    cache = tf.reshape(tf.range(40, dtype=tf.float32), [2, 5, 4]) / 40.0
    return [(tf.ones([2, 1, 3]), cache, cache * 0.5, tf.constant(3))]
