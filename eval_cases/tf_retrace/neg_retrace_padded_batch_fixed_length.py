"""The same pipeline with padded_shapes=[8] and drop_remainder=True: one batch shape.

Counterpart of OpenNMT/OpenNMT-tf#977 (https://github.com/OpenNMT/OpenNMT-tf/pull/977).
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def token_count(ids):
    return tf.reduce_sum(tf.cast(ids > 0, tf.int32), axis=1)


def count_tokens(sequences):
    ds = tf.data.Dataset.from_generator(lambda: iter(sequences), output_signature=tf.TensorSpec([None], tf.int32))
    ds = ds.padded_batch(2, padded_shapes=[8], drop_remainder=True)
    return [token_count(ids) for ids in ds]


# --- oracle ---
WRAP = False


def ENTRY():
    return count_tokens, ([[1, 2, 3], [4, 5], [1], [2, 3]],)


def ALT_ARGS():
    return [([[1, 2, 3, 4, 5], [4, 5], [1, 1, 1, 1], [2, 3, 4, 5, 6, 7]],)]
