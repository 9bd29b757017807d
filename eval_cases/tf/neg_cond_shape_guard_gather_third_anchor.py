"""Source: https://github.com/tensorflow/tensorflow/issues/38539 (near miss: the excluded branch reads with tf.gather, whose index XLA clamps, so tracing both branches compiles)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def third_anchor_or_first(anchors):
    if tf.shape(anchors)[0] > 2:
        chosen = tf.gather(anchors, 2)
    else:
        chosen = anchors[0]
    return chosen * 2.0


# --- oracle ---
def ENTRY():
    return third_anchor_or_first, (tf.constant([[1.0, 2.0], [3.0, 4.0]]),)
