"""Source: https://github.com/tensorflow/tensorflow/issues/43687 ("XLA Compilation does not work with Embeddings Layer" in TF 2.3, suspected CPU placement of the embedding table; on TF 2.21 XLA:CPU a model with an Embedding layer compiles under jit_compile)."""
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.layers.Embedding(50, 8),
    tf.keras.layers.GlobalAveragePooling1D(),
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(1),
])


@tf.function(jit_compile=True)
def predict(token_ids):
    return model(token_ids)


# --- oracle ---
def ENTRY():
    return predict, (tf.constant([[4, 8, 15, 16], [23, 42, 0, 1]]),)
