"""Source: https://github.com/tensorflow/tensorflow/issues/111835 ("XLA Compilation Fails with GRU Layer When Input Batch Size is Zero": a Dense-SimpleRNN-GRU model runs eagerly on an empty batch but fails to compile under jit_compile)."""
import tensorflow as tf


class SequenceModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense1 = tf.keras.layers.Dense(8, activation="relu")
        self.rnn1 = tf.keras.layers.SimpleRNN(6, return_sequences=True)
        self.gru1 = tf.keras.layers.GRU(4)
        self.dense2 = tf.keras.layers.Dense(2, activation="tanh")

    def call(self, x):
        return self.dense2(self.gru1(self.rnn1(self.dense1(x))))  # XLA: shape


model = SequenceModel()


@tf.function(jit_compile=True)
def predict(x):
    return model(x)


# --- oracle ---
def ENTRY():
    return predict, (tf.zeros([0, 5, 3]),)
