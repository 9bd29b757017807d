"""A loop passes the same Python literal to the compiled step on every call: one trace.

Near miss for N3PDF/pdfflow#34 (https://github.com/N3PDF/pdfflow/pull/34).
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def smooth(x, alpha):
    return alpha * x + (1.0 - alpha) * tf.reduce_mean(x)


def run(xs):
    return [smooth(x, 0.9) for x in xs]


# --- oracle ---
WRAP = False


def ENTRY():
    return run, ([tf.constant([1.0, 3.0]), tf.constant([2.0, 2.0])],)


def ALT_ARGS():
    return [([tf.constant([0.0, 4.0])] * 3,)]
