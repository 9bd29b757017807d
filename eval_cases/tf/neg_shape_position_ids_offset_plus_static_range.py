"""Source: https://github.com/huggingface/transformers/issues/17935 (near miss: positions as past_length + tf.range(seq_length), where only the offset is data-dependent)."""
import tensorflow as tf


class PositionalEmbedding(tf.keras.layers.Layer):
    def __init__(self, max_positions=32, dim=4):
        super().__init__()
        self.table = tf.keras.layers.Embedding(max_positions, dim)

    def call(self, input_ids, past_attention_mask):
        past_length = tf.reduce_sum(past_attention_mask[0])
        positions = past_length + tf.range(tf.shape(input_ids)[1])
        return self.table(positions)[None] + tf.cast(input_ids[..., None], tf.float32)


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = PositionalEmbedding()
    _KEEP.append(layer)
    return layer, (tf.constant([[3, 4]]), tf.constant([[1, 1, 1, 0]]))
