"""Source: https://github.com/tensorflow/tensorflow/issues/48332 ("Output shapes of then and else branches do not match (s64[1,64]) vs. (s64[64])": XLA requires both branches of a `tf.cond` to return the same shape). Here the token-dropout layer's fallback keep mask is built as `tf.ones([SEQ])`, the same shape as the sampled mask, inside the jit-compiled step."""
import tensorflow as tf

SEQ = 6


class TokenDropout(tf.keras.layers.Layer):
    def call(self, ids, keep_scores):
        keep = tf.cast(keep_scores > 0.3, tf.int32)
        keep = tf.cond(tf.reduce_any(keep > 0), lambda: keep, lambda: tf.ones([SEQ], tf.int32))
        return ids * keep


dropout = TokenDropout()


@tf.function(jit_compile=True)
def drop_tokens(ids, keep_scores):
    return dropout(ids, keep_scores)


# --- oracle ---
def ENTRY():
    ids = tf.range(1, SEQ + 1)
    scores = tf.constant([0.9, 0.1, 0.5, 0.2, 0.8, 0.05])
    return drop_tokens, (ids, scores)
