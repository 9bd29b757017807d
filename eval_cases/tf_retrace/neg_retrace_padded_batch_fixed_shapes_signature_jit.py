"""Variable-length token sequences padded by `padded_batch` to one declared length, with
`drop_remainder=True`, into a jit-compiled encoder with a None-dim signature: one shape, one compilation.

Near miss for tensorflow/tensorflow#81896 (https://github.com/tensorflow/tensorflow/issues/81896):
the None dims never see a second size because the pipeline fixes both dimensions.
"""
import tensorflow as tf

MAX_LEN = 12
embed = tf.keras.layers.Embedding(50, 8)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)], jit_compile=True)
def encode(ids):
    mask = tf.cast(ids > 0, tf.float32)[:, :, None]
    return tf.reduce_sum(embed(ids) * mask, axis=1) / tf.maximum(tf.reduce_sum(mask, axis=1), 1.0)


def encode_corpus(sequences):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant(sequences))
    ds = ds.map(lambda s: s).padded_batch(2, padded_shapes=[MAX_LEN], drop_remainder=True)
    return [encode(b) for b in ds]


# --- oracle ---
WRAP = False


def ENTRY():
    return encode_corpus, ([[1, 2, 3], [4, 5], [6, 7, 8, 9], [10]],)


def ALT_ARGS():
    return [([[3, 1, 4, 1, 5, 9, 2], [6, 5], [3, 5, 8], [9, 7, 9, 3, 2]],)]
