"""A jit-compiled step with reduce_retracing=True fed batches of varying length.

Rebuilt from tensorflow/tensorflow#34025 (https://github.com/tensorflow/tensorflow/issues/34025),
where `experimental_relax_shapes=True` (now `reduce_retracing`) was the suggested cure for
variable-length inputs: it saves traces, but XLA still compiles one program per shape.
"""
import tensorflow as tf


@tf.function(jit_compile=True, reduce_retracing=True)  # XLA: retrace
def pooled(x):
    return tf.reduce_max(x, axis=1) - tf.reduce_min(x, axis=1)


def run(batches):
    return [pooled(x) for x in batches]


# --- oracle ---
WRAP = False


def ENTRY():
    return run, ([tf.ones([2, 3])],)


def ALT_ARGS():
    return [([tf.ones([2, 4])],), ([tf.ones([2, 6]), tf.ones([2, 9])],)]
