"""Source: https://github.com/huggingface/transformers/issues/9045 (TF BART on TPU: "has dtype float32 in the TRUE branch, but dtype=int32 in the FALSE branch": the branches of a staged tensor `if` must have one dtype; also tensorflow/tensorflow#23053, an `if` with a Python number in the else branch). A mixed-precision ranking head keeps float16 scores when any candidate is valid and falls back to a Python 0 otherwise."""
import tensorflow as tf


@tf.function(jit_compile=True)
def ranked_scores(logits, valid):
    scores = tf.cast(logits, tf.float16)
    if tf.reduce_any(valid):  # XLA: cond
        best = scores
    else:
        best = 0
    return best


# --- oracle ---
def ENTRY():
    return ranked_scores, (tf.constant([0.5, 1.5, -0.25]), tf.constant([True, False, True]))
