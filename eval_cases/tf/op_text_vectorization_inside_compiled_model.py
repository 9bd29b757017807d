"""Source: https://github.com/keras-team/keras-io/pull/913 ("Clarify why TextVectorization works on CPU": the layer belongs in the tf.data pipeline; placed inside a model whose forward pass is jit-compiled, its string splitting and vocabulary lookup cannot be compiled by XLA)."""
import tensorflow as tf

vectorize = tf.keras.layers.TextVectorization(max_tokens=20, output_sequence_length=4)
vectorize.adapt(["the food was good", "the service was slow", "good food"])


class ReviewClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.vectorize = vectorize
        self.embed = tf.keras.layers.Embedding(20, 4)
        self.head = tf.keras.layers.Dense(1)

    def call(self, text):
        ids = self.vectorize(text)  # XLA: op
        return self.head(tf.reduce_mean(self.embed(ids), axis=1))


model = ReviewClassifier()


@tf.function(jit_compile=True)
def score(text):
    return model(text)


# --- oracle ---
def ENTRY():
    return score, (tf.constant(["good food", "slow service was slow"]),)
