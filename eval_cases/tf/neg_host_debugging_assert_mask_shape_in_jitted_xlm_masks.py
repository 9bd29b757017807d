"""Source: https://github.com/huggingface/transformers/pull/19030 ("TF: tf.debugging assertions without tf.running_eagerly() protection": `tf.debugging` assertions never crash under XLA, they are simply not executed there, so the `tf.executing_eagerly()` guards were removed). Here the XLM-style encoder checks its padding mask with `tf.debugging.assert_equal` on `tf.shape(mask)` inside the jit-compiled forward pass."""
import tensorflow as tf


def get_masks(slen, lengths, max_len):
    bs = tf.shape(lengths)[0]
    alen = tf.range(max_len)
    mask = alen[None, :] < lengths[:, None]
    tf.debugging.assert_equal(tf.shape(mask), tf.stack([bs, max_len]))
    tf.debugging.assert_less_equal(slen, max_len)
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
