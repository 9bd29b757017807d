"""Source: https://github.com/keras-team/tf-keras/issues/56 (the workaround for MultiHeadAttention losing the implicit mask under tf.function: build the padding mask from the token ids and pass it as attention_mask, which survives tracing and compiles)."""
import tensorflow as tf


class ApplyMHA(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__()
        self.mha = tf.keras.layers.MultiHeadAttention(**kwargs)

    @tf.function
    def call(self, x, token_ids):
        valid = tf.not_equal(token_ids, 0)
        mask = tf.logical_and(valid[:, :, None], valid[:, None, :])
        return self.mha(query=x, key=x, value=x, attention_mask=mask)


embedding = tf.keras.layers.Embedding(input_dim=20, output_dim=4,
                                      embeddings_initializer=tf.keras.initializers.RandomUniform(-0.5, 0.5, seed=1))
attention = ApplyMHA(num_heads=2, key_dim=2)


def encode(token_ids):
    return attention(embedding(token_ids), token_ids)


# --- oracle ---
def ENTRY():
    return encode, (tf.constant([[1, 2, 0, 0], [2, 3, 1, 0]]),)
