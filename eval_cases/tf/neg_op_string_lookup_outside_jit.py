"""Source: https://github.com/tensorflow/tensorflow/issues/101188 (near miss, the maintainers' fix): StringLookup runs in the input pipeline and the compiled step takes integer ids."""
import tensorflow as tf

VOCAB = ["red", "green", "blue"]
lookup = tf.keras.layers.StringLookup(vocabulary=VOCAB)
embed = tf.keras.layers.Embedding(len(VOCAB) + 1, 4)


def preprocess(colors):
    return lookup(colors)


@tf.function(jit_compile=True)
def forward(ids):
    return tf.reduce_sum(embed(ids), axis=1)


def predict(colors):
    return forward(preprocess(colors))


# --- oracle ---
def ENTRY():
    return forward, (preprocess(tf.constant([["red", "blue"], ["green", "green"]])),)
