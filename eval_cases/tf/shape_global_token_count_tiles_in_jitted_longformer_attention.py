"""Source: https://github.com/huggingface/transformers/issues/14058 ("with op Tile must be a compile-time constant": TFLongformer on TPU; the number of global-attention tokens, read from the data, sizes a `tf.tile` in the self-attention). Here a Longformer-style global attention layer counts the global tokens of the batch from the `is_global` mask with `reduce_sum`/`reduce_max` and tiles the pooled keys by that count inside a jit-compiled function."""
import tensorflow as tf


class GlobalAttention(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.key = tf.keras.layers.Dense(4)
        self.key.build((None, None, 4))

    def call(self, hidden, is_global):
        num_global = tf.reduce_sum(tf.cast(is_global, tf.int32), axis=1)
        max_global = tf.reduce_max(num_global)
        pooled = tf.reduce_mean(self.key(hidden), axis=1, keepdims=True)
        global_keys = tf.tile(pooled, [1, max_global, 1])  # XLA: shape
        scores = tf.einsum("bsd,bgd->bsg", hidden, global_keys)
        return tf.reduce_sum(scores, axis=-1)


layer = GlobalAttention()


@tf.function(jit_compile=True)
def global_scores(hidden, is_global):
    return layer(hidden, is_global)


# --- oracle ---
def ENTRY():
    hidden = tf.reshape(tf.range(2 * 6 * 4, dtype=tf.float32), [2, 6, 4]) / 48.0
    is_global = tf.constant([[True, True, False, False, False, False], [True, False, False, False, False, False]])
    return global_scores, (hidden, is_global)
