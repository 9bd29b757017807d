"""A tf.data pipeline with padded_batch(padded_shapes=[None]) feeding a jit-compiled step.

Rebuilt from tensorflow/models official/legacy/transformer/data_pipeline.py (the
non-static_batch branch, judged a true XLA401 finding in the issue-10 audit) and
OpenNMT/OpenNMT-tf#977 (https://github.com/OpenNMT/OpenNMT-tf/pull/977, "pad each batch to the
length bucket boundary ... useful to enable XLA compilation").
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def token_count(ids):
    return tf.reduce_sum(tf.cast(ids > 0, tf.int32), axis=1)


def count_tokens(sequences):
    ds = tf.data.Dataset.from_generator(lambda: iter(sequences), output_signature=tf.TensorSpec([None], tf.int32))
    ds = ds.padded_batch(2, padded_shapes=[None], drop_remainder=True)  # XLA: retrace
    return [token_count(ids) for ids in ds]


# --- oracle ---
WRAP = False


def ENTRY():
    return count_tokens, ([[1, 2, 3], [4, 5], [1], [2, 3]],)


def ALT_ARGS():
    return [([[1, 2, 3, 4, 5], [4, 5], [1, 1, 1, 1], [2, 3, 4, 5, 6, 7]],)]
