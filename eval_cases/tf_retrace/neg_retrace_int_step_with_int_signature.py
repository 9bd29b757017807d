"""A Python loop counter passed to a step whose input_signature declares a scalar int tensor.

Near miss for keiohta/tf2rl#99 (https://github.com/keiohta/tf2rl/issues/99): with an
input_signature the int is converted to a tensor before tracing, so it traces once.
"""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.int32)], jit_compile=True)
def decayed(x, step):
    return x * tf.pow(0.99, tf.cast(step, tf.float32))


def run(xs):
    return [decayed(x, i) for i, x in enumerate(xs)]


# --- oracle ---
WRAP = False


def ENTRY():
    return run, ([tf.ones([2]), tf.ones([2])],)


def ALT_ARGS():
    return [([tf.ones([2])] * 4,)]
