"""Source: https://github.com/huggingface/transformers/pull/19030 ("TF: tf.debugging assertions without tf.running_eagerly() protection": Flaubert's `get_masks` kept a plain `assert shape_list(mask) == [bs, slen]` next to the `tf.debugging` checks, and a reviewer asked whether a regular assert is safe there). Here an XLM-style encoder builds its padding mask with `slen = tf.reduce_max(lengths)`, so the plain `assert` compares a list holding a symbolic tensor and needs its truth value inside the jit-compiled forward pass."""
import tensorflow as tf


def shape_list(t):
    static = t.shape.as_list()
    dynamic = tf.shape(t)
    return [dynamic[i] if s is None else s for i, s in enumerate(static)]


def get_masks(slen, lengths, max_len):
    bs = shape_list(lengths)[0]
    alen = tf.range(max_len)
    mask = alen[None, :] < lengths[:, None]
    assert shape_list(mask) == [bs, slen]  # XLA: cond
    return mask


class XLMEncoder(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(20, 8)

    def call(self, ids, lengths):
        slen = tf.reduce_max(lengths)
        mask = get_masks(slen, lengths, ids.shape[1])
        h = self.embed(ids) * tf.cast(mask, tf.float32)[:, :, None]
        return tf.reduce_sum(h, axis=1)


encoder = XLMEncoder()
encoder(tf.zeros([1, 6], tf.int32), tf.constant([6]))


@tf.function(jit_compile=True)
def encode(ids, lengths):
    return encoder(ids, lengths)


# --- oracle ---
def ENTRY():
    ids = tf.constant([[3, 4, 5, 6, 7, 8], [1, 2, 3, 0, 0, 0]], dtype=tf.int32)
    return encode, (ids, tf.constant([6, 3]))
