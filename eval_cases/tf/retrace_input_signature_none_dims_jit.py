"""Source: https://github.com/tensorflow/tensorflow/issues/38561 (unwanted retracing with variable-length inputs; the usual cure, an input_signature with None dims, still compiles XLA once per length under jit_compile)."""
import tensorflow as tf

encoder = tf.keras.Sequential([tf.keras.layers.Embedding(50, 8), tf.keras.layers.GlobalAveragePooling1D()])


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)], jit_compile=True)  # XLA: retrace
def encode(token_ids):
    return encoder(token_ids)


# --- oracle ---
def ENTRY():
    return encode, (tf.constant([[1, 2, 3, 0], [4, 5, 0, 0]]),)


def ALT_ARGS():
    return [(tf.constant([[1, 2, 3, 4, 5], [4, 5, 0, 0, 0]]),), (tf.constant([[1, 2], [4, 5]]),)]
