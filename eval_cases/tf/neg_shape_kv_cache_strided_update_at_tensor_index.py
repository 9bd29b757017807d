"""Source: https://github.com/keras-team/keras-hub/pull/1049 (the XLA-friendly form of the cache write: the new key/value is blended into the fixed-size cache with a one-hot mask over positions built from the tensor `cache_index`, so no slice bound has to be a compile-time constant)."""
import tensorflow as tf


class CachedSelfAttention(tf.keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(**kwargs)
        self.q = tf.keras.layers.Dense(dim)
        self.k = tf.keras.layers.Dense(dim)
        self.v = tf.keras.layers.Dense(dim)

    def call(self, x, key_cache, value_cache, cache_index):
        q, k, v = self.q(x), self.k(x), self.v(x)
        slot = tf.one_hot(cache_index, tf.shape(key_cache)[1])[None, :, None]
        key_cache = key_cache * (1.0 - slot) + k * slot
        value_cache = value_cache * (1.0 - slot) + v * slot
        scores = tf.matmul(q, key_cache, transpose_b=True)
        positions = tf.range(tf.shape(key_cache)[1])
        scores = tf.where(positions[None, None, :] <= cache_index, scores, -1e9)
        out = tf.matmul(tf.nn.softmax(scores, axis=-1), value_cache)
        return out, key_cache, value_cache


class Decoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.attn = CachedSelfAttention(4)
        self.out = tf.keras.layers.Dense(5)

    def call(self, x, key_cache, value_cache, cache_index):
        h, key_cache, value_cache = self.attn(x, key_cache, value_cache, cache_index)
        return self.out(h), key_cache, value_cache


# --- oracle ---
_KEEP = []


def ENTRY():
    m = Decoder()
    m(tf.zeros([2, 1, 3]), tf.zeros([2, 6, 4]), tf.zeros([2, 6, 4]), tf.constant(0))
    _KEEP.append(m)
    x = tf.reshape(tf.range(6, dtype=tf.float32), [2, 1, 3]) / 6.0
    return m, (x, tf.zeros([2, 6, 4]), tf.zeros([2, 6, 4]), tf.constant(2))
