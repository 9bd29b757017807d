"""Source: https://github.com/tensorflow/tensorflow/issues/115254 ("`tf.gather` returns a value for an out-of-bounds index under tf.function(jit_compile=True) while eager rejects it": XLA clamps gather indices while the CPU kernel raises; the accompanying fix proposal clamps the indices explicitly). Here a recommender's embedding lookup maps unknown item ids to a reserved last row with `tf.clip_by_value` before `tf.gather`, so eager and the jit-compiled lookup read the same rows."""
import tensorflow as tf

NUM_ITEMS, DIM = 8, 3

table = tf.Variable(tf.reshape(tf.range(NUM_ITEMS * DIM, dtype=tf.float32), [NUM_ITEMS, DIM]) / 24.0)


@tf.function(jit_compile=True)
def score_items(user_vec, item_ids):
    safe_ids = tf.clip_by_value(item_ids, 0, NUM_ITEMS - 1)
    item_vecs = tf.gather(table, safe_ids)
    return tf.reduce_sum(item_vecs * user_vec[:, None, :], axis=-1)


# --- oracle ---
def ENTRY():
    user = tf.constant([[0.5, -0.25, 1.0], [1.0, 0.0, -0.5]])
    ids = tf.constant([[1, 7, 11], [0, 3, 9]])
    return score_items, (user, ids)
