"""A custom loop passing a dict of hyper-parameters whose learning rate decays every step.

Rebuilt from N3PDF/pdfflow#34 (https://github.com/N3PDF/pdfflow/pull/34): keyword/dict
arguments to a tf.function retrace whenever their Python values change.
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def sgd_step(w, x, y, hp):
    with tf.GradientTape() as tape:
        tape.watch(w)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y)) + hp["wd"] * tf.reduce_sum(w * w)
    return w - hp["lr"] * tape.gradient(loss, w)


def train(w, batches):
    lr = 0.1
    for x, y in batches:
        w = sgd_step(w, x, y, {"lr": lr, "wd": 1e-4})  # XLA: retrace
        lr = lr * 0.5
    return w


# --- oracle ---
WRAP = False


def _batches(n):
    return [(tf.constant([[1.0, 2.0], [0.5, -1.0]]), tf.constant([[1.0], [0.0]]))] * n


def ENTRY():
    return train, (tf.constant([[0.5], [-0.5]]), _batches(2))


def ALT_ARGS():
    return [(tf.constant([[0.5], [-0.5]]), _batches(3))]
