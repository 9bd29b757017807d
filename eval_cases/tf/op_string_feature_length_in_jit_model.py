"""Source: https://github.com/tensorflow/tensorflow/issues/66074 ("Is it possible to use jit_compile=True when input is a string?": no, XLA only handles numeric tensors; here a model computes a text-length feature from the raw string input inside the compiled call)."""
import tensorflow as tf


class ReviewScorer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, text, ratings):
        length = tf.cast(tf.strings.length(text), tf.float32)[:, None] / 100.0  # XLA: op
        return self.dense(tf.concat([length, ratings], axis=-1))


model = ReviewScorer()


@tf.function(jit_compile=True)
def score(text, ratings):
    return model(text, ratings)


# --- oracle ---
def ENTRY():
    return score, (tf.constant(["great product", "broke after a day"]), tf.constant([[5.0], [1.0]]))
