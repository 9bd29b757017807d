"""Source: https://github.com/keras-team/keras/issues/17655 (the implicit Keras mask is lost when a layer's call is annotated with tf.function) and xlacheck/data/keras_masking.json (LSTM reads the mask through call(mask=)). A sentence encoder wraps an LSTM in a layer whose call is decorated with tf.function, fed by an Embedding with mask_zero=True: the compiled LSTM runs over the padding."""
import tensorflow as tf


class SentenceEncoder(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.rnn = tf.keras.layers.LSTM(units, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=3),
                                        recurrent_initializer=tf.keras.initializers.Orthogonal(seed=4))

    @tf.function
    def call(self, embedded):
        return self.rnn(embedded)  # XLA: op


embed = tf.keras.layers.Embedding(30, 6, mask_zero=True,
                                  embeddings_initializer=tf.keras.initializers.RandomUniform(-0.5, 0.5, seed=2))
encoder = SentenceEncoder(5)


def encode(token_ids):
    return encoder(embed(token_ids))


# --- oracle ---
def ENTRY():
    return encode, (tf.constant([[4, 9, 2, 0, 0, 0], [7, 1, 0, 0, 0, 0]]),)
