"""Source: https://github.com/keras-team/keras/issues/17655 ("MultiHeadAttention quietly ignores masking when annotated with tf.function": the implicit Keras mask from Embedding(mask_zero=True) rides on the eager tensor but is lost when the layer call is traced, so the compiled attention attends to padding)."""
import tensorflow as tf


class ApplyMHA(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__()
        self.mha = tf.keras.layers.MultiHeadAttention(**kwargs)

    @tf.function
    def call(self, x):
        return self.mha(query=x, key=x, value=x)  # XLA: op


embedding = tf.keras.layers.Embedding(input_dim=20, output_dim=4, mask_zero=True,
                                      embeddings_initializer=tf.keras.initializers.RandomUniform(-0.5, 0.5, seed=1))
attention = ApplyMHA(num_heads=2, key_dim=2)


def encode(token_ids):
    return attention(embedding(token_ids))


# --- oracle ---
def ENTRY():
    return encode, (tf.constant([[1, 2, 0, 0], [2, 3, 1, 0]]),)
