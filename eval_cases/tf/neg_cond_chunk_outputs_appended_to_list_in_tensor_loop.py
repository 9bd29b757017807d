"""Source: https://github.com/tensorflow/tensorflow/issues/105332 (a near miss: the number of chunks is taken from the static batch size, so the loop is a Python loop unrolled at trace time and the appended outputs are ordinary tensors of the one graph; XLA compiles it). Chunked scorer over the rows of a batch."""
import tensorflow as tf


class ChunkedScorer(tf.keras.Model):
    def __init__(self, chunk=2):
        super().__init__()
        self.chunk = chunk
        self.dense = tf.keras.layers.Dense(4, activation="relu")
        self.out = tf.keras.layers.Dense(1)

    @tf.function(jit_compile=True)
    def call(self, inputs):
        num_chunks = inputs.shape[0] // self.chunk
        processed = []
        for i in range(num_chunks):
            chunk = inputs[i * self.chunk:(i + 1) * self.chunk]
            processed.append(self.dense(chunk))
        return self.out(tf.concat(processed, axis=0))


# --- oracle ---
WRAP = False


def ENTRY():
    model = ChunkedScorer()
    x = tf.reshape(tf.range(24, dtype=tf.float32), [6, 4]) / 24.0
    return model, (x,)
