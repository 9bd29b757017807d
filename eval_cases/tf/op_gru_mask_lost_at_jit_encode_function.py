"""Source: https://github.com/keras-team/keras/issues/17655 (the implicit Keras mask does not cross a tf.function boundary) and xlacheck/data/keras_masking.json (GRU reads the mask through call(mask=)). A module-level jit-compiled encoder function runs a shared GRU on embeddings that its caller computed with Embedding(mask_zero=True): inside the compiled function the GRU runs over the padding."""
import tensorflow as tf


embed = tf.keras.layers.Embedding(40, 6, mask_zero=True,
                                  embeddings_initializer=tf.keras.initializers.RandomUniform(-0.5, 0.5, seed=7))
rnn = tf.keras.layers.GRU(4, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=8),
                          recurrent_initializer=tf.keras.initializers.Orthogonal(seed=9))


@tf.function(jit_compile=True)
def encode_states(embedded):
    return rnn(embedded)  # XLA: op


def sentence_vectors(token_ids):
    return encode_states(embed(token_ids))


# --- oracle ---
def ENTRY():
    return sentence_vectors, (tf.constant([[5, 11, 3, 0, 0], [8, 0, 0, 0, 0]]),)
