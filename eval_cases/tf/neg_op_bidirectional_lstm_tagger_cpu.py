"""Source: https://github.com/tensorflow/tensorflow/issues/83063 ("[XLA] tf.keras.layers.LSTM behaves differently on GPU": the cuDNN fast path breaks XLA there, while on CPU the LSTM works with or without XLA; a bidirectional LSTM tagger compiled on XLA:CPU matches eager)."""
import tensorflow as tf

tagger = tf.keras.Sequential([
    tf.keras.layers.Embedding(30, 6),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(5, return_sequences=True)),
    tf.keras.layers.Dense(4),
])


@tf.function(jit_compile=True)
def tag(token_ids):
    return tf.argmax(tagger(token_ids), axis=-1)


# --- oracle ---
def ENTRY():
    return tag, (tf.constant([[3, 9, 27, 1, 0], [5, 5, 2, 8, 13]]),)
