"""Source: https://github.com/keras-team/keras/issues/17227 (string preprocessing inside a model compiled with jit_compile=True fails: XLA has no string kernels; here a hashing layer written by hand in a functional model)."""
import tensorflow as tf


class HashTokens(tf.keras.layers.Layer):
    def call(self, tokens):
        ids = tf.strings.to_hash_bucket_fast(tokens, 16)  # XLA: op
        return tf.one_hot(ids, 16)


def build_model():
    tokens = tf.keras.Input(shape=(3,), dtype=tf.string)
    features = tf.keras.layers.GlobalAveragePooling1D()(HashTokens()(tokens))
    score = tf.keras.layers.Dense(1)(features)
    model = tf.keras.Model(tokens, score)
    model.compile(optimizer="adam", loss="mse", jit_compile=True)
    return model


# --- oracle ---
def ENTRY():
    model = build_model()
    return model, (tf.constant([["red", "green", "red"]]),)
