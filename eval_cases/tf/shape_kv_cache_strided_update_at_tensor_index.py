"""Source: https://github.com/keras-team/keras-hub/pull/1049 ("Switch slice op": writing the new key/value into the attention cache with a strided-slice update at the tensor `cache_index` fails under XLA: `Input 1 to node TensorStridedSliceUpdate ... must be a compile-time constant`). Here a cached decoder layer updates its key cache at the decode position inside the compiled step."""
import tensorflow as tf


class CachedSelfAttention(tf.keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(**kwargs)
        self.q = tf.keras.layers.Dense(dim)
        self.k = tf.keras.layers.Dense(dim)
        self.v = tf.keras.layers.Dense(dim)

    def call(self, x, key_cache, value_cache, cache_index):
        batch = tf.shape(x)[0]
        q, k, v = self.q(x), self.k(x), self.v(x)
        begin = tf.stack([0, cache_index, 0])
        end = tf.stack([batch, cache_index + 1, tf.shape(key_cache)[2]])
        strides = tf.ones([3], tf.int32)
        key_cache = tf.raw_ops.TensorStridedSliceUpdate(input=key_cache, begin=begin, end=end, strides=strides, value=k)  # XLA: shape
        value_cache = tf.raw_ops.TensorStridedSliceUpdate(input=value_cache, begin=begin, end=end, strides=strides, value=v)
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
