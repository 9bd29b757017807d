"""`bucket_by_sequence_length(..., pad_to_bucket_boundary=True, drop_remainder=True)` before a
jit-compiled encoder with a None-dim signature: one shape per bucket, compiled once each, and a
later epoch over data of the same buckets compiles nothing new.

Near miss for tensorflow/tensorflow#81896 (https://github.com/tensorflow/tensorflow/issues/81896):
bucketing is the fix the XLA documentation gives for dynamic lengths (a handful of shapes).
"""
import tensorflow as tf

embed = tf.keras.layers.Embedding(50, 8)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)], jit_compile=True)
def encode(ids):
    mask = tf.cast(ids > 0, tf.float32)[:, :, None]
    return tf.reduce_sum(embed(ids) * mask, axis=1) / tf.maximum(tf.reduce_sum(mask, axis=1), 1.0)


def encode_corpus(sequences):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant(sequences)).map(lambda s: s)
    ds = ds.bucket_by_sequence_length(lambda s: tf.shape(s)[0], bucket_boundaries=[5, 9],
                                      bucket_batch_sizes=[2, 2, 2], pad_to_bucket_boundary=True,
                                      drop_remainder=True)
    return [encode(b) for b in ds]


# --- oracle ---
WRAP = False


def ENTRY():
    return encode_corpus, ([[1, 2, 3], [4, 5], [6, 7, 8, 9, 1, 2], [10, 11, 12, 13, 14, 15, 16]],)


def ALT_ARGS():
    return [([[3, 1], [6, 5, 4, 3], [3, 5, 8, 9, 7, 9], [9, 7, 9, 3, 2, 3, 8, 4]],)]
