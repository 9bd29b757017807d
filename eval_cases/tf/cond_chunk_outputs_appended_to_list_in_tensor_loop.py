"""Source: https://github.com/tensorflow/tensorflow/issues/105332 (a model's jit-compiled `call` splits its input into chunks with `for i in tf.range(num_batches)` and appends each chunk's output to a Python list that it concatenates after the loop: AutoGraph turns the loop into a `tf.while_loop`, and the tensors appended inside it are inaccessible outside, "InaccessibleTensorError"). Here a chunked scorer over the rows of a batch."""
import tensorflow as tf


class ChunkedScorer(tf.keras.Model):
    def __init__(self, chunk=2):
        super().__init__()
        self.chunk = chunk
        self.dense = tf.keras.layers.Dense(4, activation="relu")
        self.out = tf.keras.layers.Dense(1)

    @tf.function(jit_compile=True)
    def call(self, inputs):
        num_chunks = tf.shape(inputs)[0] // self.chunk
        processed = []
        for i in tf.range(num_chunks):
            chunk = inputs[i * self.chunk:(i + 1) * self.chunk]
            processed.append(self.dense(chunk))  # XLA: cond
        return self.out(tf.concat(processed, axis=0))


# --- oracle ---
WRAP = False


def ENTRY():
    model = ChunkedScorer()
    x = tf.reshape(tf.range(24, dtype=tf.float32), [6, 4]) / 24.0
    return model, (x,)
