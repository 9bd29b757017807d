"""Source: https://github.com/tensorflow/tensorflow/issues/57162 (near miss: "JIT compilation failed. [Op:FloorMod]" was a GPU toolchain problem; integer floormod bucketing of ids compiles on XLA:CPU)."""
import tensorflow as tf

NUM_BUCKETS = 8
embed = tf.keras.layers.Embedding(NUM_BUCKETS, 4)


@tf.function(jit_compile=True)
def bucket_embed(item_ids):
    buckets = tf.math.floormod(item_ids * 2654435761, NUM_BUCKETS)
    return tf.reduce_mean(embed(buckets), axis=1)


# --- oracle ---
def ENTRY():
    return bucket_embed, (tf.constant([[1001, 2001], [1050, 7]], dtype=tf.int64),)
