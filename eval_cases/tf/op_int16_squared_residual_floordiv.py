"""Source: https://github.com/tensorflow/tensorflow/issues/118178 (XLA treats an integer square as non-negative and folds sign tests of it) and xlacheck/data/tf_xla_divergence.json (int_overflow, form floordiv_of_square: the same assumption turns a floor division of the square by a positive constant into a shift). A fixed-point (int16) quantized regression head halves the squared residual."""
import tensorflow as tf


@tf.function(jit_compile=True)
def half_squared_residual(pred_q, target_q):
    diff = tf.cast(pred_q, tf.int16) - tf.cast(target_q, tf.int16)
    return (diff * diff) // 2  # XLA: op


# --- oracle ---
def ENTRY():
    return half_squared_residual, (tf.constant([300, 10, -250], dtype=tf.int32), tf.constant([0, 4, 0], dtype=tf.int32))
