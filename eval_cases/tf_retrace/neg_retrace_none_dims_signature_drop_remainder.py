"""A jit-compiled scorer declared with a None batch dimension, fed `dataset.batch(4,
drop_remainder=True)`: every batch has 4 rows, so the step compiles once whatever the data size.

Near miss for tensorflow/tensorflow#49151 (https://github.com/tensorflow/tensorflow/issues/49151):
the smaller last batch is dropped instead of given to the compiled step.
"""
import tensorflow as tf

head = tf.keras.layers.Dense(1)
head.build((None, 3))


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)], jit_compile=True)
def score(rows):
    return tf.reduce_mean(tf.sigmoid(head(rows)))


def score_dataset(features):
    batches = tf.data.Dataset.from_tensor_slices(features).batch(4, drop_remainder=True)
    return [score(b) for b in batches]


# --- oracle ---
WRAP = False


def ENTRY():
    return score_dataset, (tf.reshape(tf.range(24, dtype=tf.float32), [8, 3]) / 24.0,)


def ALT_ARGS():
    return [(tf.reshape(tf.range(30, dtype=tf.float32), [10, 3]) / 30.0,)]
