"""Source: https://github.com/keras-team/keras/issues/17655 (the implicit Keras mask is lost at a tf.function boundary). The near miss: the Embedding that attaches the mask runs inside the same decorated call as the LSTM that reads it, so Keras attaches the mask to the traced tensor and it is kept."""
import tensorflow as tf


class TextEncoder(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(30, 6, mask_zero=True,
                                               embeddings_initializer=tf.keras.initializers.RandomUniform(-0.5, 0.5, seed=2))
        self.rnn = tf.keras.layers.LSTM(5, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=3),
                                        recurrent_initializer=tf.keras.initializers.Orthogonal(seed=4))

    @tf.function
    def call(self, token_ids):
        x = self.embed(token_ids)
        return self.rnn(x)


encoder = TextEncoder()


def encode(token_ids):
    return encoder(token_ids)


# --- oracle ---
def ENTRY():
    return encode, (tf.constant([[4, 9, 2, 0, 0, 0], [7, 1, 0, 0, 0, 0]]),)
