"""Source: https://github.com/tensorflow/tensorflow/issues/99385 (GRU/LSTM under jit_compile fail on GPU because Keras picks the CudnnRNNV3 kernel, which has no XLA_GPU_JIT kernel; near miss: on XLA:CPU the same cuDNN-eligible GRU configuration uses the generic loop and compiles)."""
import tensorflow as tf


class Classifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.gru = tf.keras.layers.GRU(8, reset_after=True)
        self.out = tf.keras.layers.Dense(3)

    @tf.function(jit_compile=True)
    def call(self, x):
        return self.out(self.gru(x))


model = Classifier()


def classify(x):
    return model(x)


# --- oracle ---
def ENTRY():
    return classify, (tf.reshape(tf.range(2 * 5 * 4, dtype=tf.float32), [2, 5, 4]) / 40.0,)
