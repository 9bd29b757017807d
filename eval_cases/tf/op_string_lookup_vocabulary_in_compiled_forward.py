"""Source: https://github.com/tensorflow/tensorflow/issues/117882 (a StringLookup layer inside a model called from @tf.function(jit_compile=True) fails: string tensors and hash-table lookups cannot be compiled by XLA; here the fruit vocabulary is looked up inside the compiled forward)."""
import tensorflow as tf


class FruitModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.lookup = tf.keras.layers.StringLookup(vocabulary=["apple", "banana", "cherry"], oov_token="[UNK]")
        self.embedding = tf.keras.layers.Embedding(input_dim=8, output_dim=4)
        self.dense = tf.keras.layers.Dense(2)

    def call(self, names, counts):
        ids = self.lookup(names)  # XLA: op
        return self.dense(tf.concat([self.embedding(ids), counts], axis=-1))


model = FruitModel()


@tf.function(jit_compile=True)
def compiled_forward(names, counts):
    return model(names, counts)


# --- oracle ---
def ENTRY():
    return compiled_forward, (tf.constant(["apple", "cherry", "kiwi"]), tf.constant([[1.0], [2.0], [0.5]]))
