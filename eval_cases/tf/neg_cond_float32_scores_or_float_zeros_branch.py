"""Source: https://github.com/huggingface/transformers/issues/9045 (the branches of a staged tensor `if` must have the same dtype: "has dtype float32 in the TRUE branch, but dtype=int32 in the FALSE branch"). The near miss: both branches are float32 (a cast to float32 and tf.zeros, whose default dtype is float32), so the staged tf.cond compiles."""
import tensorflow as tf


@tf.function(jit_compile=True)
def ranked_scores(logits, valid):
    scores = tf.cast(logits, tf.float32)
    if tf.reduce_any(valid):
        best = scores
    else:
        best = tf.zeros([3])
    return best


# --- oracle ---
def ENTRY():
    return ranked_scores, (tf.constant([0.5, 1.5, -0.25]), tf.constant([True, False, True]))
