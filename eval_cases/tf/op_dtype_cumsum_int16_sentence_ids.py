"""Source: https://github.com/tensorflow/tensorflow/issues/60485 ("tf.math.cumsum is not supported for XLA for int8 and int16"). Segment (sentence) ids of a packed sequence: a running count of separator tokens kept in int16."""
import tensorflow as tf

SEP_ID = 3


@tf.function(jit_compile=True)
def segment_ids(token_ids):
    is_sep = tf.equal(token_ids, SEP_ID)
    starts = tf.cast(is_sep, tf.int16)
    seg = tf.cumsum(starts, axis=-1, exclusive=True)  # XLA: op
    return tf.cast(seg, tf.int32)


# --- oracle ---
def ENTRY():
    ids = tf.constant([[11, 12, 3, 21, 22, 3, 31], [41, 3, 51, 52, 53, 3, 0]])
    return segment_ids, (ids,)
