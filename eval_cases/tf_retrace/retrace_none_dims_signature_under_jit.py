"""A jit-compiled encoder with an input_signature whose sequence dimension is None.

Rebuilt from tensorflow/tensorflow#29075 (https://github.com/tensorflow/tensorflow/issues/29075):
"tf.function with input_signature slower on unseen sequence length ... as if new graphs were
compiled internally even though the function does not seem to be retraced". Under jit_compile
the single trace is compiled by XLA once per concrete shape.
"""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)], jit_compile=True)  # XLA: retrace
def encode(x):
    return tf.reduce_sum(tf.tanh(x), axis=1)


# --- oracle ---
WRAP = False


def ENTRY():
    return encode, (tf.ones([2, 3]),)


def ALT_ARGS():
    return [(tf.ones([2, 5]),), (tf.ones([2, 7]),)]
