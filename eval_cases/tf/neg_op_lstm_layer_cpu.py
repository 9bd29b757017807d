"""Source: https://github.com/keras-team/keras/issues/18456 (near miss: RNN layers fail under XLA on GPU through CudnnRNN; on XLA:CPU the generic LSTM kernel compiles)."""
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.layers.Embedding(20, 8),
    tf.keras.layers.LSTM(6),
    tf.keras.layers.Dense(2),
])


@tf.function(jit_compile=True)
def classify(token_ids):
    return model(token_ids)


# --- oracle ---
def ENTRY():
    return classify, (tf.constant([[1, 4, 5, 2], [3, 3, 7, 0]]),)
