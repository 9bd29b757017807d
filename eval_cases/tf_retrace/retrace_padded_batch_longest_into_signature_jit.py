"""`padded_batch` without `padded_shapes` pads each batch to its longest sequence; a None-dim
signature on the jit-compiled encoder traces once, but XLA compiles every new longest length.

Rebuilt from tensorflow/tensorflow#81896 (https://github.com/tensorflow/tensorflow/issues/81896):
a jit_compile function whose signature has None dims recompiles when the size changes.
"""
import tensorflow as tf

embed = tf.keras.layers.Embedding(50, 8)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)], jit_compile=True)
def encode(ids):
    mask = tf.cast(ids > 0, tf.float32)[:, :, None]
    return tf.reduce_sum(embed(ids) * mask, axis=1) / tf.maximum(tf.reduce_sum(mask, axis=1), 1.0)


def encode_corpus(sequences):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant(sequences))
    ds = ds.map(lambda s: s).padded_batch(2, drop_remainder=True)  # XLA: retrace
    return [encode(b) for b in ds]


# --- oracle ---
WRAP = False


def ENTRY():
    return encode_corpus, ([[1, 2, 3], [4, 5], [6, 7, 8, 9], [10]],)


def ALT_ARGS():
    return [([[3, 1, 4, 1, 5, 9, 2], [6, 5], [3, 5, 8], [9, 7, 9, 3, 2, 3]],)]
