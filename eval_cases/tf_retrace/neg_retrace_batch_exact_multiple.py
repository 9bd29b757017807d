"""`dataset.batch(4)` over exactly 8 examples: no partial batch, one shape, no drop_remainder needed.

Near miss from the issue-10 audit (tensorflow/models official/projects/nhnet/models_test.py,
judged a false XLA402 finding: batch_size*batches rows batched by batch_size).
"""
import tensorflow as tf

BATCH = 4
N_BATCHES = 2


@tf.function(jit_compile=True)
def batch_loss(x, y):
    return tf.reduce_mean(tf.square(x - y))


def epoch(features, targets):
    ds = tf.data.Dataset.from_tensor_slices((features, targets)).batch(BATCH)
    return [batch_loss(x, y) for x, y in ds]


# --- oracle ---
WRAP = False


def ENTRY():
    n = BATCH * N_BATCHES
    return epoch, (tf.range(n, dtype=tf.float32), tf.ones([n]))


def ALT_ARGS():
    n = BATCH * N_BATCHES
    return [(tf.range(n, dtype=tf.float32) * 2.0, tf.zeros([n]))]
