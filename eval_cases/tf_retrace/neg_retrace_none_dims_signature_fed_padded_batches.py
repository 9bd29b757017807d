"""A jit-compiled encoder with a None-dim input_signature that is only ever fed batches padded
to one fixed length: one shape, one compilation.

Near miss for tensorflow/tensorflow#29075 (https://github.com/tensorflow/tensorflow/issues/29075):
None dims cost a compilation per *distinct* shape; when every call has the same shape there is
one.
"""
import tensorflow as tf

MAX_LEN = 8


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)], jit_compile=True)
def encode(x):
    return tf.reduce_sum(tf.tanh(x), axis=1)


def encode_padded(x):
    return encode(tf.pad(x, [[0, 0], [0, MAX_LEN - x.shape[1]]]))


# --- oracle ---
WRAP = False


def ENTRY():
    return encode_padded, (tf.ones([2, 3]),)


def ALT_ARGS():
    return [(tf.ones([2, 5]),), (tf.ones([2, 7]),)]
