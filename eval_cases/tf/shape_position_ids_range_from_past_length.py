"""Source: https://github.com/huggingface/transformers/issues/17935 (TF XLA generation: position embeddings where the past length is read from the attention mask)."""
import tensorflow as tf


class PositionalEmbedding(tf.keras.layers.Layer):
    def __init__(self, max_positions=32, dim=4):
        super().__init__()
        self.table = tf.keras.layers.Embedding(max_positions, dim)

    def call(self, input_ids, past_attention_mask):
        past_length = tf.reduce_sum(past_attention_mask[0])
        seq_length = tf.shape(input_ids)[1]
        positions = tf.range(past_length, past_length + seq_length)  # XLA: shape
        return self.table(positions)[None] + tf.cast(input_ids[..., None], tf.float32)


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = PositionalEmbedding()
    _KEEP.append(layer)
    return layer, (tf.constant([[3, 4]]), tf.constant([[1, 1, 1, 0]]))
