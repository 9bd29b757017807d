"""The compiled step takes `len(FEATURES)`: a Python int, but the same on every call.

Near miss for keiohta/tf2rl#99 (https://github.com/keiohta/tf2rl/issues/99): a Python
argument only retraces when its value changes.
"""
import tensorflow as tf

FEATURES = ("age", "height", "weight")


@tf.function(jit_compile=True)
def normalise(x, n_features):
    return tf.reshape(x, [-1, n_features]) / tf.cast(n_features, tf.float32)


def preprocess(batches):
    return [normalise(x, len(FEATURES)) for x in batches]


# --- oracle ---
WRAP = False


def ENTRY():
    return preprocess, ([tf.ones([2, 3]), tf.zeros([2, 3])],)


def ALT_ARGS():
    return [([tf.fill([2, 3], 2.0), tf.ones([2, 3])],)]
