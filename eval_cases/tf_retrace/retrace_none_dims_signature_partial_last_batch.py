"""A jit-compiled scorer declared with a None batch dimension, fed `dataset.batch(4)` without
`drop_remainder`: the signature stops the retrace, but the last, smaller batch still compiles again.

Rebuilt from tensorflow/tensorflow#49151 (https://github.com/tensorflow/tensorflow/issues/49151),
where the advice for a smaller last batch was an `input_signature`, and tensorflow/tensorflow#81896
(https://github.com/tensorflow/tensorflow/issues/81896): under `jit_compile` XLA compiles a None
dimension once per concrete size.
"""
import tensorflow as tf

head = tf.keras.layers.Dense(1)
head.build((None, 3))


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)], jit_compile=True)
def score(rows):
    return tf.reduce_mean(tf.sigmoid(head(rows)))


def score_dataset(features):
    batches = tf.data.Dataset.from_tensor_slices(features).batch(4)  # XLA: retrace
    return [score(b) for b in batches]


# --- oracle ---
WRAP = False


def ENTRY():
    return score_dataset, (tf.reshape(tf.range(24, dtype=tf.float32), [8, 3]) / 24.0,)


def ALT_ARGS():
    return [(tf.reshape(tf.range(30, dtype=tf.float32), [10, 3]) / 30.0,)]
