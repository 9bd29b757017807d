"""Source: https://github.com/tensorflow/tensorflow/issues/38561 (near miss: batches padded to one fixed bucket length before the compiled encoder, so every call has the same shape)."""
import tensorflow as tf

BUCKET = 8
encoder = tf.keras.Sequential([tf.keras.layers.Embedding(50, 8), tf.keras.layers.GlobalAveragePooling1D()])


@tf.function(jit_compile=True)
def encode(token_ids):
    return encoder(token_ids)


def pad_to_bucket(batch):
    return tf.keras.preprocessing.sequence.pad_sequences(batch, maxlen=BUCKET, padding="post")


# --- oracle ---
def ENTRY():
    return encode, (tf.constant(pad_to_bucket([[1, 2, 3], [4, 5]])),)


def ALT_ARGS():
    return [(tf.constant(pad_to_bucket([[1, 2, 3, 4, 5], [4]])),), (tf.constant(pad_to_bucket([[7], [8, 9]])),)]
