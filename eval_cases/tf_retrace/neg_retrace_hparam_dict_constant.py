"""The same loop with a dict of hyper-parameters that never changes: traced once.

Near miss for N3PDF/pdfflow#34 (https://github.com/N3PDF/pdfflow/pull/34): "as long as the
arguments which with the function are called are always the same, it should not retrace".
"""
import tensorflow as tf

HPARAMS = {"lr": 0.1, "wd": 1e-4}


@tf.function(jit_compile=True)
def sgd_step(w, x, y, hp):
    with tf.GradientTape() as tape:
        tape.watch(w)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y)) + hp["wd"] * tf.reduce_sum(w * w)
    return w - hp["lr"] * tape.gradient(loss, w)


def train(w, batches):
    for x, y in batches:
        w = sgd_step(w, x, y, HPARAMS)
    return w


# --- oracle ---
WRAP = False


def _batches(n):
    return [(tf.constant([[1.0, 2.0], [0.5, -1.0]]), tf.constant([[1.0], [0.0]]))] * n


def ENTRY():
    return train, (tf.constant([[0.5], [-0.5]]), _batches(2))


def ALT_ARGS():
    return [(tf.constant([[0.5], [-0.5]]), _batches(3))]
