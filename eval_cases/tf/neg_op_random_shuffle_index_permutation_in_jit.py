"""Source: https://github.com/tensorflow/tensorflow/issues/110219 (near miss: the 1-D shuffle fails for floats only; an int32 index permutation then a gather compiles and runs)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def shuffled_rows(batch):
    order = tf.random.shuffle(tf.range(tf.shape(batch)[0]), seed=7)
    return tf.gather(batch, order)


# --- oracle ---
COMPARE = False


def ENTRY():
    return shuffled_rows, (tf.reshape(tf.range(12, dtype=tf.float32), [6, 2]),)
