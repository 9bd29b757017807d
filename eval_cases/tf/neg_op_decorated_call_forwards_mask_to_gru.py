"""Source: https://github.com/keras-team/keras/issues/17655 (the implicit Keras mask is lost in a tf.function-decorated call; the documented way round it is to take the mask Keras passes into call and forward it). The near miss: the decorated call takes mask=None and hands it to its GRU explicitly."""
import tensorflow as tf


class TokenSummarizer(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.rnn = tf.keras.layers.GRU(units, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=3),
                                       recurrent_initializer=tf.keras.initializers.Orthogonal(seed=4))

    @tf.function
    def call(self, embedded, mask=None):
        return self.rnn(embedded, mask=mask)


embed = tf.keras.layers.Embedding(30, 6, mask_zero=True,
                                  embeddings_initializer=tf.keras.initializers.RandomUniform(-0.5, 0.5, seed=2))
summarizer = TokenSummarizer(5)


def summarize(token_ids):
    return summarizer(embed(token_ids))


# --- oracle ---
def ENTRY():
    return summarize, (tf.constant([[4, 9, 2, 0, 0, 0], [7, 1, 0, 0, 0, 0]]),)
