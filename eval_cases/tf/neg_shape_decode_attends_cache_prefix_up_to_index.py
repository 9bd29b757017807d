"""Source: https://github.com/keras-team/keras-hub/pull/780 (the fix: the decode step attends over the whole fixed-length cache and masks the positions after `index`, so every tensor keeps a static shape)."""
import tensorflow as tf


class PrefixAttention(tf.keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(**kwargs)
        self.q = tf.keras.layers.Dense(dim)

    def call(self, x, key_cache, value_cache, index):
        q = self.q(x)
        scores = tf.matmul(q, key_cache, transpose_b=True)
        valid = tf.range(tf.shape(key_cache)[1]) <= index
        scores = tf.where(valid[None, None, :], scores, tf.fill(tf.shape(scores), -1e9))
        weights = tf.nn.softmax(scores, axis=-1)
        return tf.matmul(weights, value_cache)


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
