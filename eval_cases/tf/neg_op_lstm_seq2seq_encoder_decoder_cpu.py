"""Source: https://github.com/keras-team/keras-core/issues/322 (the lstm_seq2seq example failed with jit_compile on GPU because cuDNN LSTM kernels cannot be compiled by XLA; on XLA:CPU the encoder-decoder LSTM with returned states compiles)."""
import tensorflow as tf

enc_in = tf.keras.Input((5, 6))
dec_in = tf.keras.Input((4, 7))
_, h, c = tf.keras.layers.LSTM(8, return_state=True)(enc_in)
dec_seq = tf.keras.layers.LSTM(8, return_sequences=True)(dec_in, initial_state=[h, c])
outputs = tf.keras.layers.Dense(7, activation="softmax")(dec_seq)
seq2seq = tf.keras.Model([enc_in, dec_in], outputs)


@tf.function(jit_compile=True)
def translate_step(encoder_input, decoder_input):
    return seq2seq([encoder_input, decoder_input])


# --- oracle ---
def ENTRY():
    enc = tf.one_hot(tf.constant([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]), 6)
    dec = tf.one_hot(tf.constant([[0, 1, 2, 3], [0, 3, 2, 1]]), 7)
    return translate_step, (enc, dec)
